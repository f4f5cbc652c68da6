// SPDX-License-Identifier: GPL-2.0
/*
 * The optimizer: the one owner of a site's state (opt-state.h, where the
 * table of legal moves is), with one function per move.  It turns armed
 * breakpoint sites into jumps to detours, and back, in batches.  Every
 * change of a probe's text done in the background runs as work on one
 * ordered queue, so optprobe_sync() only has to drain it.  The switch
 * (debugfs "optimize") is the equivalent of the kernel's
 * debug.kprobes-optimization.
 *
 * A site armed with its breakpoint is queued (op_opt_queue()).  After a
 * short delay that gathers a batch, the work prepares each site's detour;
 * from then on the breakpoint handler sends hits to the detour, so no task
 * enters the bytes the jump will replace (other than the first) any more.
 * One grace period later (tasks-RCU where tasks can be preempted) no task
 * is left inside them either, and the whole batch is patched at once.
 * Unoptimizing is batched by the callers (op_opt_unoptimize()): sites
 * about to be disarmed are collected and switched back together.  A site
 * whose detour is ready before it is armed, and whose jump replaces one
 * instruction, gets its jump at once instead (op_opt_jump_ready()).  A
 * register batch writes its sites' breakpoints and such jumps together
 * at its end (op_opt_arm_end()).
 *
 * The kernel's own kprobes share the text.  A kernel kprobe put on a
 * site's jump saves the jump as the instruction it displaced, and writes
 * it back when it goes: the jump can then not be taken out, nor its
 * detour freed, until the kprobe has gone.  Such a site waits as
 * UNOPTIMIZING; sites refused because something was in the way wait as
 * PARKED.  A second work looks at both again every OP_OPT_RECHECK while
 * there are any, and optprobe_sync() at once: a kernel kprobe says nothing
 * when it goes.  Sites only ever call in here, never the other way:
 * op_opt_site() is a site's one entry, and the moves are all here.
 *
 * Everything here but the works and what waits for them runs with
 * op_mutex held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list_sort.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#include <optprobe.h>

#include "internal.h"

static struct workqueue_struct *op_optimizer_wq;
static bool op_optimize = true;
static bool op_boost = true;

static LIST_HEAD(op_opt_queued);	/* QUEUED */
static LIST_HEAD(op_opt_prepared);	/* PREPARED, waiting out the grace period */
static LIST_HEAD(op_opt_parked);	/* PARKED */
static LIST_HEAD(op_opt_held);		/* UNOPTIMIZING */

/* A register batch's breakpoints to write (op_opt_arm_begin()), or NULL. */
static struct list_head *op_opt_to_arm;
/* For tests: op_set_arm_hook(). */
static void (*op_arm_hook)(void);

/*
 * Two works on one ordered queue, so they never run at once: the batch
 * (QUEUED -> PREPARED -> OPTIMIZED) and the recheck of sites that wait on
 * something else, which must not hold back a new batch.
 */
static void op_optimizer_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(op_optimizer_work, op_optimizer_fn);
static void op_recheck_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(op_recheck_work, op_recheck_fn);

/*
 * Make one move of the table (opt-state.h).  An illegal move is a bug in
 * optprobe: warn once and leave the site as it is.
 */
static bool op_site_move(struct op_site *site, enum op_opt_state to)
{
	enum op_opt_state state = site->state;

	lockdep_assert_held(&op_mutex);
	if (WARN_ONCE(!op_opt_move(&state, to), "optprobe: illegal move %s -> %s at %pS\n",
		      op_opt_state_name(site->state), op_opt_state_name(to),
		      (void *)site->addr))
		return false;
	/* read locklessly by optprobe_mode() and the hit path's op_site_mode() */
	WRITE_ONCE(site->state, state);
	return true;
}

/* Take @site off whatever optimizer list it is on, and onto @list if any. */
static void op_site_list(struct op_site *site, struct list_head *list)
{
	if (list)
		list_move_tail(&site->link, list);
	else
		list_del_init(&site->link);
}

/* Sites wait on something else: look again later. */
static void op_opt_recheck_later(void)
{
	if (!list_empty(&op_opt_parked) || !list_empty(&op_opt_held))
		queue_delayed_work(op_optimizer_wq, &op_recheck_work, OP_OPT_RECHECK);
}

