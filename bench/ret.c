// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's return-probe rows ("ret" lines; main.c runs them, after
 * the hit rows of each pass): what following a function's calls costs per
 * call, entry and return, with optprobe's struct optretprobe against the
 * kernel's kretprobe and, where the kernel has it (wrap-fprobe.h), its
 * fprobe, on the same function in the same boot.
 *
 * Targets, functions the hit rows probe too, named as their hit rows at
 * the same entry: optprobe_bench_hit() (module text, with an ftrace site:
 * optprobe's entry runs through ftrace), optprobe_bench_noftrace()
 * (module text without one: the entry is its first instruction, which
 * optprobe can jump-optimize) and gcd() (kernel-core text, an ftrace
 * site).
 *
 * Rows, each timed as the hit rows (bench_time(); per call = (row - none)
 * / calls):
 *  - none: no probe;
 *  - entry: a plain optprobe where a return probe's entry goes (the
 *    ftrace site, or the function's first instruction), whose pre handler
 *    counts: the optretprobe row less this one is what the return path
 *    adds, entry and return mode alike;
 *  - optretprobe: an optretprobe, maxactive 0;
 *  - kretprobe: the kernel's kretprobe at the same entry, maxactive 0
 *    (the kernel's default pool), its kprobe optimization on;
 *  - fprobe: the kernel's fprobe with an exit handler, at an ftrace site
 *    only; skipped, saying why, where the kernel has none.
 * Every return probe has the same two trivial handlers: at the entry,
 * count the call and put 1 in the call's data (8 bytes); at the return,
 * add the data to another count.  Checked (KTAP), where only this module
 * calls the target: each handler ran once per call not missed, the data
 * arrived, and an optretprobe missed none (nmissed 0); the kernel's
 * nmissed is printed.  Every row prints the mode its entry reached:
 * optretprobe_mode(), the kernel's kprobe's mode (bench_kprobe_mode()),
 * ftrace for an fprobe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gcd.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include <optprobe.h>

#include "../tests/kmod/optprobe_test.h"
#include "bench.h"
#include "optprobe_bench_target.h"
#include "wrap-fprobe.h"

struct bench_ret_target {
	const char *name;
	u64 (*fn)(u64 a, u64 b);	/* called; NULL: optprobe_bench_noftrace() */
	void *func;			/* probed; NULL: fn */
	bool exact;	/* only this module calls it: the counts are exact */
};

static const struct bench_ret_target bench_ret_targets[] = {
	{ "module-ftrace", optprobe_bench_hit, NULL, true },
	{ "module-no-ftrace", NULL, NULL, true },
	{ "core-ftrace", bench_gcd, gcd, false },
};

enum bench_ret_row {
	BENCH_RET_NONE,
	BENCH_RET_ENTRY,
	BENCH_RET_OPTRETPROBE,
	BENCH_RET_KRETPROBE,
	BENCH_RET_FPROBE,
	BENCH_RET_NR
};

static const char * const bench_ret_row_names[BENCH_RET_NR] = {
	"none", "entry", "optretprobe", "kretprobe", "fprobe",
};

static enum bench_impl bench_ret_impl(enum bench_ret_row row)
{
	if (row == BENCH_RET_NONE)
		return BENCH_NONE;
	return row >= BENCH_RET_KRETPROBE ? BENCH_KPROBE : BENCH_OPTPROBE;
}

/* The kernel's rows run in its pass, the others in optprobe's. */
static bool bench_ret_row_now(enum bench_ret_row row)
{
	return (bench_ret_impl(row) == BENCH_KPROBE) == (bench_pass == BENCH_KPROBE);
}

static u64 (*bench_ret_fn(const struct bench_ret_target *tg))(u64 a, u64 b)
{
	return tg->fn ?: optprobe_bench_asm(OPTPROBE_BENCH_NOFTRACE)->fn;
}

static unsigned long bench_ret_func(const struct bench_ret_target *tg)
{
	return (unsigned long)(tg->func ?: bench_ret_fn(tg));
}

/*
 * Where a return probe's entry goes: the function's ftrace site, or its
 * first instruction (the assembly target has no global entry on ppc64le).
 */
static unsigned long bench_ret_entry_site(unsigned long func)
{
	return bench_ksyms.ftrace_location(func) ?: func;
}

/* ---- the handlers ---- */

static DEFINE_PER_CPU(unsigned long, bench_ret_entries);
static DEFINE_PER_CPU(unsigned long, bench_ret_returns);

/* Every row's entry side: count the call, hand 1 to its return side. */
static __always_inline void bench_ret_enter(void *data)
{
	this_cpu_inc(bench_ret_entries);
	*(unsigned long *)data = 1;
}

/* Every row's return side: count what arrived. */
static __always_inline void bench_ret_leave(void *data)
{
	this_cpu_add(bench_ret_returns, *(unsigned long *)data);
}

static int bench_ret_pre(struct optprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(bench_ret_entries);
	return 0;
}

static int bench_orp_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	bench_ret_enter(data);
	return 0;
}

static void bench_orp_handler(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	bench_ret_leave(data);
}

static int bench_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bench_ret_enter(ri->data);
	return 0;
}

