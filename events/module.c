// SPDX-License-Identifier: GPL-2.0
/*
 * Events of modules that are not loaded, as the kernel's kprobe events
 * keep them: a MOD:SYM line for a module that is not loaded defines its
 * event at once, pending, with its probe not registered (the symbol is
 * not known yet).  The event can be enabled meanwhile.  When the module
 * comes, the probe is registered and armed if the event is enabled; when
 * it goes, the probe is unregistered and the event pending again, so that
 * the next load of the module arms it again.
 *
 * The probes are registered as the module comes (MODULE_STATE_COMING,
 * before its init runs, as the kernel's kprobe events do), so that they
 * see its init.  The notifier's priority is the default: after the
 * kernel's jump labels (1) and kprobes (0, registered at boot) have
 * taken the module in, and optprobe's markers (core/markers.c, whose
 * notifier was registered first) have read its markers.  A symbol or
 * marker the module turns out not to have leaves the event pending, with
 * one line in the kernel log; so does a marker's format that does not
 * fit the m: line (marker.c).  A deferred m: event joins the kernel's
 * events then, its fields known.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>

#include "events.h"
#include "ksyms.h"

/*
 * Is module @name missing (not yet formed, or going)?  Its events wait
 * then.  A module coming is there: its notifier registers what waited,
 * or has done so already.
 */
bool opev_module_absent(const char *name)
{
	struct module *mod;
	enum module_state state;

	/* the module stays while preemption is off (find_module()'s rule) */
	preempt_disable();
	mod = op_kcall(find_module)(name);
	state = mod ? READ_ONCE(mod->state) : MODULE_STATE_GOING;
	preempt_enable();
	return state != MODULE_STATE_LIVE && state != MODULE_STATE_COMING;
}

static bool opev_of_module(struct opev_event *ev, struct module *mod)
{
	return ev->def.module && !strcmp(ev->def.module, mod->name);
}

/*
 * @ev's probe registered as its module comes: an m: event's marker, and
 * its fields if they waited for it (marker.c), first.
 */
static int opev_module_register(struct opev_event *ev)
{
	int ret;

	/* it says why itself */
	if (ev->is_marker && opev_marker_resolve(ev))
		return -EINVAL;
	ret = opev_event_register(ev);
	if (ret && ev->is_marker)
		pr_warn_ratelimited("event %s/%s stays pending: cannot probe marker %s:%s (%d)\n",
				    ev->def.group, ev->def.event, ev->def.module,
				    ev->def.symbol, ret);
	else if (ret)
		pr_warn_ratelimited("event %s/%s stays pending: cannot probe %s+%lu (%d)\n",
				    ev->def.group, ev->def.event, ev->target,
				    ev->def.offset, ret);
	return ret;
}

/*
 * Under event_mutex: @ev, registered, leaves pending, armed if enabled; an
 * m: event whose fields waited joins the kernel's events first (if it
 * cannot, it is unregistered again by the caller).
 */
static int opev_module_unpend_locked(struct opev_event *ev)
{
	int ret;

	if (ev->is_marker && !ev->added) {
		ret = opev_event_add_locked(ev);
		if (ret)
			return ret;
	}
	return opev_event_unpend_locked(ev);
}

/* @mod comes: its pending events' probes are registered, and armed if enabled. */
static void opev_module_coming(struct module *mod)
{
	struct opev_event *ev;
	int ret;

	mutex_lock(&opev_mutex);
	list_for_each_entry(ev, &opev_events, list) {
		if (!ev->pending || !opev_of_module(ev, mod))
			continue;
		if (opev_module_register(ev))
			continue;
		mutex_lock(opev_event_mutex);
		ret = opev_module_unpend_locked(ev);
		mutex_unlock(opev_event_mutex);
		if (ret && !ev->added) {
			pr_warn_ratelimited("event %s/%s stays pending: not added to the trace events (%d)\n",
					    ev->def.group, ev->def.event, ret);
			opev_event_unregister(ev);
			continue;
		}
		if (ret)
			pr_warn_ratelimited("event %s/%s not armed on %s's load (%d)\n",
					    ev->def.group, ev->def.event, mod->name, ret);
	}
	mutex_unlock(&opev_mutex);
}

/*
 * @mod goes: its events are pending again (first, so that enabling one
 * meanwhile arms nothing), and their probes are unregistered, in batches.
 */
static void opev_module_going(struct module *mod)
{
	struct opev_event *ev;
	struct opev_probes pr;
	unsigned int n = 0;
	bool batch;

	mutex_lock(&opev_mutex);
	list_for_each_entry(ev, &opev_events, list)
		n += !ev->pending && opev_of_module(ev, mod);
	batch = !opev_probes_alloc(&pr, n);
	mutex_lock(opev_event_mutex);
	list_for_each_entry(ev, &opev_events, list) {
		if (ev->pending || !opev_of_module(ev, mod))
			continue;
		ev->pending = true;
		ev->armed = false;
		if (batch)
			opev_probes_add(&pr, ev);
		else if (ev->is_marker)
			/* here: below, it would be one never registered too */
			opev_event_unregister(ev);
	}
	mutex_unlock(opev_event_mutex);
	if (batch) {
		opev_probes_unregister(&pr);
		opev_probes_free(&pr);
	} else {
		/*
		 * No memory for batches: one at a time (OPTPROBE_F_QUIET: the
		 * probes of those pending before were never registered).
		 */
		list_for_each_entry(ev, &opev_events, list)
			if (opev_of_module(ev, mod) && !ev->is_marker)
				opev_event_unregister(ev);
	}
	mutex_unlock(&opev_mutex);
}

static int opev_module_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	if (state == MODULE_STATE_COMING)
		opev_module_coming(data);
	else if (state == MODULE_STATE_GOING)
		opev_module_going(data);
	return NOTIFY_DONE;
}

static struct notifier_block opev_module_nb = {
	.notifier_call = opev_module_notify,
};

int opev_module_init(void)
{
	return register_module_notifier(&opev_module_nb);
}

void opev_module_exit(void)
{
	unregister_module_notifier(&opev_module_nb);
}