/*
 * ARMED, PARKED or REFUSED -> DISARMED, for @sites (by ->link, none
 * on its way to a jump: op_opt_cancel()), the breakpoints in one batch;
 * the sites are left on the list.
 */
static void op_sites_disarm(struct list_head *sites)
{
	struct op_site *site, *tmp;
	LIST_HEAD(breakpoints);

	list_for_each_entry_safe(site, tmp, sites, link) {
		if (!op_site_move(site, OP_ST_DISARMED))
			continue;
		site->reason = OP_R_NONE;
		if (site->ftrace)
			op_ftrace_disarm(site);
		else
			list_move_tail(&site->link, &breakpoints);
	}
	op_arch_disarm(&breakpoints);
	list_splice_tail(&breakpoints, sites);
}

/**
 * op_site_disarm() - ARMED, PARKED or REFUSED -> DISARMED
 * @site:	an armed site that is not on its way to a jump (op_opt_cancel())
 */
void op_site_disarm(struct op_site *site)
{
	LIST_HEAD(one);

	lockdep_assert_held(&op_mutex);
	/* a jump goes only with op_opt_unoptimize() */
	if (WARN_ON_ONCE(op_site_jumps(site)))
		return;
	op_site_list(site, &one);
	op_sites_disarm(&one);
	op_site_list(site, NULL);
}

/**
 * op_site_gone() - any state -> GONE: the module holding @site went
 * @site:	the site; its text went with the module, nothing is written
 */
void op_site_gone(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	if (site->ftrace && site->state == OP_ST_ARMED)
		op_ftrace_disarm(site);	/* ftrace's filter must not outlive the text */
	if (site->state == OP_ST_PREPARED)
		op_arch_opt_unprepare(site);
	if (site->state == OP_ST_UNOPTIMIZING)
		module_put(THIS_MODULE);
	op_site_list(site, NULL);
	op_site_move(site, OP_ST_GONE);
}

/* Why @site must not be optimized now, or OP_R_NONE if it may be. */
static enum op_reason op_opt_unwanted(const struct op_site *site)
{
	if (!op_site_wanted(site))
		return OP_R_DISARMED;
	if (site->ftrace)
		return OP_R_FTRACE_ENTRY;
	if (!op_optimize_enabled())
		return OP_R_OPTIMIZE_OFF;
	if (site->noopt)
		return OP_R_NOOPT;
	if (site->init)
		return OP_R_INIT_TEXT;
	return op_arch_opt_blocked(site);
}

/**
 * op_opt_wanted() - should @site have a jump now?
 * @site:	the site
 *
 * Sets site->reason when not.
 */
bool op_opt_wanted(struct op_site *site)
{
	enum op_reason why = op_opt_unwanted(site);

	if (why)
		site->reason = why;
	return !why;
}

/**
 * op_opt_queue() - ARMED -> QUEUED: have the optimizer try @site
 * @site:	an armed site; left as it is if it is not ARMED or must not be
 *		optimized now (op_opt_wanted())
 */
void op_opt_queue(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	if (site->state != OP_ST_ARMED || !op_opt_wanted(site))
		return;
	/* a first try: no refusal to tell of yet (op_site_reason()) */
	site->reason = OP_R_NONE;
	op_site_move(site, OP_ST_QUEUED);
	op_site_list(site, &op_opt_queued);
	queue_delayed_work(op_optimizer_wq, &op_optimizer_work, OP_OPT_DELAY);
}

/**
 * op_opt_cancel() - QUEUED, PREPARED or PARKED -> ARMED
 * @site:	the site, about to be disarmed, or that must not be optimized
 *
 * Other states are left alone: an optimized site needs the text change of
 * op_opt_unoptimize().
 */
void op_opt_cancel(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	switch (site->state) {
	case OP_ST_PREPARED:
		op_arch_opt_unprepare(site);
		fallthrough;
	case OP_ST_QUEUED:
	case OP_ST_PARKED:
		op_site_list(site, NULL);
		op_site_move(site, OP_ST_ARMED);
		break;
	default:
		break;
	}
}

/**
 * op_opt_reoptimize() - UNOPTIMIZING -> OPTIMIZED
 * @site:	a site wanted optimized again while its jump was held: it is
 *		still in place, with its detour
 */