static int bench_krp_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bench_ret_leave(ri->data);
	return 0;
}

#if BENCH_HAVE_FPROBE
static int bench_fp_entry(struct fprobe *fp, unsigned long entry_ip, unsigned long ret_ip,
			  struct pt_regs *regs, void *data)
{
	bench_ret_enter(data);
	return 0;
}

static void bench_fp_exit(struct fprobe *fp, unsigned long entry_ip, unsigned long ret_ip,
			  struct pt_regs *regs, void *data)
{
	bench_ret_leave(data);
}
#endif

/* ---- one row ---- */

/* The probe of the row being measured (one at a time), static for its size. */
static struct {
	union {
		struct optprobe entry;
		struct optretprobe rp;
		struct kretprobe krp;
#if BENCH_HAVE_FPROBE
		struct fprobe fp;
#endif
	};
	enum optprobe_mode mode;	/* its entry's */
	const char *reason;		/* why that mode, if not plain */
} bench_ret_probe;

/* Why @row is not measured on @func, or NULL. */
static const char *bench_ret_skip(enum bench_ret_row row, unsigned long func)
{
	if (row != BENCH_RET_FPROBE)
		return NULL;
	if (!BENCH_HAVE_FPROBE)
		return BENCH_NO_FPROBE;
	if (!bench_ksyms.ftrace_location(func))
		return "no ftrace site: fprobe attaches through ftrace only";
	return NULL;
}

/* Register @row's probe on @func and wait until it reaches its mode. */
static int bench_ret_arm(enum bench_ret_row row, unsigned long func)
{
	typeof(bench_ret_probe) *pr = &bench_ret_probe;
	int ret = 0;

	memset(pr, 0, sizeof(*pr));
	pr->reason = "";
	switch (row) {
	case BENCH_RET_ENTRY:
		pr->entry.addr = (void *)bench_ret_entry_site(func);
		pr->entry.pre_handler = bench_ret_pre;
		ret = optprobe_register(&pr->entry);
		if (ret)
			break;
		optprobe_sync();
		pr->mode = optprobe_mode(&pr->entry);
		pr->reason = optprobe_reason(&pr->entry);
		break;
	case BENCH_RET_OPTRETPROBE:
		pr->rp.addr = (void *)func;
		pr->rp.entry_handler = bench_orp_entry;
		pr->rp.handler = bench_orp_handler;
		pr->rp.data_size = sizeof(unsigned long);
		ret = optretprobe_register(&pr->rp);
		if (ret)
			break;
		optprobe_sync();
		pr->mode = optretprobe_mode(&pr->rp);
		break;
	case BENCH_RET_KRETPROBE:
		/*
		 * Where optretprobe's entry goes, and the kernel's by symbol:
		 * on ppc64le its ftrace site, not its global entry.
		 */
		pr->krp.kp.addr = (void *)bench_ret_entry_site(func);
		pr->krp.entry_handler = bench_krp_entry;
		pr->krp.handler = bench_krp_handler;
		pr->krp.data_size = sizeof(unsigned long);
		ret = bench_kprobes_optimize(true);
		if (!ret)
			ret = register_kretprobe(&pr->krp);
		if (ret)
			break;
		bench_ksyms.wait_for_kprobe_optimizer();
		pr->mode = bench_kprobe_mode((unsigned long)pr->krp.kp.addr);
		if (pr->mode == OPTPROBE_MODE_FTRACE)
			pr->reason = "function entry: runs through ftrace";
		else if (pr->mode != OPTPROBE_MODE_OPTIMIZED)
			pr->reason = "the kernel did not optimize it";
		break;
#if BENCH_HAVE_FPROBE
	case BENCH_RET_FPROBE:
		pr->fp.entry_handler = bench_fp_entry;
		pr->fp.exit_handler = bench_fp_exit;
		pr->fp.entry_data_size = sizeof(unsigned long);
		ret = register_fprobe_ips(&pr->fp, &func, 1);
		pr->mode = OPTPROBE_MODE_FTRACE;
		break;
#endif
	default:
		break;
	}
	return ret;
}

