# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check, last (it unloads optprobe): every module
# that uses optprobe goes, then optprobe itself must refuse to go while the
# call optprobe_test_ret_unload.ko left in flight through its return probe
# is still inside, and go once that call returned its value to its caller.
# Prints its own KTAP block.
op=/sys/module/optprobe
target=/sys/module/optprobe_target_ret/parameters
n=0
check() { # check NAME COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name # $*"; fi
}
# until SECONDS COMMAND...: true once COMMAND succeeds, tried every 0.1 s
until_ok() {
	i=$(($1 * 10))
	shift
	while [ $i -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i - 1))
	done
	return 1
}
no_holders() { [ -z "$(ls $op/holders)" ]; }
unload_holders() {
	for m in $(ls $op/holders); do rmmod "$m" 2>/dev/null; done
	no_holders
}
rmmod_refused() { ! rmmod optprobe 2>/dev/null && [ -d $op ]; }
returned() { [ "$(cat $target/unload_result)" != 0 ]; }
returned_15() { until_ok 10 returned && [ "$(cat $target/unload_result)" = 15 ]; }
rmmod_optprobe() { rmmod optprobe 2>/dev/null; }

echo "KTAP version 1"
echo "1..6"
# a holder may hold another: a few rounds
check every_user_of_optprobe_unloaded until_ok 30 unload_holders
check call_still_inside test "$(cat $target/unload_result)" = 0
check optprobe_holds_itself_once test "$(cat $op/refcnt)" = 1
check rmmod_optprobe_refused_while_call_in_flight rmmod_refused
# the call returns OPTPROBE_TARGET_RET_SLEEP(OPTPROBE_TARGET_RET_UNLOAD_ARG): 15
echo 1 > $target/unload_gate
check call_returned_its_value returned_15
check rmmod_optprobe_once_returned until_ok 10 rmmod_optprobe
