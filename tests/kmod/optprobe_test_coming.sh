# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check, from the directory holding the modules:
# load optprobe_target_coming.ko again (make check loaded it with its own
# init probing itself) with optprobe_test_coming.ko's notifier probing it
# as it comes, then once more with an init that fails; the test module
# checks each phase (see its source).  It stays loaded, as it was.
set -e
phase=/sys/module/optprobe_test_coming/parameters/phase
M=optprobe_target_coming
rmmod $M
echo arm > $phase
insmod ./$M.ko self=0
echo loaded > $phase
rmmod $M
echo arm > $phase
if insmod ./$M.ko self=0 fail=1 2> /dev/null; then
	echo "# $M.ko fail=1 loaded"
	rmmod $M
fi
echo failed > $phase
insmod ./$M.ko self=0
