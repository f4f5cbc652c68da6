// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's benchmark against the kernel's own kprobes, in one boot
 * (make bench, scripts/bench).  Everything runs at load; the results are
 * console lines "optprobe_bench: KIND key=value ... [reason=free text]"
 * that scripts/bench turns into JSON, plus KTAP, one result per row, so
 * that a row that cannot run (a refused registration, a wrong hit count)
 * fails the run.
 *
 * Every row says which mode its probes actually reached (optprobe_mode(),
 * and optprobe_reason() when that is not the mode asked for; for the
 * kernel's kprobes, KPROBE_FLAG_OPTIMIZED on the probe the kernel hashed
 * at the address): nothing is assumed.
 *
 * 1. Hit cost ("hit" lines).  A target function is called n times in a
 *    loop, timed with get_cycles() (x86_64: TSC; ppc64le: the timebase,
 *    512 MHz under QEMU, hence large n) and ktime_get_ns(); each row is the
 *    median of @runs such loops, each run with preemption disabled and
 *    interrupts on, after one untimed warm-up of n/10 calls.  Under
 *    QEMU's -icount shift=0 (scripts/bench's second boot) a nanosecond is
 *    one instruction: the same rows then count instructions exactly.
 *    Targets, one per class of probed site, each probed by both
 *    implementations on the same instruction: in module text
 *    (optprobe_bench_target.ko), the ftrace site of optprobe_bench_hit()
 *    (function entry through ftrace) and the instruction after it; the
 *    first instruction of a function without an ftrace site; inside a
 *    function, an ALU instruction, a load or store, a RIP- or TOC-relative
 *    instruction and a conditional branch (optprobe_bench_asm()); in
 *    kernel-core text, gcd()'s ftrace site and the instruction after it.
 *    Rows: no
 *    probe; the kernel's kprobe with its optimization switched off
 *    (debug.kprobes-optimization = 0, written through /proc/sys); the
 *    kernel's kprobe optimized (switch on, wait_for_kprobe_optimizer());
 *    optprobe with boosting and optimization off (trap), with boosting
 *    only (boosted), with both and optprobe_sync() (optimized), the same
 *    with 4 probes on the address, and with a post handler.  Every
 *    handler only counts its hits (a per-CPU counter), and the counts are
 *    checked.  One more row, "floor", on the function without an ftrace
 *    site: the same function preceded by a full struct pt_regs save, a
 *    direct call of optprobe's pre handler and the restore, what any hit
 *    costs at least.
 *
 *    Then the return-probe rows ("ret" lines, ret.c): optprobe's return
 *    probes against the kernel's kretprobe and fprobe, per call.
 *
 * 2. Scale ("sites" and "scale" lines).  Sites: in kernel text, the first
 *    instruction after the ftrace site of every function kallsyms lists
 *    (address order), less the functions that run while probes are set
 *    up (bench_drop_hot(); cold=0 keeps them); in module text (ppc64le by
 *    default), every instruction after the ftrace site of the generated
 *    functions of optprobe_bench_text.ko, up to the end of their code,
 *    which never runs.  One candidate is drawn from each of (largest n)
 *    equal slices of them (bench_choose()), and kept if both
 *    implementations accept it (registered disarmed, then unregistered;
 *    refusals are counted).  Each n of scale_n takes an evenly spaced
 *    subset.  Timed: optprobe_register_many() (armed), then
 *    optprobe_sync() (optimized), then optprobe_unregister_many() and
 *    optprobe_sync(); the kernel's register_kprobes(),
 *    wait_for_kprobe_optimizer(), unregister_kprobes() and
 *    wait_for_kprobe_optimizer().  Memory: the growth of slab pages
 *    (NR_SLAB_*, after folding the per-CPU counters through
 *    /proc/sys/vm/stat_refresh) and of vmalloc pages (slot and detour
 *    pages come from module_alloc()) between before registering and
 *    optimized; the caller's own struct optprobe/struct kprobe are not
 *    counted.  Page granularity: a few pages of noise.
 *
 * 3. Coverage ("coverage" and "reason" lines).  Two sweeps of kernel
 *    text: "entry", the first instruction after the ftrace site of every
 *    cov_stride-th function (from seed % cov_stride); "random", cov_random
 *    instruction boundaries after the ftrace site of functions picked with
 *    prandom seeded by @seed.  Each site is registered on its own, armed,
 *    by each implementation in turn, BENCH_COV_CHUNK sites at a time;
 *    after the optimizer is done, the optimized ones are counted, and the
 *    others binned by optprobe_reason() (or by the kernel's errno).
 *
 * Both implementations refuse an address the other holds, so they never
 * run at the same time.  Every phase runs in two passes: optprobe's rows
 * (and the unprobed baseline) first, then the kernel's.  On ppc64le the
 * kernel keeps its 64 KiB detour area for kernel text (optinsn_slot) for
 * the rest of the boot once one of its kprobes has been prepared for
 * optimization, which registering does, even disarmed or in module text;
 * optprobe then cannot optimize kernel-core text any more.  So the
 * kernel's registrations made before its pass (to choose sites) run while
 * an optimized optprobe probe holds that area (bench_hold_area()).  (On
 * Debian's 6.1 the kernel holds it from boot: its kprobe on
 * __kretprobe_trampoline is optimized there.  The "hold" lines say so.)
 *
 * The optprobe switches are left on (their defaults), and
 * debug.kprobes-optimization as it was found.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/gcd.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timex.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#ifdef CONFIG_X86
#include <asm/insn.h>
#include <asm/text-patching.h>
#else
#include <asm/ppc-opcode.h>
#include <asm/time.h>
#endif

#include <optprobe.h>

#include "internal.h"
#include "ksyms.h"
#include "wrap-kallsyms.h"
#include "../tests/kmod/optprobe_test.h"
#include "bench.h"
#include "optprobe_bench_target.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static bool hits = true;
module_param(hits, bool, 0444);
MODULE_PARM_DESC(hits, "run the hit-cost rows");
static bool scale = true;
module_param(scale, bool, 0444);
MODULE_PARM_DESC(scale, "run the scale rows");
static bool coverage = true;
module_param(coverage, bool, 0444);
MODULE_PARM_DESC(coverage, "run the coverage sweeps");
static unsigned int n = 50000;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "calls of the target per timed run");
static unsigned int runs = 7;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "timed runs per hit-cost row (the median is reported)");
static unsigned int scale_n[4] = { 1000, 10000 };
static unsigned int nr_scale_n = 2;
module_param_array(scale_n, uint, &nr_scale_n, 0444);
MODULE_PARM_DESC(scale_n, "probe counts of the scale rows, ascending");
static char *scale_text;
module_param(scale_text, charp, 0444);
MODULE_PARM_DESC(scale_text, "kernel, module or kernel,module (default: module too on ppc64le)");
static unsigned int cov_stride = 25;
module_param(cov_stride, uint, 0444);
MODULE_PARM_DESC(cov_stride, "coverage: every cov_stride-th kernel function");
static unsigned int cov_random = 500;
module_param(cov_random, uint, 0444);
MODULE_PARM_DESC(cov_random, "coverage: random instruction boundaries");
static bool cold = true;
module_param(cold, bool, 0444);
MODULE_PARM_DESC(cold, "scale: leave out kernel functions that run while probes are set up");
static unsigned int seed = 1;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "seed of the site choices");

