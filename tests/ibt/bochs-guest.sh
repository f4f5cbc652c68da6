# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by tests/ibt/bochs-run, on Bochs's tigerlake CPU, which
# enforces ENDBR64 on indirect branches: optprobe.ko (in /bin, put there
# by vm-run --bin) loaded and driven from the shell only.  One probe inside
# vfs_read() as a breakpoint (trap: the optimize and boost switches off),
# then jump-optimized; one at vfs_read()'s ftrace site; a return probe on
# vfs_read(); each hit exactly 5 times by dd reading 7 bytes 5 times
# (busybox is static: dd makes no other read); then disabled, removed,
# and optprobe unloaded.  Prints "ibt: ok NAME" / "ibt: not ok NAME # why"
# for the host to number, then "ibt: done".
T=/sys/kernel/tracing
E=/dev/optprobe_events
G=$T/events/optprobes
P=/sys/module/optprobe/parameters
D=/sys/kernel/debug/optprobe
failed=0
check() { # check NAME COMMAND...
	name=$1
	shift
	if "$@"; then echo "ibt: ok $name"; else echo "ibt: not ok $name # $*"; failed=1; fi
}
note() { sed 's/^/ibt: # /'; }
finish() {
	echo "ibt: done"
	# the serial port drains the tty at 115200 baud of emulated time;
	# vm-run's /init powers off at once after this script
	sleep 0.5
	exit $failed
}
mount -t tracefs nodev $T 2> /dev/null
WORK='dd if=/dev/zero of=/dev/null bs=7 count=5'
# lines EVENT PATTERN: how many trace lines of dd's show EVENT with PATTERN
lines() { grep -c "dd-.* $1: .*$2" $T/trace; }
mode() { awk -v e="$1" '$1 == e { print $4 }' /dev/optprobe_profile; }
# until_mode EVENT MODE: true once EVENT is in MODE, tried for up to 20 s
until_mode() {
	i=0
	while [ "$(mode "$1")" != "$2" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(mode "$1")" = "$2" ]
}
# run EVENT...: clear the trace, enable the events, run the workload,
# disable them
run() {
	echo > $T/trace
	for e in "$@"; do echo 1 > $G/$e/enable; done
	$WORK 2> /dev/null
	for e in "$@"; do echo 0 > $G/$e/enable; done
}

check cpu_flags_ibt grep -qw ibt /proc/cpuinfo
if insmod /bin/optprobe.ko 2> /tmp/insmod.err; then
	echo "ibt: ok insmod_optprobe"
else
	echo "ibt: not ok insmod_optprobe # $(cat /tmp/insmod.err)"
	dmesg | grep -a optprobe | note
	failed=1
	finish
fi
check events_file test -c $E
# "count" by its C name: vfs_read()'s prototype from BTF, through the
# kernel's btf_* functions optprobe calls (the kernel parses vmlinux's
# BTF on this first use: ~65 s of the run under Bochs).  A line for a
# module not loaded stays pending (find_module()).
check defined sh -c "echo 'p:ibt_ft vfs_read count
r:ibt_ret vfs_read ret=\$retval:s64
p:ibt_pending ibt_no_such_module:ibt_fn' > $E"
check pending until_mode ibt_pending pending
# an instruction well inside vfs_read(), where optprobe can jump; its
# site made with boost off (a site keeps what it was made with), so that
# it traps after the copied instruction until it is optimized
echo 0 > $P/optimize
echo 0 > $P/boost
for at in $(seq 16 64); do
	echo "p:ibt_in vfs_read+$at" >> $E 2> /dev/null && break
done
check defined_inside grep -q '^p:optprobes/ibt_in vfs_read+' $E
grep -a 'ibt_in' $E | note
echo 1 > $P/boost

b0=$(cat $D/breakpoints)
echo 1 > $G/ibt_in/enable
check trap_mode until_mode ibt_in trap
mode ibt_in | note
echo 0 > $G/ibt_in/enable
run ibt_in
b1=$(cat $D/breakpoints)
check trap_hits_5 [ "$(lines ibt_in)" = 5 ]
check trap_took_breakpoints [ $((b1 - b0)) -ge 5 ]

echo 1 > $P/optimize
echo 1 > $G/ibt_in/enable
check optimized_mode until_mode ibt_in optimized
b0=$(cat $D/breakpoints)
$WORK 2> /dev/null
b1=$(cat $D/breakpoints)
echo 0 > $G/ibt_in/enable
check optimized_no_breakpoint [ "$b1" = "$b0" ]
run ibt_in
check optimized_hits_5 [ "$(lines ibt_in)" = 5 ]

echo 1 > $G/ibt_ft/enable
check ftrace_mode until_mode ibt_ft ftrace
echo 0 > $G/ibt_ft/enable
run ibt_ft
check ftrace_entry_hits_5 [ "$(lines ibt_ft 'count=7$')" = 5 ]
run ibt_ret
check return_hits_5 [ "$(lines ibt_ret 'ret=7$')" = 5 ]
run ibt_ft ibt_ret ibt_in
check "all_three_together_5_each" [ "$(lines ibt_ft 'count=7$')$(lines ibt_ret 'ret=7$')$(lines ibt_in)" = 555 ]
grep -a 'dd-' $T/trace | head -3 | note

echo > $E
removed() { [ -z "$(cat $E)" ] && [ ! -d $G ]; }
check removed removed
check rmmod_optprobe rmmod optprobe
check unloaded [ ! -d /sys/module/optprobe ]
finish
