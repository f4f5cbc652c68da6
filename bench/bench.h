/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of optprobe_bench.ko share: main.c (the run, hit cost,
 * scale, coverage) and ret.c (return probes).
 */
#ifndef OPTPROBE_BENCH_H
#define OPTPROBE_BENCH_H

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/insn.h>
#endif

#include <optprobe.h>

#include "ksyms.h"

struct ktap;

/* The kernel symbols the benchmark needs that are not exported. */
struct bench_ksyms {
	typeof(op_ptr_to(kallsyms_on_each_symbol)) kallsyms_on_each_symbol;
	typeof(op_ptr_to(kallsyms_lookup_size_offset)) kallsyms_lookup_size_offset;
	typeof(op_ptr_to(ftrace_location)) ftrace_location;
	typeof(op_ptr_to(core_kernel_text)) core_kernel_text;
	typeof(op_ptr_to(get_kprobe)) get_kprobe;
	typeof(op_ptr_to(wait_for_kprobe_optimizer)) wait_for_kprobe_optimizer;
	typeof(op_ptr_to(vmalloc_nr_pages)) vmalloc_nr_pages;
#ifdef CONFIG_X86
	typeof(op_ptr_to(insn_decode)) insn_decode;
#endif
};

extern struct bench_ksyms bench_ksyms;

enum bench_impl { BENCH_NONE, BENCH_KPROBE, BENCH_OPTPROBE };

/* Whose rows run now: BENCH_OPTPROBE (and the baseline), then BENCH_KPROBE. */
extern enum bench_impl bench_pass;

const char *bench_impl_name(enum bench_impl impl);

/* What a kernel kprobe at @addr runs as: the flags of the probe hashed there. */
enum optprobe_mode bench_kprobe_mode(unsigned long addr);

/* Switch the kernel's kprobe optimization (debug.kprobes-optimization). */
int bench_kprobes_optimize(bool on);

/* The sum of a per-CPU counter over every CPU. */
unsigned long bench_count(unsigned long __percpu *counter);

/* gcd() to the type of a target; the call it adds is in every row */
u64 bench_gcd(u64 a, u64 b);

/* One timed row: @runs loops of @n calls, after a warm-up of n / 10. */
struct bench_timing {
	unsigned int n, runs;
	unsigned long calls;	/* every call made, the warm-up's too */
	u64 cycles, ns;		/* of the median loop */
};

void bench_time(u64 (*fn)(u64 a, u64 b), struct bench_timing *t);

/* ret.c: the return-probe rows of the current pass, and their KTAP plan */
unsigned int bench_ret_plan(void);
void bench_rets(struct ktap *ktap);

#endif /* OPTPROBE_BENCH_H */
