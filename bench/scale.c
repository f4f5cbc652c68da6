// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's scale rows ("sites" and "scale" lines; main.c runs
 * them after the hit and return-probe rows of each pass): registering,
 * optimizing and unregistering many probes at once, and the memory they
 * take.
 *
 * Sites (sites.c): in kernel text, and in module text (ppc64le by
 * default), chosen once in optprobe's pass for the largest n and kept for
 * the kernel's; each n of scale_n takes an evenly spaced subset.
 *
 * Timed: optprobe_register_many() (armed), then optprobe_sync()
 * (optimized), then optprobe_unregister_many() and optprobe_sync(); the
 * kernel's register_kprobes(), wait_for_kprobe_optimizer(),
 * unregister_kprobes() and wait_for_kprobe_optimizer().  Memory (mem.c):
 * the growth of slab, vmalloc and per-CPU pages between before
 * registering and optimized; the caller's own struct optprobe/struct
 * kprobe are not counted.
 *
 * On ppc64le, optprobe's emulator workaround (tcg_rewrite, which
 * scripts/bench switches on for the hit rows: each text word written a
 * second time) is off for these rows: the kernel's kprobes have none, and
 * neither side has it on hardware.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/rcupdate_wait.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <optprobe.h>

#include "../tests/kmod/ktap.h"
#include "bench.h"
#include "optprobe_bench_target.h"

struct bench_scale {
	u64 armed, optimized, unregistered;	/* ns */
	struct bench_mem mem0, mem1;
	unsigned int modes[OPTPROBE_MODE_GONE + 1];
};

static void bench_scale_print(const char *text, const char *impl, unsigned int nr,
			      const struct bench_scale *r)
{
	pr_info("scale text=%s impl=%s n=%u armed_ns=%llu optimized_ns=%llu unregister_ns=%llu optimized=%u boosted=%u trap=%u other=%u slab_bytes=%ld vmalloc_bytes=%ld percpu_bytes=%ld\n",
		text, impl, nr, r->armed, r->optimized, r->unregistered,
		r->modes[OPTPROBE_MODE_OPTIMIZED], r->modes[OPTPROBE_MODE_BOOSTED],
		r->modes[OPTPROBE_MODE_TRAP],
		nr - r->modes[OPTPROBE_MODE_OPTIMIZED] - r->modes[OPTPROBE_MODE_BOOSTED] -
		r->modes[OPTPROBE_MODE_TRAP],
		(r->mem1.slab - r->mem0.slab) * (long)PAGE_SIZE,
		(r->mem1.vmalloc - r->mem0.vmalloc) * (long)PAGE_SIZE,
		(r->mem1.percpu - r->mem0.percpu) * (long)PAGE_SIZE);
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

/*
 * What unregistering cannot go below on one CPU: on powerpc64le a
 * patch_instruction() per site, which both sides make to put the original
 * instruction back (optprobe's over its trap or its branch, the kernel's
 * over its trap; optprobe spreads a large batch's over the CPUs:
 * arch-powerpc/patch-batch.c), timed writing each site's own instruction
 * over itself (the text stays as it was: nothing else writes text in the
 * bench's VM meanwhile, no probe is left and the sites hold no jump
 * label); and the grace periods before memory goes, the kernel's
 * (synchronize_rcu()) and optprobe's for slots (RCU and tasks-RCU at
 * once, where preemption exists).  In the kernel's pass, once its probes
 * are gone.
 */
static u64 bench_scale_patch_floor(const unsigned long *sites, unsigned int nr,
				   unsigned int *failed)
{
#ifdef CONFIG_PPC64
	u64 t0 = bench_now();
	unsigned int i;

	for (i = 0; i < nr; i++)
		*failed += !!bench_ksyms.patch_instruction((u32 *)sites[i],
							   ppc_inst_read((u32 *)sites[i]));
	return bench_now() - t0;
#else
	return 0;
#endif
}

static void bench_scale_floor(const char *text, const unsigned long *sites, unsigned int nr)
{
	unsigned int failed = 0;
	u64 t0, patch, gp, gp_tasks = 0;

	patch = bench_scale_patch_floor(sites, nr, &failed);
	t0 = bench_now();
	synchronize_rcu();
	gp = bench_now() - t0;
#ifdef CONFIG_TASKS_RCU
	t0 = bench_now();
	synchronize_rcu_mult(call_rcu, call_rcu_tasks);
	gp_tasks = bench_now() - t0;
#endif
	pr_info("floor text=%s n=%u patch_ns=%llu failed=%u gp_ns=%llu gp_tasks_ns=%llu\n",
		text, nr, patch, failed, gp, gp_tasks);
}

/* The scale sites of kernel and module text, chosen in optprobe's pass. */
static struct bench_sites bench_scale_sites[2];

static void bench_scale_text(struct ktap *ktap, const char *text, bool module)
{
	const unsigned int *scale_n = bench_params.scale_n;
	unsigned int nr_scale_n = bench_params.nr_scale_n;
	struct bench_sites cand = {}, *chosen = &bench_scale_sites[module];
	unsigned long *subset = NULL;
	unsigned int i, j, nr, hot = 0;
	struct bench_scale r;
	char name[64];
	int ret = 0;

	if (bench_pass == BENCH_OPTPROBE) {
		ret = module ? bench_module_candidates(&cand) : bench_kernel_candidates(&cand);
		if (!ret && !module && bench_params.cold)
			ret = bench_drop_hot(&cand, &hot);
		if (!ret)
			ret = bench_choose(text, &cand, scale_n[nr_scale_n - 1], hot, chosen);
		bench_sites_free(&cand);
		snprintf(name, sizeof(name), "scale_%s_sites", text);
		ktap_check(ktap, !ret && chosen->nr, name, "%u sites: %d", chosen->nr, ret);
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
		if (ktap_check(ktap, !ret, name, "registering %u probes: %d", nr, ret))
			bench_scale_print(text, bench_impl_name(bench_pass), nr, &r);
		if (!ret && bench_pass == BENCH_KPROBE)
			bench_scale_floor(text, subset, nr);
	}
	kvfree(subset);
	if (bench_pass == BENCH_KPROBE && !module)
		bench_events_keep_sites(chosen);	/* for bench/events.sh */
	else if (bench_pass == BENCH_KPROBE)
		bench_sites_free(chosen);
}

static bool bench_scale_module(void)
{
	if (bench_params.scale_text)
		return strstr(bench_params.scale_text, "module");
	return IS_ENABLED(CONFIG_PPC64);
}

static bool bench_scale_kernel(void)
{
	return !bench_params.scale_text || strstr(bench_params.scale_text, "kernel");
}

unsigned int bench_scale_plan(void)
{
	return (bench_scale_kernel() + bench_scale_module()) * (1 + 2 * bench_params.nr_scale_n);
}

/* Switch optprobe's tcg_rewrite (see above); what it was. */
bool bench_tcg_rewrite(bool on)
{
#ifdef CONFIG_PPC64
	return op_ppc_set_tcg_rewrite(on);
#else
	return false;
#endif
}

void bench_scale(struct ktap *ktap)
{
	bool rewrite = bench_tcg_rewrite(false);

	if (bench_scale_kernel())
		bench_scale_text(ktap, "kernel", false);
	if (bench_scale_module())
		bench_scale_text(ktap, "module", true);
	bench_tcg_rewrite(rewrite);
}
