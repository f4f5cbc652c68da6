/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe_target_marker_late.ko: markers in a module that
 * optprobe_test_marker_late.sh loads once optprobe_test_marker_late.ko
 * has probes waiting for it.
 */
#ifndef OPTPROBE_TARGET_MARKER_LATE_H
#define OPTPROBE_TARGET_MARKER_LATE_H

#define TML_MODULE		"optprobe_target_marker_late"
/* in its init function: its "seed" parameter and the module's name */
#define TML_INIT_FMT		"%d %s"
#define TML_SEED		-31415
/* in its core function: the function's argument */
#define TML_CORE_FMT		"%d"
/* in an inline function its init function and its core function call */
#define TML_BOTH_FMT		"%d %d"
#define TML_BOTH_INIT		1
#define TML_BOTH_CORE		2
/* its init calls the core function this many times, with 0, 1, 2... */
#define TML_INIT_CALLS		3

int optprobe_target_marker_late_fn(int x);

#endif /* OPTPROBE_TARGET_MARKER_LATE_H */
