/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of optprobe_bench.ko share.  One job each, in layers:
 * main.c runs the phases in order; each phase is a file, hits.c (hit
 * cost; markers.c, static markers and a tracepoint, in the same phase),
 * ret.c (return probes, timed with hits.c's loop), scale.c (scale
 * and memory per probe) and coverage.c (coverage sweeps); below them
 * sites.c (the site lists of scale and coverage), mem.c (memory in use)
 * and kprobes.c (the kernel's kprobes, /proc/sys).  Calls go down only.
 */
#ifndef OPTPROBE_BENCH_H
#define OPTPROBE_BENCH_H

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/types.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>
#ifdef CONFIG_X86
#include <asm/insn.h>
#else
#include <asm/code-patching.h>
#endif

#include <optprobe.h>

#include "exports.h"

struct ktap;

/* ---- main.c: the run ---- */

/*
 * The module's parameters ("modinfo optprobe_bench.ko"): how large each
 * phase is.  The switches of the phases stay in main.c.
 */
struct bench_params {
	unsigned int n, runs;			/* hit cost, return probes */
	unsigned int scale_n[4], nr_scale_n;	/* scale */
	char *scale_text;
	bool cold;
	unsigned int cov_stride, cov_random;	/* coverage */
	unsigned int seed;			/* of the site choices */
};

extern struct bench_params bench_params;

/* The kernel symbols the benchmark needs that are not exported. */
struct bench_ksyms {
	typeof(op_ptr_to(kallsyms_on_each_symbol)) kallsyms_on_each_symbol;
	typeof(op_ptr_to(kallsyms_lookup_size_offset)) kallsyms_lookup_size_offset;
	typeof(op_ptr_to(ftrace_location)) ftrace_location;
	typeof(op_ptr_to(core_kernel_text)) core_kernel_text;
	typeof(op_ptr_to(get_kprobe)) get_kprobe;
	typeof(op_ptr_to(wait_for_kprobe_optimizer)) wait_for_kprobe_optimizer;
	typeof(op_ptr_to(vmalloc_nr_pages)) vmalloc_nr_pages;
	typeof(op_ptr_to(pcpu_nr_pages)) pcpu_nr_pages;
	typeof(op_ptr_to(_text)) _text;		/* where _text+N counts from */
#ifdef CONFIG_X86
	typeof(op_ptr_to(insn_decode)) insn_decode;
#else
	typeof(op_ptr_to(patch_instruction)) patch_instruction;
#endif
};

extern struct bench_ksyms bench_ksyms;

enum bench_impl { BENCH_NONE, BENCH_KPROBE, BENCH_OPTPROBE };

/* Whose rows run now: BENCH_OPTPROBE (and the baseline), then BENCH_KPROBE. */
extern enum bench_impl bench_pass;

static inline const char *bench_impl_name(enum bench_impl impl)
{
	return impl == BENCH_KPROBE ? "kprobe" : impl == BENCH_OPTPROBE ? "optprobe" : "none";
}

/* The clock of every timed row and phase. */
static inline u64 bench_now(void)
{
	return ktime_get_ns();
}

/* ---- hits.c: hit cost ("hit" lines), and the timed loop ---- */

unsigned int bench_hit_plan(void);
void bench_hits(struct ktap *ktap);

/* The sum of a per-CPU counter over every CPU. */
unsigned long bench_count(unsigned long __percpu *counter);

/* gcd() to the type of a target; the call it adds is in every row */
u64 bench_gcd(u64 a, u64 b);

#define BENCH_MAX_RUNS	15	/* most runs of one timed row */

/* One timed row: @runs loops of @n calls, after a warm-up of n / 10. */
struct bench_timing {
	unsigned int n, runs;
	unsigned long calls;	/* every call made, the warm-up's too */
	u64 cycles, ns;		/* of the median loop */
};

void bench_time(u64 (*fn)(u64 a, u64 b), struct bench_timing *t);

/*
 * The same for a target that loops itself: one call of @loop(n) per run,
 * n iterations (t->n and t->calls count iterations).
 */
void bench_time_loop(u64 (*loop)(u64 n), struct bench_timing *t);

/* ---- markers.c: the static markers' rows (more "hit" lines) ---- */

unsigned int bench_marker_plan(void);
void bench_markers(struct ktap *ktap);

/* ---- ret.c: the return-probe rows ("ret" lines) ---- */

unsigned int bench_ret_plan(void);
void bench_rets(struct ktap *ktap);

/* ---- scale.c: scale and memory per probe ("sites", "scale" lines) ---- */

unsigned int bench_scale_plan(void);
void bench_scale(struct ktap *ktap);

/* ---- coverage.c: the coverage sweeps ("coverage", "reason" lines) ---- */

unsigned int bench_coverage_plan(void);
void bench_coverage(struct ktap *ktap);

/* ---- kernel-rules-ARCH.c: why the kernel leaves a kprobe unoptimized ---- */

int bench_kernel_rules_init(void);

/*
 * Why the kernel's kprobes would not optimize a kprobe at @addr, by a
 * model of their rules, or NULL; @chunk: the @nr sites registered with it.
 */
const char *bench_kernel_refusal(unsigned long addr, const unsigned long *chunk, unsigned int nr);

/* The reason when the kernel's detour slots run out, or NULL where they cannot. */
extern const char *const bench_kernel_slots_out;

/* ---- sites.c: lists of probe sites ---- */

struct bench_sites {
	unsigned long *addr;
	unsigned int nr, max;
};

int bench_sites_add(struct bench_sites *s, unsigned long addr);
void bench_sites_free(struct bench_sites *s);
void bench_sites_sort(struct bench_sites *s);

/* Length of the instruction at @addr (kernel or module text), or 0. */
unsigned int bench_insn_len(unsigned long addr);

/* The first instruction after the ftrace site of the function at @func, or 0. */
unsigned long bench_after_ftrace(unsigned long func);

int bench_kernel_candidates(struct bench_sites *s);
int bench_module_candidates(struct bench_sites *s);
int bench_drop_hot(struct bench_sites *cand, unsigned int *hot);
int bench_choose(const char *text, const struct bench_sites *cand, unsigned int want,
		 unsigned int hot, struct bench_sites *out);

/* ---- events.c: for bench/events.sh, the trace events' rows ("events" lines) ---- */
void bench_events_init(void);
void bench_events_exit(void);
/* Keep @s (emptied) for the script: the kernel-text scale sites. */
void bench_events_keep_sites(struct bench_sites *s);

/* ---- mem.c: memory in use ---- */

struct bench_mem {
	long slab, vmalloc, percpu;	/* pages */
};

void bench_mem_sample(struct bench_mem *m);

/* ---- kprobes.c: the kernel's kprobes, /proc/sys ---- */

/* Read or write a /proc/sys file, as root does from a shell. */
int bench_sysctl(const char *path, char *buf, size_t len, bool write);

/* Keep debug.kprobes-optimization as found at load; put it back. */
int bench_kprobes_save(void);
void bench_kprobes_restore(void);

/* Switch the kernel's kprobe optimization (debug.kprobes-optimization). */
int bench_kprobes_optimize(bool on);

/* What a kernel kprobe at @addr runs as: the flags of the probe hashed there. */
enum optprobe_mode bench_kprobe_mode(unsigned long addr);

/* Would the kernel's own kprobe at @addr crash the kernel (a kernel bug)? */
bool bench_kprobe_crashes(unsigned long addr);

/* scale.c: switch optprobe's emulator workaround (ppc64le); what it was */
bool bench_tcg_rewrite(bool on);

/* The kernel's kprobes run the same handler as optprobe's (target.c). */
int bench_kp_pre(struct kprobe *p, struct pt_regs *regs);

#endif /* OPTPROBE_BENCH_H */
