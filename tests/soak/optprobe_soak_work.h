/* SPDX-License-Identifier: GPL-2.0 */
/* Module text for the kernel-wide soak to probe (optprobe_soak_work.c). */
#ifndef OPTPROBE_SOAK_WORK_H
#define OPTPROBE_SOAK_WORK_H

#include <linux/types.h>

struct optprobe_soak_work {
	void * const *fns;	/* the functions to probe */
	unsigned int nr;
	u32 (*pass)(void);	/* calls them all: a checksum, the same with probes */
};

extern const struct optprobe_soak_work optprobe_soak_work;

#endif /* OPTPROBE_SOAK_WORK_H */
