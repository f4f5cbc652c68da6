// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's hit-cost rows ("hit" lines; main.c runs them first in
 * each pass), and the timed loop the return-probe rows share.
 *
 * A target function is called n times in a loop, timed with get_cycles()
 * (x86_64: TSC; ppc64le: the timebase, 512 MHz under QEMU, hence large
 * n) and ktime_get_ns(); each row is the median of @runs such loops, each
 * run with preemption disabled and interrupts on, after one untimed
 * warm-up of n/10 calls.  Under QEMU's -icount shift=0 (scripts/bench's
 * second boot) a nanosecond is one instruction: the same rows then count
 * instructions exactly.
 *
 * Targets, one per class of probed site, each probed by both
 * implementations on the same instruction: in module text
 * (optprobe_bench_target.ko), the ftrace site of optprobe_bench_hit()
 * (function entry through ftrace) and the instruction after it; the
 * first instruction of a function without an ftrace site; inside a
 * function, an ALU instruction, a load or store, a RIP- or TOC-relative
 * instruction and a conditional branch (optprobe_bench_asm()); in
 * kernel-core text, gcd()'s ftrace site and the instruction after it.
 *
 * Rows: no probe; the kernel's kprobe with its optimization switched off
 * (debug.kprobes-optimization = 0, written through /proc/sys); the
 * kernel's kprobe optimized (switch on, wait_for_kprobe_optimizer());
 * optprobe with boosting and optimization off (trap), with boosting only
 * (boosted), with both and optprobe_sync() (optimized), the same with 4
 * probes on the address, and with a post handler.  Every handler only
 * counts its hits (a per-CPU counter), and the counts are checked.  One
 * more row, "floor", on the function without an ftrace site: the same
 * function preceded by a full struct pt_regs save, a direct call of
 * optprobe's pre handler and the restore, what any hit costs at least.
 *
 * Where a hit's instructions go ("reach" lines): on the function without
 * an ftrace site, the rows with one probe and no post handler again, each
 * with a pre handler that only takes the time: from just before the call
 * to the handler's first instruction, the median over the calls.  The
 * same clock (NMI-safe) is read at both ends, so the rows differ exactly
 * by what runs before their handlers; under -icount, in instructions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gcd.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/sort.h>
#include <linux/timex.h>

#include <optprobe.h>

#include "exports.h"
#include "../tests/kmod/optprobe_test.h"
#include "bench.h"
#include "optprobe_bench_target.h"

#define BENCH_NR_PROBES	4	/* most probes on one address (optimized_x4) */

static DEFINE_PER_CPU(unsigned long, bench_post_hits);

unsigned long bench_count(unsigned long __percpu *counter)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(counter, cpu);
	return sum;
}

static void bench_op_post(struct optprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(bench_post_hits);
}

/* The reach rows' pre handlers: when the handler was reached. */
static DEFINE_PER_CPU(u64, bench_reached);

static int bench_reach_op(struct optprobe *p, struct pt_regs *regs)
{
	this_cpu_write(bench_reached, ktime_get_mono_fast_ns());
	return 0;
}

static int bench_reach_kp(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_write(bench_reached, ktime_get_mono_fast_ns());
	return 0;
}

/* The same arguments every call: the same path through every target. */
static noinline u64 bench_run(u64 (*fn)(u64 a, u64 b), unsigned int calls)
{
	u64 a = 3 * 5 * 7 * 11, b = 5 * 7 * 13, acc = 0;
	unsigned int i;

	for (i = 0; i < calls; i++)
		acc += fn(a, b);
	return acc;
}

u64 bench_gcd(u64 a, u64 b)
{
	return gcd(a, b);
}

enum bench_where {
	BENCH_FTRACE,		/* at the function's ftrace site */
	BENCH_AFTER_FTRACE,	/* the first instruction after it */
	BENCH_ASM,		/* optprobe_bench_asm(class)'s site */
};

