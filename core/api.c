// SPDX-License-Identifier: GPL-2.0
/*
 * The public API (include/optprobe.h): register, unregister, enable,
 * disable, and what a probe's mode is and why.  Every call leaves the
 * system as it was when it fails, and tells why in one pr_warn line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rculist.h>

#include "internal.h"

static void op_warn(const struct optprobe *p, const char *what, enum op_reason why, int err)
{
	if (p->flags & OPTPROBE_F_QUIET)
		return;
	if (p->symbol)
		pr_warn("cannot %s probe at %s+%#x: %s (%d)\n",
			what, p->symbol, p->offset, op_reason_text(why), err);
	else	/* a registered probe's addr has its offset in */
		pr_warn("cannot %s probe at %pS: %s (%d)\n",
			what, p->site ? p->addr : p->addr + p->offset, op_reason_text(why),
			err);
}

/* The site at @addr, a new one if there is none; an ERR_PTR() with *@why on failure. */
static struct op_site *op_site_get(unsigned long addr, struct op_site **new, enum op_reason *why)
{
	struct op_site *site = op_site_lookup(addr);
	struct module *mod;
	int ret;

	*new = NULL;
	if (site)
		return site;
	if (op_opt_make_room(addr)) {
		*why = OP_R_KPROBE_JUMP_OVER;
		return ERR_PTR(-EBUSY);
	}
	ret = op_check_address(addr, &mod, why);
	if (ret)
		return ERR_PTR(ret);
	site = op_site_create(addr, mod, why);
	if (IS_ERR(site))
		return site;
	/* hashed before its breakpoint exists: a hit always finds it */
	op_site_add(site);
	*new = site;
	return site;
}

/* Take @p, which failed to arm, off @site again; free @new if it was made for it. */
static void op_register_undo(struct optprobe *p, struct op_site *site, struct op_site *new)
{
	op_site_leave(site, p);
	if (new)
		op_site_remove_new(new);
	/* for hits on the site's other probes and hash walks passing by */
	synchronize_rcu();
	if (new)
		op_site_free_unused(new);
	/* never registered: not one for op_unregistered() */
	p->list.next = NULL;
	p->list.prev = NULL;
}

/* What a caller of the public API may ask (optprobe.h); the rest is optprobe's own (arch.h). */
#define OP_F_PUBLIC	(OPTPROBE_F_DISABLED | OPTPROBE_F_NOOPT | OPTPROBE_F_QUIET)

static int op_register_locked(struct optprobe *p, bool own)
{
	enum op_reason why = OP_R_NOMEM;
	struct op_site *site, *new;
	LIST_HEAD(unopt);
	unsigned long addr;
	int ret;

	lockdep_assert_held(&op_mutex);
	if (p->site) {
		op_warn(p, "register", OP_R_ALREADY_REGISTERED, -EEXIST);
		return -EEXIST;
	}
	p->nhit = op_counter_alloc();
	if (!p->nhit) {
		ret = -ENOMEM;
		goto fail;
	}
	if (!p->pre_handler && !p->post_handler) {
		why = OP_R_NO_HANDLER;
		ret = -EINVAL;
		goto fail;
	}
	if (!own && (p->flags & ~OP_F_PUBLIC)) {
		why = OP_R_UNKNOWN_FLAGS;
		ret = -EINVAL;
		goto fail;
	}
	if (!p->symbol == !p->addr) {
		why = OP_R_SYMBOL_XOR_ADDR;
		ret = -EINVAL;
		goto fail;
	}
	ret = op_probe_address(p, &addr, &why);
	if (ret)
		goto fail;
	site = op_site_get(addr, &new, &why);
	if (IS_ERR(site)) {
		ret = PTR_ERR(site);
		goto fail;
	}

	p->nmissed = 0;
	/* a return probe's entry counts in the return probe's (retprobe.c) */
	if (!p->missed)
		p->missed = &p->nmissed;
	p->disabled = p->flags & OPTPROBE_F_DISABLED;
	op_site_join(site, p);
	ret = op_site_change(site, &unopt);
	op_opt_settle(&unopt, NULL);
	if (ret) {
		why = ret == -EBUSY ? OP_R_TEXT_TAKEN : OP_R_CANNOT_ARM;
		op_register_undo(p, site, new);
		if (!new) {
			op_site_change(site, &unopt);
			op_opt_settle(&unopt, NULL);
			op_site_wait(site);
		}
		goto fail;
	}
	p->addr = (void *)addr;
	WRITE_ONCE(p->site, (struct optprobe_site *)site);
	return 0;

fail:
	/* no hit counts on it: it is on no site, or was taken off after a grace period */
	op_counter_free(p->nhit);
	p->nhit = NULL;
	/* sites that made room for this one may be optimized again */
	op_opt_retry();
	op_warn(p, "register", why, ret);
	return ret;
}

/*
 * Take @p off its site; a site to be disarmed goes onto @unopt
 * (op_site_change()), and a site left without probes onto @release if it
 * is not on @unopt (op_opt_settle() puts it there after its text change).
 */
