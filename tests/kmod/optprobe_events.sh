# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check: kprobe_events lines written to
# /dev/optprobe_events become trace events under tracefs.  With a workload
# of a known number of calls (dd reading 7 bytes, 5 times), the trace
# shows exactly that many lines, with the fields the kernel's kprobe
# event would have, and a hist trigger counts exactly that many.  Bad
# lines fail the whole write with the API's errno, leave nothing
# registered, and are logged with a caret under the token at fault.
# Prints its own KTAP block.
T=/sys/kernel/tracing
E=/dev/optprobe_events
G=$T/events/optprobes
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
PLAN=37
echo "KTAP version 1"
echo "1..$PLAN"
mount -t tracefs nodev $T 2>/dev/null
# Comm recording held from here on: an event's first enable and last
# disable would each start or stop it, rewriting the sched_switch static
# call in __schedule() that every CPU runs, and multi-threaded TCG can
# livelock on a stale translation of that (doc/testing.md).  Held by a
# kernel event filtered to record nothing, left enabled.
echo 'pid < 0' > $T/events/sched/sched_process_free/filter
echo 1 > $T/events/sched/sched_process_free/enable
# write_err LINE: the error text the shell shows when writing LINE fails
write_err() { echo "$1" >> $E 2>/tmp/ev.err && echo none || sed 's/.*write error: //' /tmp/ev.err; }
listing() { [ "$(cat $E)" = "$1" ]; }
# all_lines PATTERN END: 5 lines match PATTERN, and each ends with END
all_lines() {
	[ "$(grep -c "$1" $T/trace)" = 5 ] && [ "$(grep "$1" $T/trace | grep -c "$2")" = 5 ]
}

define() { echo "$1" > $E; }
check defined define 'p:ev_read vfs_read count=$arg3:u64 comm=$comm
r:ev_ret vfs_read ret=$retval:s64'
check listed listing 'p:optprobes/ev_read vfs_read count=$arg3:u64 comm=$comm
r:optprobes/ev_ret vfs_read ret=$retval:s64'
check format_fields grep -q 'field:u64 count;	offset:16;	size:8;	signed:0;' $G/ev_read/format
check format_string grep -q 'field:__data_loc char\[\] comm;	offset:24;	size:4;	signed:1;' \
	$G/ev_read/format
FMT='print fmt: "(%lx) count=%Lu comm=\"%s\"", REC->__probe_ip, REC->count, __get_str(comm)'
check print_fmt grep -qF "$FMT" $G/ev_read/format
echo 'hist:keys=count if comm == "dd"' > $G/ev_read/trigger
echo > $T/trace
echo 1 > $G/ev_read/enable
echo 1 > $G/ev_ret/enable
dd if=/dev/zero of=/dev/null bs=7 count=5 2>/dev/null
echo 0 > $G/ev_read/enable
echo 0 > $G/ev_ret/enable
grep -m3 'dd-' $T/trace | sed 's/^/# /'
check trace_entry_lines all_lines 'dd-.*ev_read: (vfs_read+0x[0-9a-f]*/0x[0-9a-f]*) count=7 ' \
	'comm="dd"$'
check trace_return_lines all_lines 'dd-.*ev_ret: (.* <- vfs_read) ret=7$' 'ret=7$'
check hist_counts grep -q '{ count:          7 } hitcount:          5' $G/ev_read/hist
check profile_counts awk '$1 == "ev_read" && $2 >= 5 { ok = 1 } END { exit !ok }' \
	/dev/optprobe_profile
echo '!hist:keys=count if comm == "dd"' > $G/ev_read/trigger
# the last user gone, the probes are disarmed a moment later, together
disarmed() {
	local i
	for i in 1 2 3 4 5; do
		[ "$(awk '$4 == "disabled"' /dev/optprobe_profile | wc -l)" = 2 ] && return 0
		sleep 1
	done
	return 1
}
check disabled_events_disarmed disarmed

check unknown_symbol_enoent [ "$(write_err 'p:bad1 no_such_symbol_xyz')" = \
	"No such file or directory" ]
check not_a_boundary_eilseq [ "$(write_err 'p:bad2 vfs_read+1')" = \
	"Invalid or incomplete multibyte or wide character" ]
