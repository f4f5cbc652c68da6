# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check: optprobe's events against the kernel's
# own kprobe events.  Each line of the table below is written to the
# kernel's kprobe_events (as event kN) and to /dev/optprobe_events (as
# oN), both are enabled for dd only, dd reads 7 bytes 3 times and calls
# a module's function 3 times (optprobe_target_events.ko), and every oN
# must have printed exactly what kN printed, line for line, apart from
# the event's name.  Covers every fetch-argument form and type the
# kernel takes on both series, entry and return probes, at a function's
# entry and inside it (also written as _text+N), in kernel and module
# text.  Entry events run side by side in one workload
# (pointers and stack addresses are the same then); return events in two,
# the kernel's alone and then optprobe's: two return hooks on one call
# each see the other's trampoline as the return address (the kernel's
# prints it "[unknown/kretprobe'd]"), and its stack slot changes under
# the entry events' $stack0.  Where the kernel names and types arguments
# from BTF (6.12), lines without types, with C names, $arg* and $argN of
# a return probe too.  Prints its own KTAP block.
T=/sys/kernel/tracing
E=/dev/optprobe_events
mount -t tracefs nodev $T 2>/dev/null
# Comm recording held from here on: an event's first enable and last
# disable would each start or stop it, rewriting the sched_switch static
# call in __schedule() that every CPU runs, and multi-threaded TCG can
# livelock on a stale translation of that (doc/testing.md).  Held by a
# kernel event filtered to record nothing, left enabled.
echo 'pid < 0' > $T/events/sched/sched_process_free/filter
echo 1 > $T/events/sched/sched_process_free/enable
case $(uname -m) in
x86_64) R1=di R2=si R3=dx SP=sp ;;
*) R1=r3 R2=r4 R3=r5 SP=r1 ;;
esac
# @SYM of data where kallsyms has data symbols (not ppc64le 6.1, where
# neither the kernel's kprobe events nor optprobe's can name one): text then
if grep -q ' linux_banner$' /proc/kallsyms; then
	DATA=linux_banner TABLE=sys_call_table
else
	DATA=vfs_read TABLE=vfs_read
fi
# $argN where the kernel's kprobe events have it (not ppc64le 6.1, which
# lacks regs_get_kernel_argument()): the registers then
if echo 'p:kprobes/argt vfs_read a=$arg1' >> $T/kprobe_events 2> /dev/null; then
	echo '-:kprobes/argt' >> $T/kprobe_events
	A1='$arg1' A2='$arg2' A3='$arg3'
else
	A1=%$R1 A2=%$R2 A3=%$R3
fi
# The module's function: dd writing N to its parameter calls it with N,
# reading N from a file of its own (a pipe's file, shared with the shell,
# would change under the entry events' dereferences of $arg1 meanwhile)
MOD=optprobe_target_events
for x in 1 2 3; do echo $x > /tmp/call$x; done
module_calls() {
	local x
	for x in 1 2 3; do
		dd if=/tmp/call$x of=/sys/module/$MOD/parameters/call 2> /dev/null
	done
}
# An instruction the kernel's kprobes take, well past the entry's site
inside=
for off in $(seq 16 64); do
	if echo "p:kprobes/trial vfs_read+$off" >> $T/kprobe_events 2> /dev/null; then
		echo '-:kprobes/trial' >> $T/kprobe_events
		inside=$off
		break
	fi