static void op_unregister_locked(struct optprobe *p, struct list_head *unopt,
				 struct list_head *release)
{
	struct op_site *site = op_site_of(p);

	lockdep_assert_held(&op_mutex);
	if (!site) {
		op_warn(p, "unregister", OP_R_NOT_REGISTERED, -EINVAL);
		return;
	}
	op_site_leave(site, p);
	op_site_change(site, unopt);
	WRITE_ONCE(p->site, NULL);
	if (!list_empty(&site->probes))
		return;
	/* off op_sites_gone_probed, if its module has gone (sites.c) */
	if (site->state == OP_ST_GONE)
		list_move(&site->link, release);
	else if (!op_site_armed(site))
		list_add_tail(&site->link, release);
}

/*
 * Once no handler of theirs can be running, free the hit counters of
 * unregistered probes and give them back the addr their caller gave, so
 * that they can be registered again as they were.  list_del_rcu() left
 * LIST_POISON2 in ->list.prev of exactly the probes just taken off a
 * site; clearing it marks them done.
 */
static void op_unregistered(struct optprobe **ps, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct optprobe *p = ps[i];

		if (p->site || p->list.prev != LIST_POISON2)
			continue;
		op_counter_free(p->nhit);
		p->nhit = NULL;
		p->missed = NULL;
		p->addr = p->symbol ? NULL : p->addr - p->offset;
		p->list.next = NULL;
		p->list.prev = NULL;
	}
}

/* Unregister @ps[0..@n) in one batch: one text change and one grace period for all. */
static void op_unregister_batch(struct optprobe **ps, unsigned int n)
{
	LIST_HEAD(release);
	LIST_HEAD(unopt);
	unsigned int i;

	mutex_lock(&op_mutex);
	for (i = 0; i < n; i++)
		op_unregister_locked(ps[i], &unopt, &release);
	if (op_opt_settle(&unopt, &release))
		op_sites_look_later();
	op_sites_unlist(&release);
	op_unlock();
	op_release(&release);
	op_unregistered(ps, n);
}

/**
 * op_probe_hits() - how many hits of a registered probe ran its handlers
 * @p:	the probe
 *
 * Return: the sum over the CPUs; 0 if @p is not registered.
 */
unsigned long op_probe_hits(const struct optprobe *p)
{
	return p->nhit ? op_percpu_sum(p->nhit) : 0;
}
EXPORT_SYMBOL_NS_GPL(op_probe_hits, OPTPROBE_INTERNAL);

/*
 * The first of @ps[0..@n) whose breakpoint op_opt_arm_end() could not
 * write; their sites' marks cleared.
 */
static unsigned int op_first_unarmed(struct optprobe **ps, unsigned int n)
{
	unsigned int i, first = n;

	for (i = 0; i < n; i++)
		if (op_site_of(ps[i])->arm_failed && first == n)
			first = i;
	for (i = 0; i < n; i++)
		op_site_of(ps[i])->arm_failed = false;
	return WARN_ON_ONCE(first == n) ? 0 : first;
}

/*
 * Register @ps[0..@n), all or none: on failure, the ones before the
 * failed one (*@failed) go again, or all of them if it failed as its
 * breakpoint was written with the others'.  @own: their flags may hold
 * optprobe's own (OP_F_OWN, OP_F_MARKER).
 */
static int op_register_batch(struct optprobe **ps, unsigned int n, unsigned int *failed,
			     bool own)
{
	unsigned int i, registered;
	LIST_HEAD(arm);
	int ret = 0;

	mutex_lock(&op_mutex);
	op_check_forget();
	op_opt_arm_begin(&arm);
	for (i = 0; i < n && !ret; i++)
		ret = op_register_locked(ps[i], own);
	if (ret) {
		op_opt_arm_end(&arm, false);
		*failed = i - 1;
		registered = *failed;
	} else if (op_opt_arm_end(&arm, true)) {
		*failed = op_first_unarmed(ps, n);
		registered = n;
		ret = -EBUSY;
		op_warn(ps[*failed], "register", OP_R_TEXT_TAKEN, ret);
	}
	op_unlock();
	if (!ret)
		return 0;
	/* a grace period only if there is a probe to wait for */
	if (registered)
		op_unregister_batch(ps, registered);
	return ret;
}

int optprobe_register(struct optprobe *p)
{
	unsigned int failed;

	return op_register_batch(&p, 1, &failed, false);
}
EXPORT_SYMBOL_GPL(optprobe_register);

/**
 * op_register_own() - optprobe_register_many() for optprobe's own probes
 * @ps:	probes whose flags may hold optprobe's own (OP_F_OWN, OP_F_MARKER)
 * @n:	how many
 *
 * Return: as optprobe_register_many().
 */
int op_register_own(struct optprobe **ps, unsigned int n)
{
	unsigned int failed;

	return op_register_batch(ps, n, &failed, true);
}

