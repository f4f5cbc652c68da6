# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest with Debian's trace tools (scripts/vm-run --tools all),
# by make check: an optprobe trace event read by the tools users have.
# The workload makes exactly 5 calls the filter selects (dd reading 7
# bytes 5 times): perf stat counts 5, perf record + perf script shows 5
# samples with the fields, bpftrace on tracepoint:optprobes:... counts 5,
# trace-cmd record + report shows 5; and the same four for an event on a
# static marker (an m: line on optprobe_target_events.ko's, which the
# guest loads, passed 5 times with its fields' values exact).  Removing
# the event while perf
# records it is refused (-EBUSY), and so is rmmod optprobe while it
# exists.  Then, under lockdown=integrity raised at run time (as Secure
# Boot does at boot), an event is still defined, enabled, read and
# removed, debugfs refuses its switches, and the switches work as module
# parameters (optimize, boost; enabled in optprobe_test_workload_debugfs.sh).
# Prints its own KTAP block.
E=/dev/optprobe_events
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
PLAN=22
echo "KTAP version 1"
echo "1..$PLAN"
cd /tmp || exit 1
# Comm recording held from here on, as the events tests hold it: an
# event's first enable and last disable would each start or stop it,
# rewriting the sched_switch static call in __schedule() that every CPU
# runs, where multi-threaded TCG can livelock on a stale translation
# (doc/testing.md).  Held by a kernel event filtered to record nothing.
echo 'pid < 0' > /sys/kernel/tracing/events/sched/sched_process_free/filter
echo 1 > /sys/kernel/tracing/events/sched/sched_process_free/enable
WORK='dd if=/dev/zero of=/dev/null bs=7 count=5'
define() { echo "$1" > $E; }
# shows FILE PATTERN WANT: exactly WANT lines of FILE match PATTERN
shows() { [ "$(grep -c "$2" "$1")" = "$3" ]; }

check defined define 'p:ev_tool vfs_read count=$arg3:u64 comm=$comm'
perf stat -x, -e optprobes:ev_tool --filter 'count == 7' -- $WORK > /dev/null 2> stat.txt
sed 's/^/# perf stat: /' stat.txt
check perf_stat_counts_5 grep -q '^5,,optprobes:ev_tool' stat.txt
perf record -q -o perf.data -e optprobes:ev_tool --filter 'count == 7' -- $WORK 2> /dev/null
perf script -i perf.data > script.txt 2>&1
head -2 script.txt | sed 's/^/# perf script: /'
check perf_script_5_samples shows script.txt 'ev_tool:.*count=7.*dd' 5
bpftrace -e 'tracepoint:optprobes:ev_tool /args->count == 7/ { @n = count(); }' \
	-c "$WORK" > bpf.txt 2>&1
sed 's/^/# bpftrace: /' bpf.txt
check bpftrace_counts_5 grep -q '^@n: 5$' bpf.txt
trace-cmd record -q -o trace.dat -e optprobes:ev_tool -f 'count == 7' $WORK > /dev/null 2>&1
trace-cmd report -i trace.dat > report.txt 2>&1
head -3 report.txt | sed 's/^/# trace-cmd: /'
check trace_cmd_report_5 shows report.txt 'ev_tool:.*count=7 comm="dd"' 5
# The marker: dd writing 7 to the module's "mark" 5 times passes it with
# arg1 = 2 (an int), arg2 = 21000000000 (an unsigned long), arg3 = "one"
M=optprobe_target_events
echo 7 > mark7
printf 'for i in 1 2 3 4 5; do dd if=/tmp/mark7 of=/sys/module/%s/parameters/mark 2> /dev/null; done\n' \
	$M > mark5.sh
MARK='mk_tool:.*arg1=2 arg2=21000000000 arg3="one" arg4=0x[0-9a-f]*$'
check marker_defined sh -c "echo 'm:mk_tool $M:optprobe_events_mark' >> $E"
perf stat -x, -e optprobes:mk_tool --filter 'arg1 == 2' -- sh mark5.sh > /dev/null 2> mstat.txt
sed 's/^/# perf stat: /' mstat.txt
check marker_perf_stat_counts_5 grep -q '^5,,optprobes:mk_tool' mstat.txt
perf record -q -o mperf.data -e optprobes:mk_tool --filter 'arg2 == 21000000000' -- sh mark5.sh \
	2> /dev/null
