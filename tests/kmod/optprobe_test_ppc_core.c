// SPDX-License-Identifier: GPL-2.0
/*
 * powerpc64le kernel-core text (issue #12): probes there are optimized in
 * slots of the kernel's own detour cache, kprobe_optinsn_slots, which
 * optprobe shares with the kernel's optimized kprobes.
 *
 *  - Probes inside several kernel functions this module calls (gcd,
 *    int_sqrt, lcm, int_pow) are optimized; their pre handlers see the
 *    registers the trap path shows them; hits are exact and results
 *    unchanged.  Hits are counted only from this module's own thread:
 *    other kernel code may call the same functions.
 *  - A post handler and a pre handler's redirect work on optimized core
 *    probes.
 *  - With optprobe's share of the cache capped at what it holds plus one
 *    slot, probes beyond that slot stay traps with the reason "kernel-core
 *    detour space full", and are optimized once others go.
 *  - A kernel kprobe registered while optprobe holds slots fires, is
 *    optimized by the kernel (it has slots left), and keeps firing after
 *    optprobe's probes are gone.
 *  - With the cache lookup failing on purpose, core probes stay traps with
 *    the reason, and hit exactly; optimized again once it is found again.
 *  - When every probe is gone the cache holds exactly the slots it held
 *    before.
 *  - With 4 KiB pages, the rest of the kernel's detour area past the
 *    cache's page (the tail, issue #30): over a thousand kernel-core
 *    probes in lib functions this module calls are optimized at once,
 *    far beyond the cache's share; each one's hits equal those the same
 *    probes count as traps for the same calls; with the tail's proof
 *    failing on purpose, probes beyond the share stay traps with the
 *    reason, hits exact; a kernel kprobe is still optimized by the kernel
 *    beside them; and once they are gone the cache holds what it held and
 *    the tail's bytes are as they were.
 *  - Two CPUs: one calls the functions while the other registers,
 *    optimizes and unregisters probes on them; exact counts on the probe
 *    whose text changes while the caller is parked, results always right.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/lcm.h>
#include <linux/math.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/xxhash.h>
#include <crypto/aes.h>
#include <crypto/sha1.h>

#include "optprobe_target_ppc.h"
#include "optprobe_test.h"
#include "exports.h"
#include "wrap-radix-patch.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define NR_CALLS	10
/* boundaries tried in a function for one that can be optimized */
#define MAX_TRIES	24

struct core_fn {
	const char *symbol;
	unsigned long fn;	/* its global entry */
	unsigned long a, b, want;
	unsigned long addr;	/* an optimizable instruction inside, once found */
};

static struct core_fn core_fns[] = {
	{ "gcd", (unsigned long)gcd, 84, 126, 42 },
	{ "int_sqrt", (unsigned long)int_sqrt, 1000000, 0, 1000 },
	{ "lcm", (unsigned long)lcm, 12, 18, 36 },
	{ "int_pow", (unsigned long)int_pow, 3, 13, 1594323 },
};

static optprobe_target_ppc_call_fn target_call;
static struct task_struct *tester;
static unsigned int counted, post_counted;
static struct pt_regs seen;

static int count_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (current == tester) {
		counted++;
		seen = *regs;
	}
	return 0;
}

static void count_post(struct optprobe *p, struct pt_regs *regs)
{
	if (current == tester)
		post_counted++;
}

/*
 * One call of @f, through optprobe_target_ppc_call(): from the same place
 * each time, with every other register set to a known value, so that two
 * calls on one CPU enter @f with the same registers.
 */
static noinline unsigned long call(const struct core_fn *f)
{
	return target_call((optprobe_target_ppc_fn)f->fn, f->a, f->b);
}

/* Call @f @n times; how many results were wrong. */
static unsigned int calls(const struct core_fn *f, unsigned int n)
{
	unsigned int i, wrong = 0;

	for (i = 0; i < n; i++)
		wrong += call(f) != f->want;
	return wrong;
}

/*
 * Register @p inside @f at the first instruction from f->addr on (or from
 * the first boundary after its entry) that is optimized: its address, or 0.
 */
static unsigned long optimize_inside(struct optprobe *p, struct core_fn *f,
				     optprobe_pre_handler_t pre, optprobe_post_handler_t post)
{
	unsigned long addr = f->addr;
	unsigned int i;
	int err;

	if (!addr)
		addr = test_inside_of(f->symbol, &err);
	for (i = 0; addr && i < MAX_TRIES; i++, addr = test_next_boundary(addr, &err)) {
		test_probe_init(p, NULL, addr, pre, post, 0);
		if (optprobe_register(p))
			continue;
		optprobe_sync();
		if (optprobe_mode(p) == OPTPROBE_MODE_OPTIMIZED) {
			f->addr = addr;
			return addr;
		}
		optprobe_unregister(p);
	}
	return 0;
}

/* Which register differs between @x and @trap, or NULL. */
static const char *regs_diff(const struct pt_regs *x, const struct pt_regs *trap)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x->gpr); i++)
		if (x->gpr[i] != trap->gpr[i])
			return "a GPR";
	if (x->nip != trap->nip)
		return "nip";
	if (x->link != trap->link)
		return "link";
	if (x->ctr != trap->ctr)
		return "ctr";
	if (x->xer != trap->xer)
		return "xer";
	if (x->ccr != trap->ccr)
		return "ccr";
	return x->msr != trap->msr ? "msr" : NULL;
}

