/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The powerpc64le backend's part of the return-probe hit path
 * (core/arch.h; see retprobe.c, and ret-hit.c for its slow path), inline
 * in the entry's pre handler and
 * in the return: a call followed costs one atomic exchange each way.
 */
#ifndef OPTPROBE_RET_HIT_H
#define OPTPROBE_RET_HIT_H

#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/hw_irq.h>
#include <asm/ptrace.h>

struct op_ret_inst *op_ppc_ret_get_slow(struct op_ret *ret);

/* This CPU's instance, or the list's, or another CPU's; NULL if none is free. */
static __always_inline struct op_ret_inst *op_arch_ret_get(struct op_ret *ret)
{
	struct op_ret_inst *inst = xchg_acquire(this_cpu_ptr(ret->arch.hot), NULL);

	return likely(inst) ? inst : op_ppc_ret_get_slow(ret);
}

/* To this CPU's place if it is free, else to the list. */
static __always_inline void op_arch_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	if (cmpxchg_release(this_cpu_ptr(ret->arch.hot), NULL, inst)) {
		freelist_add(&inst->arch.free, &ret->arch.pool);
		op_ret_reclaimed(ret);
	}
}

/* The call returns to @inst's stub, which tells op_ppc_ret_return() it is this one. */
static __always_inline void op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	WRITE_ONCE(inst->arch.task, current);
	inst->arch.ret_addr = regs->link;
	inst->arch.sp = regs->gpr[1];
	regs->link = inst->arch.stub;
}

/* The soft mask a program check or a detour saved (SOFTE). */
static __always_inline bool op_arch_regs_irqs_on(struct pt_regs *regs)
{
	return !arch_irq_disabled_regs(regs);
}

#endif /* OPTPROBE_RET_HIT_H */
