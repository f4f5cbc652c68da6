// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes with many calls asleep inside the probed function at once:
 * 256 kthreads with maxactive 0 (the pool grows: none missed, 256 handler
 * runs); 8 with maxactive 4 (exactly 4 followed and 4 missed); 16 asleep
 * when the probe is unregistered (all return their own value to their
 * caller, and no handler runs once optretprobe_unregister() returned;
 * until they return, optprobe stays loaded (a reference of its own, which
 * goes once they have).
 *
 * In those runs each kthread is started a millisecond or two after the
 * one before is inside, as calls arrive in a steady state; the entry
 * handler sees them all.  burst_256 (maxactive 0) starts 256 kthreads
 * that all wait on one completion before they call, and then completes
 * it, as a thundering herd of real-time threads wakes: none missed either,
 * 256 handler runs, though all enter before the grow work can run (the
 * hits grow the pool).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

#include "exports.h"
#include "optprobe_target_ret.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static struct ktap t;

struct sleeper_set {
	struct optprobe_target_ret_gate gate;
	struct completion *start;	/* if set, every sleeper waits for it */
	int (*func)(struct optprobe_target_ret_gate *g, int x);
	atomic_t next, wrong;
};

struct sleeper_rec {
	atomic_t entries, runs, bad, late;
	bool unregistered;
};

static struct sleeper_rec rec;

static int sleeper(void *arg)
{
	struct sleeper_set *set = arg;
	int x = atomic_inc_return(&set->next);

	if (set->start)
		wait_for_completion(set->start);
	if (set->func(&set->gate, x) != OPTPROBE_TARGET_RET_SLEEP(x))
		atomic_inc(&set->wrong);
	atomic_inc(&set->gate.done);
	wake_up_all(&set->gate.wq);
	return 0;
}

static int sleep_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	*(long *)data = test_arg(regs, 1);
	atomic_inc(&rec.entries);
	return 0;
}

static void sleep_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	if (READ_ONCE(rec.unregistered))
		atomic_inc(&rec.late);
	if (regs_return_value(regs) != OPTPROBE_TARGET_RET_SLEEP(*(long *)data))
		atomic_inc(&rec.bad);
	atomic_inc(&rec.runs);
}

/* Start @n sleepers one after the other; returns how many got inside. */
static int start_sleepers(struct sleeper_set *set, int n)
{
	struct task_struct *task;
	int i;

	for (i = 0; i < n; i++) {
		task = kthread_run(sleeper, set, "ret_sleep/%d", i);
		if (IS_ERR(task) || !optprobe_target_ret_gate_wait(&set->gate, i + 1))
			break;
		usleep_range(1000, 2000);
	}
	return i;
}

/*
 * Start @n sleepers that all wait for set->start, then release them at
 * once; returns how many got inside.  They run SCHED_FIFO, as a herd of
 * real-time threads wakes: optprobe's grow work, a kworker of the fair
 * class however high its priority, cannot run until all are inside.
 */
static int start_burst(struct sleeper_set *set, int n)
{
	struct task_struct *task;
	int i;

	for (i = 0; i < n; i++) {
		task = kthread_create(sleeper, set, "ret_burst/%d", i);
		if (IS_ERR(task))
			break;
		sched_set_fifo(task);
		wake_up_process(task);
	}
	while (atomic_read(&set->next) < i)
		usleep_range(1000, 2000);
	complete_all(set->start);
	return optprobe_target_ret_gate_wait(&set->gate, i) ? i : atomic_read(&set->gate.inside);
}

static bool finish_sleepers(struct sleeper_set *set, int n)
{
	optprobe_target_ret_gate_open(&set->gate);
	return wait_event_timeout(set->gate.wq, atomic_read(&set->gate.done) == n, 30 * HZ);
}

static typeof(op_ptr_to(__module_address)) module_address;

static const struct op_ksym test_ksyms[] = {
	{ .name = "__module_address", .slot = (void **)&module_address },
};

