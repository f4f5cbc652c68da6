// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on the markers of a module that is not loaded yet, and that goes
 * away: optprobe_test_marker_late.sh unloads optprobe_target_marker_late.ko
 * (make check loaded it) and writes this module's "phase":
 *  - "arm": probes on its markers tml_init (in its init function),
 *    tml_core (in core text), tml_both (a site in each), one more on
 *    tml_core registered disabled, and one registered and unregistered
 *    again: all pending;
 *  - the script loads the module; "loaded": the probes were armed before
 *    its init ran (optimized, but in init text, a breakpoint there as
 *    every probe's; each fired during it, exactly), the one unregistered
 *    while pending never ran, tml_init's is gone with the init text (or
 *    stays where the init text is kept with the core text, as on
 *    ppc64le), tml_both's stays on its core site, and all fire on;
 *  - the script unloads the module; "unloaded": all are gone, refuse
 *    enable and disable, and unregister; a probe registered again on
 *    tml_core is pending again;
 *  - the script loads the module once more; "reloaded": that probe fired
 *    during the init, and unregisters.
 * One KTAP block, printed over the phases.  core_hits is the hits of the
 * probes on tml_core once "loaded" is done, for the script's look at debugfs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>

#include <optprobe-marker.h>

#include "optprobe_target_marker_late.h"
#include "optprobe_test.h"

#define STR_MAX		32
/* the calls "loaded" makes to the core function */
#define LATE_CALLS	4

enum { L_INIT, L_CORE, L_BOTH, L_DIS, L_DROP, NR_LATE };

struct late_probe {
	struct optprobe_marker_probe mp;
	bool registered;
	unsigned int calls;
	unsigned int at_live;		/* calls when the module went live */
	unsigned int where[3];		/* tml_both: calls per site */
	u64 args[2];
	unsigned long ip;
	char str[STR_MAX];
};

static void late_handler(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			 const u64 *args);

#define LATE(marker, fmt, fl) {							\
	.mp = { .module = TML_MODULE, .name = #marker, .format = fmt,		\
		.handler = late_handler, .flags = fl } }

static struct late_probe lp[NR_LATE] = {
	[L_INIT] = LATE(tml_init, TML_INIT_FMT, 0),
	[L_CORE] = LATE(tml_core, TML_CORE_FMT, 0),
	[L_BOTH] = LATE(tml_both, TML_BOTH_FMT, 0),
	[L_DIS] = LATE(tml_core, TML_CORE_FMT, OPTPROBE_F_DISABLED),
	[L_DROP] = LATE(tml_core, TML_CORE_FMT, 0),
};

static struct ktap t;
static bool armed, coming_seen, init_ip_in_module, init_apart;
static enum optprobe_mode mode_at_coming[NR_LATE];
static unsigned int core_hits;
module_param(core_hits, uint, 0444);
MODULE_PARM_DESC(core_hits, "hits of the two probes on tml_core, once \"loaded\" is done");

static void late_handler(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			 const u64 *args)
{
	struct late_probe *p = container_of(mp, struct late_probe, mp);

	p->calls++;
	p->ip = instruction_pointer(regs);
	p->args[0] = args[0];
	if (p == &lp[L_INIT] && args[1]) {
		strscpy(p->str, (const char *)(unsigned long)args[1], sizeof(p->str));
	} else if (p == &lp[L_BOTH]) {
		p->args[1] = args[1];
		if (args[0] < ARRAY_SIZE(p->where))
			p->where[args[0]]++;
	}
}

static int late_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	int i;

	if (strcmp(mod->name, TML_MODULE) || !armed)
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING) {
		/*
		 * optprobe's notifier, registered before this one with the
		 * same priority, has read the module's markers and armed
		 * the probes waiting for them
		 */
		for (i = 0; i < NR_LATE; i++)
			mode_at_coming[i] = optprobe_marker_mode(&lp[i].mp);
		coming_seen = true;
	} else if (state == MODULE_STATE_LIVE) {
		/* its init is done, its init text not freed yet */
		for (i = 0; i < NR_LATE; i++)
			lp[i].at_live = lp[i].calls;
		init_ip_in_module = within_module(lp[L_INIT].ip, mod);
		init_apart = within_module_init(lp[L_INIT].ip, mod);
		armed = false;
	}
	return NOTIFY_DONE;
}