/* The calls @row's probe did not follow. */
static unsigned long bench_ret_nmissed(enum bench_ret_row row)
{
	switch (row) {
	case BENCH_RET_ENTRY:
		return bench_ret_probe.entry.nmissed;
	case BENCH_RET_OPTRETPROBE:
		return bench_ret_probe.rp.nmissed;
	case BENCH_RET_KRETPROBE:
		/* no instance free, or a kprobe hit while another ran */
		return bench_ret_probe.krp.nmissed + bench_ret_probe.krp.kp.nmissed;
#if BENCH_HAVE_FPROBE
	case BENCH_RET_FPROBE:
		return bench_ret_probe.fp.nmissed;
#endif
	default:
		return 0;
	}
}

static void bench_ret_disarm(enum bench_ret_row row)
{
	switch (row) {
	case BENCH_RET_ENTRY:
		optprobe_unregister(&bench_ret_probe.entry);
		optprobe_sync();
		break;
	case BENCH_RET_OPTRETPROBE:
		optretprobe_unregister(&bench_ret_probe.rp);
		optprobe_sync();
		break;
	case BENCH_RET_KRETPROBE:
		unregister_kretprobe(&bench_ret_probe.krp);
		/* an optimized kprobe's jump goes away in the optimizer */
		bench_ksyms.wait_for_kprobe_optimizer();
		break;
#if BENCH_HAVE_FPROBE
	case BENCH_RET_FPROBE:
		unregister_fprobe(&bench_ret_probe.fp);
		break;
#endif
	default:
		break;
	}
}

static void bench_ret_row(struct ktap *ktap, const struct bench_ret_target *tg,
			  enum bench_ret_row row)
{
	unsigned long func = bench_ret_func(tg), entries0, returns0, entries, returns, nmissed;
	const char *skip = bench_ret_skip(row, func);
	const char *rname = bench_ret_row_names[row];
	const char *impl = bench_impl_name(bench_ret_impl(row));
	struct bench_timing t;
	bool ok;
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "ret_%s_%s", tg->name, rname);
	if (skip) {
		ktap_skip(ktap, name, skip);
		pr_info("ret target=%s row=%s impl=%s mode=none skipped=1 reason=%s\n", tg->name,
			rname, impl, skip);
		return;
	}
	ret = bench_ret_arm(row, func);
	if (ret) {
		ktap_check(ktap, false, name, "cannot register on %pS: %d", (void *)func, ret);
		return;
	}
	entries0 = bench_count(&bench_ret_entries);
	returns0 = bench_count(&bench_ret_returns);
	bench_time(bench_ret_fn(tg), &t);
	entries = bench_count(&bench_ret_entries) - entries0;
	returns = bench_count(&bench_ret_returns) - returns0;
	nmissed = bench_ret_nmissed(row);
	bench_ret_disarm(row);

	if (row == BENCH_RET_NONE)
		ok = !entries && !returns;
	else if (tg->exact)
		ok = entries + nmissed == t.calls &&
		     returns == (row == BENCH_RET_ENTRY ? 0 : entries);
	else
		ok = entries + nmissed >= t.calls &&
		     (row == BENCH_RET_ENTRY ? !returns : returns + nmissed >= t.calls);
	if (row == BENCH_RET_OPTRETPROBE)
		ok = ok && !nmissed;
	if (!ktap_check(ktap, ok, name,
			"%lu entry and %lu return handler runs, %lu missed, for %lu calls",
			entries, returns, nmissed, t.calls))
		return;
	pr_info("ret target=%s row=%s impl=%s mode=%s n=%u runs=%u calls=%lu cycles=%llu ns=%llu entries=%lu returns=%lu nmissed=%lu skipped=0 reason=%s\n",
		tg->name, rname, impl,
		row == BENCH_RET_NONE ? "none" : test_mode_name(bench_ret_probe.mode), t.n, t.runs,
		t.calls, t.cycles, t.ns, entries, returns, nmissed,
		row == BENCH_RET_NONE ? "" : bench_ret_probe.reason);
}

unsigned int bench_ret_plan(void)
{
	return ARRAY_SIZE(bench_ret_targets) * BENCH_RET_NR;
}

void bench_rets(struct ktap *ktap)
{
	const struct bench_ret_target *tg;
	enum bench_ret_row row;
	unsigned long func;

	for (tg = bench_ret_targets; tg < bench_ret_targets + ARRAY_SIZE(bench_ret_targets);
	     tg++) {
		func = bench_ret_func(tg);
		if (bench_pass == BENCH_OPTPROBE)
			pr_info("ret_target name=%s func=%ps entry=%pS\n", tg->name, (void *)func,
				(void *)bench_ret_entry_site(func));
		for (row = BENCH_RET_NONE; row < BENCH_RET_NR; row++)
			if (bench_ret_row_now(row))
				bench_ret_row(ktap, tg, row);
	}
}