/* One call of @f with a probe (@flags) on f->addr: its mode, or -1. */
static int run_one(const struct core_fn *f, unsigned int flags, struct pt_regs *regs,
		   unsigned long *result)
{
	struct optprobe p;
	int mode;

	test_probe_init(&p, NULL, f->addr, count_pre, NULL, flags);
	if (optprobe_register(&p))
		return -1;
	optprobe_sync();
	mode = optprobe_mode(&p);
	counted = 0;
	*result = call(f);
	*regs = seen;
	optprobe_unregister(&p);
	return counted == 1 ? mode : -1;
}

/* Each function: optimized inside, exact hits, right results, regs as the trap's. */
static void check_functions(struct ktap *t)
{
	unsigned long addr, got_trap, got_opt;
	struct pt_regs trap_regs, opt_regs;
	char name[TEST_NAME_LEN];
	int mode, trap_mode, opt_mode;
	const char *diff;
	struct optprobe p;
	unsigned int i, wrong;

	for (i = 0; i < ARRAY_SIZE(core_fns); i++) {
		struct core_fn *f = &core_fns[i];

		addr = optimize_inside(&p, f, count_pre, NULL);
		mode = -1;
		counted = 0;
		wrong = calls(f, NR_CALLS);
		if (addr) {
			mode = optprobe_mode(&p);
			optprobe_unregister(&p);
		}
		ktap_check(t, addr && mode == OPTPROBE_MODE_OPTIMIZED && !wrong &&
			   counted == NR_CALLS, test_name(name, f->symbol, "optimized_exact"),
			   "at %pS mode %d, %u wrong results, %u hits for %u calls", (void *)addr,
			   mode, wrong, counted, NR_CALLS);
		trap_mode = run_one(f, OPTPROBE_F_NOOPT, &trap_regs, &got_trap);
		opt_mode = run_one(f, 0, &opt_regs, &got_opt);
		diff = regs_diff(&opt_regs, &trap_regs);
		ktap_check(t, trap_mode == OPTPROBE_MODE_TRAP &&
			   opt_mode == OPTPROBE_MODE_OPTIMIZED && got_trap == f->want &&
			   got_opt == f->want && !diff,
			   test_name(name, f->symbol, "regs_as_trap"),
			   "modes %d %d, results %lu %lu, %s differs", trap_mode, opt_mode,
			   got_trap, got_opt, diff ?: "nothing");
	}
}

/* A post handler, and a redirect, on optimized core probes. */
static unsigned long fake_gcd(unsigned long a, unsigned long b)
{
	return a + b;
}

static int redirect_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (current != tester)
		return 0;
	counted++;
	return test_redirect(regs, (unsigned long)fake_gcd);
}

static void check_post_and_redirect(struct ktap *t)
{
	struct core_fn *f = &core_fns[1];
	unsigned long addr, wrong = 0;
	struct optprobe p;
	int mode = -1, err, i;

	addr = optimize_inside(&p, f, count_pre, count_post);
	counted = 0;
	post_counted = 0;
	wrong = calls(f, NR_CALLS);
	if (addr) {
		mode = optprobe_mode(&p);
		optprobe_unregister(&p);
	}
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED && !wrong && counted == NR_CALLS &&
		   post_counted == NR_CALLS, "post_handler_on_optimized_core_probe",
		   "mode %d, %lu wrong, %u pre and %u post hits for %u calls", mode, wrong,
		   counted, post_counted, NR_CALLS);

	/* redirected at gcd's first instruction after the entry: it returns a + b */
	addr = test_inside_of("gcd", &err);
	test_probe_init(&p, NULL, addr, redirect_pre, NULL, 0);
	mode = -1;
	wrong = 0;
	counted = 0;
	if (addr && !optprobe_register(&p)) {
		optprobe_sync();
		mode = optprobe_mode(&p);
		for (i = 0; i < NR_CALLS; i++)
			wrong += call(&core_fns[0]) != core_fns[0].a + core_fns[0].b;
		optprobe_unregister(&p);
	}
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED && !wrong && counted == NR_CALLS,
		   "pre_redirect_on_optimized_core_probe",
		   "at %pS mode %d, %lu wrong, %u hits for %u calls", (void *)addr, mode, wrong,
		   counted, NR_CALLS);
}

/* Why the kernel's detour area has no room past the cache's page, or NULL. */
static const char *tail_skip(void)
{
	if (PAGE_SIZE >= SZ_64K)
		return "64 KiB pages: the cache's page is the whole detour area";
	return NULL;
}

/*
 * optprobe's share capped at one slot more than it holds: one slot of
 * stubs is optimized, the next probe stays a trap with the reason, and is
 * optimized once the others go and their slot is back in the cache.
 * Where there is a tail, its proof fails on purpose meanwhile, and the
 * reason says so.
 */
#define MAX_SHARE_PROBES	32

