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
 *  - Two CPUs: one calls the functions while the other registers,
 *    optimizes and unregisters probes on them; exact counts on the probe
 *    whose text changes while the caller is parked, results always right.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/lcm.h>
#include <linux/math.h>
#include <linux/module.h>

#include "optprobe_target_ppc.h"
#include "optprobe_test.h"
#include "exports.h"

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

/*
 * optprobe's share capped at one slot more than it holds: one slot of
 * stubs is optimized, the next probe stays a trap with the reason, and is
 * optimized once the others go and their slot is back in the cache.
 */
#define MAX_SHARE_PROBES	32

static void check_share(struct ktap *t)
{
	struct optprobe *ps = kcalloc(MAX_SHARE_PROBES, sizeof(*ps), GFP_KERNEL);
	struct optprobe *parked = NULL;
	unsigned int i, n = 0, held;
	const char *reason = "none";
	unsigned long addr;
	int share, mode = -1, err;

	if (!ps || op_ppc_core_cache_used(&held) < 0) {
		ktap_check(t, false, "share_used_up_stays_trap", "no memory, or no cache");
		ktap_check(t, false, "share_freed_optimized_later", "not run");
		kfree(ps);
		return;
	}
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
			} else if (op_probe_reason(p) == OP_R_CORE_CACHE_FULL) {
				parked = p;
				reason = optprobe_reason(p);
			} else {
				optprobe_unregister(p);
			}
		}
	}
	ktap_check(t, parked && n >= 1 && n <= 8, "share_used_up_stays_trap",
		   "%u optimized in one slot, then: %s", n, reason);
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

#define PLAN	(2 * ARRAY_SIZE(core_fns) + 2 + 2 + 2 + 1 + 3 + 2)

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
