// SPDX-License-Identifier: GPL-2.0
/*
 * The probe registry: the public API's register/unregister/enable/disable,
 * address validation, aggregation of probes into sites, and the lifetime
 * of sites.
 *
 * A site is armed exactly when all of these hold: it is not gone, at least
 * one of its probes is enabled, and probing is enabled globally (debugfs
 * "enabled").  op_site_update() is the one place that moves a site between
 * armed and disarmed.
 *
 * Lifetime: a site is hashed (found by the hit path) from before its
 * breakpoint is written until after it is removed.  When its last probe is
 * unregistered it is unhashed, then freed after op_quiesce(): no CPU is
 * still in a handler or a hash walk, and no task is inside its slot.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "arch.h"
#include "internal.h"
#include "ksyms.h"

/* Serializes every change to sites, probes and slots. */
DEFINE_MUTEX(op_mutex);
static DEFINE_HASHTABLE(op_sites, 10);	/* live sites, by address */
static LIST_HEAD(op_all_sites);		/* every site, gone ones too */
static bool op_all_enabled = true;

struct op_site *op_site_lookup(unsigned long addr)
{
	struct op_site *site;

	hash_for_each_possible_rcu(op_sites, site, hash, addr, lockdep_is_held(&op_mutex))
		if (site->addr == addr)
			return site;
	return NULL;
}

NOKPROBE_SYMBOL(op_site_lookup);

/*
 * Wait until nothing can still use what was just unhashed or disarmed:
 * handlers and hash walks run with preemption disabled (an RCU grace
 * period), and on a preemptible kernel a task may be preempted inside a
 * slot (a tasks-RCU grace period, needed only when slots are involved).
 */
void op_quiesce(bool slots)
{
	synchronize_rcu();
	if (slots && IS_ENABLED(CONFIG_TASKS_RCU))
		synchronize_rcu_tasks();
}

static bool op_site_wanted(const struct op_site *site)
{
	return op_all_enabled && !site->gone && site->nr_enabled;
}

/*
 * What @site's probes ask of it: a post handler among the enabled ones, a
 * probe that must not be optimized (OPTPROBE_F_NOOPT).  The backend hears
 * of every change.
 */
static void op_site_flags(struct op_site *site)
{
	bool post = false, noopt = false;
	struct optprobe *p;

	if (site->mode == OPTPROBE_MODE_FTRACE)
		return;
	list_for_each_entry(p, &site->probes, list) {
		post |= p->post_handler && !p->disabled;
		noopt |= p->flags & OPTPROBE_F_NOOPT;
	}
	if (post == site->post && noopt == site->noopt)
		return;
	site->post = post;
	site->noopt = noopt;
	op_arch_site_flags(site);
	if (site->opt != OP_OPT_DONE)
		site->mode = site->bp_mode;
}

/*
 * Arm or disarm @site as wanted, and have an armed one optimized.  An
 * optimized site must have been switched back to its breakpoint first
 * (op_site_change()).
 */
static int op_site_update(struct op_site *site)
{
	bool want = op_site_wanted(site);
	int ret = 0;

	if (want == site->armed) {
		if (want)
			op_opt_queue(site);
		return 0;
	}
	if (site->mode == OPTPROBE_MODE_FTRACE) {
		if (want)
			ret = op_ftrace_arm(site);
		else
			op_ftrace_disarm(site);
	} else if (want) {
		ret = op_arch_arm(site);
	} else {
		op_opt_cancel(site);
		op_arch_disarm(site);
	}
	if (ret)
		return ret;
	WRITE_ONCE(site->armed, want);
	if (want)
		op_opt_queue(site);
	return 0;
}

/*
 * Bring @site to what its probes want; but an optimized site to be
 * disarmed, or that a probe wants unoptimized, goes onto @unopt, for
 * op_sites_settle() to switch all of them back to their breakpoints in one
 * batch and then finish.  A site on its way to being optimized that must
 * not be any more leaves the optimizer.
 */
static int op_site_change(struct op_site *site, struct list_head *unopt)
{
	bool unwanted;

	op_site_flags(site);
	unwanted = site->noopt || op_arch_opt_blocked(site);
	if (site->opt == OP_OPT_DONE && (!op_site_wanted(site) || unwanted)) {
		list_move_tail(&site->opt_list, unopt);
		return 0;
	}
	if (unwanted)
		op_opt_cancel(site);
	return op_site_update(site);
}