#define BENCH_MAX_RUNS	15
#define BENCH_NR_PROBES	4	/* most probes on one address (optimized_x4) */

struct bench_ksyms bench_ksyms;

#define BENCH_KSYM(sym) { .name = #sym, .slot = (void **)&bench_ksyms.sym }
static const struct op_ksym bench_ksym_table[] = {
	BENCH_KSYM(kallsyms_on_each_symbol),
	BENCH_KSYM(kallsyms_lookup_size_offset),
	BENCH_KSYM(ftrace_location),
	BENCH_KSYM(core_kernel_text),
	BENCH_KSYM(get_kprobe),
	BENCH_KSYM(wait_for_kprobe_optimizer),
	BENCH_KSYM(vmalloc_nr_pages),
#ifdef CONFIG_X86
	BENCH_KSYM(insn_decode),
#endif
};

#define KPROBES_OPTIMIZATION	"/proc/sys/debug/kprobes-optimization"
#define VM_STAT_REFRESH		"/proc/sys/vm/stat_refresh"

static struct ktap ktap;
static char kprobes_optimization[8] = "1\n";	/* as found at load */

enum optprobe_mode bench_kprobe_mode(unsigned long addr)
{
	enum optprobe_mode mode = OPTPROBE_MODE_DISABLED;
	struct kprobe *kp;

	rcu_read_lock();
	kp = bench_ksyms.get_kprobe((void *)addr);
	if (kp && kprobe_gone(kp))
		mode = OPTPROBE_MODE_GONE;
	else if (kp && kprobe_disabled(kp))
		mode = OPTPROBE_MODE_DISABLED;
	else if (kp && kprobe_optimized(kp))
		mode = OPTPROBE_MODE_OPTIMIZED;
	else if (kp && kprobe_ftrace(kp))
		mode = OPTPROBE_MODE_FTRACE;
	else if (kp)
		mode = OPTPROBE_MODE_TRAP;
	rcu_read_unlock();
	return mode;
}

/* Read or write a /proc/sys file, as root does from a shell. */
static int bench_sysctl(const char *path, char *buf, size_t len, bool write)
{
	struct file *f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	if (write) {
		ret = kernel_write(f, buf, len, &pos);
	} else {
		ret = kernel_read(f, buf, len - 1, &pos);
		if (ret >= 0)
			buf[ret] = '\0';
	}
	filp_close(f, NULL);
	return ret < 0 ? ret : 0;
}

int bench_kprobes_optimize(bool on)
{
	char val[] = "0\n";

	val[0] += on;
	return bench_sysctl(KPROBES_OPTIMIZATION, val, 2, true);
}

enum bench_impl bench_pass;

const char *bench_impl_name(enum bench_impl impl)
{
	return impl == BENCH_KPROBE ? "kprobe" : impl == BENCH_OPTPROBE ? "optprobe" : "none";
}

/* Length of the instruction at @addr (kernel or module text), or 0. */
static unsigned int bench_insn_len(unsigned long addr)
{
#ifdef CONFIG_X86
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;

	if (copy_from_kernel_nofault(buf, (void *)addr, sizeof(buf)) ||
	    bench_ksyms.insn_decode(&insn, buf, sizeof(buf), INSN_MODE_KERN) < 0)
		return 0;
	return insn.length;
#else
	u32 word;

	if (copy_from_kernel_nofault(&word, (void *)addr, sizeof(word)))
		return 0;
	return word >> 26 == 1 ? 8 : 4;		/* a prefix word: 8-byte instruction */
#endif
}

/* The first instruction after the ftrace site of the function at @func, or 0. */
static unsigned long bench_after_ftrace(unsigned long func)
{
	unsigned long loc = bench_ksyms.ftrace_location(func);

	return loc ? loc + MCOUNT_INSN_SIZE : 0;
}

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int bench_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static u64 bench_median(u64 *v, unsigned int nr)
{
	sort(v, nr, sizeof(*v), bench_cmp_u64, NULL);
	return v[nr / 2];
}

static u64 bench_now(void)
{
	return ktime_get_ns();
}

/*
 * Slab and vmalloc pages in use.  The per-CPU differences of the vmstat
 * counters are folded first: they would hide hundreds of pages.
 */
struct bench_mem {
	long slab, vmalloc;
};

static void bench_mem_sample(struct bench_mem *m)
{
	char one[] = "1\n";

	bench_sysctl(VM_STAT_REFRESH, one, 2, true);
	m->slab = global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) +
		  global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B);
	m->vmalloc = bench_ksyms.vmalloc_nr_pages();
}