struct bench_target {
	const char *name;
	u64 (*fn)(u64 a, u64 b);	/* called; of BENCH_ASM, optprobe_bench_asm()'s */
	void *func;			/* probed, of BENCH_FTRACE and BENCH_AFTER_FTRACE */
	enum bench_where where;
	enum optprobe_bench_class class;	/* of BENCH_ASM */
	bool exact;		/* only this module calls it: the hit counts are exact */
};

static const struct bench_target bench_targets[] = {
	{ "module-ftrace", optprobe_bench_hit, optprobe_bench_hit, BENCH_FTRACE, 0, true },
	{ "module-after-ftrace", optprobe_bench_hit, optprobe_bench_hit, BENCH_AFTER_FTRACE, 0,
	  true },
	{ "module-no-ftrace", NULL, NULL, BENCH_ASM, OPTPROBE_BENCH_NOFTRACE, true },
	{ "module-alu", NULL, NULL, BENCH_ASM, OPTPROBE_BENCH_ALU, true },
	{ "module-load-store", NULL, NULL, BENCH_ASM, OPTPROBE_BENCH_MEM, true },
	{ IS_ENABLED(CONFIG_X86) ? "module-rip-relative" : "module-toc-relative", NULL, NULL,
	  BENCH_ASM, OPTPROBE_BENCH_PCREL, true },
	{ "module-jcc", NULL, NULL, BENCH_ASM, OPTPROBE_BENCH_JCC, true },
	{ "core-ftrace", bench_gcd, gcd, BENCH_FTRACE, 0, false },
	{ "core-after-ftrace", bench_gcd, gcd, BENCH_AFTER_FTRACE, 0, false },
};

/* The floor row runs on the target whose body the floor shares only. */
static bool bench_floor_target(const struct bench_target *tg)
{
	return tg->where == BENCH_ASM && tg->class == OPTPROBE_BENCH_NOFTRACE;
}

static u64 (*bench_target_fn(const struct bench_target *tg))(u64 a, u64 b)
{
	return tg->where == BENCH_ASM ? optprobe_bench_asm(tg->class)->fn : tg->fn;
}

/* The probed address of @tg, or 0. */
static unsigned long bench_target_site(const struct bench_target *tg)
{
	unsigned long func = (unsigned long)tg->func;
	const struct optprobe_bench_asm *a;

	switch (tg->where) {
	case BENCH_FTRACE:
		return bench_ksyms.ftrace_location(func);
	case BENCH_AFTER_FTRACE:
		return bench_after_ftrace(func);
	default:
		a = optprobe_bench_asm(tg->class);
		return (unsigned long)a->fn + a->site_offset;
	}
}

struct bench_row {
	const char *name;
	enum bench_impl impl;
	enum optprobe_mode want;
	bool boost, optimize;	/* optprobe's switches; the kernel's optimization */
	unsigned int nprobes;	/* handler runs per call */
	bool post;
	bool floor;		/* no probe: call the floor instead of the target */
};

static const struct bench_row bench_rows[] = {
	{ "none", BENCH_NONE },
	{ "floor", BENCH_NONE, OPTPROBE_MODE_DISABLED, false, false, 1, false, true },
	{ "kprobe", BENCH_KPROBE, OPTPROBE_MODE_TRAP, false, false, 1 },
	{ "kprobe_opt", BENCH_KPROBE, OPTPROBE_MODE_OPTIMIZED, false, true, 1 },
	{ "trap", BENCH_OPTPROBE, OPTPROBE_MODE_TRAP, false, false, 1 },
	{ "boosted", BENCH_OPTPROBE, OPTPROBE_MODE_BOOSTED, true, false, 1 },
	{ "optimized", BENCH_OPTPROBE, OPTPROBE_MODE_OPTIMIZED, true, true, 1 },
	{ "optimized_x4", BENCH_OPTPROBE, OPTPROBE_MODE_OPTIMIZED, true, true, BENCH_NR_PROBES },
	{ "optimized_post", BENCH_OPTPROBE, OPTPROBE_MODE_OPTIMIZED, true, true, 1, true },
};

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 bench_median(u64 *v, unsigned int nr)
{
	sort(v, nr, sizeof(*v), bench_cmp_u64, NULL);
	return v[nr / 2];
}