static void op_sites_settle(struct list_head *unopt)
{
	struct op_site *site, *tmp;

	op_opt_unoptimize(unopt);
	list_for_each_entry_safe(site, tmp, unopt, opt_list) {
		list_del_init(&site->opt_list);
		op_site_update(site);
	}
}

/* Where @p asks to be: -ENOENT for an unknown symbol, -EINVAL past its end. */
static int op_probe_address(const struct optprobe *p, unsigned long *addr, const char **why)
{
	unsigned long func, entry, size, offset;

	if (!p->symbol) {
		*addr = (unsigned long)p->addr + p->offset;
		return 0;
	}
	func = op_ksyms.kallsyms_lookup_name(p->symbol);
	if (!func) {
		*why = "unknown symbol";
		return -ENOENT;
	}
	if (p->offset) {
		if (!op_ksyms.kallsyms_lookup_size_offset(func, &size, &offset) ||
		    p->offset >= size - offset) {
			*why = "offset beyond the end of the symbol";
			return -EINVAL;
		}
		*addr = func + p->offset;
		return 0;
	}
	/* symbol + 0 is the function's entry: its ftrace site if it has one */
	entry = op_ksyms.ftrace_location(func);
	*addr = entry ?: op_arch_local_entry(func);
	return 0;
}

/*
 * May @addr be probed at all?  Sets *@mod to the module holding it (NULL
 * for kernel core text) and *@why on failure.
 */
static int op_check_address(unsigned long addr, struct module **mod, const char **why)
{
	unsigned long size, offset;
	struct kprobe *kp;
	int ret = 0;

	preempt_disable();
	*mod = op_ksyms.__module_text_address(addr);
	if (!*mod && !op_ksyms.core_kernel_text(addr)) {
		*why = "not kernel or module text";
		ret = -EINVAL;
	} else if (*mod == THIS_MODULE) {
		*why = "optprobe's own text";
		ret = -EINVAL;
	} else if (*mod && within_module_init(addr, *mod)) {
		*why = "module init text";
		ret = -EINVAL;
	} else if (*mod && (*mod)->state != MODULE_STATE_LIVE) {
		*why = "module not live";
		ret = -EINVAL;
	}
	preempt_enable();
	if (ret)
		return ret;

	if (op_ksyms.within_kprobe_blacklist(addr)) {
		*why = "blacklisted (the kernel's kprobe blacklist, entry or noinstr text)";
		return -EINVAL;
	}
	if (op_blacklisted(addr)) {
		*why = "blacklisted (optprobe's hit path, or text others rewrite)";
		return -EINVAL;
	}
	if (op_ksyms.search_exception_tables(addr)) {
		*why = "exception-fixup site";
		return -EINVAL;
	}
	rcu_read_lock();
	kp = op_ksyms.get_kprobe((void *)addr);
	rcu_read_unlock();
	if (kp) {
		*why = "a kprobe of the kernel's is there";
		return -EBUSY;
	}
	if (op_ksyms.jump_label_text_reserved((void *)addr, (void *)addr)) {
		*why = "a jump label is there";
		return -EBUSY;
	}
	if (!op_ksyms.kallsyms_lookup_size_offset(addr, &size, &offset)) {
		*why = "no symbol covers it";
		return -EINVAL;
	}
	return op_arch_check_insn(addr - offset, size, addr, why);
}

/* Free a site that was never armed nor hashed. */
static void op_site_free_unused(struct op_site *site)
{
	LIST_HEAD(one);

	list_add(&site->release, &one);
	op_slots_release(&one);
	kfree(site);
}

static struct op_site *op_site_create(unsigned long addr, struct module *mod, const char **why)
{
	struct op_site *site = kzalloc(sizeof(*site), GFP_KERNEL);
	int ret;

	if (!site)
		return ERR_PTR(-ENOMEM);
	site->addr = addr;
	site->mod = mod;
	INIT_LIST_HEAD(&site->probes);
	INIT_LIST_HEAD(&site->opt_list);
	if (op_ksyms.ftrace_location(addr) == addr) {
		site->mode = OPTPROBE_MODE_FTRACE;
		site->reason = "function entry: runs through ftrace";
		return site;
	}
	site->reason = "not optimized while disarmed";
	ret = op_arch_prepare(site);
	if (ret) {
		*why = site->reason;
		op_site_free_unused(site);
		return ERR_PTR(ret);
	}
	site->mode = site->bp_mode;
	return site;
}