/* ---- 1. hit cost ---- */

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

/* The kernel's kprobes run the same handler as optprobe's (target.c). */
static int bench_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(optprobe_bench_pre_hits);
	return 0;
}

#ifdef CONFIG_PPC64
static struct optprobe bench_holder;
static bool bench_holding;
#endif

/*
 * On ppc64le, make optprobe hold the kernel's detour area for kernel text
 * (see the top of this file) while the kernel's kprobes are registered
 * outside their pass: an optimized probe on gcd().  Nothing on x86_64.
 */
static void bench_hold_area(bool hold)
{
#ifdef CONFIG_PPC64
	if (hold) {
		memset(&bench_holder, 0, sizeof(bench_holder));
		bench_holder.addr = (void *)bench_after_ftrace((unsigned long)gcd);
		bench_holder.pre_handler = optprobe_bench_pre;
		bench_holding = !optprobe_register(&bench_holder);
		if (bench_holding)
			optprobe_sync();
		if (!bench_holding || optprobe_mode(&bench_holder) != OPTPROBE_MODE_OPTIMIZED)
			pr_info("hold optimized=0 reason=%s\n",
				bench_holding ? optprobe_reason(&bench_holder) : "not registered");
	} else if (bench_holding) {
		optprobe_unregister(&bench_holder);
		optprobe_sync();
		bench_holding = false;
	}
#endif
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

void bench_time(u64 (*fn)(u64 a, u64 b), struct bench_timing *t)
{
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
	t->n = n;
	t->runs = runs;
	t->calls = n / 10 + (unsigned long)runs * n;
	t->cycles = bench_median(c, runs);
	t->ns = bench_median(d, runs);
}

static void bench_hit_row(const struct bench_target *tg, unsigned long addr,
			  const struct bench_row *row)
{
	struct optprobe probes[BENCH_NR_PROBES], *ps[BENCH_NR_PROBES];
	enum optprobe_mode mode = OPTPROBE_MODE_DISABLED;
	unsigned long pre0, post0, pre, post, calls;
	struct kprobe kp = { .addr = (void *)addr, .pre_handler = bench_kp_pre };
	const char *reason = "";
	struct bench_timing t;
	unsigned int i;
	char name[64];
	int ret = 0;

	snprintf(name, sizeof(name), "hit_%s_%s", tg->name, row->name);
	if (row->impl == BENCH_KPROBE) {
		ret = bench_kprobes_optimize(row->optimize);
		if (!ret)
			ret = register_kprobe(&kp);
		if (!ret && row->optimize)
			bench_ksyms.wait_for_kprobe_optimizer();
		mode = bench_kprobe_mode(addr);
		if (mode == OPTPROBE_MODE_FTRACE)
			reason = "function entry: runs through ftrace";
		else if (mode != row->want)
			reason = "the kernel did not optimize it";
	} else if (row->impl == BENCH_OPTPROBE) {
		op_set_boost(row->boost);
		op_set_optimize(row->optimize);
		for (i = 0; i < row->nprobes; i++) {
			memset(&probes[i], 0, sizeof(probes[i]));
			probes[i].addr = (void *)addr;
			probes[i].pre_handler = optprobe_bench_pre;
			probes[i].post_handler = row->post ? bench_op_post : NULL;
			ps[i] = &probes[i];
		}
		ret = optprobe_register_many(ps, row->nprobes);
		if (!ret && row->optimize)
			optprobe_sync();
		if (!ret) {
			mode = optprobe_mode(ps[0]);
			reason = optprobe_reason(ps[0]);
		}
	}
	if (ret) {
		ktap_check(&ktap, false, name, "cannot register at %pS: %d", (void *)addr, ret);
		goto out;
	}

	pre0 = bench_count(&optprobe_bench_pre_hits);
	post0 = bench_count(&bench_post_hits);
	bench_time(row->floor ? optprobe_bench_asm(OPTPROBE_BENCH_FLOOR)->fn :
		   bench_target_fn(tg), &t);
	pre = bench_count(&optprobe_bench_pre_hits) - pre0;
	post = bench_count(&bench_post_hits) - post0;
	if (row->impl == BENCH_KPROBE) {
		unregister_kprobe(&kp);
		/* an optimized kprobe's jump goes away in the optimizer */
		bench_ksyms.wait_for_kprobe_optimizer();
	} else if (row->impl == BENCH_OPTPROBE) {
		optprobe_unregister_many(ps, row->nprobes);
		optprobe_sync();
	}

	calls = t.calls * row->nprobes;
	if (!ktap_check(&ktap, tg->exact ? pre == calls && post == (row->post ? calls : 0) :
			pre >= calls && post >= (row->post ? calls : 0), name,
			"%lu pre and %lu post handler runs for %lu calls", pre, post, calls))
		goto out;
	pr_info("hit target=%s row=%s impl=%s want=%s mode=%s probes=%u n=%u runs=%u cycles=%llu ns=%llu reason=%s\n",
		tg->name, row->name, bench_impl_name(row->impl),
		row->impl == BENCH_NONE ? "none" : test_mode_name(row->want),
		row->impl == BENCH_NONE ? "none" : test_mode_name(mode),
		row->impl == BENCH_NONE ? 0 : row->nprobes, t.n, t.runs, t.cycles, t.ns,
		mode == row->want ? "" : reason);
out:
	op_set_boost(true);
	op_set_optimize(true);
	bench_kprobes_optimize(true);
}

static bool bench_row_now(const struct bench_row *row)
{
	return (row->impl == BENCH_KPROBE) == (bench_pass == BENCH_KPROBE);
}

static void bench_hits(void)
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
				bench_hit_row(tg, addr, &bench_rows[j]);
			else
				ktap_check(&ktap, false, tg->name, "%ps has no ftrace site",
					   tg->func);
		}
	}
}

/* ---- site lists ---- */