void op_opt_reoptimize(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	if (site->state != OP_ST_UNOPTIMIZING)
		return;
	op_site_list(site, NULL);
	op_site_move(site, OP_ST_OPTIMIZED);
	module_put(THIS_MODULE);
}

/**
 * op_opt_rehold() - DISARMED -> UNOPTIMIZING
 * @site:	a site about to be freed whose jump a kernel kprobe copied
 *		(op_arch_detour_reached()); it keeps its detour, and waits
 */
void op_opt_rehold(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	if (!op_site_move(site, OP_ST_UNOPTIMIZING))
		return;
	__module_get(THIS_MODULE);
	site->reason = OP_R_KPROBE_HOLDS_JUMP;
	op_site_list(site, &op_opt_held);
	op_opt_recheck_later();
}

/* Patch in address order: the kernel's batch flushes on a step back. */
static int op_site_cmp(void *priv, const struct list_head *a, const struct list_head *b)
{
	unsigned long x = list_entry(a, struct op_site, link)->addr;
	unsigned long y = list_entry(b, struct op_site, link)->addr;

	return x < y ? -1 : x > y;
}

/**
 * op_opt_unoptimize() - OPTIMIZED or UNOPTIMIZING -> ARMED, in one batch
 * @sites:	sites with a jump, linked by ->link; they stay on it but
 *		for those a kernel kprobe holds
 *
 * A site no longer wanted armed goes to DISARMED instead, its original
 * text back in the same batch: not a breakpoint first and then the
 * original, which would write every site's first byte twice.  A site
 * whose jump a kernel kprobe holds goes (or stays) UNOPTIMIZING: onto the
 * list the work looks at again.  While any is there, optprobe stays
 * loaded: its detours' code is optprobe's.
 */
void op_opt_unoptimize(struct list_head *sites)
{
	struct op_site *site, *tmp;
	LIST_HEAD(held);

	lockdep_assert_held(&op_mutex);
	if (list_empty(sites))
		return;
	/* callers unregister in any order: one batch, not one per step back */
	list_sort(NULL, sites, op_site_cmp);
	list_for_each_entry(site, sites, link)
		site->unopt_disarm = !op_site_wanted(site);
	op_arch_unoptimize(sites, &held);
	list_for_each_entry(site, sites, link) {
		op_arch_opt_unprepare(site);
		if (site->state == OP_ST_UNOPTIMIZING)
			module_put(THIS_MODULE);
		if (site->unopt_disarm) {
			op_site_move(site, OP_ST_DISARMED);
			site->reason = OP_R_NONE;
		} else {
			op_site_move(site, OP_ST_ARMED);
		}
	}
	list_for_each_entry_safe(site, tmp, &held, link) {
		if (site->state == OP_ST_OPTIMIZED) {
			__module_get(THIS_MODULE);
			op_site_move(site, OP_ST_UNOPTIMIZING);
			site->reason = OP_R_KPROBE_HOLDS_JUMP;
		}
		op_site_list(site, &op_opt_held);
	}
	op_opt_recheck_later();
}

/* PARKED: refused for now, to be tried again. */
static void op_opt_park(struct op_site *site)
{
	op_site_move(site, OP_ST_PARKED);
	op_site_list(site, &op_opt_parked);
	op_opt_recheck_later();
}

/**
 * op_opt_make_room() - a site is about to be created at @addr
 * @addr:	its address
 *
 * A site whose jump covers @addr goes back to its breakpoint and is parked
 * until it can have its jump again: the new site needs its own
 * instruction in place.
 *
 * Return: 0, or -EBUSY if a jump over @addr is held by a kernel kprobe.
 */
int op_opt_make_room(unsigned long addr)
{
	struct op_site *site, *tmp;
	unsigned int back;
	LIST_HEAD(unopt);
	int ret = 0;

	lockdep_assert_held(&op_mutex);
	for (back = 1; back < OP_OPT_SPAN; back++) {
		site = op_site_lookup(addr - back);
		if (!site || (site->state != OP_ST_PREPARED && !op_site_jumps(site)) ||
		    !op_arch_opt_covers(site, addr))
			continue;
		if (op_site_jumps(site)) {
			op_site_list(site, &unopt);
			continue;
		}
		op_arch_opt_unprepare(site);
		site->reason = OP_R_PROBE_IN_JUMP;
		op_opt_park(site);
	}
	op_opt_unoptimize(&unopt);
	list_for_each_entry_safe(site, tmp, &unopt, link) {
		if (site->state == OP_ST_ARMED) {
			site->reason = OP_R_PROBE_IN_JUMP;
			op_opt_park(site);
			continue;
		}
		/*
		 * a site without probes that waited for a kernel kprobe to
		 * go: disarmed, and freed by sites.c's next look
		 */
		op_site_list(site, NULL);
	}
	for (back = 1; back < OP_OPT_SPAN; back++) {
		site = op_site_lookup(addr - back);
		if (site && site->state == OP_ST_UNOPTIMIZING && op_arch_opt_covers(site, addr))
			ret = -EBUSY;
	}
	return ret;
}

