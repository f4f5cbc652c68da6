# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check, from the directory holding the modules:
# unload optprobe_target_gone.ko under optprobe_test_gone.ko's probes, then
# load it again; optprobe_test_gone.ko checks each phase (see its source).
set -e
phase=/sys/module/optprobe_test_gone/parameters/phase
rmmod optprobe_target_gone
echo unloaded > $phase
insmod ./optprobe_target_gone.ko
echo reloaded > $phase