done
# The same instruction as _text+N, as perf probe --definition writes it
addr() { sed -n "s/^\([0-9a-f]*\) [tT] $1\$/\1/p" /proc/kallsyms | head -1; }
text_off=$((0x$(addr vfs_read) + inside - 0x$(addr _text)))
# KIND LOCATION ARGS, one per line; KIND p: at an ftrace site, where
# both run side by side; i: inside (each alone, a kernel kprobe and
# optprobe's breakpoint do not share one); r: return (each alone); b:
# return, in rounds after r's (6.12's BTF lines below)
cat > /tmp/diff.txt <<EOF
p vfs_read c=%$R3
p vfs_read f=%$R1:x64 b=%$R2:x64 c=%$R3:u32
p vfs_read a1=$A1:x64 a2=$A2:x64 a3=$A3:s32
p vfs_read u8=$A3:u8 u16=$A3:u16 u64=$A3:u64 s8=$A3:s8 x16=$A3:x16 x32=$A3:x32
p vfs_read comm=\$comm cs=\$comm:string
p vfs_read imm=\\1234 neg=\\-5 imms=\\"hello"
p vfs_read banner=@$DATA:string b4=@$DATA:u8[4] bx=@$DATA:x8[3]
p vfs_read bf=$A3:b4@1/32 bf2=$A3:b3@0/8
p vfs_read sym=@$TABLE:symbol ss=@$TABLE:symstr
p vfs_read d=+0($A1):x64 d8=+8($A1):x32 dn=-8(+16($A1)):x64
p vfs_read u=+u0($A2):x8 us=+u0($A2):ustring
p vfs_read st=\$stack st0=\$stack0 st1=\$stack1:x64 sp=%$SP
i vfs_read+$inside c=%$R3 comm=\$comm
i _text+$text_off c=%$R3
i $MOD:optprobe_target_events_fn x=$A1:s64 xx=$A1:x16 comm=\$comm
r $MOD:optprobe_target_events_fn ret=\$retval:s64
r vfs_read ret=\$retval:s64
r ksys_read ret=\$retval:s32 comm=\$comm
EOF
# 6.12's arguments from BTF: $argN named and typed, C names, $arg*, and
# $argN of a return probe, read at the entry (also where BTF has not the
# function: the module's); b: a return probe on a function an r: line
# has, run in rounds of their own
if echo 'p:kprobes/btft vfs_read count' >> $T/kprobe_events 2> /dev/null; then
	echo '-:kprobes/btft' >> $T/kprobe_events
	cat >> /tmp/diff.txt <<EOF
p vfs_read \$arg1 \$arg2 \$arg3
p vfs_read \$arg*
p vfs_read n=count c=count:x32 a3=\$arg3 buf:ustring
b vfs_read \$retval \$arg3 c=count:x16 +0(\$arg1):x32
b ksys_read \$retval fd
b $MOD:optprobe_target_events_fn \$retval \$arg1
EOF
fi
n=$(wc -l < /tmp/diff.txt)
echo "KTAP version 1"
echo "1..$((n + 3))"
echo "# inside vfs_read: +$inside"
i=0
: > /tmp/kdefs
: > /tmp/odefs
while read -r kind loc args; do
	i=$((i + 1))
	case $kind in i) cmd=p ;; b) cmd=r ;; *) cmd=$kind ;; esac
	echo "$cmd:kprobes/k$i $loc $args" >> /tmp/kdefs
	echo "$cmd:optprobes/o$i $loc $args" >> /tmp/odefs
done < /tmp/diff.txt
# kdef: the kernel's events but the inside ones (inside_kernel() ran them)
kdef() {
	local i=0 l
	while read -r l; do
		i=$((i + 1))
		case " $kinds_i " in *" $i "*) continue ;; esac
		echo "$l" >> $T/kprobe_events || return 1
	done < /tmp/kdefs
}
# inside_kernel: the kernel's inside events alone, before optprobe's are
# even registered, their lines kept before any is removed (removing one
# resets the buffers)
inside_kernel() {
	local i
	for i in $kinds_i; do
		sed -n "${i}p" /tmp/kdefs >> $T/kprobe_events || return 1
		echo 1 > $T/events/kprobes/k$i/enable
	done
	echo > $T/trace
	dd if=/dev/zero of=/dev/null bs=7 count=3 2> /dev/null
	module_calls
	echo 0 > $T/events/kprobes/enable
	for i in $kinds_i; do
		grep -a "^ *dd-[0-9]* .* k$i: " $T/trace | sed "s/.* k$i: //" > /tmp/k$i
	done
	for i in $kinds_i; do
		echo "-:kprobes/k$i" >> $T/kprobe_events
	done
}
odef() { dd if=/tmp/odefs of=$E bs=1M conv=notrunc 2> /dev/null; }
# The events of each kind, listed before anything is armed: the shell's
# read builtin reads a byte per call, and a vCPU hammering vfs_read() while
# another patches it can livelock under multi-threaded TCG (doc/testing.md)
kinds_p= kinds_i= kinds_r= kinds_b=
i=0
while read -r k _; do
	i=$((i + 1))
	eval "kinds_$k=\"\$kinds_$k $i\""
