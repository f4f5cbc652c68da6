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
PLAN=17
echo "KTAP version 1"
echo "1..$PLAN"
mount -t tracefs nodev $T 2>/dev/null
if [ ! -c $E ]; then
	# ppc64le 6.1: no event_mutex in kallsyms yet (issue #28)
	i=0
	while [ $i -lt $PLAN ]; do
		i=$((i + 1))
		echo "ok $i events_$i # SKIP no $E: optprobe found no event_mutex"
	done
	exit 0
fi
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
check format_string grep -q 'field:__data_loc char\[\] comm;	offset:24;	size:4;	signed:0;' \
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
echo 1 > $G/ev_read/enable
check remove_enabled_ebusy [ "$(write_err '-:ev_read')" = "Device or resource busy" ]
echo 0 > $G/ev_read/enable
echo > $E
gone() { [ -z "$(cat $E)" ] && [ ! -d $G ]; }
check truncate_removes_all gone