static struct notifier_block late_nb = {
	.notifier_call = late_notify,
};

/* A marker with a site in init text, as it came: a breakpoint there, if that text is apart. */
static bool init_site_mode(enum optprobe_mode mode)
{
	if (!init_apart)
		return mode == OPTPROBE_MODE_OPTIMIZED;
	return mode == OPTPROBE_MODE_TRAP || mode == OPTPROBE_MODE_BOOSTED;
}

static const char *mode_of(int i)
{
	return test_mode_name(optprobe_marker_mode(&lp[i].mp));
}

static bool mode_is(int i, enum optprobe_mode mode)
{
	return optprobe_marker_mode(&lp[i].mp) == mode;
}

#define NR_ARM		3
#define NR_LOADED	11
#define NR_UNLOADED	4
#define NR_RELOADED	1

static void phase_arm(void)
{
	int ret[NR_LATE], dup, i;
	bool all = true;

	ktap_start(&t, NR_ARM + NR_LOADED + NR_UNLOADED + NR_RELOADED);
	armed = true;
	for (i = 0; i < NR_LATE; i++) {
		ret[i] = optprobe_marker_register(&lp[i].mp);
		lp[i].registered = !ret[i];
		all &= !ret[i];
	}
	ktap_check(&t, all && mode_is(L_INIT, OPTPROBE_MODE_PENDING) &&
		   mode_is(L_CORE, OPTPROBE_MODE_PENDING) &&
		   mode_is(L_BOTH, OPTPROBE_MODE_PENDING) &&
		   mode_is(L_DIS, OPTPROBE_MODE_PENDING) &&
		   !optprobe_marker_hits(&lp[L_CORE].mp), "registered_pending",
		   "register %d %d %d %d %d; modes %s %s %s %s, %lu hits", ret[L_INIT],
		   ret[L_CORE], ret[L_BOTH], ret[L_DIS], ret[L_DROP], mode_of(L_INIT),
		   mode_of(L_CORE), mode_of(L_BOTH), mode_of(L_DIS),
		   optprobe_marker_hits(&lp[L_CORE].mp));

	dup = optprobe_marker_register(&lp[L_CORE].mp);
	if (!dup)
		optprobe_marker_unregister(&lp[L_CORE].mp);
	ktap_check(&t, dup == -EEXIST && mode_is(L_CORE, OPTPROBE_MODE_PENDING),
		   "pending_registered_twice_eexist", "returned %d, mode %s", dup,
		   mode_of(L_CORE));

	if (lp[L_DROP].registered)
		optprobe_marker_unregister(&lp[L_DROP].mp);
	lp[L_DROP].registered = false;
	ktap_check(&t, mode_is(L_DROP, OPTPROBE_MODE_DISABLED),
		   "pending_probe_unregistered", "mode %s", mode_of(L_DROP));
}

/* Call the late module's core function @n times; -1 if it is not loaded. */
static int call_core(int n)
{
	int (*fn)(int x) = symbol_get(optprobe_target_marker_late_fn);
	int i, wrong = 0;

	if (!fn)
		return -1;
	for (i = 0; i < n; i++)
		wrong += fn(100 + i) != (100 + i) * 3 + 1;
	symbol_put(optprobe_target_marker_late_fn);
	return wrong;
}