/* optprobe's module references, waiting up to 5 s for them to fall to @want. */
static int optprobe_refs(int want)
{
	struct module *mod;
	int refs, i;

	if (!module_address)
		return -1;
	preempt_disable();
	mod = module_address((unsigned long)optretprobe_register);
	preempt_enable();
	for (i = 0;; i++) {
		refs = module_refcount(mod);
		if (refs <= want || i == 50)
			return refs;
		msleep(100);
	}
}

static void run(const char *name, int (*func)(struct optprobe_target_ret_gate *g, int x),
		int maxactive, int n, bool unregister_inside, bool burst)
{
	char tname[TEST_NAME_LEN];
	DECLARE_COMPLETION_ONSTACK(start);
	struct sleeper_set set = { .func = func, .start = burst ? &start : NULL };
	struct optretprobe rp = {
		.addr = func,
		.entry_handler = sleep_entry,
		.handler = sleep_ret,
		.data_size = sizeof(long),
		.maxactive = maxactive,
	};
	int inside, ret, followed = maxactive ? min(n, maxactive) : n, refs = 0;
	bool finished;
	int held = 0;

	memset(&rec, 0, sizeof(rec));
	optprobe_target_ret_gate_init(&set.gate);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, test_name(tname, name, "register"), "register: %d", ret))
		return;
	inside = burst ? start_burst(&set, n) : start_sleepers(&set, n);
	if (unregister_inside) {
		/* the module's users; earlier runs' references went long ago */
		refs = optprobe_refs(INT_MAX);
		optretprobe_unregister(&rp);
		WRITE_ONCE(rec.unregistered, true);
		held = optprobe_refs(INT_MAX) - refs;
	}
	finished = finish_sleepers(&set, inside);
	if (!unregister_inside)
		optretprobe_unregister(&rp);
	ktap_check(&t, inside == n && finished && !atomic_read(&set.wrong),
		   test_name(tname, name, "callers"), "%d inside, %d returned, %d wrong values",
		   inside, atomic_read(&set.gate.done), atomic_read(&set.wrong));
	if (unregister_inside) {
		ktap_check(&t, !atomic_read(&rec.runs) && !rp.nmissed,
			   test_name(tname, name, "no_handler_after"),
			   "%d runs (%d after unregistering), %lu missed",
			   atomic_read(&rec.runs), atomic_read(&rec.late), rp.nmissed);
		ktap_check(&t, held == 1, test_name(tname, name, "held"),
			   "optprobe references taken: %d, not 1", held);
		ktap_check(&t, optprobe_refs(refs) == refs, test_name(tname, name, "released"),
			   "optprobe references %d, not %d, once all returned", optprobe_refs(refs),
			   refs);
		return;
	}
	ktap_check(&t, atomic_read(&rec.runs) == followed && rp.nmissed == n - followed &&
		   atomic_read(&rec.entries) == followed && !atomic_read(&rec.bad),
		   test_name(tname, name, "accounting"),
		   "%d entries, %d runs (%d wrong), %lu missed; expected %d runs, %d missed",
		   atomic_read(&rec.entries), atomic_read(&rec.runs), atomic_read(&rec.bad),
		   rp.nmissed, followed, n - followed);
}

static int __init optprobe_test_ret_sleep_init(void)
{
	ktap_start(&t, 14);
	op_ksyms_resolve(test_ksyms, ARRAY_SIZE(test_ksyms));
	run("auto_256", optprobe_target_ret_sleep_auto, 0, 256, false, false);
	run("maxactive_4_of_8", optprobe_target_ret_sleep_max, 4, 8, false, false);
	run("unregister_16_inside", optprobe_target_ret_sleep_unreg, 0, 16, true, false);
	run("burst_256", optprobe_target_ret_sleep_burst, 0, 256, false, true);
	return 0;
}

static void __exit optprobe_test_ret_sleep_exit(void)
{
}

module_init(optprobe_test_ret_sleep_init);
module_exit(optprobe_test_ret_sleep_exit);
MODULE_DESCRIPTION("optprobe return probes: calls asleep inside");
MODULE_LICENSE("GPL");