struct bench_sites {
	unsigned long *addr;
	unsigned int nr, max;
};

static int bench_sites_add(struct bench_sites *s, unsigned long addr)
{
	unsigned long *bigger;

	if (s->nr == s->max) {
		bigger = kvmalloc_array(s->max ? 2 * s->max : 4096, sizeof(*bigger), GFP_KERNEL);
		if (!bigger)
			return -ENOMEM;
		if (s->nr)
			memcpy(bigger, s->addr, s->nr * sizeof(*bigger));
		kvfree(s->addr);
		s->addr = bigger;
		s->max = s->max ? 2 * s->max : 4096;
	}
	s->addr[s->nr++] = addr;
	return 0;
}

static void bench_sites_free(struct bench_sites *s)
{
	kvfree(s->addr);
	memset(s, 0, sizeof(*s));
}

/* kallsyms_on_each_symbol() visits kernel symbols in address order. */
static int bench_collect_kernel(void *data, const char *name, struct module *mod,
				unsigned long addr)
{
	struct bench_sites *s = data;
	unsigned long site;

	if (mod || !bench_ksyms.core_kernel_text(addr))
		return 0;
	site = bench_after_ftrace(addr);
	if (!site || (s->nr && s->addr[s->nr - 1] == site))
		return 0;
	return bench_sites_add(s, site);
}

/* Kernel text: the first instruction after the ftrace site of every function. */
static int bench_kernel_candidates(struct bench_sites *s)
{
	return op_kallsyms_on_each(bench_ksyms.kallsyms_on_each_symbol, bench_collect_kernel, s);
}

/*
 * Is @addr past the code of its function: x86_64's int3 padding, or the
 * word after powerpc's blr?
 */
static bool bench_insn_padding(unsigned long addr)
{
#ifdef CONFIG_X86
	u8 byte;

	return copy_from_kernel_nofault(&byte, (void *)addr, 1) || byte == INT3_INSN_OPCODE;
#else
	u32 word;

	return copy_from_kernel_nofault(&word, (void *)(addr - 4), 4) || word == PPC_RAW_BLR();
#endif
}

/*
 * Module text: every instruction after the ftrace site of the generated
 * functions, up to the end of their code.
 */
static int bench_module_candidates(struct bench_sites *s)
{
	unsigned long func, addr, size, off, len;
	unsigned int i;
	int ret;

	for (i = 0; i < OPTPROBE_BENCH_NR_TEXT; i++) {
		func = (unsigned long)optprobe_bench_text[i];
		addr = bench_after_ftrace(func);
		if (!addr || !bench_ksyms.kallsyms_lookup_size_offset(func, &size, &off))
			continue;
		for (; addr < func - off + size && !bench_insn_padding(addr); addr += len) {
			len = bench_insn_len(addr);
			if (!len)
				break;
			ret = bench_sites_add(s, addr);
			if (ret)
				return ret;
		}
	}
	sort(s->addr, s->nr, sizeof(*s->addr), bench_cmp_ulong, NULL);
	return 0;
}

/* Refusals by errno, for the "sites" and "coverage" lines. */
struct bench_refusals {
	unsigned int einval, eilseq, ebusy, other;
};

static void bench_refused(struct bench_refusals *r, int err)
{
	if (err == -EINVAL)
		r->einval++;
	else if (err == -EILSEQ)
		r->eilseq++;
	else if (err == -EBUSY)
		r->ebusy++;
	else
		r->other++;
}

static unsigned int bench_refusals_total(const struct bench_refusals *r)
{
	return r->einval + r->eilseq + r->ebusy + r->other;
}

/*
 * Of @nr sites, keep (compacting @sites) those both implementations
 * accept; registered disarmed, so nothing is patched.
 */
static unsigned int bench_accept(unsigned long *sites, unsigned int nr,
				 struct bench_refusals *op_ref, struct bench_refusals *kp_ref)
{
	struct optprobe *probes = vzalloc(array_size(nr, sizeof(*probes)));
	struct optprobe **ops = vmalloc(array_size(nr, sizeof(*ops)));
	struct kprobe *kps = vzalloc(array_size(nr, sizeof(*kps)));
	struct kprobe **kpps = vmalloc(array_size(nr, sizeof(*kpps)));
	unsigned int i, ok = 0, kept = 0;
	int ret;

	if (!probes || !ops || !kps || !kpps)
		goto out;
	for (i = 0; i < nr; i++) {
		probes[i].addr = (void *)sites[i];
		probes[i].pre_handler = optprobe_bench_pre;
		probes[i].flags = OPTPROBE_F_DISABLED;
		ret = optprobe_register(&probes[i]);
		if (ret) {
			bench_refused(op_ref, ret);
			continue;
		}
		ops[ok] = &probes[i];
		sites[ok++] = sites[i];
	}
	optprobe_unregister_many(ops, ok);

	bench_hold_area(true);
	for (i = 0; i < ok; i++) {
		kps[i].addr = (void *)sites[i];
		kps[i].pre_handler = bench_kp_pre;
		kps[i].flags = KPROBE_FLAG_DISABLED;
		ret = register_kprobe(&kps[i]);
		if (ret) {
			bench_refused(kp_ref, ret);
			continue;
		}
		kpps[kept] = &kps[i];
		sites[kept++] = sites[i];
	}
	unregister_kprobes(kpps, kept);
	bench_ksyms.wait_for_kprobe_optimizer();
	bench_hold_area(false);
out:
	vfree(kpps);
	vfree(kps);
	vfree(ops);
	vfree(probes);
	return kept;
}

/*
 * Choose up to @want sites of @cand that both implementations accept,
 * spread evenly: @cand is cut into slices of k candidates, k = candidates /
 * @want, and one candidate is drawn from each slice (prandom seeded by
 * @seed), not a fixed position, which in module text made of functions of
 * one length would be the same instruction of every function.  While too
 * few are accepted, further passes take the next candidate of each slice.
 * Returns them sorted in @out.
 */
