# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check: m: lines written to /dev/optprobe_events
# become trace events on the static markers of optprobe_target_events.ko
# (its header comment says what each argument is, from the N written to
# its "mark" parameter).  Fields are typed from the marker's format and
# aligned to their size (as a tracepoint's C struct, which bpftrace reads
# a record as), and the trace shows each argument's exact value: an int,
# an unsigned long, a string, a pointer (the function's address, from
# /proc/kallsyms), a hex, a char, a long long and a constant; $argN, the
# names arg1..argN, casts and $comm.  Bad lines fail the whole write and
# are logged with a caret under the token at fault; removal, enable and
# disable count as for p: events; and a marker of a module not loaded
# waits for it: with the fields its format gives, or those the line gives
# alone.  Prints its own KTAP block.
T=/sys/kernel/tracing
E=/dev/optprobe_events
G=$T/events/optprobes
M=optprobe_target_events
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
PLAN=43
echo "KTAP version 1"
echo "1..$PLAN"
mount -t tracefs nodev $T 2>/dev/null
# Comm recording held, as optprobe_events.sh holds it (a livelock of
# multi-threaded TCG on the sched_switch static call otherwise).
echo 'pid < 0' > $T/events/sched/sched_process_free/filter
echo 1 > $T/events/sched/sched_process_free/enable
[ -d /sys/module/$M ] || insmod ./$M.ko
write_err() { echo "$1" >> $E 2>/tmp/ev.err && echo none || sed 's/.*write error: //' /tmp/ev.err; }
define() { echo "$1" >> $E; }
listing() { [ "$(cat $E)" = "$1" ]; }
# mark N...: dd writes each N to the module's "mark": both markers once
mark() {
	local x
	for x in "$@"; do
		echo "$x" > /tmp/mark$x
		dd if=/tmp/mark$x of=/sys/module/$M/parameters/mark 2> /dev/null
	done
}
# fn: the marker's pointer, optprobe_target_events_fn's address, as %llx prints it
fn() { awk '$3 == "optprobe_target_events_fn" { print $1 }' /proc/kallsyms | sed 's/^0*//'; }
# lines COMM EVENT ARGS: how many trace lines of COMM show EVENT at its marker with exactly ARGS
SITE='(optprobe_target_events_mark+0x[0-9a-f]*/0x[0-9a-f]* \[optprobe_target_events\])'
lines() { grep -c "^ *$1-[0-9]* .* $2: $SITE $3\$" $T/trace; }
# once COMM EVENT ARGS...: for each ARGS, exactly one such line
once() {
	local comm=$1 event=$2 a
	shift 2
	for a in "$@"; do
		[ "$(lines "$comm" "$event" "$a")" = 1 ] || return 1
	done
}
# count EVENT N: the trace has N lines of EVENT
count() { [ "$(grep -c " $1: " $T/trace)" = "$2" ]; }
# fields EVENT FIELDS: the event's argument fields, one "TYPE NAME OFFSET SIZE SIGNED" a line
fields() {
	[ "$(sed -n 's/^\tfield:\(.*\) \([a-z0-9_]*\);\toffset:\([0-9]*\);\tsize:\([0-9]*\);\tsigned:\([01]\);$/\1 \2 \3 \4 \5/p' \
		$G/$1/format | grep -v '^unsigned \|^int common_')" = "$2" ]
}
print_fmt() { grep -qxF "print fmt: $2" $G/$1/format; }
# profile EVENT HITS MODE: its line in /dev/optprobe_profile
profile() {
	awk -v e="$1" -v h="$2" -v m="$3" '$1 == e && $2 == h && $4 == m { ok = 1 } END { exit !ok }' \
		/dev/optprobe_profile
}
# disarmed EVENT HITS: its probe disarmed a moment after its last user went
disarmed() {
	local i
	for i in 1 2 3 4 5; do
		profile "$1" "$2" disabled && return 0
		sleep 1
	done
	return 1
}

# The module loaded: every argument of the marker, typed from its format
check defined_without_args define "m:mk_all $M:optprobe_events_mark
m:mk_more $M:optprobe_events_more
m:mk_sel $M:optprobe_events_mark n=\$arg1 s=arg3 \$arg2 p=\$arg4:u32 c=\$comm"
check listed_with_the_markers_args listing "m:optprobes/mk_all $M:optprobe_events_mark arg1=arg1 arg2=arg2 arg3=arg3 arg4=arg4
m:optprobes/mk_more $M:optprobe_events_more arg1=arg1 arg2=arg2 arg3=arg3 arg4=arg4
m:optprobes/mk_sel $M:optprobe_events_mark n=\$arg1 s=arg3 arg2=arg2 p=\$arg4:u32 c=\$comm"
check format_int_ulong_string_pointer fields mk_all 's32 arg1 16 4 1
u64 arg2 24 8 0
__data_loc char[] arg3 32 4 1
u64 arg4 40 8 0'
check print_fmt_int_ulong_string_pointer print_fmt mk_all \
	'"(%lx) arg1=%d arg2=%Lu arg3=\"%s\" arg4=0x%Lx", REC->__probe_ip, REC->arg1, REC->arg2, __get_str(arg3), REC->arg4'
