// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's coverage sweeps ("coverage_sites", "coverage" and
 * "reason" lines; main.c runs them last in each pass): of many kernel
 * sites, the share each implementation optimizes, and why not the
 * others.
 *
 * Two sweeps of kernel text, chosen in optprobe's pass: "entry", the
 * first instruction after the ftrace site of every cov_stride-th function
 * (from seed % cov_stride); "random", cov_random instruction boundaries
 * after the ftrace site of functions picked with prandom seeded by seed.
 * Each site is registered on its own, armed, by each implementation in
 * turn, BENCH_COV_CHUNK sites at a time; after the optimizer is done, the
 * optimized ones are counted, and the others binned by optprobe_reason(),
 * by the kernel's errno or, for a kernel kprobe left unoptimized, by a
 * model of the kernel's rules (kernel-rules-ARCH.c).  The kernel's pass
 * skips the sites where its kprobe would crash or hang the kernel
 * (bench_kprobe_crashes()); its fraction is of the sites it was tried on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <optprobe.h>

#include "../tests/kmod/ktap.h"
#include "bench.h"
#include "optprobe_bench_target.h"

#define BENCH_NR_REASONS	40

struct bench_histogram {
	const char *reason[BENCH_NR_REASONS];
	unsigned int count[BENCH_NR_REASONS];
	unsigned int other;
};

static void bench_histogram_add_n(struct bench_histogram *h, const char *reason,
				  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < BENCH_NR_REASONS && h->reason[i]; i++) {
		if (!strcmp(h->reason[i], reason)) {
			h->count[i] += n;
			return;
		}
	}
	if (i == BENCH_NR_REASONS) {
		h->other += n;
		return;
	}
	h->reason[i] = reason;
	h->count[i] = n;
}

