/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86_64 backend keeps for return probes (see retprobe.c): the
 * kernel's own return hook, rethook; how depends on the kernel's
 * (wrap-rethook.h).
 */
#ifndef OPTPROBE_RET_ARCH_H
#define OPTPROBE_RET_ARCH_H

#include "wrap-rethook.h"

/* The rethook's pool is all there is: the core counts all of it (op_ret_took()). */
#define OP_ARCH_RET_ASIDE	0

#endif /* OPTPROBE_RET_ARCH_H */