perf script -i mperf.data > mscript.txt 2>&1
head -2 mscript.txt | sed 's/^/# perf script: /'
check marker_perf_script_5_samples shows mscript.txt "$MARK" 5
# each field where a C struct has it (arg2 at 24, not packed at 20)
bpftrace -e 'tracepoint:optprobes:mk_tool /args->arg1 == 2 && args->arg2 == 21000000000 &&
	str(args->arg3) == "one"/ { @n = count(); }' -c "sh mark5.sh" > mbpf.txt 2>&1
sed 's/^/# bpftrace: /' mbpf.txt
check marker_bpftrace_counts_5 grep -q '^@n: 5$' mbpf.txt
trace-cmd record -q -o mtrace.dat -e optprobes:mk_tool -f 'arg1 == 2' sh mark5.sh > /dev/null 2>&1
trace-cmd report -i mtrace.dat > mreport.txt 2>&1
head -3 mreport.txt | sed 's/^/# trace-cmd: /'
check marker_trace_cmd_report_5 shows mreport.txt "$MARK" 5
# write_err LINE: the error text the shell shows when writing LINE fails
write_err() { echo "$1" >> $E 2>/tmp/ev.err && echo none || sed 's/.*write error: //' /tmp/ev.err; }
perf record -q -o busy.data -e optprobes:ev_tool -- sleep 5 2> /dev/null &
# until perf has the event open: its probe is armed then (up to 5 s)
i=0
while grep -q '^ *ev_tool .* disabled ' /dev/optprobe_profile && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check remove_while_perf_records_ebusy [ "$(write_err '-:ev_tool')" = "Device or resource busy" ]
wait
refused() { ! rmmod optprobe 2> /dev/null && [ -d /sys/module/optprobe ]; }
check rmmod_optprobe_refused_with_events refused
echo > $E
check removed [ -z "$(cat $E)" ]

T=/sys/kernel/tracing
echo integrity > /sys/kernel/security/lockdown
check lockdown_integrity grep -q '\[integrity\]' /sys/kernel/security/lockdown
check defined_under_lockdown define 'p:ev_locked vfs_read count=$arg3:u64'
echo 1 > $T/events/optprobes/ev_locked/enable
echo > $T/trace
dd if=/dev/zero of=/dev/null bs=7 count=5 2> /dev/null
echo 0 > $T/events/optprobes/ev_locked/enable
check read_under_lockdown shows $T/trace 'dd-.*ev_locked: .* count=7$' 5
echo > $E
check removed_under_lockdown [ ! -d $T/events/optprobes ]

# debugfs refuses its writable files, even to read them, and reads the
# others; the switches are module parameters too, which lockdown leaves
D=/sys/kernel/debug/optprobe
P=/sys/module/optprobe/parameters
debugfs_locked() {
	! cat $D/optimize > /dev/null 2>&1 && ! sh -c "echo 1 > $D/optimize" 2> /dev/null &&
		grep -q . $D/ksyms
}
check debugfs_switches_refused debugfs_locked
# mode EVENT: its mode in the profile
mode() { awk -v e="$1" '$1 == e { print $4 }' /dev/optprobe_profile; }
# until_mode EVENT MODES: true once EVENT is in one of MODES (an extended
# regular expression), tried for up to 20 s
in_mode() { mode "$1" | grep -qxE "$2"; }
until_mode() {
	i=0
	while ! in_mode "$1" "$2" && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	in_mode "$1" "$2"
}
# an instruction well inside vfs_read(), where optprobe can jump
for at in $(seq 16 64); do
	define "p:ev_sw vfs_read+$at" 2> /dev/null && break
done
echo 1 > $T/events/optprobes/ev_sw/enable
check optimized_under_lockdown until_mode ev_sw optimized
echo 0 > $P/optimize
# a breakpoint again: boosted, or a trap where the copy cannot jump back
check optimize_param_off until_mode ev_sw 'boosted|trap'
echo 1 > $P/optimize
check optimize_param_on until_mode ev_sw optimized
echo 0 > $P/boost
check boost_param grep -q '^0$' $P/boost
echo 1 > $P/boost
echo 0 > $T/events/optprobes/ev_sw/enable
echo > $E