static void phase_loaded(void)
{
	struct late_probe *init = &lp[L_INIT], *core = &lp[L_CORE], *both = &lp[L_BOTH];
	struct late_probe *dis = &lp[L_DIS];
	unsigned long hits[NR_LATE];
	int en, wrong, i;
	bool missed = false;

	ktap_check(&t, coming_seen && !armed, "module_came_and_went_live",
		   "coming %d, live %d", coming_seen, !armed);
	ktap_check(&t, init->at_live == 1 && init->args[0] == (u64)(s64)TML_SEED &&
		   !strcmp(init->str, TML_MODULE) && init_ip_in_module,
		   "init_marker_fired_once_during_init",
		   "%u runs; arguments %lld \"%s\" (%d \"%s\" expected); at %lx, %s the module",
		   init->at_live, init->args[0], init->str, TML_SEED, TML_MODULE, init->ip,
		   init_ip_in_module ? "in" : "not in");
	ktap_check(&t, core->at_live == TML_INIT_CALLS && core->args[0] == TML_INIT_CALLS - 1 &&
		   both->where[TML_BOTH_INIT] == 1 && both->where[TML_BOTH_CORE] == TML_INIT_CALLS,
		   "core_markers_fired_during_init",
		   "tml_core: %u runs (%u expected), last argument %lld; tml_both: %u and %u runs at its init and core sites (1 and %u expected)",
		   core->at_live, TML_INIT_CALLS, core->args[0], both->where[TML_BOTH_INIT],
		   both->where[TML_BOTH_CORE], TML_INIT_CALLS);
	/* init text is never jump-optimized: it runs once (a breakpoint there) */
	ktap_check(&t, init_site_mode(mode_at_coming[L_INIT]) &&
		   mode_at_coming[L_CORE] == OPTPROBE_MODE_OPTIMIZED &&
		   init_site_mode(mode_at_coming[L_BOTH]) &&
		   mode_at_coming[L_DIS] == OPTPROBE_MODE_DISABLED,
		   "armed_before_init_init_site_breakpoint",
		   "modes when the module came: %s %s %s %s",
		   test_mode_name(mode_at_coming[L_INIT]), test_mode_name(mode_at_coming[L_CORE]),
		   test_mode_name(mode_at_coming[L_BOTH]), test_mode_name(mode_at_coming[L_DIS]));
	if (init_apart)
		ktap_check(&t, mode_is(L_INIT, OPTPROBE_MODE_GONE), "init_marker_gone_after_init",
			   "mode %s", mode_of(L_INIT));
	else
		ktap_check(&t, mode_is(L_INIT, OPTPROBE_MODE_OPTIMIZED),
			   "init_marker_kept_with_core_text", "mode %s", mode_of(L_INIT));
	ktap_check(&t, mode_is(L_BOTH, OPTPROBE_MODE_OPTIMIZED) &&
		   mode_is(L_CORE, OPTPROBE_MODE_OPTIMIZED),
		   "core_markers_optimized", "tml_both %s, tml_core %s", mode_of(L_BOTH),
		   mode_of(L_CORE));
	ktap_check(&t, mode_is(L_DIS, OPTPROBE_MODE_DISABLED) && !dis->calls,
		   "disabled_pending_probe_came_disabled", "mode %s, %u runs", mode_of(L_DIS),
		   dis->calls);

	en = optprobe_marker_enable(&dis->mp);
	ktap_check(&t, !en && mode_is(L_DIS, OPTPROBE_MODE_OPTIMIZED), "enabled_after_load",
		   "enable %d, mode %s", en, mode_of(L_DIS));

	wrong = call_core(LATE_CALLS);
	ktap_check(&t, !wrong && core->calls == TML_INIT_CALLS + LATE_CALLS &&
		   core->args[0] == 100 + LATE_CALLS - 1 && dis->calls == LATE_CALLS &&
		   both->where[TML_BOTH_CORE] == TML_INIT_CALLS + LATE_CALLS &&
		   both->where[TML_BOTH_INIT] == 1 && init->calls == 1 && !lp[L_DROP].calls,
		   "probes_fire_on_after_load",
		   "%d wrong; runs: tml_core %u, last argument %lld, disabled one %u, tml_both %u and %u, tml_init %u, unregistered one %u",
		   wrong, core->calls, core->args[0], dis->calls, both->where[TML_BOTH_INIT],
		   both->where[TML_BOTH_CORE], init->calls, lp[L_DROP].calls);

	for (i = 0; i < NR_LATE; i++) {
		hits[i] = lp[i].registered ? optprobe_marker_hits(&lp[i].mp) : 0;
		missed |= lp[i].mp.nmissed;
	}
	ktap_check(&t, hits[L_CORE] == core->calls && hits[L_DIS] == dis->calls && !missed,
		   "hits_count_handler_runs",
		   "tml_core %lu hits, %u runs; disabled one %lu, %u; missed %d",
		   hits[L_CORE], core->calls, hits[L_DIS], dis->calls, missed);
	ktap_check(&t, hits[L_INIT] == init->calls && hits[L_BOTH] == both->calls,
		   "hits_count_runs_at_init_sites", "tml_init %lu hits, %u runs; tml_both %lu, %u",
		   hits[L_INIT], init->calls, hits[L_BOTH], both->calls);
	core_hits = hits[L_CORE] + hits[L_DIS];
}