static int bench_choose(const char *text, const struct bench_sites *cand, unsigned int want,
			unsigned int hot, struct bench_sites *out)
{
	struct bench_refusals op_ref = {}, kp_ref = {};
	unsigned int k, pass, i, nr, kept, need, tested = 0;
	struct rnd_state rnd;
	unsigned long *batch;
	int ret = 0;

	k = max(1U, cand->nr / max(want, 1U));
	batch = kvmalloc_array(cand->nr / k + 1, sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return -ENOMEM;
	for (pass = 0; pass < k && out->nr < want && !ret; pass++) {
		prandom_seed_state(&rnd, seed);
		for (nr = 0; (nr + 1) * k <= cand->nr; nr++)
			batch[nr] = cand->addr[nr * k + (prandom_u32_state(&rnd) + pass) % k];
		tested += nr;
		kept = bench_accept(batch, nr, &op_ref, &kp_ref);
		/* when only some are needed, an evenly spaced subset */
		need = min(kept, want - out->nr);
		for (i = 0; i < need && !ret; i++)
			ret = bench_sites_add(out, batch[(u64)i * kept / need]);
	}
	kvfree(batch);
	sort(out->addr, out->nr, sizeof(*out->addr), bench_cmp_ulong, NULL);
	pr_info("sites text=%s hot=%u candidates=%u slice=%u tested=%u accepted=%u refused_optprobe=%u refused_kprobe=%u\n",
		text, hot, cand->nr, k, tested, out->nr, bench_refusals_total(&op_ref),
		bench_refusals_total(&kp_ref));
	pr_info("refusals text=%s impl=optprobe einval=%u eilseq=%u ebusy=%u other=%u\n", text,
		op_ref.einval, op_ref.eilseq, op_ref.ebusy, op_ref.other);
	pr_info("refusals text=%s impl=kprobe einval=%u eilseq=%u ebusy=%u other=%u\n", text,
		kp_ref.einval, kp_ref.eilseq, kp_ref.ebusy, kp_ref.other);
	return ret;
}

/*
 * Hot functions.  Under TCG a trap costs microseconds, so probes on
 * functions that run while probes are being set up (the kernel's own
 * background work, and the registration, patching and grace-period paths
 * of both implementations) turn the scale rows into a measure of hits:
 * with 3,000 probes on every 12th kernel function, registering them took
 * 10x longer than in cold module text.  So for the scale rows, an ftrace
 * callback marks every candidate function entered while each
 * implementation registers, optimizes and unregisters a few probes in
 * module text, and those functions are left out (cold=0 keeps them).
 */
static const struct bench_sites *bench_hot_cand;
static unsigned long *bench_hot_map;

static void notrace bench_hot_fn(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned long site = ip + MCOUNT_INSN_SIZE;
	unsigned int lo = 0, hi = bench_hot_cand->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (bench_hot_cand->addr[mid] < site)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < bench_hot_cand->nr && bench_hot_cand->addr[lo] == site)
		set_bit(lo, bench_hot_map);
}

static struct ftrace_ops bench_hot_ops = {
	.func = bench_hot_fn,
};

/* Register, optimize and unregister @nr probes in module text, with both. */
static int bench_trial(const unsigned long *sites, unsigned int nr)
{
	struct optprobe probes[8] = {}, *ps[8];
	struct kprobe kps[8] = {}, *kpps[8];
	unsigned int i;
	int ret;

	nr = min_t(unsigned int, nr, ARRAY_SIZE(probes));
	for (i = 0; i < nr; i++) {
		probes[i].addr = (void *)sites[i];
		probes[i].pre_handler = optprobe_bench_pre;
		ps[i] = &probes[i];
		kps[i].addr = (void *)sites[i];
		kps[i].pre_handler = bench_kp_pre;
		kpps[i] = &kps[i];
	}
	ret = optprobe_register_many(ps, nr);
	if (ret)
		return ret;
	optprobe_sync();
	optprobe_unregister_many(ps, nr);
	optprobe_sync();
	bench_hold_area(true);
	ret = register_kprobes(kpps, nr);
	if (!ret) {
		bench_ksyms.wait_for_kprobe_optimizer();
		unregister_kprobes(kpps, nr);
		bench_ksyms.wait_for_kprobe_optimizer();
	}
	bench_hold_area(false);
	return ret;
}

/* Drop from @cand (kernel text, sorted) the functions entered during a trial. */
static int bench_drop_hot(struct bench_sites *cand, unsigned int *hot)
{
	unsigned long *ips, trial[8];
	unsigned int i, kept = 0;
	int ret = -ENOMEM;

	*hot = 0;
	ips = kvmalloc_array(cand->nr, sizeof(*ips), GFP_KERNEL);
	bench_hot_map = bitmap_zalloc(cand->nr, GFP_KERNEL);
	if (!ips || !bench_hot_map)
		goto out;
	for (i = 0; i < ARRAY_SIZE(trial); i++)
		trial[i] = bench_after_ftrace((unsigned long)optprobe_bench_text[i]);
	for (i = 0; i < cand->nr; i++)
		ips[i] = cand->addr[i] - MCOUNT_INSN_SIZE;
	bench_hot_cand = cand;
	ret = ftrace_set_filter_ips(&bench_hot_ops, ips, cand->nr, 0, 1);
	if (ret)
		goto out;
	ret = register_ftrace_function(&bench_hot_ops);
	if (ret)
		goto out_filter;
	ret = bench_trial(trial, ARRAY_SIZE(trial));
	msleep(100);
	unregister_ftrace_function(&bench_hot_ops);
	if (ret)
		goto out_filter;
	for (i = 0; i < cand->nr; i++) {
		if (test_bit(i, bench_hot_map))
			(*hot)++;
		else
			cand->addr[kept++] = cand->addr[i];
	}
	cand->nr = kept;
out_filter:
	ftrace_free_filter(&bench_hot_ops);
out:
	bitmap_free(bench_hot_map);
	kvfree(ips);
	return ret;
}