/* @t from the cycles @c and ns @d of bench_params.runs loops of n */
static void bench_timing_set(struct bench_timing *t, u64 *c, u64 *d)
{
	unsigned int n = bench_params.n, runs = bench_params.runs;

	t->n = n;
	t->runs = runs;
	t->calls = n / 10 + (unsigned long)runs * n;
	t->cycles = bench_median(c, runs);
	t->ns = bench_median(d, runs);
}

void bench_time(u64 (*fn)(u64 a, u64 b), struct bench_timing *t)
{
	unsigned int n = bench_params.n, runs = bench_params.runs;
	u64 c[BENCH_MAX_RUNS], d[BENCH_MAX_RUNS];
	cycles_t c0, c1;
	unsigned int r;
	u64 t0, t1;

	bench_run(fn, n / 10);
	for (r = 0; r < runs; r++) {
		cond_resched();
		preempt_disable();
		c0 = get_cycles();
		t0 = bench_now();
		bench_run(fn, n);
		c1 = get_cycles();
		t1 = bench_now();
		preempt_enable();
		c[r] = c1 - c0;
		d[r] = t1 - t0;
	}
	bench_timing_set(t, c, d);
}

/* The same with one call of @loop per run, @loop(n) iterating n times. */
void bench_time_loop(u64 (*loop)(u64 n), struct bench_timing *t)
{
	unsigned int n = bench_params.n, runs = bench_params.runs;
	u64 c[BENCH_MAX_RUNS], d[BENCH_MAX_RUNS];
	cycles_t c0, c1;
	unsigned int r;
	u64 t0, t1;

	loop(n / 10);
	for (r = 0; r < runs; r++) {
		cond_resched();
		preempt_disable();
		c0 = get_cycles();
		t0 = bench_now();
		loop(n);
		c1 = get_cycles();
		t1 = bench_now();
		preempt_enable();
		c[r] = c1 - c0;
		d[r] = t1 - t0;
	}
	bench_timing_set(t, c, d);
}

/* A row's probes at one address: the kernel's kprobe or optprobe's. */
struct bench_armed {
	struct optprobe probes[BENCH_NR_PROBES], *ps[BENCH_NR_PROBES];
	struct kprobe kp;
	enum optprobe_mode mode;
	const char *reason;	/* why not the mode the row wants */
};

/* Arm @row's probes at @addr, with the reach rows' handlers if @reach. */
static int bench_row_arm(const struct bench_row *row, unsigned long addr, bool reach,
			 struct bench_armed *a)
{
	unsigned int i;
	int ret = 0;

	a->mode = OPTPROBE_MODE_DISABLED;
	a->reason = "";
	if (row->impl == BENCH_KPROBE) {
		memset(&a->kp, 0, sizeof(a->kp));
		a->kp.addr = (void *)addr;
		a->kp.pre_handler = reach ? bench_reach_kp : bench_kp_pre;
		ret = bench_kprobes_optimize(row->optimize);
		if (!ret)
			ret = register_kprobe(&a->kp);
		if (!ret && row->optimize)
			bench_ksyms.wait_for_kprobe_optimizer();
		a->mode = bench_kprobe_mode(addr);
		if (a->mode == OPTPROBE_MODE_FTRACE)
			a->reason = "function entry: runs through ftrace";
		else if (a->mode != row->want)
			a->reason = "the kernel did not optimize it";
	} else if (row->impl == BENCH_OPTPROBE) {
		op_set_boost(row->boost);
		op_set_optimize(row->optimize);
		for (i = 0; i < row->nprobes; i++) {
			memset(&a->probes[i], 0, sizeof(a->probes[i]));
			a->probes[i].addr = (void *)addr;
			a->probes[i].pre_handler = reach ? bench_reach_op : optprobe_bench_pre;
			a->probes[i].post_handler = row->post ? bench_op_post : NULL;
			a->ps[i] = &a->probes[i];
		}
		ret = optprobe_register_many(a->ps, row->nprobes);
		if (!ret && row->optimize)
			optprobe_sync();
		if (!ret) {
			a->mode = optprobe_mode(a->ps[0]);
			a->reason = optprobe_reason(a->ps[0]);
		}
	}
	return ret;
}