static void phase_unloaded(void)
{
	int en, dis, ret, i;
	bool unregistered = true;

	ktap_check(&t, mode_is(L_INIT, OPTPROBE_MODE_GONE) &&
		   mode_is(L_CORE, OPTPROBE_MODE_GONE) && mode_is(L_BOTH, OPTPROBE_MODE_GONE) &&
		   mode_is(L_DIS, OPTPROBE_MODE_GONE), "all_gone_after_unload",
		   "modes %s %s %s %s", mode_of(L_INIT), mode_of(L_CORE), mode_of(L_BOTH),
		   mode_of(L_DIS));
	dis = optprobe_marker_disable(&lp[L_CORE].mp);
	en = optprobe_marker_enable(&lp[L_DIS].mp);
	ktap_check(&t, dis == -ENOENT && en == -ENOENT, "gone_refuse_enable_disable",
		   "disable %d, enable %d", dis, en);
	for (i = 0; i < NR_LATE; i++) {
		if (lp[i].registered)
			optprobe_marker_unregister(&lp[i].mp);
		lp[i].registered = false;
		unregistered &= mode_is(i, OPTPROBE_MODE_DISABLED);
	}
	ktap_check(&t, unregistered, "gone_probes_unregister", "modes %s %s %s %s",
		   mode_of(L_INIT), mode_of(L_CORE), mode_of(L_BOTH), mode_of(L_DIS));

	lp[L_CORE].calls = 0;
	lp[L_CORE].at_live = 0;
	armed = true;
	ret = optprobe_marker_register(&lp[L_CORE].mp);
	lp[L_CORE].registered = !ret;
	ktap_check(&t, !ret && mode_is(L_CORE, OPTPROBE_MODE_PENDING),
		   "registered_again_pending", "register %d, mode %s", ret, mode_of(L_CORE));
}

static void phase_reloaded(void)
{
	struct late_probe *core = &lp[L_CORE];

	ktap_check(&t, core->at_live == TML_INIT_CALLS && core->calls == TML_INIT_CALLS &&
		   mode_is(L_CORE, OPTPROBE_MODE_OPTIMIZED) &&
		   optprobe_marker_hits(&core->mp) == TML_INIT_CALLS,
		   "pending_again_fires_in_next_load",
		   "%u runs by its init, %u in all (%u expected), %lu hits, mode %s",
		   core->at_live, core->calls, TML_INIT_CALLS, optprobe_marker_hits(&core->mp),
		   mode_of(L_CORE));
	if (core->registered)
		optprobe_marker_unregister(&core->mp);
	core->registered = false;
}

static int phase_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "arm"))
		phase_arm();
	else if (sysfs_streq(val, "loaded"))
		phase_loaded();
	else if (sysfs_streq(val, "unloaded"))
		phase_unloaded();
	else if (sysfs_streq(val, "reloaded"))
		phase_reloaded();
	else
		return -EINVAL;
	return 0;
}

static const struct kernel_param_ops phase_ops = {
	.set = phase_set,
};
module_param_cb(phase, &phase_ops, NULL, 0200);
MODULE_PARM_DESC(phase, "arm, loaded, unloaded, reloaded: run that phase");

static int __init test_marker_late_init(void)
{
	return register_module_notifier(&late_nb);
}

static void __exit test_marker_late_exit(void)
{
	int i;

	unregister_module_notifier(&late_nb);
	for (i = 0; i < NR_LATE; i++)
		if (lp[i].registered)
			optprobe_marker_unregister(&lp[i].mp);
}

module_init(test_marker_late_init);
module_exit(test_marker_late_exit);

MODULE_DESCRIPTION("optprobe test: probes on the markers of a module loaded later, and unloaded");
MODULE_LICENSE("GPL");