static void check_share(struct ktap *t)
{
	struct optprobe *ps = kcalloc(MAX_SHARE_PROBES, sizeof(*ps), GFP_KERNEL);
	struct optprobe *parked = NULL;
	unsigned int i, n = 0, held;
	enum op_reason want = tail_skip() ? OP_R_CORE_CACHE_FULL : OP_R_CORE_TAIL_REFUSED;
	const char *reason = "none";
	unsigned long addr;
	int share, mode = -1, err, tail_fail;

	if (!ps || op_ppc_core_cache_used(&held) < 0) {
		ktap_check(t, false, "share_used_up_stays_trap", "no memory, or no cache");
		ktap_check(t, false, "share_freed_optimized_later", "not run");
		kfree(ps);
		return;
	}
	/* where there is a tail, probes would go there first: refused, they cannot */
	tail_fail = op_ppc_core_tail_set_test_fail(true);
	share = op_ppc_core_set_share(held + 1);
	for (i = 0; i < ARRAY_SIZE(core_fns) && !parked; i++) {
		addr = test_inside_of(core_fns[i].symbol, &err);
		for (; addr && n < MAX_SHARE_PROBES && !parked;
		     addr = test_next_boundary(addr, &err)) {
			struct optprobe *p = &ps[n];

			test_probe_init(p, NULL, addr, test_nop_pre, NULL, 0);
			if (optprobe_register(p))
				break;
			optprobe_sync();
			if (optprobe_mode(p) == OPTPROBE_MODE_OPTIMIZED) {
				n++;
			} else if (op_probe_reason(p) == want) {
				parked = p;
				reason = optprobe_reason(p);
			} else {
				optprobe_unregister(p);
			}
		}
	}
	ktap_check(t, !tail_fail && parked && n >= 1 && n <= 8, "share_used_up_stays_trap",
		   "tail refused: %d; %u optimized in one slot, then: %s", tail_fail, n, reason);
	for (i = 0; i < n; i++)
		optprobe_unregister(&ps[i]);
	optprobe_sync();
	if (parked) {
		mode = optprobe_mode(parked);
		optprobe_unregister(parked);
	}
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED, "share_freed_optimized_later",
		   "mode %d after %u others went", mode, n);
	op_ppc_core_set_share(share);
	op_ppc_core_tail_set_test_fail(false);
	kfree(ps);
}

/* The cache not found: core probes stay traps with the reason, exact. */
static void check_not_found(struct ktap *t)
{
	struct core_fn *f = &core_fns[0];
	enum op_reason reason = OP_R_NONE;
	int ret, mode = -1, mode_after = -1;
	unsigned int wrong = 0;
	struct optprobe p;

	ret = op_ppc_core_set_test_fail(true);
	test_probe_init(&p, NULL, f->addr, count_pre, NULL, 0);
	counted = 0;
	if (!ret && !optprobe_register(&p)) {
		optprobe_sync();
		mode = optprobe_mode(&p);
		reason = op_probe_reason(&p);
		wrong = calls(f, NR_CALLS);
		optprobe_unregister(&p);
	}
	ktap_check(t, mode == OPTPROBE_MODE_TRAP && reason == OP_R_CORE_CACHE_NOT_FOUND && !wrong &&
		   counted == NR_CALLS, "cache_not_found_stays_trap",
		   "set %d, mode %d: %s; %u wrong, %u hits for %u calls", ret, mode,
		   op_reason_text(reason), wrong, counted, NR_CALLS);
	ret = op_ppc_core_set_test_fail(false);
	if (!ret && !optprobe_register(&p)) {
		optprobe_sync();
		mode_after = optprobe_mode(&p);
		optprobe_unregister(&p);
	}
	ktap_check(t, mode_after == OPTPROBE_MODE_OPTIMIZED, "cache_found_again_optimized",
		   "set %d, mode %d", ret, mode_after);
}

/* A kernel kprobe beside optprobe's core probes. */
static unsigned int kp_hits;

static int kp_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (current == tester)
		kp_hits++;
	return 0;
}

/* Is the text at @addr a "b", as an optimized kprobe's is? */
static bool jumps(unsigned long addr)
{
	return (*(u32 *)addr & 0xfc000003) == 0x48000000;
}

/*
 * A kernel kprobe in lcm, past its entry (the kernel does not optimize
 * kprobes near a function's entry), at the first instruction the kernel
 * optimizes: its address, with kp registered; else 0, with kp registered
 * on the last one tried, or not registered (*@ret).
 */
#define KPROBE_TRIES	6

static unsigned long kprobe_optimized_in_lcm(struct kprobe *kp, int *ret)
{
	unsigned long addr = core_fns[2].addr + 16;
	unsigned int i, j;
	int err;

	for (i = 0; addr && i < KPROBE_TRIES; i++, addr = test_next_boundary(addr, &err)) {
		memset(kp, 0, sizeof(*kp));
		kp->addr = (void *)addr;
		kp->pre_handler = kp_pre;
		*ret = register_kprobe(kp);
		if (*ret)
			continue;
		/* the kernel's optimizer waits a few jiffies, then a grace period */
		for (j = 0; j < 60; j++) {
			msleep(50);
			if (jumps(addr))
				return addr;
		}
		if (i + 1 < KPROBE_TRIES)
			unregister_kprobe(kp);
	}
	return 0;
}