check bad_register_einval [ "$(write_err 'p:bad3 vfs_read %zz')" = "Invalid argument" ]
check error_log_caret grep -A1 -q '^  Command: p:bad3 vfs_read %zz$' /dev/optprobe_error_log
check error_log_column sh -c "grep -A1 'Command: p:bad3' /dev/optprobe_error_log | tail -1 | \
	grep -qx '                           ^'"
# all or nothing: the good lines before the bad one go too
write_err 'p:good1 vfs_read
p:good2 vfs_write
p:bad4 vfs_read %zz' > /dev/null
check batch_all_or_nothing listing 'p:optprobes/ev_read vfs_read count=$arg3:u64 comm=$comm
r:optprobes/ev_ret vfs_read ret=$retval:s64'
# bad_lines: each of 33 bad writes fails, logs its line, leaves nothing new
bad_lines() {
	local before failed=0 line
	before=$(cat $E)
	while IFS= read -r line; do
		line=$(printf '%b' "$line")
		if [ "$(write_err "$line")" = none ]; then
			echo "# accepted: $line"
			failed=1
		elif ! grep -qxF "  Command: ${line##*
}" /dev/optprobe_error_log; then
			echo "# not in the error log: $line"
			failed=1
		fi
	done <<-'EOF'
	p:b1 no_such_symbol_xyz
	p:b2 vfs_read+1
	p:b3 vfs_read %zz
	q:b4 vfs_read
	p:b5
	p:b6 vfs_read $stackx
	p:b7 vfs_read $argx
	p:b8 vfs_read $retval
	p:b9 vfs_read+4 $arg1
	p:b10 vfs_read x=$stack0:u128
	p:b11 vfs_read x=$stack0:b40@2/32
	p:b12 vfs_read x=+0($stack0):u8[0]
	p:b13 vfs_read x=+0($stack0):u8[65]
	p:b14 vfs_read x=+0($stack0):u8[4
	p:b15 vfs_read x=+8($stack0
	p:b16 vfs_read x=+z8($stack0)
	p:b17 vfs_read x=\\"abc
	p:b18 vfs_read x=\\zz
	p:b19 vfs_read x=$comm x=$stack0
	p:b20 vfs_read 1x=$comm
	p:b21 vfs_read x=
	p:b22 vfs_read x=+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0($stack0)))))))))))))))
	p:b24 vfs_read x=@:x8
	p:/b25 vfs_read
	p:b27-x! vfs_read
	p:b28_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa vfs_read
	r9999:b29 vfs_read
	r:b30 vfs_read+8
	p:b31 vfs_read x=$comm:x8[2]
	p:sched/sched_switch vfs_read
	p:b33 vfs_read\np:b33 vfs_write
	-:b34_no_such_event
	p:b35 vfs_read\np:b35b vfs_read %zz
	EOF
	[ $failed = 0 ] && [ "$(cat $E)" = "$before" ]
}
check bad_lines_refused bad_lines
args=$(awk 'BEGIN { for (i = 1; i <= 129; i++) printf " a%d=$stack0", i }')
check too_many_args_einval [ "$(write_err "p:b23 vfs_read$args")" = "Invalid argument" ]
check same_name_elsewhere_eexist [ "$(write_err 'p:sched/sched_switch vfs_read')" = "File exists" ]
# 10,000 lines in one write, the 5,000th bad: nothing of it stays
awk 'BEGIN { for (i = 1; i <= 10000; i++)
	print (i == 5000 ? "p:big_bad vfs_read %zz" : "p:big_" i " vfs_read") }' > /tmp/big.txt
