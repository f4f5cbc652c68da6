// SPDX-License-Identifier: GPL-2.0
/*
 * Why the kernel's own kprobes leave a powerpc site unoptimized.  The
 * kernel says nothing: the kprobe just stays a trap.  So the coverage
 * sweep asks this model of its rules (Debian's 6.1 and 6.12 sources,
 * arch/powerpc/kernel/optprobes.c): can_optimize() takes no conditional
 * branch (by is_conditional_branch(), which counts blr and bctr in) and
 * only an instruction analyse_instr() finishes from the registers alone
 * (1: no load or store); arch_prepare_optimized_kprobe() then needs a
 * slot of the kernel's detour cache within a branch's reach of the site.
 *
 * The cache is read only by the kernel, and it hands its slots out as
 * kprobes register, in order; a site the rules allow that stays
 * unoptimized while no site registered after it got optimized is put
 * down to the cache having run out (bench/coverage.c).  The sweep holds
 * the model to the kernel's verdicts: a site the kernel optimized must
 * pass it.
 */
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <asm/code-patching.h>
#include <asm/inst.h>

#include "exports.h"
#include "bench.h"

static typeof(op_ptr_to(is_conditional_branch)) krules_is_conditional_branch;

static const struct op_ksym krules_ksym_table[] = {
	{ .name = "is_conditional_branch", .slot = (void **)&krules_is_conditional_branch },
};

int bench_kernel_rules_init(void)
{
	return op_ksyms_resolve(krules_ksym_table, ARRAY_SIZE(krules_ksym_table));
}

const char *const bench_kernel_slots_out = "no free slot left in the kernel's detour cache";

const char *bench_kernel_refusal(unsigned long addr, const unsigned long *chunk, unsigned int nr)
{
	struct pt_regs regs = { .msr = MSR_KERNEL, .nip = addr };
	struct instruction_op op;
	u32 words[2];
	ppc_inst_t insn;
	int ret;

	if (copy_from_kernel_nofault(words, (void *)addr, sizeof(words)))
		return "its instruction is unreadable";
	insn = ppc_inst_read(words);
	if (krules_is_conditional_branch(insn))
		return "a conditional branch, blr or bctr (all conditional to the kernel)";
	ret = analyse_instr(&op, &regs, insn);
	if (ret == 0)
		return "a load, store or system instruction (emulated from registers only)";
	if (ret < 0)
		return "an instruction analyse_instr() does not know";
	return NULL;
}