static void check_kernel_kprobe(struct ktap *t)
{
	struct core_fn *f = &core_fns[2];
	unsigned int held = 0, wrong, i, hits_with;
	unsigned long optimized;
	struct optprobe p[2];
	bool ours = true;
	struct kprobe kp;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(p); i++)
		ours &= !!optimize_inside(&p[i], &core_fns[i], test_nop_pre, NULL);
	op_ppc_core_cache_used(&held);
	optimized = kprobe_optimized_in_lcm(&kp, &ret);
	kp_hits = 0;
	wrong = calls(f, NR_CALLS);
	hits_with = kp_hits;
	for (i = 0; i < ARRAY_SIZE(p); i++)
		if (ours)
			optprobe_unregister(&p[i]);
	optprobe_sync();
	wrong += calls(f, NR_CALLS);
	if (!ret)
		unregister_kprobe(&kp);
	ktap_check(t, ours && held >= 1 && !ret && hits_with == NR_CALLS,
		   "kernel_kprobe_fires_beside_optprobe_slots",
		   "ours %d, optprobe holds %u slots, register_kprobe %d at %pS, %u hits for %u calls",
		   ours, held, ret, kp.addr, hits_with, NR_CALLS);
	ktap_check(t, optimized, "kernel_kprobe_optimized_beside_optprobe_slots",
		   "none of %u instructions from %pS optimized", KPROBE_TRIES,
		   (void *)(f->addr + 16));
	ktap_check(t, !wrong && kp_hits == 2 * NR_CALLS,
		   "kernel_kprobe_fires_after_optprobe_probes_go", "%u wrong, %u hits for %u calls",
		   wrong, kp_hits, 2 * NR_CALLS);
}

/*
 * The tail: the rest of the kernel's detour area past the cache's page,
 * where pages are 4 KiB.  Probes on every instruction of a few lib
 * functions this module calls (their code is long, and little else in the
 * kernel calls them): far more than the cache's share of about 50
 * detours.
 */
#define TAIL_PROBES_MAX		1400
#define TAIL_OPTIMIZED_MIN	1000
/* probes of the pass with the tail refused: beyond the share, not much more */
#define TAIL_REFUSED_PROBES	200
#define TAIL_CALLS		2
#define TAIL_TRIES		64

struct tail_probe {
	struct optprobe p;
	unsigned long addr;
	unsigned int hits, trap_hits;
	int opt_mode;		/* its mode in the pass with the tail */
	u32 orig;		/* the instruction there before any probe */
};

static struct tail_probe *tail;
static struct optprobe **tail_ps;

static const struct {
	const char *symbol;
	unsigned long fn;
} tail_fns[] = {
	{ "aes_expandkey", (unsigned long)aes_expandkey },
	{ "aes_encrypt", (unsigned long)aes_encrypt },
	{ "aes_decrypt", (unsigned long)aes_decrypt },
	{ "xxh32", (unsigned long)xxh32 },
	{ "xxh64", (unsigned long)xxh64 },
	{ "sha1_transform", (unsigned long)sha1_transform },
};

static int tail_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (current == tester)
		container_of(p, struct tail_probe, p)->hits++;
	return 0;
}

static struct {
	struct crypto_aes_ctx aes;
	u8 key[AES_KEYSIZE_256], in[AES_BLOCK_SIZE], out[AES_BLOCK_SIZE], back[AES_BLOCK_SIZE];
	u32 digest[SHA1_DIGEST_WORDS], ws[SHA1_WORKSPACE_WORDS];
	char data[SHA1_BLOCK_SIZE];
} tw;

/* One call of each function, on the same input each time: a hash of the results. */
static u64 tail_work(void)
{
	unsigned int i;
	u64 sum;

	for (i = 0; i < sizeof(tw.key); i++)
		tw.key[i] = i * 7 + 1;
	for (i = 0; i < sizeof(tw.in); i++)
		tw.in[i] = i * 13 + 5;
	for (i = 0; i < sizeof(tw.data); i++)
		tw.data[i] = i * 11 + 3;
	for (i = 0; i < SHA1_DIGEST_WORDS; i++)
		tw.digest[i] = i * 0x01010101;
	aes_expandkey(&tw.aes, tw.key, sizeof(tw.key));
	aes_encrypt(&tw.aes, tw.out, tw.in);
	aes_decrypt(&tw.aes, tw.back, tw.out);
	sum = memcmp(tw.back, tw.in, sizeof(tw.in)) ? 1 : xxh64(tw.out, sizeof(tw.out), 3);
	sum ^= xxh32(tw.data, sizeof(tw.data), 1);
	sum ^= xxh64(tw.data, sizeof(tw.data), 2);
	sha1_transform(tw.digest, tw.data, tw.ws);
	return sum ^ tw.digest[0] ^ ((u64)tw.digest[4] << 32);
}

/* TAIL_CALLS calls of each: how many hashes differ from @want. */
static unsigned int tail_calls(u64 want)
{
	unsigned int i, wrong = 0;

	for (i = 0; i < TAIL_CALLS; i++)
		wrong += tail_work() != want;
	return wrong;
}