static void bench_row_disarm(const struct bench_row *row, struct bench_armed *a)
{
	if (row->impl == BENCH_KPROBE) {
		unregister_kprobe(&a->kp);
		/* an optimized kprobe's jump goes away in the optimizer */
		bench_ksyms.wait_for_kprobe_optimizer();
	} else if (row->impl == BENCH_OPTPROBE) {
		optprobe_unregister_many(a->ps, row->nprobes);
		optprobe_sync();
	}
}

/* Every switch a row may have turned, back as the benchmark found it. */
static void bench_row_switches_reset(void)
{
	op_set_boost(true);
	op_set_optimize(true);
	bench_kprobes_optimize(true);
}

static void bench_hit_row(struct ktap *ktap, const struct bench_target *tg,
			  unsigned long addr, const struct bench_row *row)
{
	unsigned long pre0, post0, pre, post, calls, bp;
	struct bench_armed a;
	struct bench_timing t;
	char name[64], more[32] = "";
	int ret;

	snprintf(name, sizeof(name), "hit_%s_%s", tg->name, row->name);
	ret = bench_row_arm(row, addr, false, &a);
	if (ret) {
		ktap_check(ktap, false, name, "cannot register at %pS: %d", (void *)addr, ret);
		goto out;
	}

	pre0 = bench_count(&optprobe_bench_pre_hits);
	post0 = bench_count(&bench_post_hits);
	bp = op_bp_traps();
	bench_time(row->floor ? optprobe_bench_asm(OPTPROBE_BENCH_FLOOR)->fn :
		   bench_target_fn(tg), &t);
	bp = op_bp_traps() - bp;
	pre = bench_count(&optprobe_bench_pre_hits) - pre0;
	post = bench_count(&bench_post_hits) - post0;
	bench_row_disarm(row, &a);

	/* optprobe's breakpoint traps per call: exact where nothing else calls the target */
	calls = t.calls * row->nprobes;
	if (!ktap_check(ktap, tg->exact ? pre == calls && post == (row->post ? calls : 0) &&
			bp % t.calls == 0 :
			pre >= calls && post >= (row->post ? calls : 0), name,
			"%lu pre and %lu post handler runs, %lu breakpoint traps for %lu calls",
			pre, post, bp, calls))
		goto out;
	if (row->impl == BENCH_OPTPROBE)
		snprintf(more, sizeof(more), " breakpoints=%lu", DIV_ROUND_CLOSEST(bp, t.calls));
	pr_info("hit target=%s row=%s impl=%s want=%s mode=%s probes=%u n=%u runs=%u cycles=%llu ns=%llu%s reason=%s\n",
		tg->name, row->name, bench_impl_name(row->impl),
		row->impl == BENCH_NONE ? "none" : test_mode_name(row->want),
		row->impl == BENCH_NONE ? "none" : test_mode_name(a.mode),
		row->impl == BENCH_NONE ? 0 : row->nprobes, t.n, t.runs, t.cycles, t.ns, more,
		a.mode == row->want ? "" : a.reason);
out:
	bench_row_switches_reset();
}

