// SPDX-License-Identifier: GPL-2.0
/*
 * The static markers' rows (include/optprobe-marker.h), "hit" lines as
 * hits.c's, run in the hit phase after them: what a marker costs with no
 * probe on it, and what a hit of a marker probe costs, against the
 * kernel's tracepoint with a registered probe of the same arguments.
 *
 * Targets, the loops of loops.c (optprobe_bench_target.ko), each timed as
 * the hit rows are (bench_time_loop(): the median of runs loops of n
 * iterations after a warm-up of n/10; one iteration stands for a call):
 *  - loop-marker: rows none (the bare loop), off (the loop with the
 *    marker, no probe on it: its nop and whatever keeping its arguments
 *    where the nop can see them costs) and marker (a marker probe on it,
 *    optprobe_marker_register());
 *  - loop-tracepoint: rows none (the bare loop again), off (the loop with
 *    the module tracepoint optprobe_bench_loop, no probe registered: its
 *    static branch) and tracepoint (a probe registered with
 *    register_trace_optprobe_bench_loop(), in the kernel's pass).
 * Per hit = (row - none) / n, as for every hit row, so a probed row
 * includes its off cost, which the off row shows alone.  The marker's
 * handler and the tracepoint's probe do what every hit row's handler
 * does: count the hit (optprobe_bench_pre_hits).  Checked (KTAP), as only
 * this module runs the loops: each probed row ran its handler once per
 * iteration, the others never, and no hit of the marker took a
 * breakpoint trap.  Untimed (*_args), each implementation hands its
 * handler the two arguments exactly, and the marked loop computes what
 * the bare one does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/tracepoint.h>

#include <optprobe.h>

#include "exports.h"
#include "../tests/kmod/ktap.h"
#include "../tests/kmod/optprobe_test.h"
#include "bench.h"
#include "optprobe_bench_target.h"
#include "optprobe_bench_trace.h"

enum bench_loop_probe { BENCH_LOOP_NONE, BENCH_LOOP_MARKER, BENCH_LOOP_TRACEPOINT };

struct bench_loop_target {
	const char *name;
	u64 (*loop)(u64 n);		/* the marked loop */
	enum bench_loop_probe probe;	/* what its probed row puts on it */
	const char *row;		/* the probed row's name */
};

static const struct bench_loop_target bench_loop_targets[] = {
	{ "loop-marker", optprobe_bench_loop_marker, BENCH_LOOP_MARKER, "marker" },
	{ "loop-tracepoint", optprobe_bench_loop_tp, BENCH_LOOP_TRACEPOINT, "tracepoint" },
};

/* The rows of each target: the bare loop, the marked loop, the marked loop probed. */
enum bench_loop_row { BENCH_LOOP_ROW_NONE, BENCH_LOOP_ROW_OFF, BENCH_LOOP_ROW_PROBED,
		      BENCH_LOOP_NR_ROWS };

static enum bench_impl bench_loop_impl(enum bench_loop_probe probe)
{
	return probe == BENCH_LOOP_MARKER ? BENCH_OPTPROBE :
	       probe == BENCH_LOOP_TRACEPOINT ? BENCH_KPROBE : BENCH_NONE;
}

/* The kernel's row runs in its pass, the others in optprobe's. */
static bool bench_loop_now(enum bench_loop_probe probe)
{
	return (probe == BENCH_LOOP_TRACEPOINT) == (bench_pass == BENCH_KPROBE);
}

/* ---- the handlers: the timed rows count, the checks look at the arguments ---- */

static void bench_marker_count(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			       const u64 *args)
{
	this_cpu_inc(optprobe_bench_pre_hits);
}

static void bench_tp_count(void *data, u64 i, u64 acc)
{
	this_cpu_inc(optprobe_bench_pre_hits);
}

/* What the checks' handlers saw, one CPU at a time (preemption off). */
static struct {
	unsigned long hits;
	u64 sum_i, last_acc;
} bench_seen;

static void bench_see(u64 i, u64 acc)
{
	bench_seen.hits++;
	bench_seen.sum_i += i;
	bench_seen.last_acc = acc;
}

static void bench_marker_see(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			     const u64 *args)
{
	bench_see(args[0], args[1]);
}

static void bench_tp_see(void *data, u64 i, u64 acc)
{
	bench_see(i, acc);
}

/* ---- arming ---- */

struct bench_loop_armed {
	struct optprobe_marker_probe mp;
	const char *mode, *reason;
};

/* Arm @probe on its loop, with the checks' handlers if @see. */
static int bench_loop_arm(enum bench_loop_probe probe, bool see, struct bench_loop_armed *a)
{
	enum optprobe_mode mode;
	int ret = 0;

	a->mode = "none";
	a->reason = "";
	if (probe == BENCH_LOOP_MARKER) {
		memset(&a->mp, 0, sizeof(a->mp));
		a->mp.module = "optprobe_bench_target";
		a->mp.name = OPTPROBE_BENCH_MARKER;
		a->mp.format = OPTPROBE_BENCH_MARKER_FORMAT;
		a->mp.handler = see ? bench_marker_see : bench_marker_count;
		ret = optprobe_marker_register(&a->mp);
		if (ret)
			return ret;
		mode = optprobe_marker_mode(&a->mp);
		a->mode = test_mode_name(mode);
		if (mode != OPTPROBE_MODE_OPTIMIZED)
			a->reason = "the marker probe was not jump-optimized at registration";
	} else if (probe == BENCH_LOOP_TRACEPOINT) {
		ret = register_trace_optprobe_bench_loop(see ? bench_tp_see : bench_tp_count,
							 NULL);
		if (ret)
			return ret;
		a->mode = trace_optprobe_bench_loop_enabled() ? "tracepoint" : "disabled";
		if (!trace_optprobe_bench_loop_enabled())
			a->reason = "the tracepoint's static key is off with a probe registered";
	}
	return 0;
}