/* Every instruction of the functions, up to TAIL_PROBES_MAX: how many. */
static unsigned int tail_find(void)
{
	char name[KSYM_NAME_LEN];
	unsigned int i, n = 0;
	unsigned long addr;

	for (i = 0; i < ARRAY_SIZE(tail_fns); i++) {
		for (addr = tail_fns[i].fn; n < TAIL_PROBES_MAX; addr += 4) {
			snprintf(name, sizeof(name), "%ps", (void *)addr);
			if (strcmp(name, tail_fns[i].symbol))
				break;
			tail[n].orig = *(u32 *)addr;
			tail[n++].addr = addr;
		}
	}
	return n;
}

/*
 * Register the first *@n probes with @flags.  Addresses refused are
 * dropped for good (the batch is all or nothing): *@n says how many are
 * left.  Returns 0, or the error of a probe refused too often.
 */
static int tail_register(unsigned int *n, unsigned int flags)
{
	unsigned int i, failed, tries;
	int ret;

	for (tries = 0; tries < TAIL_TRIES; tries++) {
		for (i = 0; i < *n; i++) {
			test_probe_init(&tail[i].p, NULL, tail[i].addr, tail_pre, NULL,
					flags | OPTPROBE_F_QUIET);
			tail[i].hits = 0;
			tail_ps[i] = &tail[i].p;
		}
		ret = optprobe_register_batch(tail_ps, *n, &failed);
		if (!ret)
			return 0;
		if (failed >= *n)
			return ret;
		memmove(&tail[failed], &tail[failed + 1], (*n - failed - 1) * sizeof(*tail));
		(*n)--;
	}
	return ret;
}

/* Do the probes' hits equal those they had as traps?  How many differ. */
static unsigned int tail_inexact(unsigned int n, unsigned int *first)
{
	unsigned int i, inexact = 0;

	for (i = n; i-- > 0;)
		if (tail[i].hits != tail[i].trap_hits) {
			inexact++;
			*first = i;
		}
	return inexact;
}

static const char * const tail_checks[] = {
	"tail_probes_beyond_share_optimized",
	"tail_probes_hits_as_trap",
	"tail_refused_stays_trap_exact",
	"kernel_kprobe_optimized_beside_tail",
	"tail_and_cache_given_back",
};

