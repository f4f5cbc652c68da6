# SPDX-License-Identifier: GPL-2.0
#
# Run in the guest by make check: 50 reads of 3001 bytes through vfs_read(),
# then optprobe_test_workload.ko checks that its probes saw each of them.
set -e
dd if=/dev/zero of=/dev/null bs=3001 count=50 2>/dev/null
echo 1 > /sys/module/optprobe_test_workload/parameters/check
