// SPDX-License-Identifier: GPL-2.0
/*
 * Lists of probe sites, for the scale rows and the coverage sweeps.
 *
 * Candidates: in kernel text, the first instruction after the ftrace site
 * of every function kallsyms lists (address order); in module text,
 * every instruction after the ftrace site of the generated functions of
 * optprobe_bench_text.ko, up to the end of their code, which never runs.
 *
 * The scale sites (bench_choose()): one candidate is drawn from each of
 * (largest n) equal slices of the candidates, and kept if both
 * implementations accept it (registered disarmed, then unregistered;
 * refusals are counted).  In kernel text the functions that run while
 * probes are set up are left out first (bench_drop_hot(); cold=0 keeps
 * them).
 *
 * On ppc64le the kernel keeps its 64 KiB detour area for kernel text
 * (optinsn_slot) for the rest of the boot once one of its kprobes has
 * been prepared for optimization, which registering does, even disarmed
 * or in module text; optprobe then cannot optimize kernel-core text any
 * more.  So the kernel's registrations made here, before its pass, run
 * while an optimized optprobe probe holds that area (bench_hold_area()).
 * (On Debian's 6.1 the kernel holds it from boot: its kprobe on
 * __kretprobe_trampoline is optimized there.  The "hold" lines say so.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/gcd.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86
#include <asm/insn.h>
#include <asm/text-patching.h>
#else
#include <asm/ppc-opcode.h>
#endif

#include <optprobe.h>

#include "exports.h"
#include "wrap-kallsyms.h"
#include "bench.h"
#include "optprobe_bench_target.h"

unsigned int bench_insn_len(unsigned long addr)
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

unsigned long bench_after_ftrace(unsigned long func)
{
	unsigned long loc = bench_ksyms.ftrace_location(func);

	return loc ? loc + MCOUNT_INSN_SIZE : 0;
}

static int bench_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int bench_sites_add(struct bench_sites *s, unsigned long addr)
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

void bench_sites_free(struct bench_sites *s)
{
	kvfree(s->addr);
	memset(s, 0, sizeof(*s));
}

void bench_sites_sort(struct bench_sites *s)
{
	sort(s->addr, s->nr, sizeof(*s->addr), bench_cmp_ulong, NULL);
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
int bench_kernel_candidates(struct bench_sites *s)
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
int bench_module_candidates(struct bench_sites *s)
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
	bench_sites_sort(s);
	return 0;
}

/* Refusals by errno, for the "sites" and "refusals" lines. */
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
 * the parameter seed), not a fixed position, which in module text made
 * of functions of one length would be the same instruction of every
 * function.  While too few are accepted, further passes take the next
 * candidate of each slice.
 * Returns them sorted in @out.
 */
int bench_choose(const char *text, const struct bench_sites *cand, unsigned int want,
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
		prandom_seed_state(&rnd, bench_params.seed);
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
	bench_sites_sort(out);
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
int bench_drop_hot(struct bench_sites *cand, unsigned int *hot)
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