/* PARKED -> QUEUED: something that was in the way may have gone. */
void op_opt_retry(void)
{
	struct op_site *site, *tmp;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry_safe(site, tmp, &op_opt_parked, link) {
		if (!op_opt_wanted(site)) {
			op_opt_cancel(site);
			if (!op_site_wanted(site))
				op_site_disarm(site);
			continue;
		}
		op_site_move(site, OP_ST_QUEUED);
		op_site_list(site, &op_opt_queued);
		queue_delayed_work(op_optimizer_wq, &op_optimizer_work, OP_OPT_DELAY);
	}
}

/* QUEUED -> PARKED or REFUSED: the optimizer could not take the site. */
static void op_opt_refused(struct op_site *site, int err)
{
	if (err == -EAGAIN) {
		op_opt_park(site);
		return;
	}
	op_site_list(site, NULL);
	op_site_move(site, OP_ST_REFUSED);
}

/* QUEUED -> PREPARED, PARKED or REFUSED; true if any was prepared. */
static bool op_opt_prepare_queued(void)
{
	struct op_site *site, *tmp;
	int ret;

	list_for_each_entry_safe(site, tmp, &op_opt_queued, link) {
		ret = op_arch_opt_prepare(site);
		if (ret) {
			op_opt_refused(site, ret);
			continue;
		}
		op_site_move(site, OP_ST_PREPARED);
		op_site_list(site, &op_opt_prepared);
	}
	return !list_empty(&op_opt_prepared);
}

/* PREPARED on @batch -> OPTIMIZED, or PARKED if its text changed meanwhile. */
static void op_opt_patch(struct list_head *batch)
{
	struct op_site *site, *tmp;
	LIST_HEAD(failed);

	list_sort(NULL, batch, op_site_cmp);
	op_arch_optimize(batch, &failed);
	list_for_each_entry_safe(site, tmp, batch, link) {
		op_site_list(site, NULL);
		op_site_move(site, OP_ST_OPTIMIZED);
		site->reason = OP_R_NONE;
	}
	list_for_each_entry_safe(site, tmp, &failed, link) {
		op_arch_opt_unprepare(site);
		op_opt_park(site);
	}
}

static void op_opt_patch_prepared(void)
{
	LIST_HEAD(batch);

	list_splice_init(&op_opt_prepared, &batch);
	op_opt_patch(&batch);
}

/*
 * QUEUED -> OPTIMIZED at once, for a marker's site (OP_F_MARKER): its nop
 * is one instruction, which no task can be inside of, so there is no
 * grace period to wait for before the jump replaces it.  The breakpoint
 * op_site_arm() just wrote is the patching protocol's first step; hits
 * meanwhile take it, and from op_arch_opt_prepare() on, the detour.  A
 * jump that would replace more than one instruction (the flag on a probe
 * that is no marker's) stays queued for the batch, and its grace period.
 */
static void op_opt_now(struct op_site *site)
{
	LIST_HEAD(batch);
	int ret;

	ret = op_arch_opt_prepare(site);
	if (ret) {
		op_opt_refused(site, ret);
		return;
	}
	if (!op_arch_opt_at_once(site)) {
		/* still QUEUED: the batch prepares it again, then waits */
		op_arch_opt_unprepare(site);
		return;
	}
	op_site_move(site, OP_ST_PREPARED);
	op_site_list(site, &batch);
	op_opt_patch(&batch);
}

/* @site is armed: have it optimized if it may be. */
static void op_opt_armed(struct op_site *site)
{
	if (!op_opt_wanted(site)) {
		op_opt_cancel(site);
		return;
	}
	op_opt_queue(site);
	if (site->marker && site->state == OP_ST_QUEUED)
		op_opt_now(site);
}