static void check_tail(struct ktap *t)
{
	unsigned int n = 0, i, held0 = 0, held = 0, optimized = 0, full = 0, first = 0;
	unsigned int wrong, inexact, hits = 0, refused = 0, refused_opt = 0, refused_bad = 0;
	unsigned int nref, kp_with = 0;
	int used0, used = -1, ret, kp_ret = -ENOENT, fail_ret;
	void *slot = NULL, *saved = NULL;
	const char *skip = tail_skip();
	size_t tail_bytes = SZ_64K - PAGE_SIZE;
	unsigned long kp_at = 0;
	bool kp_jumps = false;
	struct op_ksym sym = { .name = "optinsn_slot", .slot = &slot, .addr_only = true };
	struct kprobe kp;
	u64 want;

	tail = skip ? NULL : kvcalloc(TAIL_PROBES_MAX, sizeof(*tail), GFP_KERNEL);
	tail_ps = skip ? NULL : kvcalloc(TAIL_PROBES_MAX, sizeof(*tail_ps), GFP_KERNEL);
	if (!skip && (!tail || !tail_ps || op_ksyms_resolve(&sym, 1) || !slot))
		skip = "no memory, or optinsn_slot not found";
	if (!skip) {
		saved = kvmalloc(tail_bytes, GFP_KERNEL);
		if (!saved)
			skip = "no memory";
	}
	if (skip) {
		for (i = 0; i < ARRAY_SIZE(tail_checks); i++)
			ktap_skip(t, tail_checks[i], skip);
		goto out;
	}
	memcpy(saved, slot + PAGE_SIZE, tail_bytes);
	used0 = op_ppc_core_cache_used(&held0);
	want = tail_work();
	n = tail_find();

	/* as traps: what each probe counts for the calls */
	ret = tail_register(&n, OPTPROBE_F_NOOPT);
	wrong = tail_calls(want);
	for (i = 0; i < n; i++)
		tail[i].trap_hits = tail[i].hits;
	if (!ret)
		optprobe_unregister_many(tail_ps, n);
	optprobe_sync();

	/* the tail refused: beyond the share, traps with the reason, exact */
	nref = min_t(unsigned int, n, TAIL_REFUSED_PROBES);
	fail_ret = op_ppc_core_tail_set_test_fail(true);
	if (!ret && !fail_ret && !tail_register(&nref, 0)) {
		optprobe_sync();
		for (i = 0; i < nref; i++) {
			int mode = optprobe_mode(&tail[i].p);
			enum op_reason why = op_probe_reason(&tail[i].p);

			refused_opt += mode == OPTPROBE_MODE_OPTIMIZED;
			refused += mode == OPTPROBE_MODE_TRAP && why == OP_R_CORE_TAIL_REFUSED;
			refused_bad += mode == OPTPROBE_MODE_TRAP && why == OP_R_CORE_CACHE_FULL;
		}
		wrong += tail_calls(want);
		inexact = tail_inexact(nref, &first);
		optprobe_unregister_many(tail_ps, nref);
		optprobe_sync();
	} else {
		inexact = nref;
	}
	op_ppc_core_tail_set_test_fail(false);
	pr_info("tail refused: of %u kernel-core probes, %u optimized in the cache's share, %u traps with the reason\n",
		nref, refused_opt, refused);
	ktap_check(t, !fail_ret && refused && !refused_bad && !inexact && !wrong,
		   tail_checks[2],
		   "set %d; of %u probes %u optimized in the share, %u traps for the tail refused, %u for the cache full; %u inexact (first %pS), %u wrong",
		   fail_ret, nref, refused_opt, refused, refused_bad, inexact,
		   (void *)tail[first].addr, wrong);

	/* with the tail: all at once, and a kernel kprobe beside them */
	if (!ret)
		ret = tail_register(&n, 0);
	if (!ret) {
		optprobe_sync();
		for (i = 0; i < n; i++) {
			tail[i].opt_mode = optprobe_mode(&tail[i].p);
			optimized += tail[i].opt_mode == OPTPROBE_MODE_OPTIMIZED;
			full += op_probe_reason(&tail[i].p) == OP_R_CORE_CACHE_FULL;
		}
		op_ppc_core_cache_used(&held);
		kp_at = kprobe_optimized_in_lcm(&kp, &kp_ret);
		kp_hits = 0;
		wrong += tail_calls(want);
		wrong += calls(&core_fns[2], NR_CALLS);
		kp_with = kp_hits;
		inexact = tail_inexact(n, &first);
		for (i = 0; i < n; i++)
			hits += tail[i].hits;
		optprobe_unregister_many(tail_ps, n);
		optprobe_sync();
		/* the kernel's optimized kprobe holds a slot of the cache */
		kp_jumps = kp_at && jumps(kp_at);
		used = op_ppc_core_cache_used(&held0) - kp_jumps;
		if (!kp_ret)
			unregister_kprobe(&kp);
	} else {
		inexact = n;
	}
	pr_info("tail: %u kernel-core probes, %u optimized at once (optprobe held %u cache slots), %u stayed traps with the space full; %u hits, as traps\n",
		n, optimized, held, full, hits);
	ktap_check(t, !ret && optimized >= TAIL_OPTIMIZED_MIN && optimized > held * 8,
		   tail_checks[0], "register %d; %u of %u probes optimized, %u cache slots held",
		   ret, optimized, n, held);
	ktap_check(t, !ret && !inexact && !wrong && hits > n, tail_checks[1],
		   "%u of %u probes' hits differ from their trap hits (first at %pS), %u wrong, %u hits",
		   inexact, n, (void *)tail[first].addr, wrong, hits);
	ktap_check(t, kp_at && !kp_ret && kp_with == NR_CALLS, tail_checks[3],
		   "register_kprobe %d at %pS, optimized %d, %u hits for %u calls", kp_ret,
		   kp.addr, !!kp_at, kp_with, NR_CALLS);
	ktap_check(t, used == used0 && !held0 && !memcmp(saved, slot + PAGE_SIZE, tail_bytes),
		   tail_checks[4],
		   "cache used %d before, %d after (kprobe %d), optprobe %u; tail %s",
		   used0, used, kp_jumps, held0,
		   memcmp(saved, slot + PAGE_SIZE, tail_bytes) ? "CHANGED" : "as before");
out:
	kvfree(saved);
	kvfree(tail_ps);
	kvfree(tail);
}

/*
 * How many of the first @n probes' words are not @insn, or not their
 * original if 0; ftrace sites, where no trap is written, for @insn only
 * if @ftrace.
 */
static unsigned int batch_words_not(unsigned int n, u32 insn, bool ftrace)
{
	unsigned int i, not = 0;

	for (i = 0; i < n; i++)
		if (!insn || ftrace || optprobe_mode(&tail[i].p) != OPTPROBE_MODE_FTRACE)
			not += *(u32 *)tail[i].addr != (insn ?: tail[i].orig);
	return not;
}

/* Did text-write batches go to other CPUs since @before, where there are two? */
static bool batch_spread(unsigned long before)
{
	return num_online_cpus() < 2 || op_ppc_batch_parts_spread() > before;
}

/*
 * With the kernel's tlbie switched off (its debugfs switch, whose data is
 * tlbie_enabled), radix before 6.2 takes each patching mapping out of
 * every TLB by interrupting every CPU, interrupts off: two CPUs doing it
 * at once would wait for each other for good, so one CPU writes the
 * batch.  Elsewhere the batch is still spread.  The tail's @n probes, as
 * traps, unregistered in one batch.
 */
