/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86_64 backend keeps for return probes (see retprobe.c): the
 * kernel's own return hook, rethook; how depends on the kernel's
 * (wrap-rethook.h).
 */
#ifndef OPTPROBE_RET_ARCH_H
#define OPTPROBE_RET_ARCH_H

#include "wrap-rethook.h"

#endif /* OPTPROBE_RET_ARCH_H */
