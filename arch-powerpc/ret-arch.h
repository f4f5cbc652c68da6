/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the powerpc64le backend keeps for return probes (see retprobe.c):
 * a lock-free pool per probe, and per instance its own return address
 * into op_ret_trampoline (a stub), with what the return needs.
 */
#ifndef OPTPROBE_RET_ARCH_H
#define OPTPROBE_RET_ARCH_H

/*
 * op_ret_trampoline's stubs, one instruction each: the most instances
 * that all return probes together may have.
 */
#define OP_PPC_RET_STUBS	65536

#ifndef __ASSEMBLY__

#include "wrap-freelist.h"
#include <linux/types.h>

struct op_ret_inst;
struct task_struct;

/*
 * The instances in per-CPU places (->hot) are not counted in the pool
 * (op_ret_took(), op_ret_reclaimed()): a call that takes its CPU's
 * instance back costs no count.
 */
#define OP_ARCH_RET_ASIDE	nr_cpu_ids

struct op_arch_ret {
	struct freelist_head pool;
	struct op_ret_inst * __percpu *hot;	/* per CPU, one free instance or NULL */
};

struct op_arch_ret_inst {
	union {
		struct freelist_node free;	/* in the pool */
		struct rcu_head rcu;		/* being freed */
	};
	struct task_struct *task;	/* the task it is in flight on, or NULL */
	unsigned long ret_addr;		/* the real return address */
	unsigned long sp;		/* r1 at the entry, which the return restores */
	unsigned long stub;		/* its own return address into op_ret_trampoline */
};

/* Where every followed call returns to first (rettramp.S), and what it calls. */
void op_ret_trampoline(void);
struct pt_regs;
unsigned long op_ppc_ret_return(struct pt_regs *regs, unsigned long stub);

#endif /* __ASSEMBLY__ */
#endif /* OPTPROBE_RET_ARCH_H */
