// SPDX-License-Identifier: GPL-2.0
/*
 * The optimizer: it turns armed breakpoint sites into jumps to detours,
 * and back, in batches.  Every change of a probe's text that is done in
 * the background runs as work on one ordered queue, so optprobe_sync()
 * only has to drain it.  The switch (debugfs "optimize") is the
 * equivalent of the kernel's debug.kprobes-optimization.
 *
 * A site armed with its breakpoint is queued (op_opt_queue()).  After a
 * short delay that gathers a batch, the work prepares each site's detour;
 * from then on the breakpoint handler sends hits to the detour, so no task
 * enters the bytes the jump will replace (other than the first) any more.
 * One grace period later (tasks-RCU where tasks can be preempted) no task
 * is left inside them either, and the whole batch is patched at once.
 * Unoptimizing is batched by the callers (op_opt_unoptimize()): sites
 * about to be disarmed are collected and switched back together.
 *
 * Everything here but optprobe_sync() and the work runs with op_mutex
 * held.
 */
#include <linux/list_sort.h>
#include <linux/workqueue.h>

#include <optprobe.h>

#include "internal.h"

/* The kernel's kprobe optimizer waits as long to gather a batch. */
#define OP_OPT_DELAY	5

static struct workqueue_struct *op_optimizer_wq;
static bool op_optimize = true;
static bool op_boost = true;

static LIST_HEAD(op_opt_queued);		/* QUEUED sites */
static LIST_HEAD(op_opt_batch);		/* PREPARED sites, waiting out the grace period */
static LIST_HEAD(op_opt_parked);	/* refused for now, retried by op_opt_retry() */

static void op_optimizer_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(op_optimizer_work, op_optimizer_fn);

/**
 * op_opt_queue() - have the optimizer try a site that was just armed
 * @site:	an armed breakpoint site
 */
void op_opt_queue(struct op_site *site)
{
	const char *blocked;

	lockdep_assert_held(&op_mutex);
	if (site->mode == OPTPROBE_MODE_FTRACE || site->opt != OP_OPT_NONE ||
	    site->opt_refused || site->opt_retry || !op_optimize_enabled())
		return;
	if (site->noopt) {
		site->reason = "a probe forbids it (OPTPROBE_F_NOOPT)";
		return;
	}
	blocked = op_arch_opt_blocked(site);
	if (blocked) {
		site->reason = blocked;
		return;
	}
	site->opt = OP_OPT_QUEUED;
	site->reason = "waiting for the optimizer";
	list_move_tail(&site->opt_list, &op_opt_queued);
	queue_delayed_work(op_optimizer_wq, &op_optimizer_work, OP_OPT_DELAY);
}

/**
 * op_opt_cancel() - a site that is not optimized yet must not be
 * @site:	the site, about to be disarmed, or blocked
 *
 * An optimized site (OP_OPT_DONE) is left alone: it needs the text change
 * of op_opt_unoptimize().
 */
void op_opt_cancel(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	switch (site->opt) {
	case OP_OPT_PREPARED:
		op_arch_opt_unprepare(site);
		fallthrough;
	case OP_OPT_QUEUED:
		site->opt = OP_OPT_NONE;
		site->reason = "not optimized while disarmed";
		fallthrough;
	case OP_OPT_NONE:
		list_del_init(&site->opt_list);
		site->opt_retry = false;
		break;
	case OP_OPT_DONE:
		break;
	}
}

/**
 * op_opt_unoptimize() - put the breakpoints of optimized sites back
 * @sites:	optimized sites, linked by ->opt_list; they stay on it
 */
void op_opt_unoptimize(struct list_head *sites)
{
	struct op_site *site;

	lockdep_assert_held(&op_mutex);
	if (list_empty(sites))
		return;
	op_arch_unoptimize(sites);
	list_for_each_entry(site, sites, opt_list) {
		op_arch_opt_unprepare(site);
		site->opt = OP_OPT_NONE;
		site->mode = site->bp_mode;
		site->reason = "unoptimized";
	}
}

static void op_opt_park(struct op_site *site)
{
	site->reason = "another probe inside the bytes its jump would replace";
	site->opt_retry = true;
	list_move_tail(&site->opt_list, &op_opt_parked);
}

/**
 * op_opt_make_room() - a site is about to be created at @addr
 * @addr:	its address
 *
 * A site whose jump covers @addr goes back to its breakpoint, and stays
 * there until sites are released (op_opt_retry()): the new site needs its
 * own instruction in place.
 */
void op_opt_make_room(unsigned long addr)
{
	struct op_site *site, *tmp;
	unsigned int back;
	LIST_HEAD(unopt);

	lockdep_assert_held(&op_mutex);
	for (back = 1; back < OP_OPT_SPAN; back++) {
		site = op_site_lookup(addr - back);
		if (!site || site->opt == OP_OPT_NONE || !op_arch_opt_covers(site, addr))
			continue;
		if (site->opt == OP_OPT_DONE) {
			list_add_tail(&site->opt_list, &unopt);
			continue;
		}
		op_opt_cancel(site);
		op_opt_park(site);
	}
	op_opt_unoptimize(&unopt);
	list_for_each_entry_safe(site, tmp, &unopt, opt_list)
		op_opt_park(site);
}