static void op_warn(const struct optprobe *p, const char *what, const char *why, int err)
{
	if (p->symbol)
		pr_warn("cannot %s probe at %s+%#x: %s (%d)\n",
			what, p->symbol, p->offset, why, err);
	else
		pr_warn("cannot %s probe at %pS+%#x: %s (%d)\n",
			what, p->addr, p->offset, why, err);
}

static int op_register_locked(struct optprobe *p)
{
	const char *why = "out of memory";
	struct op_site *site, *new = NULL;
	LIST_HEAD(unopt);
	struct module *mod;
	unsigned long addr;
	int ret;

	lockdep_assert_held(&op_mutex);
	if (p->site) {
		op_warn(p, "register", "already registered", -EEXIST);
		return -EEXIST;
	}
	p->nhit = alloc_percpu(unsigned long);
	if (!p->nhit) {
		ret = -ENOMEM;
		goto fail;
	}
	if (!p->pre_handler && !p->post_handler) {
		why = "no handler";
		ret = -EINVAL;
		goto fail;
	}
	if (!p->symbol == !p->addr) {
		why = "give exactly one of symbol and addr";
		ret = -EINVAL;
		goto fail;
	}
	ret = op_probe_address(p, &addr, &why);
	if (ret)
		goto fail;
	site = op_site_lookup(addr);
	if (!site) {
		op_opt_make_room(addr);
		ret = op_check_address(addr, &mod, &why);
		if (ret)
			goto fail;
		site = op_site_create(addr, mod, &why);
		if (IS_ERR(site)) {
			ret = PTR_ERR(site);
			goto fail;
		}
		/* hashed before its breakpoint exists: a hit always finds it */
		hash_add_rcu(op_sites, &site->hash, addr);
		list_add_tail(&site->all, &op_all_sites);
		new = site;
	}

	p->nmissed = 0;
	p->disabled = p->flags & OPTPROBE_F_DISABLED;
	list_add_tail_rcu(&p->list, &site->probes);
	if (!p->disabled)
		site->nr_enabled++;
	ret = op_site_change(site, &unopt);
	op_sites_settle(&unopt);
	if (ret) {
		why = ret == -EBUSY ? "another text user took the address" : "cannot arm it";
		list_del_rcu(&p->list);
		if (!p->disabled)
			site->nr_enabled--;
		op_site_flags(site);
		if (new) {
			hash_del_rcu(&new->hash);
			list_del(&new->all);
		}
		/* for hits on the site's other probes and hash walks passing by */
		synchronize_rcu();
		if (new)
			op_site_free_unused(new);
		/* never registered: not one for op_unregistered() */
		p->list.next = NULL;
		p->list.prev = NULL;
		goto fail;
	}
	p->addr = (void *)addr;
	WRITE_ONCE(p->site, (struct optprobe_site *)site);
	return 0;

fail:
	/* no hit counts on it: it is on no site, or was taken off after a grace period */
	free_percpu(p->nhit);
	p->nhit = NULL;
	/* sites that made room for this one may be optimized again */
	op_opt_retry();
	op_warn(p, "register", why, ret);
	return ret;
}

/*
 * Take @p off its site; an optimized site to be disarmed goes onto @unopt
 * (op_site_change()), a site left without probes onto @release.
 */
static void op_unregister_locked(struct optprobe *p, struct list_head *unopt,
				 struct list_head *release)
{
	struct op_site *site = op_site_of(p);

	lockdep_assert_held(&op_mutex);
	if (!site) {
		op_warn(p, "unregister", "not registered", -EINVAL);
		return;
	}
	list_del_rcu(&p->list);
	if (!p->disabled) {
		site->nr_enabled--;
		op_site_change(site, unopt);
	}
	WRITE_ONCE(p->site, NULL);
	if (list_empty(&site->probes))
		list_add(&site->release, release);
}

/*
 * Once sites on @unopt are disarmed too: unhash the sites on @release,
 * which nothing finds from now on but CPUs already on their way.
 */
static void op_unregister_settle(struct list_head *unopt, struct list_head *release)
{
	struct op_site *site;

	op_sites_settle(unopt);
	list_for_each_entry(site, release, release) {
		op_opt_cancel(site);
		if (!site->gone)
			hash_del_rcu(&site->hash);
		list_del(&site->all);
	}
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
		free_percpu(p->nhit);
		p->nhit = NULL;
		p->addr = p->symbol ? NULL : p->addr - p->offset;
		p->list.next = NULL;
		p->list.prev = NULL;
	}
}

/**
 * op_probe_hits() - how many hits of a registered probe ran its handlers
 * @p:	the probe
 *
 * Return: the sum over the CPUs; 0 if @p is not registered.
 */
