// SPDX-License-Identifier: GPL-2.0
/*
 * Sites: one per probed address, shared by every probe there
 * (aggregation), and their lifetime.
 *
 * A site is armed exactly when all of these hold: it is not gone, at least
 * one of its probes is enabled, and probing is enabled globally (debugfs
 * "enabled").  op_site_change() is the one path that brings a site to
 * what its probes ask, handler flags and state together; the moves
 * themselves are the optimizer's (optimizer.c).
 *
 * Lifetime: a site is hashed (in op_sites, where the hit path finds it:
 * dispatch.c) from before its breakpoint is written until after it is
 * removed.  When its last probe is unregistered it is unhashed, then
 * freed after op_quiesce(): no CPU is still in a handler or a hash walk,
 * and no task is inside its slot.  A site whose jump a kernel kprobe
 * holds waits, hashed and without probes, until the kprobe has gone
 * (op_sites_release_fn()): a hashed site without probes is a waiting
 * one, outside an operation on sites, and needs no list of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/rcupdate_wait.h>
#include <linux/slab.h>

#include "arch.h"
#include "dispatch.h"
#include "internal.h"
#include "ksyms.h"

/* Serializes every change to sites, probes and slots. */
DEFINE_MUTEX(op_mutex);
static LIST_HEAD(op_sites_gone_probed);	/* unhashed, their module gone, probes left */
bool op_all_enabled = true;		/* the switch of op_site_wanted() */

/*
 * One site per probed address, thousands at once: from a cache of their
 * own, which packs them at their size, not at kmalloc's next (site.h).
 */
static struct kmem_cache *op_site_cache;

#ifndef __CHECKER__	/* sparse sizes every enum as an int, __packed or not */
static_assert(sizeof(enum op_opt_state) == 1 && sizeof(enum op_reason) == 1);
static_assert(sizeof(struct op_site) <= 128);	/* 88 bytes on powerpc64le (site.h) */
#endif

/*
 * Waiting sites are looked at again every OP_OPT_RECHECK while there are
 * any, as the optimizer looks at the jumps it holds for them, and freed
 * once the optimizer has taken their jump out (op_sites_release_fn()).
 * Whatever leaves a site waiting has it looked at (op_sites_look_later()).
 */
static void op_sites_release_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(op_sites_release_work, op_sites_release_fn);

/* A site may wait: look again at the next recheck. */
void op_sites_look_later(void)
{
	queue_delayed_work(system_wq, &op_sites_release_work, OP_OPT_RECHECK);
}

/*
 * What @site's probes ask of it: a post handler among the enabled ones, a
 * probe that must not be optimized (OPTPROBE_F_NOOPT).  The backend hears
 * of every change but on ftrace sites, which are not its business.  Also
 * the probe the hit path calls (dispatch.h): the site's only enabled
 * probe, when there is one and it has a pre handler, else op_aggr_probe,
 * which walks them all.  A probe being disabled stops being the sole one
 * before its flag is set (op_site_drop_sole()), so the shortcut never
 * needs to check the flag.
 */
static void op_site_flags(struct op_site *site)
{
	bool post = false, noopt = false, own = false, marker = false;
	struct optprobe *p, *sole = &op_aggr_probe;
	unsigned int enabled = 0;

	list_for_each_entry(p, &site->probes, list) {
		if (!p->disabled) {
			enabled++;
			sole = p;
		}
		post |= p->post_handler && !p->disabled;
		noopt |= p->flags & OPTPROBE_F_NOOPT;
		own |= p->flags & OP_F_OWN;
		marker |= p->flags & OP_F_MARKER;
	}
	if (enabled != 1 || !sole->pre_handler)
		sole = &op_aggr_probe;
	site->enabled = enabled > 0;
	site->own = own;
	site->marker = marker;
	/* published after the probe's fields: a hit reads them through it */
	smp_store_release(&site->sole, sole);
	if (post == site->post && noopt == site->noopt)
		return;
	/* read by the hit path too: op_dispatch_post() */
	WRITE_ONCE(site->post, post);
	site->noopt = noopt;
	if (!site->ftrace)
		op_arch_site_flags(site);
}

/**
 * op_site_drop_sole() - take the hit path's shortcut away from @site
 * @site:	the site of a probe about to be disabled or to leave it
 *
 * A hit that read the probe as the sole one before this is one that came
 * before the disabling; the caller waits for it with a grace period.
 * op_site_change() picks the sole probe again.
 *
 * Context: op_mutex held.
 */
void op_site_drop_sole(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	WRITE_ONCE(site->sole, &op_aggr_probe);
}