/* ---- 2. scale ---- */

struct bench_scale {
	u64 armed, optimized, unregistered;	/* ns */
	struct bench_mem mem0, mem1;
	unsigned int modes[OPTPROBE_MODE_GONE + 1];
};

static void bench_scale_print(const char *text, const char *impl, unsigned int nr,
			      const struct bench_scale *r)
{
	pr_info("scale text=%s impl=%s n=%u armed_ns=%llu optimized_ns=%llu unregister_ns=%llu optimized=%u boosted=%u trap=%u other=%u slab_bytes=%ld vmalloc_bytes=%ld\n",
		text, impl, nr, r->armed, r->optimized, r->unregistered,
		r->modes[OPTPROBE_MODE_OPTIMIZED], r->modes[OPTPROBE_MODE_BOOSTED],
		r->modes[OPTPROBE_MODE_TRAP],
		nr - r->modes[OPTPROBE_MODE_OPTIMIZED] - r->modes[OPTPROBE_MODE_BOOSTED] -
		r->modes[OPTPROBE_MODE_TRAP],
		(r->mem1.slab - r->mem0.slab) * (long)PAGE_SIZE,
		(r->mem1.vmalloc - r->mem0.vmalloc) * (long)PAGE_SIZE);
}

static int bench_scale_optprobe(const unsigned long *sites, unsigned int nr,
				struct bench_scale *r)
{
	struct optprobe *probes = vzalloc(array_size(nr, sizeof(*probes)));
	struct optprobe **ps = vmalloc(array_size(nr, sizeof(*ps)));
	unsigned int i;
	u64 t0, t1;
	int ret = -ENOMEM;

	if (!probes || !ps)
		goto out;
	for (i = 0; i < nr; i++) {
		probes[i].addr = (void *)sites[i];
		probes[i].pre_handler = optprobe_bench_pre;
		ps[i] = &probes[i];
	}
	bench_mem_sample(&r->mem0);
	t0 = bench_now();
	ret = optprobe_register_many(ps, nr);
	t1 = bench_now();
	if (ret)
		goto out;
	r->armed = t1 - t0;
	optprobe_sync();
	r->optimized = bench_now() - t0;
	bench_mem_sample(&r->mem1);
	for (i = 0; i < nr; i++)
		r->modes[optprobe_mode(ps[i])]++;
	t0 = bench_now();
	optprobe_unregister_many(ps, nr);
	optprobe_sync();
	r->unregistered = bench_now() - t0;
out:
	vfree(ps);
	vfree(probes);
	return ret;
}

static int bench_scale_kprobe(const unsigned long *sites, unsigned int nr, struct bench_scale *r)
{
	struct kprobe *kps = vzalloc(array_size(nr, sizeof(*kps)));
	struct kprobe **ps = vmalloc(array_size(nr, sizeof(*ps)));
	unsigned int i;
	u64 t0, t1;
	int ret = -ENOMEM;

	if (!kps || !ps)
		goto out;
	for (i = 0; i < nr; i++) {
		kps[i].addr = (void *)sites[i];
		kps[i].pre_handler = bench_kp_pre;
		ps[i] = &kps[i];
	}
	bench_mem_sample(&r->mem0);
	t0 = bench_now();
	ret = register_kprobes(ps, nr);
	t1 = bench_now();
	if (ret)
		goto out;
	r->armed = t1 - t0;
	bench_ksyms.wait_for_kprobe_optimizer();
	r->optimized = bench_now() - t0;
	bench_mem_sample(&r->mem1);
	for (i = 0; i < nr; i++)
		r->modes[bench_kprobe_mode(sites[i])]++;
	t0 = bench_now();
	unregister_kprobes(ps, nr);
	bench_ksyms.wait_for_kprobe_optimizer();
	r->unregistered = bench_now() - t0;
out:
	vfree(ps);
	vfree(kps);
	return ret;
}

/* The scale sites of kernel and module text, chosen in optprobe's pass. */
static struct bench_sites bench_scale_sites[2];

static void bench_scale_text(const char *text, bool module)
{
	struct bench_sites cand = {}, *chosen = &bench_scale_sites[module];
	unsigned long *subset = NULL;
	unsigned int i, j, nr, hot = 0;
	struct bench_scale r;
	char name[64];
	int ret = 0;

	if (bench_pass == BENCH_OPTPROBE) {
		ret = module ? bench_module_candidates(&cand) : bench_kernel_candidates(&cand);
		if (!ret && !module && cold)
			ret = bench_drop_hot(&cand, &hot);
		if (!ret)
			ret = bench_choose(text, &cand, scale_n[nr_scale_n - 1], hot, chosen);
		bench_sites_free(&cand);
		snprintf(name, sizeof(name), "scale_%s_sites", text);
		ktap_check(&ktap, !ret && chosen->nr, name, "%u sites: %d", chosen->nr, ret);
	}
	if (chosen->nr)
		subset = kvmalloc_array(chosen->nr, sizeof(*subset), GFP_KERNEL);

	for (i = 0; i < nr_scale_n; i++) {
		nr = min(scale_n[i], chosen->nr);
		for (j = 0; subset && j < nr; j++)
			subset[j] = chosen->addr[(u64)j * chosen->nr / nr];

		snprintf(name, sizeof(name), "scale_%s_%u_%s", text, scale_n[i],
			 bench_impl_name(bench_pass));
		memset(&r, 0, sizeof(r));
		ret = -ENOENT;
		if (subset && bench_pass == BENCH_OPTPROBE)
			ret = bench_scale_optprobe(subset, nr, &r);
		else if (subset)
			ret = bench_scale_kprobe(subset, nr, &r);
		if (ktap_check(&ktap, !ret, name, "registering %u probes: %d", nr, ret))
			bench_scale_print(text, bench_impl_name(bench_pass), nr, &r);
	}
	kvfree(subset);
	if (bench_pass == BENCH_KPROBE)
		bench_sites_free(chosen);
}