static void bench_histogram_add(struct bench_histogram *h, const char *reason)
{
	bench_histogram_add_n(h, reason, 1);
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

struct bench_coverage {
	struct bench_histogram h;
	unsigned int registered, optimized, skipped;
	unsigned int disagree;		/* the kernel's verdict against its model's */
};

static void bench_coverage_print(const char *set, const char *impl, unsigned int nr,
				 const struct bench_coverage *c)
{
	const struct bench_histogram *h = &c->h;
	unsigned int i;

	pr_info("coverage set=%s impl=%s sites=%u skipped=%u registered=%u optimized=%u model_disagrees=%u\n",
		set, impl, nr, c->skipped, c->registered, c->optimized, c->disagree);
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

static void bench_coverage_optprobe(const unsigned long *sites, unsigned int nr,
				    struct optprobe *probes, struct optprobe **ps,
				    struct bench_coverage *c)
{
	unsigned int i, ok = 0, by_reason[OP_R_COUNT] = {};
	enum op_reason r;
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
			by_reason[op_probe_reason(ps[i])]++;
	}
	for (r = OP_R_NONE; r < OP_R_COUNT; r++)
		if (by_reason[r])
			bench_histogram_add_n(&c->h, op_reason_text(r), by_reason[r]);
	optprobe_unregister_many(ps, ok);
	optprobe_sync();
	c->registered += ok;
}

#define BENCH_KPROBE_CRASHES	"skipped: a bl, where the kernel's optimized kprobe crashes on unregister, or a load-reserve sequence, where its trap hangs the CPU"
#define BENCH_KPROBE_UNEXPLAINED "not optimized by the kernel, though its rules as modelled allow it"

/*
 * The kernel gives no reason for a kprobe it leaves unoptimized: @why
 * holds the model's (kernel-rules-ARCH.c), taken before the chunk is
 * registered, and the kernel's verdicts check it: a site the kernel
 * optimized that the model refuses counts in c->disagree.
 */
static void bench_coverage_kprobe(const unsigned long *sites, unsigned int nr,
				  struct kprobe *kps, struct kprobe **ps, const char **why,
				  struct bench_coverage *c)
{
	unsigned int i, ok = 0, last_opt = 0;
	int ret;

	memset(kps, 0, nr * sizeof(*kps));
	for (i = 0; i < nr; i++)
		why[i] = bench_kernel_refusal(sites[i], sites, nr);
	for (i = 0; i < nr; i++) {
		if (bench_kprobe_crashes(sites[i])) {
			bench_histogram_add(&c->h, BENCH_KPROBE_CRASHES);
			c->skipped++;
			continue;
		}
		kps[i].addr = (void *)sites[i];
		kps[i].pre_handler = bench_kp_pre;
		ret = register_kprobe(&kps[i]);
		if (ret) {
			bench_histogram_add(&c->h, bench_errno_reason(ret));
			continue;
		}
		ps[ok++] = &kps[i];
	}
	bench_ksyms.wait_for_kprobe_optimizer();
	for (i = 0; i < ok; i++)
		if (bench_kprobe_mode((unsigned long)ps[i]->addr) == OPTPROBE_MODE_OPTIMIZED)
			last_opt = i + 1;
	for (i = 0; i < ok; i++) {
		unsigned int at = ps[i] - kps;

		if (bench_kprobe_mode(sites[at]) == OPTPROBE_MODE_OPTIMIZED) {
			c->optimized++;
			if (why[at]) {
				c->disagree++;
				pr_info("model site=%pS reason=%s\n", ps[i]->addr, why[at]);
			}
		} else if (why[at]) {
			bench_histogram_add(&c->h, why[at]);
		} else {
			/* slots are handed out as kprobes register: none left after it */
			bench_histogram_add(&c->h, bench_kernel_slots_out && i >= last_opt ?
					    bench_kernel_slots_out : BENCH_KPROBE_UNEXPLAINED);
		}
	}
	unregister_kprobes(ps, ok);
	bench_ksyms.wait_for_kprobe_optimizer();
	c->registered += ok;
}

/*
 * Sweep @s with @impl, BENCH_COV_CHUNK sites at a time; *@disagree: sites
 * where the kernel's verdict contradicts the model of its rules.
 */
static int bench_coverage_sweep(const char *set, enum bench_impl impl, const struct bench_sites *s,
				unsigned int *disagree)
{
	struct optprobe *probes = kcalloc(BENCH_COV_CHUNK, sizeof(*probes), GFP_KERNEL);
	struct optprobe **ops = kcalloc(BENCH_COV_CHUNK, sizeof(*ops), GFP_KERNEL);
	struct kprobe *kps = kcalloc(BENCH_COV_CHUNK, sizeof(*kps), GFP_KERNEL);
	struct kprobe **kpps = kcalloc(BENCH_COV_CHUNK, sizeof(*kpps), GFP_KERNEL);
	const char **why = kcalloc(BENCH_COV_CHUNK, sizeof(*why), GFP_KERNEL);
	struct bench_coverage *c = kzalloc(sizeof(*c), GFP_KERNEL);
	unsigned int i, nr;
	int ret = -ENOMEM;

	if (!probes || !ops || !kps || !kpps || !why || !c)
		goto out;
	for (i = 0; i < s->nr; i += nr) {
		nr = min(s->nr - i, BENCH_COV_CHUNK);
		if (impl == BENCH_OPTPROBE)
			bench_coverage_optprobe(s->addr + i, nr, probes, ops, c);
		else
			bench_coverage_kprobe(s->addr + i, nr, kps, kpps, why, c);
	}
	bench_coverage_print(set, bench_impl_name(impl), s->nr, c);
	*disagree = c->disagree;
	ret = 0;
out:
	kfree(c);
	kfree(why);
	kfree(kpps);
	kfree(kps);
	kfree(ops);
	kfree(probes);
	return ret;
}

static void bench_coverage_set(struct ktap *ktap, const char *set,
			       const struct bench_sites *s)
{
	unsigned int disagree = 0;
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "coverage_%s_%s", set, bench_impl_name(bench_pass));
	ret = bench_coverage_sweep(set, bench_pass, s, &disagree);
	ktap_check(ktap, !ret && s->nr && !disagree, name,
		   "%u sites: %d; the kernel optimized %u its modelled rules refuse", s->nr, ret,
		   disagree);
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
	unsigned int seed = bench_params.seed, cov_stride = bench_params.cov_stride;
	unsigned int cov_random = bench_params.cov_random;
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
	bench_sites_sort(random);
	pr_info("coverage_sites functions=%u stride=%u entry=%u random=%u seed=%u\n",
		cand.nr, cov_stride, entry->nr, random->nr, seed);
	bench_sites_free(&cand);
	return ret;
}

unsigned int bench_coverage_plan(void)
{
	return 4;
}

void bench_coverage(struct ktap *ktap)
{
	struct bench_sites *entry = &bench_cov_sites[0], *random = &bench_cov_sites[1];

	if (bench_pass == BENCH_OPTPROBE && bench_coverage_sites(entry, random)) {
		bench_sites_free(entry);
		bench_sites_free(random);
	}
	bench_coverage_set(ktap, "entry", entry);
	bench_coverage_set(ktap, "random", random);
	if (bench_pass == BENCH_KPROBE) {
		bench_sites_free(entry);
		bench_sites_free(random);
	}
}