check format_hex_char_longlong_uint fields mk_more 'u32 arg1 16 4 0
u8 arg2 20 1 0
s64 arg3 24 8 1
u32 arg4 32 4 0'
check print_fmt_hex_char_longlong_uint print_fmt mk_more \
	'"(%lx) arg1=0x%x arg2='"'%c'"' arg3=%Ld arg4=%u", REC->__probe_ip, REC->arg1, REC->arg2, REC->arg3, REC->arg4'
check format_named_and_cast fields mk_sel 's32 n 16 4 1
__data_loc char[] s 20 4 1
u64 arg2 24 8 0
u32 p 32 4 0
__data_loc char[] c 36 4 1'
echo > $T/trace
for e in mk_all mk_more mk_sel; do echo 1 > $G/$e/enable; done
check profile_optimized_enabled profile mk_all 0 optimized
mark 3 7
grep -m3 ' mk_' $T/trace | sed 's/^/# /'
FN=$(fn)
P=$(( 0x$FN & 0xffffffff ))
check trace_default_fields_exact once dd mk_all "arg1=-2 arg2=9000000000 arg3=\"zero\" arg4=0x$FN" \
	"arg1=2 arg2=21000000000 arg3=\"one\" arg4=0x$FN"
check trace_more_fields_exact once dd mk_more "arg1=0x30003 arg2='d' arg3=-15000000000 arg4=42" \
	"arg1=0x70007 arg2='h' arg3=-35000000000 arg4=42"
check trace_named_argN_cast_comm once dd mk_sel "n=-2 s=\"zero\" arg2=9000000000 p=$P c=\"dd\"" \
	"n=2 s=\"one\" arg2=21000000000 p=$P c=\"dd\""
check trace_no_other_lines [ "$(grep -c ' mk_' $T/trace)" = 6 ]
check profile_counts_hits profile mk_all 2 optimized

# disabled: no line and no hit, the other event on the marker going on
echo 0 > $G/mk_all/enable
mark 5
check disabled_no_line count mk_all 2
check disabled_other_event_goes_on once dd mk_sel "n=0 s=\"two\" arg2=15000000000 p=$P c=\"dd\""
check disabled_disarmed disarmed mk_all 2
echo 1 > $G/mk_all/enable
mark 8
check enabled_again_one_more_line count mk_all 3
check enabled_again_exact once dd mk_all "arg1=3 arg2=24000000000 arg3=\"two\" arg4=0x$FN"
check enabled_again_counts_hits profile mk_all 3 optimized
check remove_enabled_ebusy [ "$(write_err '-:mk_all')" = "Device or resource busy" ]
for e in mk_all mk_more mk_sel; do echo 0 > $G/$e/enable; done

# refused lines: the errno, the line logged, the caret under its token
# caret LINE TOKEN: the error log has LINE with its caret under TOKEN
caret() {
	local col pad
	col=$(awk -v l="$1" -v t="$2" 'BEGIN { print index(l, t) - 1 }')
	pad=$(printf "%$((col + 12))s" '^')
	grep -A1 -xF "  Command: $1" /dev/optprobe_error_log | tail -1 | grep -qxF "$pad"
}
BAD="m:bad $M:no_such_marker"
check unknown_marker_enoent [ "$(write_err "$BAD")" = "No such file or directory" ]
check unknown_marker_caret caret "$BAD" no_such_marker
BAD="m:bad $M:optprobe_events_mark \$arg2 \$arg5"
check bad_arg_index_einval [ "$(write_err "$BAD")" = "Invalid argument" ]
check bad_arg_index_caret caret "$BAD" '$arg5'
# bad_lines: each bad write fails, logs its line, leaves nothing new
bad_lines() {
	local before failed=0 line
	before=$(cat $E)
	while IFS= read -r line; do
		line=$(printf '%b' "$line" | sed "s/MOD/$M/g")
		if [ "$(write_err "$line")" = none ]; then
			echo "# accepted: $line"
			failed=1
		elif ! grep -qxF "  Command: ${line##*
}" /dev/optprobe_error_log; then
			echo "# not in the error log: $line"
			failed=1
		fi
	done <<-'EOF'
	m:b1 MOD
	m:b2 MOD:
	m:b3 MOD:optprobe_events_mark+4
	m:b4 MOD:optprobe_events_mark arg5
	m:b5 MOD:optprobe_events_mark $arg1:string
	m:b6 MOD:optprobe_events_mark $retval
	m:b7 MOD:optprobe_events_mark x=$arg1 x=$arg2
	m:b8 no_such_module_xyz:some_marker $arg7
	m:b9 MOD:optprobe_events_more $arg5
	m1:b10 MOD:optprobe_events_mark
	m:b11 MOD:optprobe_events_mark $arg3:u8[2]
	p:b12 vfs_read\nm:b12b MOD:optprobe_events_mark\nm:b12c MOD:no_such_marker
	m:mk_all MOD:optprobe_events_more
	EOF
	[ $failed = 0 ] && [ "$(cat $E)" = "$before" ]
}
check bad_lines_refused bad_lines
check removed define '-:mk_all
-:mk_more'
only_sel() { [ ! -d $G/mk_all ] && [ ! -d $G/mk_more ] && [ -d $G/mk_sel ]; }
check removed_gone_from_events only_sel

