// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on a module that goes away: at load, probes are registered on
 * optprobe_target_gone.ko (its entry, inside it, and one disabled) and
 * fired.  optprobe_test_gone.sh then unloads that module and writes
 * "unloaded" to this module's "phase" parameter: the probes are gone and
 * refuse enable/disable; it loads the module again and writes "reloaded":
 * they stay gone and never fire on the new text, new probes there fire,
 * and unregistering the gone ones is safe.  One KTAP block, printed over
 * the two phases.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "optprobe_target_gone.h"
#include "optprobe_test.h"

#define SYMBOL		"optprobe_target_gone_fn"
#define NR_CALLS	3

enum { ENTRY, INSIDE, DISABLED, NR_GONE };

static const char * const gone_names[NR_GONE] = { "entry", "inside", "disabled" };
static struct optprobe gone[NR_GONE];
static int gone_ret[NR_GONE];
static unsigned int gone_hits[NR_GONE], fired[NR_GONE];
static bool registered[NR_GONE], ready;
static int init_wrong;
static struct ktap t;

static int gone_pre(struct optprobe *p, struct pt_regs *regs)
{
	gone_hits[p - gone]++;
	return 0;
}

/* Call the target module's function, reached by name; -1 if it is not loaded. */
static int call_target(int n)
{
	int (*fn)(int x) = symbol_get(optprobe_target_gone_fn);
	int i, wrong = 0;

	if (!fn)
		return -1;
	for (i = 0; i < n; i++)
		wrong += fn(i) != i * 41 + 11;
	symbol_put(optprobe_target_gone_fn);
	return wrong;
}

static void check_unloaded(void)
{
	struct optprobe p;
	int en, dis, ret, i;

	ktap_start(&t, 2 + NR_GONE + 3 + 4);
	ktap_check(&t, !gone_ret[ENTRY] && !gone_ret[INSIDE] && !gone_ret[DISABLED],
		   "registered_on_the_module", "register %d %d %d", gone_ret[ENTRY],
		   gone_ret[INSIDE], gone_ret[DISABLED]);
	ktap_check(&t, fired[ENTRY] == NR_CALLS && fired[INSIDE] == NR_CALLS &&
		   !fired[DISABLED] && !init_wrong, "fired_before_unload",
		   "%u %u %u hits for %u calls, %d wrong results", fired[ENTRY], fired[INSIDE],
		   fired[DISABLED], NR_CALLS, init_wrong);
	for (i = 0; i < NR_GONE; i++) {
		char name[TEST_NAME_LEN];

		ktap_check(&t, optprobe_mode(&gone[i]) == OPTPROBE_MODE_GONE,
			   test_name(name, gone_names[i], "mode_is_gone"), "mode %s",
			   test_mode_name(optprobe_mode(&gone[i])));
	}
	en = optprobe_enable(&gone[DISABLED]);
	dis = optprobe_disable(&gone[ENTRY]);
	ktap_check(&t, en == -ENOENT, "enable_gone_is_enoent", "returned %d", en);
	ktap_check(&t, dis == -ENOENT, "disable_gone_is_enoent", "returned %d", dis);
	test_probe_init(&p, SYMBOL, 0, gone_pre, NULL, 0);
	ret = optprobe_register(&p);
	if (!ret)
		optprobe_unregister(&p);
	ktap_check(&t, ret == -ENOENT, "symbol_of_unloaded_module_is_enoent", "returned %d", ret);
}

/* New probes on the module loaded again fire. */
static struct optprobe fresh[2];
static unsigned int fresh_hits[2];

static int fresh_pre(struct optprobe *p, struct pt_regs *regs)
{
	fresh_hits[p - fresh]++;
	return 0;
}