static void check_batch_tlbie_off(struct ktap *t, unsigned int n)
{
	const char *name = "batch_tlbie_off_one_cpu_before_6_2_radix";
	bool want = !radix_enabled() || TEST_RADIX_PATCH_LOCAL, spread;
	unsigned int left = -1;
	unsigned long before;
	struct dentry *d;
	bool *tlbie, was;
	int ret;

	d = debugfs_lookup("tlbie_enabled", arch_debugfs_dir);
	if (IS_ERR_OR_NULL(d)) {
		ktap_skip(t, name, "no powerpc/tlbie_enabled in debugfs");
		return;
	}
	if (num_online_cpus() < 2) {
		dput(d);
		ktap_skip(t, name, "one CPU");
		return;
	}
	tlbie = d_inode(d)->i_private;
	dput(d);
	was = READ_ONCE(*tlbie);
	WRITE_ONCE(*tlbie, false);
	ret = tail_register(&n, OPTPROBE_F_NOOPT);
	before = op_ppc_batch_parts_spread();
	if (!ret)
		optprobe_unregister_many(tail_ps, n);
	spread = op_ppc_batch_parts_spread() > before;
	WRITE_ONCE(*tlbie, was);
	if (!ret)
		left = batch_words_not(n, 0, true);
	ktap_check(t, !ret && !left && spread == want, name,
		   "%d; %u words not back; spread %d, want %d (radix %d)", ret, left, spread,
		   want, radix_enabled());
}

/*
 * Batches of more words than one CPU writes (arch-powerpc/patch-batch.c
 * spreads them over the CPUs): every instruction of the tail's
 * functions, a trap at each but the ftrace sites, and each original back
 * after unregistering; then optimized where there is room, at least two
 * parts' worth of jumps, all written and taken out again.
 */
static void check_batch(struct ktap *t)
{
	unsigned int n = 0, traps = -1, left = -1, opt_left = -1, optimized = 0, i;
	bool spread = false, opt_spread = false;
	unsigned long before;
	int ret = -ENOMEM;
	u64 want;

	tail = kvcalloc(TAIL_PROBES_MAX, sizeof(*tail), GFP_KERNEL);
	tail_ps = kvcalloc(TAIL_PROBES_MAX, sizeof(*tail_ps), GFP_KERNEL);
	if (tail && tail_ps) {
		want = tail_work();
		n = tail_find();
		ret = tail_register(&n, OPTPROBE_F_NOOPT);
	}
	if (!ret) {
		traps = batch_words_not(n, BREAKPOINT_INSTRUCTION, false);
		before = op_ppc_batch_parts_spread();
		optprobe_unregister_many(tail_ps, n);
		spread = batch_spread(before);
		left = batch_words_not(n, 0, true);
		ret = tail_register(&n, 0);
	}
	if (!ret) {
		optprobe_sync();
		for (i = 0; i < n; i++)
			optimized += optprobe_mode(&tail[i].p) == OPTPROBE_MODE_OPTIMIZED;
		ret = tail_calls(want) ? -EIO : 0;
		before = op_ppc_batch_parts_spread();
		optprobe_unregister_many(tail_ps, n);
		opt_spread = batch_spread(before);
		optprobe_sync();
		opt_left = batch_words_not(n, 0, true);
	}
	ktap_check(t, !ret && n > TAIL_REFUSED_PROBES * 4 && !traps, "batch_traps_all_written",
		   "%d; %u probes, %u words not a trap", ret, n, traps);
	ktap_check(t, !ret && !left && !opt_left && spread && opt_spread && optimized >= 512,
		   "batch_originals_all_back",
		   "%d; %u words not back from traps (spread %d), %u from %u optimized (spread %d)",
		   ret, left, spread, opt_left, optimized, opt_spread);
	if (!ret)
		check_batch_tlbie_off(t, n);
	else
		ktap_check(t, false, "batch_tlbie_off_one_cpu_before_6_2_radix", "not run: %d",
			   ret);
	kvfree(tail_ps);
	kvfree(tail);
}

/*
 * Two CPUs: a thread on CPU 0 calls gcd and int_sqrt in a loop; this one,
 * on CPU 1, puts a probe on gcd for each round, optimized while the caller
 * is parked, and registers, optimizes and unregisters a probe on int_sqrt
 * while it runs.  The gcd probe sees exactly the calls of its round.
 * Under QEMU's TCG the caller sleeps now and then, and optimization ends
 * (optprobe_sync()) before a round starts (see FACTS about stale code).
 */
#define STRESS_ROUNDS	40
#define STRESS_SLEEP_EVERY	1000

static struct {
	struct task_struct *task;
	bool park, parked;
	unsigned long gcd_calls, sqrt_calls, wrong;
	unsigned int hits, churn_hits;
} hammer;

static int hammer_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (current == hammer.task)
		hammer.hits++;
	return 0;
}

static int churn_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (current == hammer.task)
		hammer.churn_hits++;
	return 0;
}

static int hammer_fn(void *unused)
{
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		if (READ_ONCE(hammer.park)) {
			/* after the last call counted: hammer_park() reads the count next */
			smp_store_release(&hammer.parked, true);
			usleep_range(100, 200);
			continue;
		}
		WRITE_ONCE(hammer.parked, false);
		hammer.wrong += call(&core_fns[0]) != core_fns[0].want;
		/* the call done, then counted: pairs with the read after parking */
		smp_store_release(&hammer.gcd_calls, hammer.gcd_calls + 1);
		hammer.wrong += call(&core_fns[1]) != core_fns[1].want;
		hammer.sqrt_calls++;
		if (++n % STRESS_SLEEP_EVERY == 0)
			usleep_range(50, 100);
	}
	return 0;
}

