/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe: jump-optimized dynamic probes for the Linux kernel.
 *
 * The only header probe modules include.  Build a probe module with
 * "make module M=/path/to/it" from the optprobe tree; it links against
 * optprobe.ko's exports.
 */
#ifndef _OPTPROBE_H
#define _OPTPROBE_H

/**
 * optprobe_sync() - wait for optprobe's pending text changes
 *
 * Optimizing and unoptimizing probes is done asynchronously, in batches.
 * optprobe_sync() returns once all such work queued before the call has
 * completed.  It may sleep.
 *
 * Context: process context.
 */
void optprobe_sync(void);

#endif /* _OPTPROBE_H */