static bool bench_scale_module(void)
{
	if (scale_text)
		return strstr(scale_text, "module");
	return IS_ENABLED(CONFIG_PPC64);
}

static bool bench_scale_kernel(void)
{
	return !scale_text || strstr(scale_text, "kernel");
}

/* ---- 3. coverage ---- */

#define BENCH_NR_REASONS	24

struct bench_histogram {
	const char *reason[BENCH_NR_REASONS];
	unsigned int count[BENCH_NR_REASONS];
	unsigned int other;
};

static void bench_histogram_add(struct bench_histogram *h, const char *reason)
{
	unsigned int i;

	for (i = 0; i < BENCH_NR_REASONS && h->reason[i]; i++) {
		if (!strcmp(h->reason[i], reason)) {
			h->count[i]++;
			return;
		}
	}
	if (i == BENCH_NR_REASONS) {
		h->other++;
		return;
	}
	h->reason[i] = reason;
	h->count[i] = 1;
}

static const char *bench_errno_reason(int err)
{
	switch (err) {
	case -EINVAL:
		return "refused: -EINVAL";
	case -ENOENT:
		return "refused: -ENOENT";
	case -EILSEQ:
		return "refused: -EILSEQ";
	case -EBUSY:
		return "refused: -EBUSY";
	case -ENOMEM:
		return "refused: -ENOMEM";
	case -EEXIST:
		return "refused: -EEXIST";
	default:
		return "refused: other errno";
	}
}

static void bench_coverage_print(const char *set, const char *impl, unsigned int nr,
				 unsigned int registered, unsigned int optimized,
				 const struct bench_histogram *h)
{
	unsigned int i;

	pr_info("coverage set=%s impl=%s sites=%u registered=%u optimized=%u\n",
		set, impl, nr, registered, optimized);
	for (i = 0; i < BENCH_NR_REASONS && h->reason[i]; i++)
		pr_info("reason set=%s impl=%s count=%u reason=%s\n", set, impl, h->count[i],
			h->reason[i]);
	if (h->other)
		pr_info("reason set=%s impl=%s count=%u reason=(other reasons)\n", set, impl,
			h->other);
}

/*
 * The sites are swept BENCH_COV_CHUNK at a time (in address order), so
 * that the probes armed at once, and the traps they take on hot paths
 * under TCG, stay few.
 */
#define BENCH_COV_CHUNK	250U

struct bench_coverage {
	struct bench_histogram h;
	unsigned int registered, optimized;
};

static void bench_coverage_optprobe(const unsigned long *sites, unsigned int nr,
				    struct optprobe *probes, struct optprobe **ps,
				    struct bench_coverage *c)
{
	unsigned int i, ok = 0;
	int ret;

	memset(probes, 0, nr * sizeof(*probes));
	for (i = 0; i < nr; i++) {
		probes[i].addr = (void *)sites[i];
		probes[i].pre_handler = optprobe_bench_pre;
		ret = optprobe_register(&probes[i]);
		if (ret)
			bench_histogram_add(&c->h, bench_errno_reason(ret));
		else
			ps[ok++] = &probes[i];
	}
	optprobe_sync();
	for (i = 0; i < ok; i++) {
		if (optprobe_mode(ps[i]) == OPTPROBE_MODE_OPTIMIZED)
			c->optimized++;
		else
			bench_histogram_add(&c->h, optprobe_reason(ps[i]));
	}
	optprobe_unregister_many(ps, ok);
	optprobe_sync();
	c->registered += ok;
}

static void bench_coverage_kprobe(const unsigned long *sites, unsigned int nr,
				  struct kprobe *kps, struct kprobe **ps, struct bench_coverage *c)
{
	unsigned int i, ok = 0;
	int ret;

	memset(kps, 0, nr * sizeof(*kps));
	for (i = 0; i < nr; i++) {
		kps[i].addr = (void *)sites[i];
		kps[i].pre_handler = bench_kp_pre;
		ret = register_kprobe(&kps[i]);
		if (ret)
			bench_histogram_add(&c->h, bench_errno_reason(ret));
		else
			ps[ok++] = &kps[i];
	}
	bench_ksyms.wait_for_kprobe_optimizer();
	for (i = 0; i < ok; i++) {
		if (bench_kprobe_mode((unsigned long)ps[i]->addr) == OPTPROBE_MODE_OPTIMIZED)
			c->optimized++;
		else
			bench_histogram_add(&c->h, "not optimized by the kernel");
	}
	unregister_kprobes(ps, ok);
	bench_ksyms.wait_for_kprobe_optimizer();
	c->registered += ok;
}

/* Sweep @s with @impl, BENCH_COV_CHUNK sites at a time. */
static int bench_coverage_sweep(const char *set, enum bench_impl impl, const struct bench_sites *s)
{
	struct optprobe *probes = kcalloc(BENCH_COV_CHUNK, sizeof(*probes), GFP_KERNEL);
	struct optprobe **ops = kcalloc(BENCH_COV_CHUNK, sizeof(*ops), GFP_KERNEL);
	struct kprobe *kps = kcalloc(BENCH_COV_CHUNK, sizeof(*kps), GFP_KERNEL);
	struct kprobe **kpps = kcalloc(BENCH_COV_CHUNK, sizeof(*kpps), GFP_KERNEL);
	struct bench_coverage *c = kzalloc(sizeof(*c), GFP_KERNEL);
	unsigned int i, nr;
	int ret = -ENOMEM;

	if (!probes || !ops || !kps || !kpps || !c)
		goto out;
	for (i = 0; i < s->nr; i += nr) {
		nr = min(s->nr - i, BENCH_COV_CHUNK);
		if (impl == BENCH_OPTPROBE)
			bench_coverage_optprobe(s->addr + i, nr, probes, ops, c);
		else
			bench_coverage_kprobe(s->addr + i, nr, kps, kpps, c);
	}
	bench_coverage_print(set, bench_impl_name(impl), s->nr, c->registered, c->optimized,
			     &c->h);
	ret = 0;
out:
	kfree(c);
	kfree(kpps);
	kfree(kps);
	kfree(ops);
	kfree(probes);
	return ret;
}

