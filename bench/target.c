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

MODULE_DESCRIPTION("optprobe benchmark: the hit-cost targets");
MODULE_LICENSE("GPL");
