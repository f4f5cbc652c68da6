/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86_64 backend keeps for return probes (see retprobe.c): the
 * kernel's own return hook, a struct rethook per probe, whose pool holds
 * the instances, and a struct rethook_node in each instance.
 */
#ifndef OPTPROBE_RET_ARCH_H
#define OPTPROBE_RET_ARCH_H

#include <linux/rethook.h>

struct op_arch_ret {
	struct rethook *rh;
};

/* First in struct op_ret_inst: the rethook frees a node with kfree(). */
struct op_arch_ret_inst {
	struct rethook_node node;
};

#endif /* OPTPROBE_RET_ARCH_H */
