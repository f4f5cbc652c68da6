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
 * This file holds the parameters, the KTAP plan and the order of the
 * phases, each in a file of its own (bench.h lists them):
 * 1. hit cost ("hit" lines, hits.c): one call of a probed function, per
 *    class of probed site, in each mode of each implementation; then
 *    (markers.c) a loop with a static marker and with a tracepoint, each
 *    without and with a probe;
 * 2. return probes ("ret" lines, ret.c): one call followed by a return
 *    probe, against the kernel's kretprobe and fprobe;
 * 3. scale ("sites" and "scale" lines, scale.c): registering, optimizing
 *    and unregistering 1,000s of probes, and the memory they take;
 * 4. coverage ("coverage" and "reason" lines, coverage.c): the share of
 *    a sweep of kernel sites each implementation optimizes.
 *
 * Both implementations refuse an address the other holds, so they never
 * run at the same time.  Every phase runs in two passes: optprobe's rows
 * (and the unprobed baseline) first, then the kernel's.  On ppc64le the
 * kernel's registrations made before its pass (to choose sites) run while
 * optprobe holds the kernel's detour area for kernel text (sites.c says
 * why).
 *
 * The optprobe switches are left on (their defaults), and
 * debug.kprobes-optimization as it was found.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86
#include <asm/insn.h>
#include <asm/tsc.h>
#else
#include <asm/time.h>
#endif

#include <optprobe.h>

#include "exports.h"
#include "../tests/kmod/ktap.h"
#include "bench.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static bool hits = true;
module_param(hits, bool, 0444);
MODULE_PARM_DESC(hits, "run the hit-cost rows (and the static markers' rows)");
static bool rets = true;
module_param(rets, bool, 0444);
MODULE_PARM_DESC(rets, "run the return-probe rows");
static bool scale = true;
module_param(scale, bool, 0444);
MODULE_PARM_DESC(scale, "run the scale rows");
static bool coverage = true;
module_param(coverage, bool, 0444);
MODULE_PARM_DESC(coverage, "run the coverage sweeps");

struct bench_params bench_params = {
	.n = 50000,
	.runs = 7,
	.scale_n = { 1000, 10000 },
	.nr_scale_n = 2,
	.cold = true,
	.cov_stride = 25,
	.cov_random = 500,
	.seed = 1,
};

module_param_named(n, bench_params.n, uint, 0444);
MODULE_PARM_DESC(n, "calls of the target per timed run");
module_param_named(runs, bench_params.runs, uint, 0444);
MODULE_PARM_DESC(runs, "timed runs per hit-cost row (the median is reported)");
module_param_array_named(scale_n, bench_params.scale_n, uint, &bench_params.nr_scale_n, 0444);
MODULE_PARM_DESC(scale_n, "probe counts of the scale rows, ascending");
module_param_named(scale_text, bench_params.scale_text, charp, 0444);
MODULE_PARM_DESC(scale_text, "kernel, module or kernel,module (default: module too on ppc64le)");
module_param_named(cov_stride, bench_params.cov_stride, uint, 0444);
MODULE_PARM_DESC(cov_stride, "coverage: every cov_stride-th kernel function");
module_param_named(cov_random, bench_params.cov_random, uint, 0444);
MODULE_PARM_DESC(cov_random, "coverage: random instruction boundaries");
module_param_named(cold, bench_params.cold, bool, 0444);
MODULE_PARM_DESC(cold, "scale: leave out kernel functions that run while probes are set up");
module_param_named(seed, bench_params.seed, uint, 0444);
MODULE_PARM_DESC(seed, "seed of the site choices");

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
	BENCH_KSYM(pcpu_nr_pages),
	{ .name = "_text", .slot = (void **)&bench_ksyms._text, .addr_only = true },
#ifdef CONFIG_X86
	BENCH_KSYM(insn_decode),
#else
	BENCH_KSYM(patch_instruction),
#endif
};

enum bench_impl bench_pass;

static struct ktap ktap;

static unsigned int bench_plan(void)
{
	unsigned int plan = 0;

	if (hits)
		plan += bench_hit_plan() + bench_marker_plan();
	if (rets)
		plan += bench_ret_plan();
	if (scale)
		plan += bench_scale_plan();
	if (coverage)
		plan += bench_coverage_plan();
	return plan;
}

static int __init bench_init(void)
{
	const struct bench_params *p = &bench_params;
	unsigned int i;
	int ret;

	if (!p->runs || p->runs > BENCH_MAX_RUNS || !p->n || !p->nr_scale_n) {
		pr_err("runs must be 1..%u, n and scale_n not empty\n", BENCH_MAX_RUNS);
		return -EINVAL;
	}
	for (i = 1; i < p->nr_scale_n; i++) {
		if (p->scale_n[i] < p->scale_n[i - 1]) {
			pr_err("scale_n must be ascending\n");
			return -EINVAL;
		}
	}
	ret = op_ksyms_resolve(bench_ksym_table, ARRAY_SIZE(bench_ksym_table));
	if (!ret)
		ret = bench_kernel_rules_init();
	if (ret)
		return ret;
	ret = bench_kprobes_save();
	if (ret)
		return ret;

	pr_info("info counter=%s counter_khz=%lu n=%u runs=%u seed=%u cov_stride=%u cov_random=%u\n",
		IS_ENABLED(CONFIG_X86) ? "tsc" : "timebase",
#ifdef CONFIG_X86
		(unsigned long)tsc_khz,
#else
		ppc_tb_freq / 1000,
#endif
		p->n, p->runs, p->seed, p->cov_stride, p->cov_random);
	ktap_start(&ktap, bench_plan());
	for (bench_pass = BENCH_OPTPROBE; ; bench_pass = BENCH_KPROBE) {
		if (hits) {
			bench_hits(&ktap);
			bench_markers(&ktap);
		}
		if (rets)
			bench_rets(&ktap);
		if (scale)
			bench_scale(&ktap);
		if (coverage)
			bench_coverage(&ktap);
		if (bench_pass == BENCH_KPROBE)
			break;
	}

	bench_kprobes_restore();
	bench_events_init();
	pr_info("done failed=%u\n", ktap.failed);
	return 0;
}

static void __exit bench_exit(void)
{
	bench_events_exit();
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("optprobe benchmark against the kernel's kprobes");
MODULE_LICENSE("GPL");