/* Sites refused because something was in the way: something just left. */
void op_opt_retry(void)
{
	struct op_site *site, *tmp;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry_safe(site, tmp, &op_opt_parked, opt_list) {
		list_del_init(&site->opt_list);
		site->opt_retry = false;
		if (site->armed)
			op_opt_queue(site);
	}
}

/* A site the optimizer could not take: parked for a retry, or refused. */
static void op_opt_refused(struct op_site *site, int err)
{
	site->opt = OP_OPT_NONE;
	site->opt_retry = err == -EAGAIN;
	site->opt_refused = !site->opt_retry;
	if (site->opt_retry)
		list_move_tail(&site->opt_list, &op_opt_parked);
	else
		list_del_init(&site->opt_list);
}

/* Patch in address order: the kernel's batch flushes on a step back. */
static int op_site_cmp(void *priv, const struct list_head *a, const struct list_head *b)
{
	unsigned long x = list_entry(a, struct op_site, opt_list)->addr;
	unsigned long y = list_entry(b, struct op_site, opt_list)->addr;

	return x < y ? -1 : x > y;
}

static void op_optimizer_fn(struct work_struct *work)
{
	struct op_site *site, *tmp;
	LIST_HEAD(failed);
	LIST_HEAD(batch);
	int ret;

	mutex_lock(&op_mutex);
	list_for_each_entry_safe(site, tmp, &op_opt_queued, opt_list) {
		ret = op_arch_opt_prepare(site);
		if (ret) {
			op_opt_refused(site, ret);
			continue;
		}
		site->opt = OP_OPT_PREPARED;
		list_move_tail(&site->opt_list, &op_opt_batch);
	}
	ret = list_empty(&op_opt_batch);
	op_unlock();
	if (ret)
		return;

	/*
	 * Hits go to the detours now.  Once every task has passed a
	 * quiescent state, none is left inside the bytes to be replaced,
	 * neither preempted there nor interrupted.  Sites cancelled
	 * meanwhile have left op_opt_batch; only this work adds to it.
	 */
	op_quiesce(true);

	mutex_lock(&op_mutex);
	list_splice_init(&op_opt_batch, &batch);
	list_sort(NULL, &batch, op_site_cmp);
	op_arch_optimize(&batch, &failed);
	list_for_each_entry_safe(site, tmp, &batch, opt_list) {
		list_del_init(&site->opt_list);
		site->opt = OP_OPT_DONE;
		site->mode = OPTPROBE_MODE_OPTIMIZED;
		site->reason = "";
	}
	list_for_each_entry_safe(site, tmp, &failed, opt_list) {
		op_arch_opt_unprepare(site);
		op_opt_refused(site, -EAGAIN);
	}
	op_unlock();
}

static bool op_opt_pending(void)
{
	bool pending;

	mutex_lock(&op_mutex);
	pending = !list_empty(&op_opt_queued) || !list_empty(&op_opt_batch);
	mutex_unlock(&op_mutex);
	return pending;
}

void optprobe_sync(void)
{
	/* the work queues itself again for sites queued while it ran */
	do {
		flush_delayed_work(&op_optimizer_work);
	} while (op_opt_pending());
}
EXPORT_SYMBOL_GPL(optprobe_sync);

void op_set_optimize(bool optimize)
{
	mutex_lock(&op_mutex);
	WRITE_ONCE(op_optimize, optimize);
	op_sites_optimize(optimize);
	op_unlock();
}
EXPORT_SYMBOL_NS_GPL(op_set_optimize, OPTPROBE_INTERNAL);

bool op_optimize_enabled(void)
{
	return READ_ONCE(op_optimize);
}

/*
 * The boost switch (debugfs "boost") decides how sites created from now on
 * run their instruction out of line: with a jump back (boosted) or with a
 * breakpoint after it.  Existing sites keep what they were prepared with.
 */
void op_set_boost(bool boost)
{
	WRITE_ONCE(op_boost, boost);
}
EXPORT_SYMBOL_NS_GPL(op_set_boost, OPTPROBE_INTERNAL);

bool op_boost_enabled(void)
{
	return READ_ONCE(op_boost);
}

int __init op_optimizer_init(void)
{
	op_optimizer_wq = alloc_ordered_workqueue("optprobe", 0);
	return op_optimizer_wq ? 0 : -ENOMEM;
}

/* No site is left (every user module is gone): nothing can be queued. */
void op_optimizer_exit(void)
{
	cancel_delayed_work_sync(&op_optimizer_work);
	destroy_workqueue(op_optimizer_wq);
}