big_refused() {
	! dd if=/tmp/big.txt of=$E bs=16M conv=notrunc 2> /dev/null &&
	grep -qxF '  Command: p:big_bad vfs_read %zz' /dev/optprobe_error_log && ! grep -q big_ $E
}
check big_write_one_bad_line_refused big_refused
# 1,000 good lines in one write: all there, then all gone in one truncation
awk 'BEGIN { for (i = 1; i <= 1000; i++) print "p:many_" i " vfs_read" }' > /tmp/many.txt
many() {
	dd if=/tmp/many.txt of=$E bs=16M conv=notrunc 2> /dev/null &&
	[ "$(grep -c many_ $E)" = 1000 ]
}
check thousand_in_one_write many
awk 'BEGIN { for (i = 1; i <= 1000; i++) print "-:many_" i }' > /tmp/unmany.txt
unmany() { dd if=/tmp/unmany.txt of=$E bs=16M conv=notrunc 2> /dev/null && ! grep -q many_ $E; }
check thousand_removed_in_one_write unmany
# a name removed and defined again in one write
redefine() {
	echo '-:ev_ret
r:ev_ret vfs_read ret=$retval:s32' >> $E &&
	grep -qx 'r:optprobes/ev_ret vfs_read ret=$retval:s32' $E
}
check redefined_in_one_write redefine
# defined and removed in one write: nothing left, optprobe held as before
define_remove() {
	local refs
	refs=$(cat /sys/module/optprobe/refcnt)
	printf 'p:ev_tmp vfs_read\n-:ev_tmp\n' >> $E && ! grep -q ev_tmp $E &&
	[ "$(cat /sys/module/optprobe/refcnt)" = "$refs" ]
}
check defined_and_removed_in_one_write define_remove
# a group of the user's: removed and defined again in one write
regroup() {
	echo 'p:mygrp/ev_g vfs_read' >> $E &&
	printf -- '-:mygrp/ev_g\np:mygrp/ev_g vfs_write\n' >> $E &&
	grep -qx 'p:mygrp/ev_g vfs_write' $E && echo '-:mygrp/ev_g' >> $E && ! grep -q ev_g $E
}
check redefined_in_a_group_of_its_own regroup
echo 1 > $G/ev_read/enable
# busy removal: the whole write fails, its new event too
busy_write() {
	[ "$(write_err 'p:ev_new vfs_write
-:ev_read')" = "Device or resource busy" ] && ! grep -q ev_new $E
}
check remove_enabled_ebusy_keeps_all busy_write
check remove_enabled_ebusy [ "$(write_err '-:ev_read')" = "Device or resource busy" ]
echo 0 > $G/ev_read/enable

# A module's events defined while it is not loaded wait for it (as the
# kernel's do), armed, with their fields, when it comes; its unload makes
# them wait again, for the next load.  Writing N to the module's "call"
# calls optprobe_target_events_fn(N), which returns 3N + 1.
M=optprobe_target_events
call() { for x in "$@"; do echo "$x" > /sys/module/$M/parameters/call; done; }
# mod_lines X RET: the trace shows the module's entry with x=X, its return with RET
mod_lines() {
	grep -q "ev_mod: (optprobe_target_events_fn+[^)]*) x=$1\$" $T/trace &&
	grep -q "ev_modret: (.* <- optprobe_target_events_fn[^)]*) ret=$2\$" $T/trace
}
pending() { awk -v e="$1" '$1 == e && $4 == "pending" { ok = 1 } END { exit !ok }' \
	/dev/optprobe_profile; }
rmmod $M
check module_pending_defined define "p:ev_mod $M:optprobe_target_events_fn x=\$arg1:s64
r:ev_modret $M:optprobe_target_events_fn ret=\$retval:s64"
check module_pending_in_profile pending ev_mod
echo 1 > $G/ev_mod/enable
echo 1 > $G/ev_modret/enable
echo > $T/trace
insmod ./$M.ko
call 1 2 3
grep -m2 'ev_mod' $T/trace | sed 's/^/# /'
check module_armed_on_load [ "$(grep -c 'ev_mod: ' $T/trace)" = 3 ]
check module_fields_on_load mod_lines 3 10
check module_unknown_symbol_enoent [ "$(write_err "p:bad_mod $M:no_such_fn_xyz")" = \
	"No such file or directory" ]
rmmod $M
check module_pending_after_unload pending ev_mod
echo > $T/trace
# call=4 on insmod calls it as the module loads, after MODULE_STATE_COMING
# and before its init: armed by then, as the kernel's events are
insmod ./$M.ko call=4
call 5
check module_armed_on_reload [ "$(grep -c 'ev_mod: ' $T/trace)" = 2 ]
check module_armed_as_it_comes mod_lines 4 13
check module_fields_on_reload mod_lines 5 16
echo 0 > $G/ev_mod/enable
echo 0 > $G/ev_modret/enable
echo > $E
gone() { [ -z "$(cat $E)" ] && [ ! -d $G ]; }
check truncate_removes_all gone