/*
 * Is a disarmed @site to be armed with its jump (->arm_jump)?  One whose
 * detour is ready and whose jump replaces its instruction alone
 * (op_arch_jump_ready()) goes DISARMED -> OPTIMIZED in one text write: no
 * task can be inside what the jump replaces, and no breakpoint need come
 * first.  On ppc64le, a site in module text has its stub from its
 * creation: registering thousands there writes half as much text.
 */
static void op_opt_jump_ready(struct op_site *site)
{
	site->arm_jump = !site->ftrace && op_opt_wanted(site) && !op_arch_jump_ready(site);
}

/* op_arch_arm() wrote @site's breakpoint, or its jump: the moves that follow. */
static void op_opt_written(struct op_site *site)
{
	op_site_move(site, OP_ST_ARMED);
	if (!site->arm_jump) {
		op_opt_armed(site);
		return;
	}
	site->arm_jump = false;
	op_site_move(site, OP_ST_QUEUED);
	op_site_move(site, OP_ST_PREPARED);
	op_site_move(site, OP_ST_OPTIMIZED);
	site->reason = OP_R_NONE;
}

/* Nothing was written at @site: it stays disarmed, its detour unprepared. */
static void op_opt_unwritten(struct op_site *site)
{
	if (site->arm_jump)
		op_arch_opt_unprepare(site);
	site->arm_jump = false;
}

/*
 * DISARMED -> ARMED (or OPTIMIZED) for @sites (by ->link, the list left
 * empty), their breakpoints or jumps in one batch.  Those whose text
 * changed, or where a kernel kprobe arrived, since they were checked go
 * to @failed, disarmed and unprepared.
 */
static void op_opt_write(struct list_head *sites, struct list_head *failed)
{
	struct op_site *site, *tmp;

	list_for_each_entry(site, sites, link)
		op_opt_jump_ready(site);
	op_arch_arm(sites, failed);
	list_for_each_entry_safe(site, tmp, sites, link) {
		list_del_init(&site->link);
		op_opt_written(site);
	}
	list_for_each_entry(site, failed, link)
		op_opt_unwritten(site);
}

/*
 * DISARMED -> ARMED (or OPTIMIZED): write @site's breakpoint or jump, or
 * attach ftrace, and have it optimized if it may be.  Return: 0, or
 * -EBUSY where op_arch_arm() fails it, or ftrace's error, the site left
 * disarmed.
 */
static int op_site_arm(struct op_site *site)
{
	LIST_HEAD(failed);
	LIST_HEAD(one);
	int ret;

	if (site->ftrace) {
		ret = op_ftrace_arm(site);
		if (!ret) {
			op_site_move(site, OP_ST_ARMED);
			op_opt_armed(site);
		}
		return ret;
	}
	op_site_list(site, &one);
	op_opt_write(&one, &failed);
	if (list_empty(&failed))
		return 0;	/* on the optimizer's list now, if queued */
	op_site_list(site, NULL);
	return -EBUSY;
}

/*
 * Arm or disarm @site, which has no jump, as wanted, and have an armed
 * one optimized if it may be.
 */
static int op_opt_update(struct op_site *site)
{
	if (!op_site_wanted(site)) {
		op_opt_cancel(site);
		if (op_site_armed(site))
			op_site_disarm(site);
		else	/* off a register batch's breakpoints to write, if on */
			op_site_list(site, NULL);
		return 0;
	}
	if (site->state != OP_ST_DISARMED) {
		op_opt_armed(site);
		return 0;
	}
	if (op_opt_to_arm && !site->ftrace) {
		/* a disarmed site on a list is on the register batch's already */
		if (list_empty(&site->link))
			op_site_list(site, op_opt_to_arm);
		return 0;
	}
	return op_site_arm(site);
}

/**
 * op_opt_arm_begin() - a register batch starts
 * @sites:	an empty list, where its breakpoints to write wait
 *
 * Until op_opt_arm_end(), a site to arm with a breakpoint or its jump
 * waits on @sites, disarmed, instead of having it written at once: a
 * batch's words are then written under one take of the text locks (on
 * ppc64le, spread over the CPUs: patch-batch.c).  Which of the two it
 * gets is decided then, with what all its probes of the batch ask.
 *
 * Context: op_mutex held until op_opt_arm_end().
 */