/**
 * op_site_change() - bring @site to what its probes now ask
 * @site:	the site, after a probe joined, left, or was enabled or disabled
 * @unopt:	where a site whose jump or breakpoint must go is put
 *
 * Handler flags first, then the state, which the optimizer brings along
 * (op_opt_site()): a site whose jump must go back to its breakpoint, or
 * whose breakpoint must go, goes onto @unopt for op_opt_settle(), which
 * does all of them in one batch and then finishes.
 *
 * Context: op_mutex held.
 * Return: 0, or the error of arming it.
 */
int op_site_change(struct op_site *site, struct list_head *unopt)
{
	lockdep_assert_held(&op_mutex);
	if (site->state == OP_ST_GONE)
		return 0;
	op_site_flags(site);
	return op_opt_site(site, unopt);
}

/**
 * op_site_reason() - why @site is not optimized, read from its state
 * @site:	the site
 *
 * Return: OP_R_NONE when it is optimized.
 */
enum op_reason op_site_reason(const struct op_site *site)
{
	if (site->ftrace)
		return OP_R_FTRACE_ENTRY;
	switch (READ_ONCE(site->state)) {
	case OP_ST_OPTIMIZED:
	case OP_ST_UNOPTIMIZING:
		return OP_R_NONE;
	case OP_ST_DISARMED:
		return OP_R_DISARMED;
	case OP_ST_QUEUED:
	case OP_ST_PREPARED:
		/* tried again: why it was refused last time says more */
		return READ_ONCE(site->reason) ?: OP_R_WAITING;
	case OP_ST_GONE:
		return OP_R_MODULE_GONE;
	default:
		return READ_ONCE(site->reason) ?: OP_R_NOT_TRIED;
	}
}

/*
 * Take @site out of its chain.  Its ->next stays: a hit on its way
 * through it goes on along the chain.  It is freed, or hashed again,
 * only after a grace period.
 */
static void op_site_unhash(struct op_site *site)
{
	struct op_site __rcu **pp = op_sites_bucket(site->addr);
	struct op_site *s;

	while ((s = op_site_next(*pp)) != site) {
		if (WARN_ON_ONCE(!s))
			return;
		pp = &s->next;
	}
	RCU_INIT_POINTER(*pp, op_site_next(site->next));
}

/* Take @site out of every index: nothing finds it from now on but CPUs on their way. */
static void op_site_unlist(struct op_site *site)
{
	if (site->state != OP_ST_GONE)
		op_site_unhash(site);
}

/**
 * op_sites_for_each() - call @fn for every site a reader may look at
 * @fn:		called with op_mutex held
 * @arg:	its argument
 *
 * The hashed sites, then those whose module has gone while they still
 * have probes; not those on their way to be freed.
 */
void op_sites_for_each(void (*fn)(struct op_site *site, void *arg), void *arg)
{
	struct op_site *site;
	unsigned int bkt;

	lockdep_assert_held(&op_mutex);
	for (site = op_sites_first(&bkt); site; site = op_sites_next(site, &bkt))
		fn(site, arg);
	list_for_each_entry(site, &op_sites_gone_probed, link)
		fn(site, arg);
}

/**
 * op_sites_unlist() - sites left without probes, after op_opt_settle()
 * @release:	the sites, linked by ->link, their text back as it was
 *
 * Those still armed (a kernel kprobe holds their jump) are not on it:
 * they wait, hashed.
 *
 * Context: op_mutex held.
 */
void op_sites_unlist(struct list_head *release)
{
	struct op_site *site;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(site, release, link)
		op_site_unlist(site);
}

/**
 * op_site_join() - @p joins @site's probes
 * @site:	a new site, or one found by its address, which stops waiting
 *		to be freed if it was
 * @p:		the probe
 *
 * The hit path sees @p from now on; op_site_change() brings the site to
 * what its probes now ask.
 */
void op_site_join(struct op_site *site, struct optprobe *p)
{
	lockdep_assert_held(&op_mutex);
	list_add_tail_rcu(&p->list, &site->probes);
}

/**
 * op_site_leave() - @p leaves @site's probes
 * @site:	its site
 * @p:		the probe
 *
 * A hit may still run @p's handlers until a grace period has passed;
 * op_site_change() brings the site to what its probes now ask.
 */
void op_site_leave(struct op_site *site, struct optprobe *p)
{
	lockdep_assert_held(&op_mutex);
	/* op_site_change() picks again, but not on a site whose module is gone */
	op_site_drop_sole(site);
	list_del_rcu(&p->list);
}