static void bench_coverage_set(const char *set, const struct bench_sites *s)
{
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "coverage_%s_%s", set, bench_impl_name(bench_pass));
	ret = bench_coverage_sweep(set, bench_pass, s);
	ktap_check(&ktap, !ret && s->nr, name, "%u sites: %d", s->nr, ret);
}

/*
 * A random instruction boundary after the ftrace site of a random
 * function: the first boundary at or after a random offset, decoding from
 * the ftrace site.  0 if the offset falls past what decodes.
 */
static unsigned long bench_random_site(const struct bench_sites *cand, struct rnd_state *rnd)
{
	unsigned long site = cand->addr[prandom_u32_state(rnd) % cand->nr];
	unsigned long size, off, end, at, len;

	if (!bench_ksyms.kallsyms_lookup_size_offset(site, &size, &off))
		return 0;
	end = site - off + size;
	if (end <= site)
		return 0;
	at = site + prandom_u32_state(rnd) % (end - site);
	for (; site < at; site += len) {
		len = bench_insn_len(site);
		if (!len)
			return 0;
	}
	return site < end ? site : 0;
}

/* The coverage sweeps, entry and random, chosen in optprobe's pass. */
static struct bench_sites bench_cov_sites[2];

static int bench_coverage_sites(struct bench_sites *entry, struct bench_sites *random)
{
	struct bench_sites cand = {};
	struct rnd_state rnd;
	unsigned long site;
	unsigned int i, j, tries;
	int ret;

	ret = bench_kernel_candidates(&cand);
	for (i = seed % max(cov_stride, 1U); !ret && i < cand.nr; i += max(cov_stride, 1U))
		ret = bench_sites_add(entry, cand.addr[i]);

	prandom_seed_state(&rnd, seed);
	for (tries = 0; !ret && cand.nr && random->nr < cov_random && tries < 4 * cov_random;
	     tries++) {
		site = bench_random_site(&cand, &rnd);
		for (j = 0; site && j < random->nr; j++)
			if (random->addr[j] == site)
				site = 0;
		if (site)
			ret = bench_sites_add(random, site);
	}
	sort(random->addr, random->nr, sizeof(*random->addr), bench_cmp_ulong, NULL);
	pr_info("coverage_sites functions=%u stride=%u entry=%u random=%u seed=%u\n",
		cand.nr, cov_stride, entry->nr, random->nr, seed);
	bench_sites_free(&cand);
	return ret;
}

static void bench_coverage(void)
{
	struct bench_sites *entry = &bench_cov_sites[0], *random = &bench_cov_sites[1];

	if (bench_pass == BENCH_OPTPROBE && bench_coverage_sites(entry, random)) {
		bench_sites_free(entry);
		bench_sites_free(random);
	}
	bench_coverage_set("entry", entry);
	bench_coverage_set("random", random);
	if (bench_pass == BENCH_KPROBE) {
		bench_sites_free(entry);
		bench_sites_free(random);
	}
}

/* ---- the run ---- */

static unsigned int bench_plan(void)
{
	unsigned int plan = 0;

	if (hits)
		/* the floor row on one target only */
		plan += ARRAY_SIZE(bench_targets) * (ARRAY_SIZE(bench_rows) - 1) + 1;
	plan += bench_ret_plan();
	if (scale)
		plan += (bench_scale_kernel() + bench_scale_module()) * (1 + 2 * nr_scale_n);
	if (coverage)
		plan += 4;
	return plan;
}

static int __init bench_init(void)
{
	unsigned int i;
	int ret;

	if (!runs || runs > BENCH_MAX_RUNS || !n || !nr_scale_n) {
		pr_err("runs must be 1..%u, n and scale_n not empty\n", BENCH_MAX_RUNS);
		return -EINVAL;
	}
	for (i = 1; i < nr_scale_n; i++) {
		if (scale_n[i] < scale_n[i - 1]) {
			pr_err("scale_n must be ascending\n");
			return -EINVAL;
		}
	}
	ret = op_ksyms_resolve(bench_ksym_table, ARRAY_SIZE(bench_ksym_table));
	if (ret)
		return ret;
	ret = bench_sysctl(KPROBES_OPTIMIZATION, kprobes_optimization,
			   sizeof(kprobes_optimization), false);
	if (ret) {
		pr_err("cannot read %s: %d\n", KPROBES_OPTIMIZATION, ret);
		return ret;
	}

	pr_info("info counter=%s counter_khz=%lu n=%u runs=%u seed=%u cov_stride=%u cov_random=%u\n",
		IS_ENABLED(CONFIG_X86) ? "tsc" : "timebase",
#ifdef CONFIG_X86
		(unsigned long)tsc_khz,
#else
		ppc_tb_freq / 1000,
#endif
		n, runs, seed, cov_stride, cov_random);
	ktap_start(&ktap, bench_plan());
	for (bench_pass = BENCH_OPTPROBE; ; bench_pass = BENCH_KPROBE) {
		if (hits)
			bench_hits();
		bench_rets(&ktap);
		if (scale && bench_scale_kernel())
			bench_scale_text("kernel", false);
		if (scale && bench_scale_module())
			bench_scale_text("module", true);
		if (coverage)
			bench_coverage();
		if (bench_pass == BENCH_KPROBE)
			break;
	}

	bench_sysctl(KPROBES_OPTIMIZATION, kprobes_optimization, strlen(kprobes_optimization),
		     true);
	pr_info("done failed=%u\n", ktap.failed);
	return 0;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("optprobe benchmark against the kernel's kprobes");
MODULE_LICENSE("GPL");
