// SPDX-License-Identifier: GPL-2.0
/*
 * A module probed while it loads.  Its init calls a function of its core
 * text and one of its init text COMING_CALLS times each:
 *  - with self=1 (the default, as make check loads it), it first
 *    registers probes on both from its own init, and prints a KTAP block:
 *    they fire, and the one in init text is not jump-optimized (where
 *    init text is apart: ppc64le keeps a module's with its core text);
 *  - with self=0, optprobe_test_coming.ko's module notifier probes it at
 *    MODULE_STATE_COMING instead (optprobe_test_coming.sh loads it so);
 *  - with fail=1, its init fails after the calls.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "exports.h"
#include "optprobe_target_coming.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static bool self = true;
module_param(self, bool, 0444);
MODULE_PARM_DESC(self, "probe itself from its init and print a KTAP block");

static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "fail its init, after the calls");

noinline __noipa int optprobe_target_coming_fn(int x)
{
	return coming_core_result(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_coming_fn);

static noinline __noipa int __init optprobe_target_coming_init_fn(int x)
{
	return coming_init_result(x);
}

/* Each function COMING_CALLS times; how many results were wrong. */
static int __init coming_calls(void)
{
	int i, wrong = 0;

	for (i = 0; i < COMING_CALLS; i++) {
		wrong += optprobe_target_coming_fn(i) != coming_core_result(i);
		wrong += optprobe_target_coming_init_fn(i) != coming_init_result(i);
	}
	return wrong;
}

enum { SELF_CORE, SELF_INIT, NR_SELF };

static struct optprobe self_probes[NR_SELF];
static unsigned int self_hits[NR_SELF];
static bool core_registered;

static int self_pre(struct optprobe *p, struct pt_regs *regs)
{
	self_hits[p - self_probes]++;
	return 0;
}

/*
 * Probes on its own core function's entry and on the instruction after
 * its init function's entry (not an ftrace site: a jump could go there),
 * registered from its init, which is where a module can first do so.
 */
static void __init coming_self_test(void)
{
	enum op_reason reason = OP_R_NONE;
	int ret[NR_SELF], wrong, next_ret;
	struct ktap t;
	void *inside;

	test_probe_init(&self_probes[SELF_CORE], COMING_CORE_FN, 0, self_pre, NULL, 0);
	ret[SELF_CORE] = optprobe_register(&self_probes[SELF_CORE]);
	core_registered = !ret[SELF_CORE];
	next_ret = optprobe_next_insn((void *)test_entry_of(COMING_INIT_FN), &inside);
	test_probe_init(&self_probes[SELF_INIT], NULL, (unsigned long)inside, self_pre, NULL, 0);
	ret[SELF_INIT] = next_ret ?: optprobe_register(&self_probes[SELF_INIT]);
	wrong = coming_calls();
	if (!ret[SELF_INIT]) {
		reason = op_probe_reason(&self_probes[SELF_INIT]);
		/* its text goes after the init: gone then, unregistered now */
		optprobe_unregister(&self_probes[SELF_INIT]);
	}

	ktap_start(&t, 3);
	ktap_check(&t, !ret[SELF_CORE] && !ret[SELF_INIT], "registered_from_own_init",
		   "core text %d, init text %d", ret[SELF_CORE], ret[SELF_INIT]);
	ktap_check(&t, !wrong && self_hits[SELF_CORE] == COMING_CALLS &&
		   self_hits[SELF_INIT] == COMING_CALLS, "own_init_probes_fire",
		   "%u and %u hits for %u calls each, %d wrong results",
		   self_hits[SELF_CORE], self_hits[SELF_INIT], COMING_CALLS, wrong);
	if (within_module_init((unsigned long)inside, THIS_MODULE))
		ktap_check(&t, reason == OP_R_INIT_TEXT, "init_text_not_optimized",
			   "reason \"%s\"", op_reason_text(reason));
	else
		ktap_skip(&t, "init_text_not_optimized", "init text kept with the core text");
}

static int __init optprobe_target_coming_init(void)
{
	if (self)
		coming_self_test();
	else if (coming_calls())
		pr_warn("wrong results\n");
	if (!fail)
		return 0;
	if (core_registered)
		optprobe_unregister(&self_probes[SELF_CORE]);
	return -EINVAL;
}

static void __exit optprobe_target_coming_exit(void)
{
	if (core_registered)
		optprobe_unregister(&self_probes[SELF_CORE]);
}

module_init(optprobe_target_coming_init);
module_exit(optprobe_target_coming_exit);

MODULE_DESCRIPTION("optprobe test: a module probed while it loads, and by its own init");
MODULE_LICENSE("GPL");
