# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check, from the directory holding the modules:
# optimized probes on optprobe_target_ppc_gone.ko, which is then unloaded
# under them; optprobe_test_ppc_gone.ko checks each phase (see its source).
# Prints its own KTAP block: the detours and the slot area near the module
# went with it.  Only powerpc64le builds these modules.
[ -d /sys/module/optprobe_test_ppc_gone ] || exit 0
set -e
phase=/sys/module/optprobe_test_ppc_gone/parameters/phase
slots=/sys/kernel/debug/optprobe/slots
before=$(cat $slots)
echo register > $phase
during=$(cat $slots)
rmmod optprobe_target_ppc_gone
echo unloaded > $phase
after=$(cat $slots)
# back for the end of the run, which unloads every module it loaded
insmod ./optprobe_target_ppc_gone.ko
echo "KTAP version 1"
echo "1..2"
if [ "$during" != "$before" ]; then
	echo "ok 1 detours_take_slots"
else
	echo "not ok 1 detours_take_slots # slots unchanged: $during"
fi
if [ "$after" = "$before" ]; then
	echo "ok 2 slots_freed_with_the_module"
else
	echo "not ok 2 slots_freed_with_the_module # before: $before; after: $after" | tr '\n' ' '
	echo
fi