void op_opt_arm_begin(struct list_head *sites)
{
	lockdep_assert_held(&op_mutex);
	op_opt_to_arm = sites;
}

/**
 * op_opt_arm_end() - write the register batch's breakpoints and jumps, or not
 * @sites:	as given to op_opt_arm_begin(); left empty
 * @write:	false when the batch failed before: its sites stay disarmed
 *
 * Return: 0, or -EBUSY: a site's text changed, or a kernel kprobe arrived
 * over it, since it was checked; such sites stay disarmed, marked
 * ->arm_failed for the caller to find and clear, the others are armed.
 */
int op_opt_arm_end(struct list_head *sites, bool write)
{
	struct op_site *site, *tmp;
	void (*hook)(void);
	LIST_HEAD(failed);
	int ret;

	lockdep_assert_held(&op_mutex);
	op_opt_to_arm = NULL;
	if (list_empty(sites))
		return 0;
	if (!write) {
		list_for_each_entry_safe(site, tmp, sites, link)
			list_del_init(&site->link);
		return 0;
	}
	hook = op_arm_hook;
	op_arm_hook = NULL;
	if (hook)
		hook();
	/* in address order: on ppc64le, nearby words are written by one CPU */
	list_sort(NULL, sites, op_site_cmp);
	op_opt_write(sites, &failed);
	ret = list_empty(&failed) ? 0 : -EBUSY;
	list_for_each_entry_safe(site, tmp, &failed, link) {
		list_del_init(&site->link);
		site->arm_failed = true;
	}
	return ret;
}

/**
 * op_set_arm_hook() - for tests: call @hook where the next register
 * batch's breakpoints are about to be written (op_mutex held), once
 * @hook:	registers a kernel kprobe over one of the batch's sites, say,
 *		as may happen at any time there; NULL: none
 */
void op_set_arm_hook(void (*hook)(void))
{
	mutex_lock(&op_mutex);
	op_arm_hook = hook;
	mutex_unlock(&op_mutex);
}
EXPORT_SYMBOL_NS_GPL(op_set_arm_hook, OPTPROBE_INTERNAL);

/**
 * op_opt_site() - make the moves that bring @site to what it wants
 * @site:	a site whose probes changed (its flags are current:
 *		op_site_change()), or whose switches did
 * @unopt:	where a site whose jump must go is put, for op_opt_settle()
 *
 * The optimizer's one entry for a site: whether it is wanted armed is
 * the site's (op_site_wanted()), whether optimized the optimizer's
 * (op_opt_wanted()).
 *
 * Context: op_mutex held.
 * Return: 0, or the error of arming it.
 */
int op_opt_site(struct op_site *site, struct list_head *unopt)
{
	lockdep_assert_held(&op_mutex);
	if (site->state == OP_ST_GONE)
		return 0;
	if (op_site_jumps(site)) {
		if (op_opt_wanted(site))
			op_opt_reoptimize(site);
		else
			list_move_tail(&site->link, unopt);
		return 0;
	}
	if (op_site_wanted(site) || !op_site_armed(site))
		return op_opt_update(site);
	/* its breakpoint goes in op_opt_settle()'s batch */
	op_opt_cancel(site);
	list_move_tail(&site->link, unopt);
	return 0;
}

/*
 * @site, off the batch's lists, was left without probes by an unregister
 * (@release given): the caller frees it once its text is back.  Return:
 * true if it waits instead, hashed (sites.c), its jump held.
 */
static bool op_opt_release(struct op_site *site, struct list_head *release)
{
	if (!release || !list_empty(&site->probes))
		return false;
	if (op_site_armed(site))
		return true;
	list_add_tail(&site->link, release);
	return false;
}

/**
 * op_opt_settle() - finish what op_opt_site() left on @unopt
 * @unopt:	sites whose jump or breakpoint must go
 * @release:	NULL, or (unregistering) where the sites of @unopt left
 *		without probes go once their text is back as it was
 *
 * Every text write of a batch is made under one take of the kernel's
 * text lock: 10,000 breakpoints taken out one by one cost twice their
 * writes (ppc64le, TCG).
 *
 * Context: op_mutex held.
 * Return: true if a site left without probes may wait, hashed, for a
 * kernel kprobe to let its jump go (sites.c looks at it later).
 */
