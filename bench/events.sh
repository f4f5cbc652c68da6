# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by scripts/bench, after optprobe_bench.ko's rows: the
# trace events' rows, optprobe's (/dev/optprobe_events) against the
# kernel's kprobe events, defined from the shell as users define them.
# Prints "optprobe_bench: events ..." lines, which scripts/bench-render
# reads, and a KTAP block of its own.
#
#   kind=scale  the scale rows' kernel-text sites (bench/events.c), one
#               p: line each, written in one write, then every event
#               enabled, then waited for until the optimizer is done
#               (written_ns, enabled_ns, optimized_ns from the write's
#               start); then every event disabled and removed, waited for
#               likewise (removed_ns).  Only where the module ran the
#               kernel-text scale rows (not the smoke run, nor the icount
#               boot).
#   kind=hit    gcd() timed as the hit rows time it (bench/events.c,
#               hit_ns): with no event, with the kernel's event on the
#               instruction after its ftrace site, and with optprobe's,
#               each with two register arguments (ns of the median loop;
#               in the icount boot, instructions).
#
# Times come from /proc/timer_list ("now at N nsecs"): busybox's date has
# no nanoseconds.
B=/sys/kernel/debug/optprobe_bench
T=/sys/kernel/tracing
E=/dev/optprobe_events
mount -t tracefs nodev $T 2> /dev/null
# comm recording held, as in the events tests (doc/testing.md)
echo 'pid < 0' > $T/events/sched/sched_process_free/filter
echo 1 > $T/events/sched/sched_process_free/enable
case $(uname -m) in
x86_64) ARGS='a=%di b=%si' ;;
*) ARGS='a=%r3 b=%r4' ;;
esac
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
now() { sed -n 's/^now at \([0-9]*\) nsecs$/\1/p' /proc/timer_list | head -1; }
nsites=$(wc -l < $B/sites)
echo "KTAP version 1"
echo "1..$([ "$nsites" -gt 0 ] && echo 9 || echo 6)"

# ---- scale ----

# The kernel's events count as optimized in its list; optprobe's in its
# profile (the fourth column is the mode).
optimized_kprobe() { grep -c 'OPTIMIZED' /sys/kernel/debug/kprobes/list; }
optimized_optprobe() { awk '$4 == "optimized"' /dev/optprobe_profile | wc -l; }
# scale IMPL GROUP FILE: one row
scale() {
	local impl=$1 grp=$2 file=$3 t0 t1 t2 t3 t4 t5 opt defined
	awk -v g="$grp" '{ print "p:" g "/s" NR " " $1 }' $B/sites > /tmp/lines
	t0=$(now)
	dd if=/tmp/lines of="$file" bs=16M conv=notrunc 2> /dev/null
	t1=$(now)
	echo 1 > $T/events/$grp/enable
	t2=$(now)
	echo "$impl" > $B/sync
	t3=$(now)
	defined=$(ls $T/events/$grp | grep -c '^s[0-9]')
	opt=$(optimized_$impl)
	eval "optimized_by_$impl=$opt"
	# the counts above read every event: not part of the removal
	t4=$(now)
	echo 0 > $T/events/$grp/enable
	: > "$file"
	echo "$impl" > $B/sync
	t5=$(now)
	echo "optprobe_bench: events kind=scale impl=$impl n=$nsites defined=$defined optimized=$opt written_ns=$((t1 - t0)) enabled_ns=$((t2 - t0)) optimized_ns=$((t3 - t0)) removed_ns=$((t5 - t4))"
	[ "$defined" = "$nsites" ] && [ ! -d $T/events/$grp ]
}
# optprobe's emulator workaround (ppc64le) off for these rows, as for the
# module's scale rows (bench/scale.c): the kernel's kprobes have none
rewrite=$(cat $B/tcg_rewrite 2> /dev/null)
[ -n "$rewrite" ] && echo 0 > $B/tcg_rewrite
if [ "$nsites" -gt 0 ]; then
	check scale_kprobe_all_defined_and_removed scale kprobe kprobes $T/kprobe_events
	check scale_optprobe_all_defined_and_removed scale optprobe optprobes $E
	check scale_optprobe_optimized [ "$optimized_by_optprobe" -gt 0 ]
fi
[ -n "$rewrite" ] && echo "$rewrite" > $B/tcg_rewrite

# ---- hit ----

S=$(cat $B/hit_site)
# hit IMPL GROUP FILE PROFILE: one row; the event counts every call
hit() {
	local impl=$1 grp=$2 file=$3 profile=$4 calls loop ns hits=0 mode=none
	if [ "$impl" != none ]; then
		echo "p:$grp/bench_hit $S $ARGS" >> "$file" || return 1
		echo 1 > $T/events/$grp/bench_hit/enable
		echo "$impl" > $B/sync
	fi
	echo 1 > $B/hit_ns
	read -r calls loop ns < $B/hit_ns
	if [ "$impl" != none ]; then
		hits=$(awk '$1 == "bench_hit" { print $2 }' "$profile")
		mode=$(awk '$1 == "bench_hit" { print $4 }' "$profile")
		[ "$impl" = kprobe ] && mode=$(grep -q 'OPTIMIZED' /sys/kernel/debug/kprobes/list &&
			echo optimized || echo trap)
		echo 0 > $T/events/$grp/bench_hit/enable
		echo "-:$grp/bench_hit" >> "$file"
	fi
	echo "optprobe_bench: events kind=hit impl=$impl site=$S mode=$mode calls=$calls n=$loop hits=$hits ns=$ns"
	# gcd() runs elsewhere too: at least every call of the loop
	[ "$impl" = none ] || [ "$hits" -ge "$calls" ]
}
check hit_none hit none
check hit_kprobe_counts_every_call hit kprobe kprobes $T/kprobe_events $T/kprobe_profile
check hit_optprobe_counts_every_call hit optprobe optprobes $E /dev/optprobe_profile
check hit_kprobe_removed [ ! -d $T/events/kprobes/bench_hit ]
check hit_optprobe_removed [ ! -d $T/events/optprobes/bench_hit ]
check nothing_left [ -z "$(cat $E)" ]