/**
 * op_site_wait() - a site found by its address was left without probes
 * @site:	the site, back as it was before a probe that failed to arm
 *		joined: one without probes had been waiting to be freed, and
 *		waits again
 */
void op_site_wait(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	if (list_empty(&site->probes))
		mod_delayed_work(system_wq, &op_sites_release_work, OP_OPT_DELAY);
}

/*
 * Sites on @release whose jump a kernel kprobe copied before it was taken
 * out go back to waiting, hashed again, instead of being freed.  No new
 * site can have come to the address once the kprobe was there; one that
 * came before it keeps the address.
 */
static void op_sites_keep_reached(struct list_head *release)
{
	struct op_site *site, *tmp;

	list_for_each_entry_safe(site, tmp, release, link) {
		if (!site->detour || site->state != OP_ST_DISARMED ||
		    op_site_lookup(site->addr) || !op_arch_detour_reached(site))
			continue;
		list_del_init(&site->link);
		op_site_add(site);
		op_opt_rehold(site);
		op_sites_look_later();
	}
}

/**
 * op_release() - free sites and their slots once nothing uses them
 * @release:	sites taken out of every index (op_sites_unlist())
 *
 * Context: process context, op_mutex not held; sleeps.
 */
void op_release(struct list_head *release)
{
	struct op_site *site, *tmp;
	bool slots = false;

	list_for_each_entry(site, release, link)
		slots |= site->slot || site->detour;
	op_quiesce(slots);
	if (list_empty(release))
		return;
	mutex_lock(&op_mutex);
	op_sites_keep_reached(release);
	op_slots_release(release);
	op_opt_retry();
	op_unlock();
	list_for_each_entry_safe(site, tmp, release, link)
		kmem_cache_free(op_site_cache, site);
}

/* Free waiting sites whose hold has ended; look again later while any wait, if @again. */
static void op_sites_release_waiting(bool again)
{
	unsigned int bkt, waiting = 0;
	struct op_site *site;
	LIST_HEAD(release);

	mutex_lock(&op_mutex);
	for (site = op_sites_first(&bkt); site; site = op_sites_next(site, &bkt)) {
		if (!list_empty(&site->probes))
			continue;
		if (op_site_armed(site)) {
			waiting++;
			continue;
		}
		/* disarmed: on none of the optimizer's lists */
		op_site_unlist(site);
		list_add_tail(&site->link, &release);
	}
	if (again && waiting)
		op_sites_look_later();
	op_unlock();
	/* no probe went with them: without a site, no grace period is due */
	if (!list_empty(&release))
		op_release(&release);
}

static void op_sites_release_fn(struct work_struct *work)
{
	op_sites_release_waiting(true);
}

/*
 * optprobe_sync() is here, not in the optimizer, because it waits for
 * both: sites held for a kernel kprobe are looked at now, not later, and
 * those whose hold ended are freed (and their slots with them) before the
 * optimizer's last batch, which parked sites may join.
 */
void optprobe_sync(void)
{
	op_opt_recheck_now();
	mod_delayed_work(system_wq, &op_sites_release_work, 0);
	flush_delayed_work(&op_sites_release_work);
	op_opt_flush();
}
EXPORT_SYMBOL_GPL(optprobe_sync);

int __init op_sites_init(void)
{
	op_site_cache = KMEM_CACHE(op_site, 0);
	return op_site_cache ? 0 : -ENOMEM;
}

/* Once nothing can hold a site: after op_sites_exit() and the optimizer's exit. */
void op_sites_cache_destroy(void)
{
	kmem_cache_destroy(op_site_cache);
}

/*
 * No site is left but waiting ones whose hold has ended: a held one
 * keeps optprobe loaded.  Before the optimizer goes (op_release() may
 * give it a retry).
 */
void op_sites_exit(void)
{
	struct op_site *site, *tmp;
	unsigned int left = 0, bkt;

	op_sites_release_waiting(false);
	cancel_delayed_work_sync(&op_sites_release_work);
	/* every probe has gone, and a site held for a kernel kprobe keeps optprobe loaded */
	mutex_lock(&op_mutex);
	for (site = op_sites_first(&bkt); site; site = op_sites_next(site, &bkt))
		WARN_ONCE(1, "optprobe: site at %pS left at unload\n", (void *)site->addr);
	mutex_unlock(&op_mutex);
	/*
	 * Sites of unloaded modules whose probes were never unregistered:
	 * their callers have gone too (each held optprobe), and so may the
	 * probes' memory, which is not looked at: the probes' hit counters
	 * are lost.  Their slots went with the module's text.
	 */
	list_for_each_entry_safe(site, tmp, &op_sites_gone_probed, link) {
		list_del(&site->link);
		kmem_cache_free(op_site_cache, site);
		left++;
	}
	if (left)
		pr_warn("%u sites of unloaded modules still had probes, never unregistered: their hit counters leak\n",
			left);
}