static void check_new_probes(void)
{
	int r0, r1 = -ENOENT, err, wrong;
	unsigned long inside;

	test_probe_init(&fresh[0], SYMBOL, 0, fresh_pre, NULL, 0);
	r0 = optprobe_register(&fresh[0]);
	inside = test_inside_of(SYMBOL, &err);
	test_probe_init(&fresh[1], NULL, inside, fresh_pre, NULL, OPTPROBE_F_NOOPT);
	if (inside)
		r1 = optprobe_register(&fresh[1]);
	wrong = call_target(NR_CALLS);
	if (!r0)
		optprobe_unregister(&fresh[0]);
	if (!r1)
		optprobe_unregister(&fresh[1]);
	ktap_check(&t, !r0 && !r1 && !wrong && fresh_hits[0] == NR_CALLS &&
		   fresh_hits[1] == NR_CALLS, "new_probes_on_reloaded_module_fire",
		   "register %d %d (inside at %pS): %u %u hits for %u calls, %d wrong results",
		   r0, r1, (void *)inside, fresh_hits[0], fresh_hits[1], NR_CALLS, wrong);
}

static void check_reloaded(void)
{
	bool still_gone = true;
	int wrong, i;

	for (i = 0; i < NR_GONE; i++)
		still_gone &= optprobe_mode(&gone[i]) == OPTPROBE_MODE_GONE;
	ktap_check(&t, still_gone, "stay_gone_after_reload", "modes %s %s %s",
		   test_mode_name(optprobe_mode(&gone[ENTRY])),
		   test_mode_name(optprobe_mode(&gone[INSIDE])),
		   test_mode_name(optprobe_mode(&gone[DISABLED])));
	memset(gone_hits, 0, sizeof(gone_hits));
	wrong = call_target(NR_CALLS);
	ktap_check(&t, !wrong && !gone_hits[ENTRY] && !gone_hits[INSIDE] && !gone_hits[DISABLED],
		   "gone_probes_do_not_fire_on_reloaded_module", "%d wrong results, %u %u %u hits",
		   wrong, gone_hits[ENTRY], gone_hits[INSIDE], gone_hits[DISABLED]);
	check_new_probes();
	for (i = 0; i < NR_GONE; i++) {
		if (registered[i])
			optprobe_unregister(&gone[i]);
		registered[i] = false;
	}
	ktap_check(&t, optprobe_mode(&gone[ENTRY]) == OPTPROBE_MODE_DISABLED &&
		   optprobe_mode(&gone[INSIDE]) == OPTPROBE_MODE_DISABLED &&
		   optprobe_mode(&gone[DISABLED]) == OPTPROBE_MODE_DISABLED,
		   "gone_probes_unregister", "modes %s %s %s after unregistering",
		   test_mode_name(optprobe_mode(&gone[ENTRY])),
		   test_mode_name(optprobe_mode(&gone[INSIDE])),
		   test_mode_name(optprobe_mode(&gone[DISABLED])));
}

static int phase_set(const char *val, const struct kernel_param *kp)
{
	if (!ready)
		return -EAGAIN;
	if (sysfs_streq(val, "unloaded"))
		check_unloaded();
	else if (sysfs_streq(val, "reloaded"))
		check_reloaded();
	else
		return -EINVAL;
	return 0;
}

static const struct kernel_param_ops phase_ops = {
	.set = phase_set,
};
module_param_cb(phase, &phase_ops, NULL, 0200);
MODULE_PARM_DESC(phase, "unloaded, then reloaded: run that phase's checks");

static int __init test_gone_init(void)
{
	int err, i;

	test_probe_init(&gone[ENTRY], SYMBOL, 0, gone_pre, NULL, 0);
	test_probe_init(&gone[INSIDE], NULL, test_inside_of(SYMBOL, &err), gone_pre, NULL,
			OPTPROBE_F_NOOPT);
	test_probe_init(&gone[DISABLED], SYMBOL, 0, gone_pre, NULL, OPTPROBE_F_DISABLED);
	for (i = 0; i < NR_GONE; i++) {
		gone_ret[i] = optprobe_register(&gone[i]);
		registered[i] = !gone_ret[i];
	}
	init_wrong = call_target(NR_CALLS);
	memcpy(fired, gone_hits, sizeof(fired));
	ready = true;
	return 0;
}

static void __exit test_gone_exit(void)
{
	int i;

	for (i = 0; i < NR_GONE; i++)
		if (registered[i])
			optprobe_unregister(&gone[i]);
}

module_init(test_gone_init);
module_exit(test_gone_exit);

MODULE_DESCRIPTION("optprobe test: probes on a module that is unloaded");
MODULE_LICENSE("GPL");
