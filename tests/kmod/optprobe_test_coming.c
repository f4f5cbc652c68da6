// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on a module that is loading, registered from a module notifier
 * at MODULE_STATE_COMING (before its init runs), as SystemTap arms them:
 * on optprobe_target_coming.ko's core function, on an instruction of its
 * init function, and a return probe on that.  Its init calls both.
 * optprobe_test_coming.sh writes "arm" to this module's "phase" before
 * each load of the target, then:
 *  - "loaded": the probes fired during the init; the two in init text
 *    went GONE when the module went live (its init text is freed; where
 *    it is kept with the core text, as on ppc64le, they stay armed), and
 *    a probe there from the notifier at MODULE_STATE_LIVE, before the
 *    text is freed, was refused with -EINVAL; the core one fires on; all
 *    unregister;
 *  - "failed" (loaded with fail=1): they fired during the init, the
 *    init failed and all three are GONE; unregistering them is safe.
 * One KTAP block, printed over the two phases.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>

#include "optprobe_target_coming.h"
#include "optprobe_test.h"

enum { CORE, INIT, NR_PROBES };

static struct optprobe probes[NR_PROBES];
static struct optretprobe rp;
static unsigned int hits[NR_PROBES], rp_hits, rp_wrong;
static int ret_p[NR_PROBES], ret_rp;
static bool armed, registered;
static bool init_apart;	/* the init function is in init text, freed once live */
static void *init_inside;	/* the init text probed */
static int ret_live;		/* registering there at MODULE_STATE_LIVE */
static struct ktap t;

static int coming_pre(struct optprobe *p, struct pt_regs *regs)
{
	hits[p - probes]++;
	return 0;
}

static int coming_entry(struct optretprobe *r, struct pt_regs *regs, void *data)
{
	*(int *)data = test_arg(regs, 0);
	return 0;
}

static void coming_ret(struct optretprobe *r, struct pt_regs *regs, void *data)
{
	rp_hits++;
	rp_wrong += (int)regs_return_value(regs) != coming_init_result(*(int *)data);
}

/* At MODULE_STATE_COMING of @mod, the target, when armed: its probes. */
static void coming_register(struct module *mod)
{
	unsigned long entry = test_entry_of(COMING_INIT_FN);
	void *inside = NULL;
	int i;

	memset(hits, 0, sizeof(hits));
	rp_hits = 0;
	rp_wrong = 0;
	test_probe_init(&probes[CORE], COMING_CORE_FN, 0, coming_pre, NULL, 0);
	ret_p[CORE] = optprobe_register(&probes[CORE]);
	ret_p[INIT] = entry ? optprobe_next_insn((void *)entry, &inside) : -ENOENT;
	init_apart = within_module_init((unsigned long)inside, mod);
	init_inside = inside;
	ret_live = 1;
	test_probe_init(&probes[INIT], NULL, (unsigned long)inside, coming_pre, NULL, 0);
	if (!ret_p[INIT])
		ret_p[INIT] = optprobe_register(&probes[INIT]);
	memset(&rp, 0, sizeof(rp));
	rp.symbol = COMING_INIT_FN;
	rp.entry_handler = coming_entry;
	rp.handler = coming_ret;
	rp.data_size = sizeof(int);
	ret_rp = optretprobe_register(&rp);
	registered = true;
	for (i = 0; i < NR_PROBES; i++)
		registered &= !ret_p[i];
	registered &= !ret_rp;
	if (!registered) {
		for (i = 0; i < NR_PROBES; i++)
			if (!ret_p[i])
				optprobe_unregister(&probes[i]);
		if (!ret_rp)
			optretprobe_unregister(&rp);
	}
}

static int coming_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;

	struct optprobe p;

	if (strcmp(mod->name, COMING_MODULE))
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING && armed) {
		armed = false;
		coming_register(mod);
	} else if (state == MODULE_STATE_LIVE && registered) {
		/* its init is done; its init text is still there, not for long */
		test_probe_init(&p, NULL, (unsigned long)init_inside, coming_pre, NULL, 0);
		ret_live = optprobe_register(&p);
		if (!ret_live)
			optprobe_unregister(&p);
	}
	return NOTIFY_DONE;
}

static struct notifier_block coming_nb = {
	.notifier_call = coming_notify,
};

static void coming_unregister(void)
{
	if (!registered)
		return;
	optprobe_unregister(&probes[CORE]);
	optprobe_unregister(&probes[INIT]);
	optretprobe_unregister(&rp);
	registered = false;
}