/* Free a site that was never armed nor hashed. */
void op_site_free_unused(struct op_site *site)
{
	LIST_HEAD(one);

	list_add(&site->link, &one);
	op_slots_release(&one);
	kmem_cache_free(op_site_cache, site);
}

/**
 * op_site_create() - a new, disarmed site at @addr, not hashed yet
 * @addr:	a checked address (op_check_address())
 * @mod:	the module holding it, NULL for kernel core text
 * @why:	the reason, on failure
 *
 * Context: op_mutex held.
 * Return: the site or an ERR_PTR().
 */
struct op_site *op_site_create(unsigned long addr, struct module *mod, enum op_reason *why)
{
	struct op_site *site = kmem_cache_zalloc(op_site_cache, GFP_KERNEL);
	int ret;

	if (!site)
		return ERR_PTR(-ENOMEM);
	site->addr = addr;
	site->init = mod && within_module_init(addr, mod);
	site->state = OP_ST_DISARMED;
	site->sole = &op_aggr_probe;
	INIT_LIST_HEAD(&site->probes);
	INIT_LIST_HEAD(&site->link);
	if (op_ftrace_site_at(addr)) {
		site->ftrace = true;
		return site;
	}
	ret = op_arch_prepare(site);
	if (ret) {
		/* a backend that ran out of memory may not say so */
		*why = site->reason ?: OP_R_NOMEM;
		op_site_free_unused(site);
		return ERR_PTR(ret);
	}
	return site;
}

/**
 * op_site_add() - hash a new site: a hit finds it from now on
 * @site:	from op_site_create(), before its breakpoint is written
 */
void op_site_add(struct op_site *site)
{
	struct op_site __rcu **head = op_sites_bucket(site->addr);

	lockdep_assert_held(&op_mutex);
	RCU_INIT_POINTER(site->next, op_site_next(*head));
	/* the site's fields, then the site: a hit reads them through it */
	rcu_assign_pointer(*head, site);
}

/**
 * op_site_remove_new() - undo op_site_add() of a site never armed
 * @site:	the site; the caller frees it after a grace period
 */
void op_site_remove_new(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	op_site_unhash(site);
}

/**
 * op_set_all_enabled() - arm or disarm every site (debugfs "enabled")
 * @enabled:	the new state; probes keep their own enable state
 */
void op_set_all_enabled(bool enabled)
{
	mutex_lock(&op_mutex);
	op_all_enabled = enabled;
	op_opt_settle_all();
	op_unlock();
	if (!enabled)
		synchronize_rcu();
}

bool op_get_all_enabled(void)
{
	return READ_ONCE(op_all_enabled);
}

/**
 * op_sites_gone() - the text of some sites goes
 * @mod:	the module holding them, being unloaded
 * @init:	only the sites in its init text, which goes after its init
 *
 * Its sites go without a write to its text, are unhashed, and their slots
 * released after the grace period.  Sites with probes live on until their
 * probes are unregistered; sites that only waited for a kernel kprobe to
 * leave their jump are freed.  Sites the optimizer put off are tried
 * again.
 *
 * Context: process context; sleeps.
 */
void op_sites_gone(struct module *mod, bool init)
{
	struct op_site *site, *tmp;
	LIST_HEAD(gone);
	unsigned int bkt;
	bool slots = false;

	mutex_lock(&op_mutex);
	for (site = op_sites_first(&bkt); site; site = op_sites_next(site, &bkt)) {
		if (!within_module(site->addr, mod) || (init && !site->init))
			continue;
		/* off the optimizer's lists, then onto @gone */
		op_site_gone(site);
		op_site_unhash(site);
		list_add(&site->link, &gone);
		slots |= site->slot || site->detour;
	}
	/*
	 * Quiesce with op_mutex held: an unregister must not free one of
	 * these sites while it is on the gone list.
	 */
	if (!list_empty(&gone)) {
		op_quiesce(slots);
		op_slots_release(&gone);
	}
	/* what was in the way may have gone, or waited for the module to be live */
	op_opt_retry();
	list_for_each_entry_safe(site, tmp, &gone, link) {
		if (list_empty(&site->probes)) {
			kmem_cache_free(op_site_cache, site);
			continue;
		}
		/* until its last probe is unregistered (op_unregister_locked()) */
		list_move_tail(&site->link, &op_sites_gone_probed);
	}
	op_unlock();
}