static void bench_loop_disarm(enum bench_loop_probe probe, bool see, struct bench_loop_armed *a)
{
	if (probe == BENCH_LOOP_MARKER) {
		optprobe_marker_unregister(&a->mp);
	} else if (probe == BENCH_LOOP_TRACEPOINT) {
		unregister_trace_optprobe_bench_loop(see ? bench_tp_see : bench_tp_count, NULL);
		tracepoint_synchronize_unregister();
	}
}

/* ---- the rows ---- */

static void bench_loop_row(struct ktap *ktap, const struct bench_loop_target *tg,
			   enum bench_loop_row r)
{
	enum bench_loop_probe probe = r == BENCH_LOOP_ROW_PROBED ? tg->probe : BENCH_LOOP_NONE;
	u64 (*loop)(u64 n) = r == BENCH_LOOP_ROW_NONE ? optprobe_bench_loop : tg->loop;
	const char *row = r == BENCH_LOOP_ROW_NONE ? "none" : r == BENCH_LOOP_ROW_OFF ? "off" :
			  tg->row;
	unsigned long hits, marker_hits = 0, bp, want;
	struct bench_loop_armed a;
	struct bench_timing t;
	char name[64], more[32] = "";
	int ret;

	if (!bench_loop_now(probe))
		return;
	snprintf(name, sizeof(name), "hit_%s_%s", tg->name, row);
	ret = bench_loop_arm(probe, false, &a);
	if (ret) {
		ktap_check(ktap, false, name, "cannot register on %ps: %d", loop, ret);
		return;
	}
	hits = bench_count(&optprobe_bench_pre_hits);
	bp = op_bp_traps();
	bench_time_loop(loop, &t);
	bp = op_bp_traps() - bp;
	hits = bench_count(&optprobe_bench_pre_hits) - hits;
	if (probe == BENCH_LOOP_MARKER)
		marker_hits = optprobe_marker_hits(&a.mp);
	bench_loop_disarm(probe, false, &a);

	want = probe == BENCH_LOOP_NONE ? 0 : t.calls;
	if (!ktap_check(ktap, hits == want && (probe != BENCH_LOOP_MARKER ||
					       (marker_hits == want && !bp)), name,
			"%lu handler runs (marker probe: %lu), %lu breakpoint traps for %lu iterations",
			hits, marker_hits, bp, t.calls))
		return;
	if (probe == BENCH_LOOP_MARKER)
		snprintf(more, sizeof(more), " breakpoints=%lu", DIV_ROUND_CLOSEST(bp, t.calls));
	pr_info("hit target=%s row=%s impl=%s want=%s mode=%s probes=%u n=%u runs=%u cycles=%llu ns=%llu%s reason=%s\n",
		tg->name, row, bench_impl_name(bench_loop_impl(probe)),
		probe == BENCH_LOOP_MARKER ? "optimized" :
		probe == BENCH_LOOP_TRACEPOINT ? "tracepoint" : "none",
		a.mode, probe != BENCH_LOOP_NONE, t.n, t.runs, t.cycles, t.ns, more, a.reason);
}

/* Untimed: @probe's handler gets the loop's two arguments at every iteration. */
static void bench_loop_args(struct ktap *ktap, enum bench_loop_probe probe,
			    u64 (*loop)(u64 n), const char *name)
{
	const u64 n = 10;
	struct bench_loop_armed a;
	u64 acc, bare;
	int ret;

	ret = bench_loop_arm(probe, true, &a);
	if (ret) {
		ktap_check(ktap, false, name, "cannot register on %ps: %d", loop, ret);
		return;
	}
	memset(&bench_seen, 0, sizeof(bench_seen));
	preempt_disable();
	acc = loop(n);
	preempt_enable();
	bench_loop_disarm(probe, true, &a);
	bare = optprobe_bench_loop(n);
	ktap_check(ktap, bench_seen.hits == n && bench_seen.sum_i == n * (n - 1) / 2 &&
		   bench_seen.last_acc == acc && acc == bare, name,
		   "%lu hits for %llu iterations, sum of the first argument %llu (want %llu), last second argument %llu, returned %llu, the bare loop %llu",
		   bench_seen.hits, n, bench_seen.sum_i, n * (n - 1) / 2, bench_seen.last_acc,
		   acc, bare);
}

unsigned int bench_marker_plan(void)
{
	/* the rows, and one argument check per target */
	return ARRAY_SIZE(bench_loop_targets) * (BENCH_LOOP_NR_ROWS + 1);
}

void bench_markers(struct ktap *ktap)
{
	unsigned int i, r;

	for (i = 0; i < ARRAY_SIZE(bench_loop_targets); i++) {
		const struct bench_loop_target *tg = &bench_loop_targets[i];
		char name[64];

		if (bench_pass == BENCH_OPTPROBE)
			pr_info("target name=%s addr=%pS\n", tg->name, tg->loop);
		for (r = 0; r < BENCH_LOOP_NR_ROWS; r++)
			bench_loop_row(ktap, tg, r);
		if (bench_loop_now(tg->probe)) {
			snprintf(name, sizeof(name), "%s_args", tg->row);
			bench_loop_args(ktap, tg->probe, tg->loop, name);
		}
	}
}
