# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check, from the directory holding the modules:
# load optprobe_target_marker_late.ko again after optprobe_test_marker_late.ko
# registered probes on its markers, unload it, and load it once more; the
# test module checks each phase (see its source).  Prints its own KTAP
# block: the module's marker sites in debugfs while it is loaded, and none
# while it is not.
set -e
phase=/sys/module/optprobe_test_marker_late/parameters/phase
markers=/sys/kernel/debug/optprobe/markers
M=optprobe_target_marker_late
# sites MARKER: the debugfs lines of that marker of the module
sites() { awk -v m=$M -v n="$1" '$1 == m && $2 == n' $markers; }
rmmod $M
echo arm > $phase
absent=$(awk -v m=$M '$1 == m' $markers | wc -l)
insmod ./$M.ko
echo loaded > $phase
core=$(sites tml_core)
core_hits=$(cat /sys/module/optprobe_test_marker_late/parameters/core_hits)
rmmod $M
echo unloaded > $phase
gone=$(awk -v m=$M '$1 == m' $markers | wc -l)
insmod ./$M.ko
echo reloaded > $phase
set +e

echo "KTAP version 1"
echo "1..3"
if [ "$absent" = 0 ]; then
	echo "ok 1 no_sites_before_load"
else
	echo "not ok 1 no_sites_before_load # $absent lines"
fi
# MODULE NAME SITE NPROBES HITS "FORMAT", SITE one field or more (the
# symbol, its offset, maybe more): two probes on tml_core, and as many
# hits as the two counted
format="\"${core#*\"}"
set -- ${core%%\"*}
site=$3
shift $(($# - 2))
if [ "${site%%+*}" = optprobe_target_marker_late_fn ] && [ "$1" = 2 ] &&
   [ "$2" = "$core_hits" ] && [ "$format" = '"%d"' ]; then
	echo "ok 2 core_site_listed"
else
	echo "not ok 2 core_site_listed # '$core' ($core_hits hits)"
fi
if [ "$gone" = 0 ]; then
	echo "ok 3 no_sites_after_unload"
else
	echo "not ok 3 no_sites_after_unload # $gone lines"
fi
