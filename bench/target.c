// SPDX-License-Identifier: GPL-2.0
/*
 * The hit-cost targets of optprobe_bench.ko; see optprobe_bench_target.h.
 * noinline and __noipa: optprobe_bench_hit() exists once, at its symbol,
 * and no caller assumes anything about its body.
 */
#include <linux/compiler.h>
#include <linux/module.h>

#include "optprobe_bench_target.h"

noinline __noipa u64 optprobe_bench_hit(u64 a, u64 b)
{
	u64 x = a * 3 + b;

	x ^= x >> 7;
	return x + 11;
}
EXPORT_SYMBOL_GPL(optprobe_bench_hit);

DEFINE_PER_CPU(unsigned long, optprobe_bench_pre_hits);
EXPORT_PER_CPU_SYMBOL_GPL(optprobe_bench_pre_hits);

int optprobe_bench_pre(struct optprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(optprobe_bench_pre_hits);
	return 0;
}
EXPORT_SYMBOL_GPL(optprobe_bench_pre);

const struct optprobe_bench_asm *optprobe_bench_asm(enum optprobe_bench_class class)
{
	return &optprobe_bench_asm_table[class];
}
EXPORT_SYMBOL_GPL(optprobe_bench_asm);

/*
 * Never called, and linked last (Kbuild): it keeps every probed target
 * from being the module's last function.  On 6.12 a module's text is a
 * mapping of its own, and kallsyms sizes its last function to the end of
 * it; the kernel's x86 kprobe optimizer (can_optimize()) decodes a
 * function to its end and read past the mapping there (an Oops in
 * insn_get_modrm()).
 */
static noinline __used __noipa void optprobe_bench_end(void)
{
}

MODULE_DESCRIPTION("optprobe benchmark: the hit-cost targets");
MODULE_LICENSE("GPL");
