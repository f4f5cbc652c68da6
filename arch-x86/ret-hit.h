/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 backend's part of the return-probe hit path (core/arch.h):
 * calls into the kernel's rethook, through pointers resolved at load, out
 * of line (retprobe.c, retprobe-objpool.c); the counts of the pool here.
 */
#ifndef OPTPROBE_RET_HIT_H
#define OPTPROBE_RET_HIT_H

#include <asm/ptrace.h>

struct op_ret;
struct op_ret_inst;
struct pt_regs;

struct op_ret_inst *op_x86_ret_get(struct op_ret *ret);
void op_x86_ret_put(struct op_ret *ret, struct op_ret_inst *inst);
void op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs);

static __always_inline struct op_ret_inst *op_arch_ret_get(struct op_ret *ret)
{
	struct op_ret_inst *inst = op_x86_ret_get(ret);

	if (inst)
		op_ret_took(ret);
	return inst;
}

static __always_inline void op_arch_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	op_ret_reclaimed(ret);
	op_x86_ret_put(ret, inst);
}

/* The flags a breakpoint or a detour saved. */
static __always_inline bool op_arch_regs_irqs_on(struct pt_regs *regs)
{
	return !regs_irqs_disabled(regs);
}

#endif /* OPTPROBE_RET_HIT_H */
