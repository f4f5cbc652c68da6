/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the powerpc64le backend keeps for return probes (see retprobe.c):
 * a lock-free pool per probe, and per followed call the real return
 * address and its place on its task's stack of calls.
 */
#ifndef OPTPROBE_RET_ARCH_H
#define OPTPROBE_RET_ARCH_H

#include "wrap-freelist.h"
#include <linux/types.h>

struct op_ret_inst;
struct op_ppc_ret_task;

struct op_arch_ret {
	struct freelist_head pool;
	struct op_ret_inst * __percpu *hot;	/* per CPU, one free instance or NULL */
};

struct op_arch_ret_inst {
	struct freelist_node free;	/* in the pool */
	struct op_ret_inst *below;	/* the call below it on its task's stack */
	unsigned long ret_addr;		/* the real return address */
	unsigned long sp;		/* r1 at the entry, which the return restores */
	struct op_ppc_ret_task *home;	/* its task's hash entry, if it claimed one */
};

/* Where every followed call returns to first (rettramp.S), and what it calls. */
void op_ret_trampoline(void);
struct pt_regs;
unsigned long op_ppc_ret_return(struct pt_regs *regs);

#endif /* OPTPROBE_RET_ARCH_H */
