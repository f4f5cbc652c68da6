// SPDX-License-Identifier: GPL-2.0
/*
 * The hit-cost target of optprobe_bench.ko; see optprobe_bench_target.h.
 * noinline and __noipa: it exists once, at its symbol, and no caller
 * assumes anything about its body.
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

MODULE_DESCRIPTION("optprobe benchmark: the hit-cost target");
MODULE_LICENSE("GPL");