static void hammer_park(bool park)
{
	WRITE_ONCE(hammer.parked, false);
	/* a stale "parked" is cleared before the request is seen */
	smp_mb();
	WRITE_ONCE(hammer.park, park);
	/* acquire: the caller's count is read after it parked */
	while (park && !smp_load_acquire(&hammer.parked))
		usleep_range(100, 200);
}

struct stress_result {
	unsigned int rounds, optimized, churned, inexact;
	unsigned long calls;
	int ret;
	struct completion done;
};

static int stress_control(void *data)
{
	struct stress_result *r = data;
	struct optprobe exact, churn;
	unsigned long c0;
	unsigned int i;

	for (i = 0; i < STRESS_ROUNDS; i++) {
		hammer_park(true);
		test_probe_init(&exact, NULL, core_fns[0].addr, hammer_pre, NULL, 0);
		r->ret = optprobe_register(&exact);
		if (r->ret) {
			hammer_park(false);
			break;
		}
		optprobe_sync();
		r->optimized += optprobe_mode(&exact) == OPTPROBE_MODE_OPTIMIZED;
		hammer.hits = 0;
		c0 = READ_ONCE(hammer.gcd_calls);
		hammer_park(false);
		test_probe_init(&churn, NULL, core_fns[1].addr, churn_pre, NULL, 0);
		if (!optprobe_register(&churn)) {
			optprobe_sync();
			r->churned += optprobe_mode(&churn) == OPTPROBE_MODE_OPTIMIZED;
			msleep(20);
			optprobe_unregister(&churn);
		}
		hammer_park(true);
		r->inexact += hammer.hits != READ_ONCE(hammer.gcd_calls) - c0;
		r->calls += hammer.gcd_calls - c0;
		optprobe_unregister(&exact);
		hammer_park(false);
		r->rounds++;
	}
	complete(&r->done);
	return 0;
}

static void check_stress(struct ktap *t)
{
	struct stress_result r = { 0 };
	struct task_struct *control;

	init_completion(&r.done);
	memset(&hammer, 0, sizeof(hammer));
	hammer.task = kthread_create(hammer_fn, NULL, "optprobe_core_hammer");
	control = kthread_create(stress_control, &r, "optprobe_core_control");
	if (IS_ERR(hammer.task) || IS_ERR(control) || num_online_cpus() < 2) {
		ktap_skip(t, "stress_two_cpus_exact", "no threads or one CPU");
		ktap_skip(t, "stress_two_cpus_results_right", "no threads or one CPU");
		if (!IS_ERR(hammer.task))
			kthread_stop(hammer.task);
		if (!IS_ERR(control))
			kthread_stop(control);
		return;
	}
	kthread_bind(hammer.task, 0);
	kthread_bind(control, 1);
	get_task_struct(control);
	wake_up_process(hammer.task);
	wake_up_process(control);
	/* kthread_stop() before it ran would keep it from running at all */
	wait_for_completion(&r.done);
	kthread_stop(control);
	put_task_struct(control);
	kthread_stop(hammer.task);
	ktap_check(t, r.rounds == STRESS_ROUNDS && r.optimized == r.rounds && !r.inexact &&
		   r.calls > 0, "stress_two_cpus_exact",
		   "%u rounds (register %d), %u optimized, %u inexact, %lu calls probed, %u churn optimized",
		   r.rounds, r.ret, r.optimized, r.inexact, r.calls, r.churned);
	ktap_check(t, !hammer.wrong && r.churned == r.rounds, "stress_two_cpus_results_right",
		   "%lu wrong of %lu calls, churn optimized in %u of %u rounds, %u churn hits",
		   hammer.wrong, hammer.gcd_calls + hammer.sqrt_calls, r.churned, r.rounds,
		   hammer.churn_hits);
}

#define PLAN	(2 * ARRAY_SIZE(core_fns) + 2 + 2 + 2 + 1 + 3 + ARRAY_SIZE(tail_checks) + 2 + 3)

static int __init test_ppc_core_init(void)
{
	unsigned int i, held0 = 0, held = 0;
	int used0, used;
	struct ktap t;

	ktap_start(&t, PLAN);
	target_call = (optprobe_target_ppc_call_fn)test_entry_of("optprobe_target_ppc_call");
	used0 = op_ppc_core_cache_used(&held0);
	if (!target_call || used0 < 0) {
		for (i = 0; i < PLAN; i++)
			ktap_check(&t, false, "setup", "no optprobe_target_ppc.ko, or no cache");
		return 0;
	}
	tester = current;
	migrate_disable();
	check_functions(&t);
	check_post_and_redirect(&t);
	check_share(&t);
	check_not_found(&t);
	migrate_enable();
	used = op_ppc_core_cache_used(&held);
	ktap_check(&t, used == used0 && !held, "cache_holds_what_it_held_before",
		   "before: %d used (optprobe %u); after: %d (optprobe %u)", used0, held0, used,
		   held);
	check_kernel_kprobe(&t);
	check_tail(&t);
	check_batch(&t);
	check_stress(&t);
	return 0;
}

static void __exit test_ppc_core_exit(void)
{
}

module_init(test_ppc_core_init);
module_exit(test_ppc_core_exit);

MODULE_DESCRIPTION("optprobe test: powerpc64le kernel-core probes in the kernel's detour cache");
MODULE_LICENSE("GPL");