unsigned long op_probe_hits(const struct optprobe *p)
{
	unsigned long hits = 0;
	int cpu;

	if (!p->nhit)
		return 0;
	for_each_possible_cpu(cpu)
		hits += READ_ONCE(*per_cpu_ptr(p->nhit, cpu));
	return hits;
}
EXPORT_SYMBOL_NS_GPL(op_probe_hits, OPTPROBE_INTERNAL);

/* Free the sites on @release, and their slots, once nothing uses them. */
static void op_release(struct list_head *release)
{
	struct op_site *site, *tmp;
	bool slots = false;

	list_for_each_entry(site, release, release)
		slots |= site->slot || site->detour;
	op_quiesce(slots);
	if (list_empty(release))
		return;
	mutex_lock(&op_mutex);
	op_slots_release(release);
	op_opt_retry();
	mutex_unlock(&op_mutex);
	list_for_each_entry_safe(site, tmp, release, release)
		kfree(site);
}

int optprobe_register(struct optprobe *p)
{
	int ret;

	mutex_lock(&op_mutex);
	ret = op_register_locked(p);
	op_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(optprobe_register);

int optprobe_register_many(struct optprobe **ps, unsigned int n)
{
	LIST_HEAD(release);
	LIST_HEAD(unopt);
	unsigned int i, j;
	int ret = 0;

	mutex_lock(&op_mutex);
	for (i = 0; i < n && !ret; i++)
		ret = op_register_locked(ps[i]);
	if (ret) {
		for (j = 0; j + 1 < i; j++)
			op_unregister_locked(ps[j], &unopt, &release);
		op_unregister_settle(&unopt, &release);
	}
	op_unlock();
	if (ret) {
		op_release(&release);
		op_unregistered(ps, i - 1);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(optprobe_register_many);

void optprobe_unregister_many(struct optprobe **ps, unsigned int n)
{
	LIST_HEAD(release);
	LIST_HEAD(unopt);
	unsigned int i;

	mutex_lock(&op_mutex);
	for (i = 0; i < n; i++)
		op_unregister_locked(ps[i], &unopt, &release);
	op_unregister_settle(&unopt, &release);
	op_unlock();
	op_release(&release);
	op_unregistered(ps, n);
}
EXPORT_SYMBOL_GPL(optprobe_unregister_many);

void optprobe_unregister(struct optprobe *p)
{
	optprobe_unregister_many(&p, 1);
}
EXPORT_SYMBOL_GPL(optprobe_unregister);

static int op_set_disabled(struct optprobe *p, bool disabled)
{
	struct op_site *site;
	LIST_HEAD(unopt);
	int ret = 0;

	mutex_lock(&op_mutex);
	site = op_site_of(p);
	if (!site) {
		ret = -EINVAL;
	} else if (site->gone) {
		ret = -ENOENT;
	} else if (p->disabled != disabled && disabled) {
		WRITE_ONCE(p->disabled, true);
		site->nr_enabled--;
		op_site_change(site, &unopt);
		op_sites_settle(&unopt);
	} else if (p->disabled != disabled) {
		WRITE_ONCE(p->disabled, false);
		site->nr_enabled++;
		ret = op_site_update(site);
		if (ret) {
			WRITE_ONCE(p->disabled, true);
			site->nr_enabled--;
		}
		op_site_flags(site);
	}
	op_unlock();
	/* A handler that started before the probe was disabled has finished. */
	if (!ret && disabled)
		synchronize_rcu();
	return ret;
}

int optprobe_enable(struct optprobe *p)
{
	return op_set_disabled(p, false);
}
EXPORT_SYMBOL_GPL(optprobe_enable);

int optprobe_disable(struct optprobe *p)
{
	return op_set_disabled(p, true);
}
EXPORT_SYMBOL_GPL(optprobe_disable);

enum optprobe_mode optprobe_mode(const struct optprobe *p)
{
	struct op_site *site = op_site_of(p);

	if (!site)
		return OPTPROBE_MODE_DISABLED;
	if (READ_ONCE(site->gone))
		return OPTPROBE_MODE_GONE;
	if (READ_ONCE(p->disabled) || !READ_ONCE(site->armed))
		return OPTPROBE_MODE_DISABLED;
	return site->mode;
}
EXPORT_SYMBOL_GPL(optprobe_mode);

const char *optprobe_reason(const struct optprobe *p)
{
	struct op_site *site = op_site_of(p);

	if (!site)
		return "not registered";
	if (site->mode == OPTPROBE_MODE_OPTIMIZED)
		return "";
	if (site->mode != OPTPROBE_MODE_FTRACE && !op_optimize_enabled())
		return "optimization switched off (debugfs optimize)";
	return site->reason;
}
EXPORT_SYMBOL_GPL(optprobe_reason);

/**
 * op_set_all_enabled() - arm or disarm every site (debugfs "enabled")
 * @enabled:	the new state; probes keep their own enable state
 */
void op_set_all_enabled(bool enabled)
{
	struct op_site *site;
	LIST_HEAD(unopt);
	unsigned int bkt;

	mutex_lock(&op_mutex);
	op_all_enabled = enabled;
	hash_for_each(op_sites, bkt, site, hash)
		if (op_site_change(site, &unopt))
			pr_warn("cannot re-arm the probe at %pS\n", (void *)site->addr);
	op_sites_settle(&unopt);
	op_unlock();
	if (!enabled)
		synchronize_rcu();
}

bool op_get_all_enabled(void)
{
	return READ_ONCE(op_all_enabled);
}

/**
 * op_sites_gone() - the module holding some sites is being unloaded
 * @mod:	the module
 *
 * Its sites are disarmed without writing its text (ftrace entries are
 * removed from ftrace's filter, which must not outlive the module), marked
 * gone and unhashed; their slots are released after the grace period.  The
 * sites themselves live on until their probes are unregistered.
 *
 * Context: process context; sleeps.
 */
void op_sites_gone(struct module *mod)
{
	struct op_site *site;
	struct hlist_node *tmp;
	LIST_HEAD(gone);
	unsigned int bkt;
	bool slots = false;

	mutex_lock(&op_mutex);
	hash_for_each_safe(op_sites, bkt, tmp, site, hash) {
		if (site->mod != mod)
			continue;
		if (site->armed && site->mode == OPTPROBE_MODE_FTRACE)
			op_ftrace_disarm(site);
		/* its text goes with the module: nothing to write back */
		site->opt = OP_OPT_NONE;
		op_opt_cancel(site);
		WRITE_ONCE(site->armed, false);
		WRITE_ONCE(site->gone, true);
		hash_del_rcu(&site->hash);
		list_add(&site->release, &gone);
		slots |= site->slot || site->detour;
	}
	/*
	 * Quiesce with op_mutex held: an unregister must not free one of
	 * these sites while it is on the gone list.
	 */
	if (!list_empty(&gone)) {
		op_quiesce(slots);
		op_slots_release(&gone);
		op_opt_retry();
	}
	op_unlock();
}

/**
 * op_sites_optimize() - the optimize switch was turned
 * @on:		on: queue every armed site; off: put every breakpoint back
 *
 * Context: op_mutex held.
 */
void op_sites_optimize(bool on)
{
	struct op_site *site, *tmp;
	LIST_HEAD(unopt);
	unsigned int bkt;

	lockdep_assert_held(&op_mutex);
	hash_for_each(op_sites, bkt, site, hash) {
		if (on && site->armed)
			op_opt_queue(site);
		else if (!on && site->opt == OP_OPT_DONE)
			list_add_tail(&site->opt_list, &unopt);
		else if (!on)
			op_opt_cancel(site);
	}
	op_opt_unoptimize(&unopt);
	list_for_each_entry_safe(site, tmp, &unopt, opt_list)
		list_del_init(&site->opt_list);
}

/* debugfs "list": one line per probe. */
void op_probes_show(struct seq_file *m)
{
	static const char * const mode_names[] = {
		[OPTPROBE_MODE_TRAP] = "trap",
		[OPTPROBE_MODE_BOOSTED] = "boosted",
		[OPTPROBE_MODE_OPTIMIZED] = "optimized",
		[OPTPROBE_MODE_FTRACE] = "ftrace",
		[OPTPROBE_MODE_DISABLED] = "disabled",
		[OPTPROBE_MODE_GONE] = "gone",
	};
	struct op_site *site;
	struct optprobe *p;

	mutex_lock(&op_mutex);
	list_for_each_entry(site, &op_all_sites, all)
		list_for_each_entry(p, &site->probes, list)
			seq_printf(m, "0x%lx %pS %s %lu %lu %s\n", site->addr, (void *)site->addr,
				   mode_names[optprobe_mode(p)], op_probe_hits(p),
				   READ_ONCE(p->nmissed), optprobe_reason(p));
	mutex_unlock(&op_mutex);
}
