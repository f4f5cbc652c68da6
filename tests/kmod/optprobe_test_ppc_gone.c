// SPDX-License-Identifier: GPL-2.0
/*
 * Jump-optimized probes on a powerpc64le module that goes away.
 * optprobe_test_ppc_gone.sh drives it through its "phase" parameter:
 *
 *   register	probes on both instructions of optprobe_target_ppc_gone()
 *		(one with a post handler) are registered, optimized, fired;
 *   (the script unloads optprobe_target_ppc_gone.ko)
 *   unloaded	the probes are gone and refuse enable/disable; unregistering
 *		them is safe.  One KTAP block, with what "register" saw.
 *
 * The script checks that debugfs "slots" is then what it was before
 * "register": the detours and their slot area were freed with the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "optprobe_target_ppc.h"
#include "optprobe_test.h"

#define SYMBOL		"optprobe_target_ppc_gone_fn"
#define NR_CALLS	5

static struct optprobe probes[2];
static const char * const names[2] = { "first", "second" };
static unsigned int pre_hits[2], post_hits;
static int reg_ret[2], modes[2];
static unsigned long wrong;
static bool registered[2];
static struct ktap t;

static int gone_pre(struct optprobe *p, struct pt_regs *regs)
{
	pre_hits[p - probes]++;
	return 0;
}

static void gone_post(struct optprobe *p, struct pt_regs *regs)
{
	post_hits++;
}

/* The target is reached by name: nothing holds its module in place. */
static void phase_register(void)
{
	const struct optprobe_target_ppc_gone *target;
	unsigned int i;

	test_probe_init(&probes[0], SYMBOL, 0, gone_pre, NULL, 0);
	test_probe_init(&probes[1], SYMBOL, 0, gone_pre, gone_post, 0);
	probes[1].offset = 4;
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		reg_ret[i] = optprobe_register(&probes[i]);
		registered[i] = !reg_ret[i];
	}
	optprobe_sync();
	for (i = 0; i < ARRAY_SIZE(probes); i++)
		modes[i] = optprobe_mode(&probes[i]);
	target = symbol_get(optprobe_target_ppc_gone);
	if (!target) {
		wrong = ~0UL;
		return;
	}
	for (i = 0; i < NR_CALLS; i++)
		wrong += target->fn(i, 0) != i * 43 + 12;
	symbol_put(optprobe_target_ppc_gone);
}

static void phase_unloaded(void)
{
	char name[TEST_NAME_LEN];
	unsigned int i;
	int en, dis;

	ktap_start(&t, 2 + 3 * ARRAY_SIZE(probes));
	ktap_check(&t, !wrong && pre_hits[0] == NR_CALLS && pre_hits[1] == NR_CALLS &&
		   post_hits == NR_CALLS, "fired_before_unload",
		   "%lu wrong results, %u %u pre and %u post hits for %u calls", wrong,
		   pre_hits[0], pre_hits[1], post_hits, NR_CALLS);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		ktap_check(&t, !reg_ret[i] && modes[i] == OPTPROBE_MODE_OPTIMIZED,
			   test_name(name, names[i], "optimized_before_unload"),
			   "register %d, mode %s", reg_ret[i], test_mode_name(modes[i]));
		ktap_check(&t, optprobe_mode(&probes[i]) == OPTPROBE_MODE_GONE,
			   test_name(name, names[i], "mode_is_gone"), "mode %s",
			   test_mode_name(optprobe_mode(&probes[i])));
	}
	en = optprobe_disable(&probes[0]);
	dis = optprobe_enable(&probes[1]);
	ktap_check(&t, en == -ENOENT && dis == -ENOENT, "disable_enable_gone_is_enoent",
		   "disable %d, enable %d", en, dis);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (registered[i])
			optprobe_unregister(&probes[i]);
		registered[i] = false;
		ktap_check(&t, optprobe_mode(&probes[i]) == OPTPROBE_MODE_DISABLED,
			   test_name(name, names[i], "unregisters"), "mode %s",
			   test_mode_name(optprobe_mode(&probes[i])));
	}
}

static int phase_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "register"))
		phase_register();
	else if (sysfs_streq(val, "unloaded"))
		phase_unloaded();
	else
		return -EINVAL;
	return 0;
}

static const struct kernel_param_ops phase_ops = {
	.set = phase_set,
};
module_param_cb(phase, &phase_ops, NULL, 0200);
MODULE_PARM_DESC(phase, "register, then unloaded: run that phase");

static int __init test_ppc_gone_init(void)
{
	return 0;
}

static void __exit test_ppc_gone_exit(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (registered[i])
			optprobe_unregister(&probes[i]);
}

module_init(test_ppc_gone_init);
module_exit(test_ppc_gone_exit);

MODULE_DESCRIPTION("optprobe test: optimized probes on a powerpc64le module that is unloaded");
MODULE_LICENSE("GPL");