# Its module not loaded: the events wait.  One whose fields the line gives
# alone is an event at once and can be enabled; one whose fields are the
# format's is not, until the module comes (listed as written meanwhile).
rmmod $M
echo > $T/trace
check defined_module_not_loaded define "m:mk_later $M:optprobe_events_mark
m:mk_early $M:optprobe_events_mark x=\$arg1:s32 s=\$arg3:string
m:mk_nomark $M:no_such_marker
m:mk_badidx $M:optprobe_events_more x=\$arg5:u32"
check listed_as_written listing "m:optprobes/mk_sel $M:optprobe_events_mark n=\$arg1 s=arg3 arg2=arg2 p=\$arg4:u32 c=\$comm
m:optprobes/mk_later $M:optprobe_events_mark
m:optprobes/mk_early $M:optprobe_events_mark x=\$arg1:s32 s=\$arg3:string
m:optprobes/mk_nomark $M:no_such_marker
m:optprobes/mk_badidx $M:optprobe_events_more x=\$arg5:u32"
pending() { profile mk_later 0 pending && profile mk_early 0 pending && profile mk_sel 4 pending; }
check pending_in_profile pending
check typed_by_the_line_is_an_event fields mk_early 's32 x 16 4 1
__data_loc char[] s 20 4 1'
waits() { [ ! -d $G/mk_later ] && [ ! -d $G/mk_nomark ]; }
check typed_by_the_format_waits waits
echo 1 > $G/mk_early/enable
# mark=4 passes the markers as the module loads, before its init: armed by then
insmod ./$M.ko mark=4
grep -m2 ' mk_' $T/trace | sed 's/^/# /'
check armed_as_it_comes [ "$(lines insmod mk_early 'x=-1 s="one"')" = 1 ]
check format_known_on_load fields mk_later 's32 arg1 16 4 1
u64 arg2 24 8 0
__data_loc char[] arg3 32 4 1
u64 arg4 40 8 0'
check listed_with_fields_on_load grep -qxF "m:optprobes/mk_later $M:optprobe_events_mark arg1=arg1 arg2=arg2 arg3=arg3 arg4=arg4" $E
check no_such_marker_stays_pending profile mk_nomark 0 pending
check bad_index_stays_pending profile mk_badidx 0 pending
echo 1 > $G/mk_later/enable
mark 7
FN=$(fn)
check trace_on_load_format_typed once dd mk_later "arg1=2 arg2=21000000000 arg3=\"one\" arg4=0x$FN"
check trace_on_load_line_typed once dd mk_early 'x=2 s="one"'
rmmod $M
pending_again() { profile mk_later 1 pending && profile mk_early 2 pending; }
check pending_after_unload pending_again
echo > $T/trace
insmod ./$M.ko
mark 3
FN=$(fn)
reload() {
	once dd mk_later "arg1=-2 arg2=9000000000 arg3=\"zero\" arg4=0x$FN" &&
	once dd mk_early 'x=-2 s="zero"' && [ "$(grep -c ' mk_' $T/trace)" = 2 ]
}
check armed_on_reload reload
echo 0 > $G/mk_early/enable
echo 0 > $G/mk_later/enable
check removed_pending_and_deferred define '-:mk_nomark
-:mk_badidx'
echo > $E
gone() { [ -z "$(cat $E)" ] && [ ! -d $G ]; }
check truncate_removes_all gone