/* The checks both loads share: registered while coming, fired in the init */
static void check_coming(const char *load)
{
	char name[TEST_NAME_LEN];

	ktap_check(&t, registered, test_name(name, load, "registered_at_coming"),
		   "core %d, init %d, return %d", ret_p[CORE], ret_p[INIT], ret_rp);
	ktap_check(&t, hits[CORE] == COMING_CALLS && hits[INIT] == COMING_CALLS &&
		   rp_hits == COMING_CALLS && !rp_wrong,
		   test_name(name, load, "fired_during_init"),
		   "%u %u hits, %u returns (%u wrong) for %u calls each", hits[CORE],
		   hits[INIT], rp_hits, rp_wrong, COMING_CALLS);
}

static void check_loaded(void)
{
	int (*fn)(int x) = symbol_get(optprobe_target_coming_fn);
	enum optprobe_mode core, init, ret;
	int i, wrong = 0;

	ktap_start(&t, 9);
	check_coming("loaded");
	init = optprobe_mode(&probes[INIT]);
	ret = optretprobe_mode(&rp);
	if (init_apart) {
		ktap_check(&t, init == OPTPROBE_MODE_GONE && ret == OPTPROBE_MODE_GONE,
			   "init_text_probes_gone_once_live", "modes %s, %s",
			   test_mode_name(init), test_mode_name(ret));
		ktap_check(&t, ret_live == -EINVAL, "init_text_refused_once_live",
			   "returned %d", ret_live);
	} else {
		ktap_check(&t, init != OPTPROBE_MODE_GONE && ret != OPTPROBE_MODE_GONE,
			   "init_text_kept_probes_stay", "modes %s, %s",
			   test_mode_name(init), test_mode_name(ret));
		ktap_check(&t, !ret_live, "init_text_kept_taken_once_live",
			   "returned %d", ret_live);
	}
	core = optprobe_mode(&probes[CORE]);
	for (i = 0; fn && i < COMING_CALLS; i++)
		wrong += fn(i) != coming_core_result(i);
	if (fn)
		symbol_put(optprobe_target_coming_fn);
	ktap_check(&t, fn && !wrong && hits[CORE] == 2 * COMING_CALLS &&
		   core != OPTPROBE_MODE_GONE, "core_text_probe_fires_on",
		   "%u hits for %u calls, %d wrong, mode %s", hits[CORE],
		   2 * COMING_CALLS, wrong, test_mode_name(core));
	coming_unregister();
}

static void check_failed(void)
{
	enum optprobe_mode core, init, ret;

	check_coming("failed");
	core = optprobe_mode(&probes[CORE]);
	init = optprobe_mode(&probes[INIT]);
	ret = optretprobe_mode(&rp);
	ktap_check(&t, core == OPTPROBE_MODE_GONE && init == OPTPROBE_MODE_GONE &&
		   ret == OPTPROBE_MODE_GONE, "all_gone_after_failed_init",
		   "modes %s, %s, %s", test_mode_name(core), test_mode_name(init),
		   test_mode_name(ret));
	coming_unregister();
	ktap_check(&t, optprobe_mode(&probes[CORE]) == OPTPROBE_MODE_DISABLED &&
		   optretprobe_mode(&rp) == OPTPROBE_MODE_DISABLED,
		   "gone_probes_unregister", "modes %s, %s after unregistering",
		   test_mode_name(optprobe_mode(&probes[CORE])),
		   test_mode_name(optretprobe_mode(&rp)));
}

static int phase_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "arm"))
		armed = true;
	else if (sysfs_streq(val, "loaded"))
		check_loaded();
	else if (sysfs_streq(val, "failed"))
		check_failed();
	else
		return -EINVAL;
	return 0;
}

static const struct kernel_param_ops phase_ops = {
	.set = phase_set,
};
module_param_cb(phase, &phase_ops, NULL, 0200);
MODULE_PARM_DESC(phase, "arm (before a load), loaded, failed: run that phase");

static int __init test_coming_init(void)
{
	return register_module_notifier(&coming_nb);
}

static void __exit test_coming_exit(void)
{
	unregister_module_notifier(&coming_nb);
	coming_unregister();
}

module_init(test_coming_init);
module_exit(test_coming_exit);

MODULE_DESCRIPTION("optprobe test: probes on a module registered as it comes");
MODULE_LICENSE("GPL");
