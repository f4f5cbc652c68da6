/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-version test of the wrappers (wrap-*.h), the only files
 * that may use it: everything else calls what they define (make lint
 * checks).
 */
#ifndef OPTPROBE_WRAP_KVER_H
#define OPTPROBE_WRAP_KVER_H

#include <linux/version.h>

/* Is the kernel built against at least version @major.@minor? */
#define OP_KERNEL_AT_LEAST(major, minor) (KERNEL_VERSION(major, minor, 0) <= LINUX_VERSION_CODE)

#endif /* OPTPROBE_WRAP_KVER_H */