int optprobe_register_batch(struct optprobe **ps, unsigned int n, unsigned int *failed)
{
	return op_register_batch(ps, n, failed, false);
}
EXPORT_SYMBOL_GPL(optprobe_register_batch);

int optprobe_register_many(struct optprobe **ps, unsigned int n)
{
	unsigned int failed;

	return optprobe_register_batch(ps, n, &failed);
}
EXPORT_SYMBOL_GPL(optprobe_register_many);

void optprobe_unregister_many(struct optprobe **ps, unsigned int n)
{
	op_unregister_batch(ps, n);
}
EXPORT_SYMBOL_GPL(optprobe_unregister_many);

void optprobe_unregister(struct optprobe *p)
{
	op_unregister_batch(&p, 1);
}
EXPORT_SYMBOL_GPL(optprobe_unregister);

/*
 * Enabling and disabling change the site's handler set like a register or
 * an unregister: through op_site_change(), flags and state together.
 * Context: op_mutex held.
 */
static int op_probe_set_disabled(struct optprobe *p, struct op_site *site, bool disabled,
				 struct list_head *unopt)
{
	int ret;

	if (disabled)
		op_site_drop_sole(site);
	WRITE_ONCE(p->disabled, disabled);
	ret = op_site_change(site, unopt);
	if (!ret || disabled)
		return 0;	/* disabled all the same: the site's trouble is another's */
	op_site_drop_sole(site);
	WRITE_ONCE(p->disabled, true);
	op_site_change(site, unopt);
	return ret;
}

/*
 * Enable or disable @n probes.  The jumps that must go, go in one batch
 * (op_opt_settle()), and one grace period covers the handlers of every
 * probe disabled.  Return: 0, or the first probe's error.
 */
static int op_set_disabled(struct optprobe **ps, unsigned int n, bool disabled)
{
	unsigned int i, changed = 0;
	struct op_site *site;
	LIST_HEAD(unopt);
	int ret = 0, err;

	mutex_lock(&op_mutex);
	for (i = 0; i < n; i++) {
		site = op_site_of(ps[i]);
		err = 0;
		if (!site) {
			err = -EINVAL;
		} else if (site->state == OP_ST_GONE) {
			err = -ENOENT;
		} else if (ps[i]->disabled != disabled) {
			err = op_probe_set_disabled(ps[i], site, disabled, &unopt);
			changed += !err;
		}
		ret = ret ?: err;
	}
	op_opt_settle(&unopt, NULL);
	op_unlock();
	/* A handler that started before the probes were disabled has finished. */
	if (changed && disabled)
		synchronize_rcu();
	return ret;
}

int optprobe_enable(struct optprobe *p)
{
	return op_set_disabled(&p, 1, false);
}
EXPORT_SYMBOL_GPL(optprobe_enable);

int optprobe_disable(struct optprobe *p)
{
	return op_set_disabled(&p, 1, true);
}
EXPORT_SYMBOL_GPL(optprobe_disable);

int optprobe_disable_many(struct optprobe **ps, unsigned int n)
{
	return op_set_disabled(ps, n, true);
}
EXPORT_SYMBOL_GPL(optprobe_disable_many);

int optprobe_next_insn(const void *addr, void **next)
{
	enum op_reason why = OP_R_NOMEM;
	unsigned long n;
	int ret;

	/* the sites read through stay as read */
	mutex_lock(&op_mutex);
	ret = op_next_insn((unsigned long)addr, &n, &why);
	mutex_unlock(&op_mutex);
	if (ret) {
		pr_warn_ratelimited("no instruction after %pS: %s (%d)\n", addr,
				    op_reason_text(why), ret);
		return ret;
	}
	*next = (void *)n;
	return 0;
}
EXPORT_SYMBOL_GPL(optprobe_next_insn);

enum optprobe_mode optprobe_mode(const struct optprobe *p)
{
	struct op_site *site = op_site_of(p);

	if (!site)
		return OPTPROBE_MODE_DISABLED;
	if (READ_ONCE(site->state) == OP_ST_GONE)
		return OPTPROBE_MODE_GONE;
	if (READ_ONCE(p->disabled) || !op_site_armed(site))
		return OPTPROBE_MODE_DISABLED;
	return op_site_mode(site);
}
EXPORT_SYMBOL_GPL(optprobe_mode);

/**
 * op_probe_reason() - why a probe is not optimized, by name
 * @p:	a probe
 *
 * Return: what optprobe_reason() says the text of.
 */
enum op_reason op_probe_reason(const struct optprobe *p)
{
	struct op_site *site = op_site_of(p);

	if (!site)
		return OP_R_NOT_REGISTERED;
	return op_site_reason(site);
}
EXPORT_SYMBOL_NS_GPL(op_probe_reason, OPTPROBE_INTERNAL);

const char *optprobe_reason(const struct optprobe *p)
{
	return op_reason_text(op_probe_reason(p));
}
EXPORT_SYMBOL_GPL(optprobe_reason);
