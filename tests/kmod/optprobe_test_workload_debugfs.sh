# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check, after optprobe_test_workload.sh, while
# optprobe_test_workload.ko's probes on vfs_read() (entry: ftrace, inside:
# trap, as OPTPROBE_F_NOOPT asks) are registered:
# /sys/kernel/debug/optprobe/{list,breakpoints,enabled,optimize}, and the
# same switches as module parameters (core/switches.c): each set through
# one is read back through the other.  Prints its own KTAP block.
d=/sys/kernel/debug/optprobe
p=/sys/module/optprobe/parameters
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
# hits MODE: the hit count of the vfs_read probe listed in that mode
hits() { awk -v m="$1" '$2 ~ /^vfs_read\+/ && $3 == m { print $4 }' $d/list; }
mode_of() { awk -v w="$1" '$2 ~ "^vfs_read\\+" w "/" { print $3 }' $d/list; }
reads() { dd if=/dev/zero of=/dev/null bs=1 count="$1" 2>/dev/null; }

echo "KTAP version 1"
echo "1..14"
# the ftrace site: at the entry, after an IBT ENDBR64 (x86 6.12), or after
# the global entry (ppc64le)
check list_shows_entry_probe_in_ftrace_mode test "$(mode_of 0x0)$(mode_of 0x4)$(mode_of 0xc)" = ftrace
inside=$(awk '$2 ~ /^vfs_read\+/ && $3 == "trap" { print $2 }' $d/list)
check list_shows_inside_probe_in_trap_mode test -n "$inside"
h0=$(hits ftrace) t0=$(hits trap)
reads 20
h1=$(hits ftrace) t1=$(hits trap)
check list_counts_entry_hits test "$h1" -ge $((h0 + 20))
check list_counts_inside_hits test "$t1" -ge $((t0 + 20))
# The trap probe's hits, and nothing else, take breakpoints: one each, or
# two where the instruction runs out of line with a trap after it.  The
# breakpoint count's window holds the hits' one and the reads of the
# files between them (a few vfs_read() calls each, at most 24 in all).
b0=$(cat $d/breakpoints) t0=$(hits trap)
reads 200
t1=$(hits trap) b1=$(cat $d/breakpoints)
bp=$((b1 - b0)) th=$((t1 - t0))
per_hit() { test "$th" -ge 200 -a "$bp" -ge $(($1 * th)) -a "$bp" -le $(($1 * (th + 24))); }
check "breakpoints_one_or_two_per_trap_hit # $bp traps, $th hits" eval 'per_hit 1 || per_hit 2'

echo 0 > $p/enabled
check enabled_param_reads_back_0 test "$(cat $d/enabled)$(cat $p/enabled)" = 00
check disabled_probes_listed_disabled test "$(awk '$2 ~ /^vfs_read\+/ && $3 == "disabled"' $d/list | wc -l)" = 2
h2=$(awk '$2 ~ /^vfs_read\+/ { s += $4 } END { print s }' $d/list)
reads 20
h3=$(awk '$2 ~ /^vfs_read\+/ { s += $4 } END { print s }' $d/list)
check disabled_probes_do_not_fire test "$h3" = "$h2"

echo 1 > $d/enabled
check enabled_reads_back_1 test "$(cat $d/enabled)$(cat $p/enabled)" = 11
h4=$(hits ftrace)
reads 20
check reenabled_probes_fire test "$(hits ftrace)" -ge $((h4 + 20))

echo 0 > $p/optimize
check optimize_param_reads_back_0 test "$(cat $d/optimize)$(cat $p/optimize)" = 00
check optimize_switch_off_is_the_reason grep -q "^[^ ]* ${inside} trap .*optimization switched off" $d/list
echo 1 > $d/optimize
check optimize_reads_back_1 test "$(cat $d/optimize)$(cat $p/optimize)" = 11
check optimize_switch_on_restores_reason grep -q "^[^ ]* ${inside} trap .*OPTPROBE_F_NOOPT" $d/list