bool op_opt_settle(struct list_head *unopt, struct list_head *release)
{
	struct op_site *site, *tmp;
	bool waits = false;
	LIST_HEAD(disarm);

	lockdep_assert_held(&op_mutex);
	list_for_each_entry_safe(site, tmp, unopt, link) {
		if (op_site_jumps(site))
			continue;
		if (op_site_wanted(site)) {	/* wanted again since op_opt_site() */
			list_del_init(&site->link);
			op_opt_update(site);
		} else {
			list_move_tail(&site->link, &disarm);
		}
	}
	op_sites_disarm(&disarm);
	list_for_each_entry_safe(site, tmp, &disarm, link) {
		list_del_init(&site->link);
		waits |= op_opt_release(site, release);
	}
	op_opt_unoptimize(unopt);
	/* those a kernel kprobe holds went onto op_opt_held */
	waits |= release && !list_empty(&op_opt_held);
	list_for_each_entry_safe(site, tmp, unopt, link) {
		list_del_init(&site->link);
		op_opt_update(site);
		waits |= op_opt_release(site, release);
	}
	return waits;
}

/**
 * op_opt_settle_all() - a global switch turned: bring every site along
 *
 * Context: op_mutex held.
 */
void op_opt_settle_all(void)
{
	struct op_site *site;
	LIST_HEAD(unopt);
	unsigned int bkt;

	lockdep_assert_held(&op_mutex);
	for (site = op_sites_first(&bkt); site; site = op_sites_next(site, &bkt))
		if (op_opt_site(site, &unopt))
			pr_warn("cannot re-arm the probe at %pS\n", (void *)site->addr);
	op_opt_settle(&unopt, NULL);
}

/* Look again at the sites whose jump a kernel kprobe held. */
static void op_opt_recheck_held(void)
{
	struct op_site *site, *tmp;
	LIST_HEAD(unopt);

	list_for_each_entry_safe(site, tmp, &op_opt_held, link)
		op_opt_site(site, &unopt);
	op_opt_settle(&unopt, NULL);
}

/* Sites held by a kernel kprobe, and parked ones. */
static void op_recheck_fn(struct work_struct *work)
{
	mutex_lock(&op_mutex);
	op_opt_recheck_held();
	op_opt_retry();
	op_unlock();
}

static void op_optimizer_fn(struct work_struct *work)
{
	bool prepared;

	mutex_lock(&op_mutex);
	prepared = op_opt_prepare_queued();
	op_unlock();
	if (!prepared)
		return;

	/*
	 * Hits go to the detours now.  Once every task has passed a
	 * quiescent state, none is left inside the bytes to be replaced,
	 * neither preempted there nor interrupted.  Sites cancelled
	 * meanwhile have left op_opt_prepared; only this work adds to it.
	 */
	op_quiesce(true);

	mutex_lock(&op_mutex);
	op_opt_patch_prepared();
	op_unlock();
}

/* Work to do now, not only a recheck later. */
static bool op_opt_pending(void)
{
	bool pending;

	mutex_lock(&op_mutex);
	pending = !list_empty(&op_opt_queued) || !list_empty(&op_opt_prepared);
	mutex_unlock(&op_mutex);
	return pending;
}

/* Sites waiting on something else are looked at now, not later (optprobe_sync()). */
void op_opt_recheck_now(void)
{
	mod_delayed_work(op_optimizer_wq, &op_recheck_work, 0);
	flush_delayed_work(&op_recheck_work);
}

/* Every batch queued is done (optprobe_sync()). */
void op_opt_flush(void)
{
	/* the work queues itself again for sites queued while it ran */
	do {
		flush_delayed_work(&op_optimizer_work);
	} while (op_opt_pending());
}

void op_set_optimize(bool optimize)
{
	mutex_lock(&op_mutex);
	WRITE_ONCE(op_optimize, optimize);
	op_opt_settle_all();
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

/*
 * No site is left (every user module is gone, and a held site keeps
 * optprobe loaded): nothing can be queued.
 */
void op_optimizer_exit(void)
{
	cancel_delayed_work_sync(&op_recheck_work);
	cancel_delayed_work_sync(&op_optimizer_work);
	destroy_workqueue(op_optimizer_wq);
}