/* The rows a reach row repeats: one probe, a pre handler only. */
static bool bench_row_reaches(const struct bench_row *row)
{
	return row->impl != BENCH_NONE && row->nprobes == 1 && !row->post;
}

static void bench_reach_row(struct ktap *ktap, const struct bench_target *tg,
			    unsigned long addr, const struct bench_row *row)
{
	unsigned int i, calls = bench_params.n / 10 + 1, missed = 0;
	u64 (*fn)(u64 a, u64 b) = bench_target_fn(tg);
	unsigned long bp;
	struct bench_armed a;
	char name[64], more[32] = "";
	u64 *d, t0, t1;
	int ret;

	snprintf(name, sizeof(name), "reach_%s_%s", tg->name, row->name);
	d = kmalloc_array(calls, sizeof(*d), GFP_KERNEL);
	ret = d ? bench_row_arm(row, addr, true, &a) : -ENOMEM;
	if (ret) {
		ktap_check(ktap, false, name, "cannot register at %pS: %d", (void *)addr, ret);
		goto out;
	}
	bp = op_bp_traps();
	for (i = 0; i < calls; i++) {
		preempt_disable();
		this_cpu_write(bench_reached, 0);
		t0 = ktime_get_mono_fast_ns();
		bench_run(fn, 1);
		t1 = this_cpu_read(bench_reached);
		preempt_enable();
		missed += t1 < t0;
		d[i] = t1 - t0;
	}
	bp = op_bp_traps() - bp;
	bench_row_disarm(row, &a);
	/* optprobe's breakpoint traps: nothing else is probed, each call takes as many */
	if (!ktap_check(ktap, !missed && (row->impl != BENCH_OPTPROBE || bp % calls == 0), name,
			"%u of %u calls did not reach the handler, %lu breakpoint traps", missed,
			calls, bp))
		goto out;
	if (row->impl == BENCH_OPTPROBE)
		snprintf(more, sizeof(more), " breakpoints=%lu", bp / calls);
	pr_info("reach target=%s row=%s impl=%s mode=%s n=%u ns=%llu%s\n", tg->name,
		row->name, bench_impl_name(row->impl), test_mode_name(a.mode), calls,
		bench_median(d, calls), more);
out:
	kfree(d);
	bench_row_switches_reset();
}

static bool bench_row_now(const struct bench_row *row)
{
	return (row->impl == BENCH_KPROBE) == (bench_pass == BENCH_KPROBE);
}

unsigned int bench_hit_plan(void)
{
	unsigned int i, reach = 0;

	for (i = 0; i < ARRAY_SIZE(bench_rows); i++)
		reach += bench_row_reaches(&bench_rows[i]);
	/* the floor row and the reach rows on one target only */
	return ARRAY_SIZE(bench_targets) * (ARRAY_SIZE(bench_rows) - 1) + 1 + reach;
}

void bench_hits(struct ktap *ktap)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(bench_targets); i++) {
		const struct bench_target *tg = &bench_targets[i];
		unsigned long addr = bench_target_site(tg);

		if (bench_pass == BENCH_OPTPROBE)
			pr_info("target name=%s addr=%pS\n", tg->name, (void *)addr);
		for (j = 0; j < ARRAY_SIZE(bench_rows); j++) {
			if (!bench_row_now(&bench_rows[j]) ||
			    (bench_rows[j].floor && !bench_floor_target(tg)))
				continue;
			if (addr)
				bench_hit_row(ktap, tg, addr, &bench_rows[j]);
			else
				ktap_check(ktap, false, tg->name, "%ps has no ftrace site",
					   tg->func);
		}
		/* the target without an ftrace site: its first instruction in every mode */
		for (j = 0; bench_floor_target(tg) && j < ARRAY_SIZE(bench_rows); j++)
			if (bench_row_now(&bench_rows[j]) && bench_row_reaches(&bench_rows[j]))
				bench_reach_row(ktap, tg, addr, &bench_rows[j]);
	}
}