done < /tmp/diff.txt
# At an ftrace site optprobe comes where a kernel kprobe already is: each
# goes through ftrace with its own ops; both see dd's 3 calls.
after_kernel() {
	local k o
	echo 'p:kprobes/kpre vfs_read' >> $T/kprobe_events &&
	echo 'p:opre vfs_read' >> $E || return 1
	echo 1 > $T/events/kprobes/kpre/enable
	echo 1 > $T/events/optprobes/opre/enable
	dd if=/dev/zero of=/dev/null bs=7 count=3 2> /dev/null
	echo 0 > $T/events/kprobes/kpre/enable
	echo 0 > $T/events/optprobes/opre/enable
	k=$(grep -ac '^ *dd-[0-9]* .* kpre: ' $T/trace)
	o=$(grep -ac '^ *dd-[0-9]* .* opre: ' $T/trace)
	echo '-:kprobes/kpre' >> $T/kprobe_events
	echo '-:opre' >> $E
	echo "# after a kernel kprobe at vfs_read's ftrace site: $k and $o calls seen"
	[ "$k" = 3 ] && [ "$o" = 3 ]
}
if after_kernel; then echo "ok 1 optprobe_after_kernel_kprobe_at_ftrace_site"; else
	echo "not ok 1 optprobe_after_kernel_kprobe_at_ftrace_site"; fi
inside_kernel || echo "# the kernel's inside events: $(tail -3 $T/error_log)"
if odef; then echo "ok 2 optprobe_takes_every_line"; else
	echo "not ok 2 optprobe_takes_every_line # $(tail -3 /dev/optprobe_error_log)"; fi
# enable KIND GROUP: enable GROUP's events of KIND
enable() {
	local i name=o
	[ "$2" = kprobes ] && name=k
	for i in $(eval echo "\$kinds_$1"); do
		echo 1 > $T/events/$2/$name$i/enable
	done
}
# workload: dd reads 7 bytes 3 times and calls the module's function 3
# times, then every event is disabled
workload() {
	dd if=/dev/zero of=/dev/null bs=7 count=3 2> /dev/null
	module_calls
	for g in kprobes optprobes; do
		[ ! -d $T/events/$g ] || echo 0 > $T/events/$g/enable
	done
}
echo > $T/trace
enable i optprobes
workload
enable p optprobes
if kdef; then echo "ok 3 kernel_takes_every_line"; else
	echo "not ok 3 kernel_takes_every_line # $(tail -3 $T/error_log)"; fi
enable p kprobes
workload
# the return events, the kernel's alone and optprobe's alone
enable r kprobes
workload
enable r optprobes
workload
enable b kprobes
workload
enable b optprobes
workload
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	# dd's calls only; the kernel's inside events' are kept already
	case " $kinds_i " in
	*" $i "*) ;;
	*) grep -a "^ *dd-[0-9]* .* k$i: " $T/trace | sed "s/.* k$i: //" > /tmp/k$i ;;
	esac
	grep -a "^ *dd-[0-9]* .* o$i: " $T/trace | sed "s/.* o$i: //" > /tmp/o$i
	if [ -s /tmp/k$i ] && cmp -s /tmp/k$i /tmp/o$i; then
		echo "ok $((i + 3)) same_as_kernel_$i # $(head -1 /tmp/k$i)"
	else
		echo "not ok $((i + 3)) same_as_kernel_$i # $(sed -n ${i}p /tmp/diff.txt):" \
			"$(wc -l < /tmp/k$i) and $(wc -l < /tmp/o$i) lines"
		echo "#   kernel:   $(head -1 /tmp/k$i) ($(wc -l < /tmp/k$i) lines)"
		echo "#   optprobe: $(head -1 /tmp/o$i) ($(wc -l < /tmp/o$i) lines)"
		grep -a -m2 "[ko]$i:" $T/trace | sed 's/^/#   /'
		diff /tmp/k$i /tmp/o$i | head -6 | cut -c1-300 | sed 's/^/#   diff: /'
	fi
done
echo > $T/kprobe_events || echo "# kprobe_events not emptied"
echo > $E || echo "# optprobe_events not emptied: $(cat $E | head -3)"
