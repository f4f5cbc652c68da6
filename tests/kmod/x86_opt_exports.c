// SPDX-License-Identifier: GPL-2.0
/* The targets in x86_opt_targets.S, for optprobe_test_x86_opt and optprobe_test_coexist. */
#include <linux/export.h>
#include <linux/module.h>

#include "x86_opt_targets.h"

unsigned long op_tx86_call_sp;
void (*op_tx86_callee_hook)(void);

/* The key of op_tx86_static_key's jump label, whose entry the assembly writes. */
DEFINE_STATIC_KEY_FALSE(op_tx86_key);

static void op_tx86_static_key_set(bool on)
{
	if (on)
		static_branch_enable(&op_tx86_key);
	else
		static_branch_disable(&op_tx86_key);
}

const struct op_tx86_targets op_tx86_targets = {
	.call = op_tx86_call,
	.call_sp = &op_tx86_call_sp,
	.riprel_load = op_tx86_riprel_load,
	.riprel_store = op_tx86_riprel_store,
	.pushpop = op_tx86_pushpop,
	.flags = op_tx86_flags,
	.shift = op_tx86_shift,
	.jcc = op_tx86_jcc,
	.jmp = op_tx86_jmp,
	.ret42 = op_tx86_ret42,
	.call_in_region = op_tx86_call_in_region,
	.jump_into = op_tx86_jump_into,
	.jump_table = op_tx86_jump_table,
	.coexist = { op_tx86_coexist0, op_tx86_coexist1, op_tx86_coexist2, op_tx86_coexist3,
		     op_tx86_coexist4, op_tx86_coexist5 },
	.boundary = op_tx86_boundary,
	.jmp8 = op_tx86_jmp8,
	.jmp_next = op_tx86_jmp_next,
	.static_key = op_tx86_static_key,
	.static_key_set = op_tx86_static_key_set,
	.uaccess = op_tx86_uaccess,
	.df = op_tx86_df,
	.call_end = op_tx86_call_end,
	.jcc8_end = op_tx86_jcc8_end,
	.jcc32_end = op_tx86_jcc32_end,
	.jmp8_end = op_tx86_jmp8_end,
	.jmp32_end = op_tx86_jmp32_end,
	.tail_call = op_tx86_tail_call,
	.ret_end = op_tx86_ret_end,
	.table = op_tx86_table,
	.cold_join = op_tx86_cold_join,
	.cold_part = &op_tx86_cold_part,
	.callee_hook = &op_tx86_callee_hook,
};
EXPORT_SYMBOL_GPL(op_tx86_targets);

MODULE_DESCRIPTION("optprobe test targets: x86_64 instruction classes for jump optimization");
MODULE_LICENSE("GPL");

/*
 * C, and notrace: no ftrace site.  Built with IBT (6.12), gcc starts it
 * with an ENDBR64, where its indirect calls land (optprobe_test_x86_endbr).
 */
noinline notrace long op_tx86_endbr(long a, long b)
{
	long r = a * 3 + b;

	barrier();
	return r ^ (a << 2);
}
EXPORT_SYMBOL_GPL(op_tx86_endbr);
