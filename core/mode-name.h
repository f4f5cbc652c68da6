/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name of an optprobe mode, for debugfs, the test modules and the
 * benchmark: one table.
 */
#ifndef OPTPROBE_MODE_NAME_H
#define OPTPROBE_MODE_NAME_H

#include <linux/kernel.h>

#include <optprobe.h>

static inline const char *op_mode_name(enum optprobe_mode mode)
{
	static const char * const names[] = {
		[OPTPROBE_MODE_TRAP] = "trap",
		[OPTPROBE_MODE_BOOSTED] = "boosted",
		[OPTPROBE_MODE_OPTIMIZED] = "optimized",
		[OPTPROBE_MODE_FTRACE] = "ftrace",
		[OPTPROBE_MODE_DISABLED] = "disabled",
		[OPTPROBE_MODE_GONE] = "gone",
		[OPTPROBE_MODE_PENDING] = "pending",
	};

	return (unsigned int)mode < ARRAY_SIZE(names) ? names[mode] : "?";
}

#endif /* OPTPROBE_MODE_NAME_H */
