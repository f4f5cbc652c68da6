// SPDX-License-Identifier: GPL-2.0
/*
 * powerpc64le: probes on a `bl` unregistered while it runs.
 *
 * The kernel's own optimized kprobe crashes the kernel there (Debian's
 * 6.1 and 6.12, doc/performance.md): a CPU that runs the site
 * while the probe is being unregistered goes through the kernel's detour
 * with the probe already disabled, and emulating the `bl` then sets the
 * link register from a pt_regs field the detour never wrote, so the
 * callee returns into a stack.  The site that showed it, the `bl`s of
 * tick_nohz_restart_sched_tick() on the idle path, is probed here by
 * optprobe, round after round, while another CPU keeps going through it;
 * then the `bl` target of optprobe_target_ppc.ko, called in a loop by a
 * thread, must compute the same while its probe comes and goes, and be
 * counted exactly when the probe stays.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "exports.h"
#include "optprobe_target_ppc.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define IDLE_FN		"tick_nohz_restart_sched_tick"
#define IDLE_MAX_SITES	8
#define IDLE_SCAN	128	/* instructions looked at from the entry */
#define IDLE_ROUNDS	20
#define MODULE_ROUNDS	50
#define EXACT_CALLS	1000
#define BRANCH_REASON	OP_R_BRANCH_TRAP_ONLY

static bool is_bl(u32 word)
{
	return word >> 26 == 18 && (word & 3) == 1;
}

static atomic_t hits;

static int count_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	return 0;
}

/* The `bl`s of @fn up to its first blr, into @sites; how many. */
static unsigned int find_bls(unsigned long fn, unsigned long *sites, unsigned int max)
{
	unsigned int i, nr = 0;
	u32 word;

	for (i = 0; i < IDLE_SCAN && nr < max; i++) {
		if (copy_from_kernel_nofault(&word, (void *)(fn + 4 * i), sizeof(word)) ||
		    word == PPC_RAW_BLR())
			break;
		if (is_bl(word))
			sites[nr++] = fn + 4 * i;
	}
	return nr;
}

/* Sleeps of 10-20 ms: each lets its CPU idle with the tick stopped. */
static int idle_waker(void *unused)
{
	while (!kthread_should_stop())
		usleep_range(10000, 20000);
	return 0;
}

static void check_idle_path(struct ktap *t)
{
	unsigned long fn = test_entry_of(IDLE_FN), sites[IDLE_MAX_SITES];
	struct optprobe probes[IDLE_MAX_SITES];
	unsigned int nr = 0, n, i, round, traps = 0;
	struct task_struct *waker;
	int ret = 0;

	if (fn)
		nr = find_bls(fn, sites, IDLE_MAX_SITES);
	waker = kthread_run(idle_waker, NULL, "optprobe_bl_waker");
	if (!nr || IS_ERR(waker)) {
		ktap_check(t, false, "idle_path_bl_unregistered_while_hit", "%s: %u bl found%s",
			   IDLE_FN, nr, IS_ERR(waker) ? ", no thread" : "");
		if (!IS_ERR(waker))
			kthread_stop(waker);
		return;
	}
	atomic_set(&hits, 0);
	for (round = 0; round < IDLE_ROUNDS && !ret; round++) {
		for (n = 0; n < nr && !ret; n += !ret) {
			test_probe_init(&probes[n], NULL, sites[n], count_pre, NULL, 0);
			ret = optprobe_register(&probes[n]);
		}
		optprobe_sync();
		for (i = 0; i < n; i++)
			traps += optprobe_mode(&probes[i]) == OPTPROBE_MODE_TRAP &&
				 op_probe_reason(&probes[i]) == BRANCH_REASON;
		/* the waker's CPU goes through them meanwhile */
		msleep(50);
		for (i = 0; i < n; i++)
			optprobe_unregister(&probes[i]);
	}
	kthread_stop(waker);
	ktap_check(t, !ret && traps == nr * IDLE_ROUNDS && atomic_read(&hits) > 0,
		   "idle_path_bl_unregistered_while_hit",
		   "%u bl in %s, %u rounds: register %d, %u of %u traps with the branch reason, %d hits",
		   nr, IDLE_FN, round, ret, traps, nr * IDLE_ROUNDS, atomic_read(&hits));
}

static struct {
	optprobe_target_ppc_fn fn;
	unsigned long calls, wrong;
} hammer;

static int hammer_fn(void *unused)
{
	while (!kthread_should_stop()) {
		hammer.wrong += hammer.fn(hammer.calls, 0) != hammer.calls + 7;
		/* under TCG, a sleep now and then (see FACTS about stale code) */
		if (++hammer.calls % 1000 == 0)
			usleep_range(50, 100);
	}
	return 0;
}

static void check_module_bl(struct ktap *t)
{
	struct task_struct *task;
	unsigned int round, i;
	struct optprobe p;
	int ret = 0;

	hammer.fn = (optprobe_target_ppc_fn)test_entry_of("optprobe_target_ppc_bl");
	task = hammer.fn ? kthread_run(hammer_fn, NULL, "optprobe_bl_hammer") : NULL;
	if (IS_ERR_OR_NULL(task)) {
		ktap_check(t, false, "module_bl_results_right_under_churn",
			   "optprobe_target_ppc_bl not found, or no thread");
		ktap_check(t, false, "module_bl_hits_exact", "not run");
		return;
	}
	/* at +4: the bl */
	for (round = 0; round < MODULE_ROUNDS && !ret; round++) {
		test_probe_init(&p, NULL, (unsigned long)hammer.fn + 4, count_pre, NULL, 0);
		ret = optprobe_register(&p);
		if (ret)
			break;
		usleep_range(1000, 2000);
		optprobe_unregister(&p);
	}
	kthread_stop(task);
	ktap_check(t, !ret && !hammer.wrong && hammer.calls > 0,
		   "module_bl_results_right_under_churn",
		   "%u rounds (register %d): %lu wrong of %lu calls", round, ret, hammer.wrong,
		   hammer.calls);

	test_probe_init(&p, NULL, (unsigned long)hammer.fn + 4, count_pre, NULL, 0);
	ret = optprobe_register(&p);
	atomic_set(&hits, 0);
	hammer.wrong = 0;
	for (i = 0; !ret && i < EXACT_CALLS; i++)
		hammer.wrong += hammer.fn(i, 0) != i + 7;
	ktap_check(t, !ret && atomic_read(&hits) == EXACT_CALLS && !hammer.wrong,
		   "module_bl_hits_exact", "register %d: %d hits of %u calls, %lu wrong", ret,
		   atomic_read(&hits), EXACT_CALLS, hammer.wrong);
	if (!ret)
		optprobe_unregister(&p);
}

static int __init test_ppc_bl_init(void)
{
	struct ktap t;

	ktap_start(&t, 3);
	check_idle_path(&t);
	check_module_bl(&t);
	return 0;
}

static void __exit test_ppc_bl_exit(void)
{
}

module_init(test_ppc_bl_init);
module_exit(test_ppc_bl_exit);

MODULE_DESCRIPTION("optprobe test: powerpc64le probes on a bl, unregistered while it runs");
MODULE_LICENSE("GPL");
