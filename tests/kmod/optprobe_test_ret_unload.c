// SPDX-License-Identifier: GPL-2.0
/*
 * A return probe unregistered with a call still in flight through it, and
 * that call outliving this module: optprobe_target_ret.ko's kthread calls
 * optprobe_target_ret_sleep_unload() and waits inside; this module
 * registers a return probe on it, sees the entry, and unregisters it.
 * optprobe_unload.sh then unloads every module that uses optprobe (this
 * one too: if a handler of its probe ran after unregistering, it would run
 * in freed module text), checks that optprobe itself refuses to go while
 * the call is in flight, lets the call return, and unloads optprobe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target_ret.h"
#include "optprobe_test.h"

static struct ktap t;
static atomic_t entries, runs;

static int unload_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	atomic_inc(&entries);
	return 0;
}

static void unload_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	atomic_inc(&runs);
}

static struct optretprobe rp = {
	.symbol = "optprobe_target_ret_sleep_unload",
	.entry_handler = unload_entry,
	.handler = unload_ret,
};

static int __init optprobe_test_ret_unload_init(void)
{
	bool inside;
	int ret;

	ktap_start(&t, 3);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "register", "register: %d", ret)) {
		ktap_skip(&t, "call_followed_inside", "not registered");
		ktap_skip(&t, "unregistered_with_call_in_flight", "not registered");
		return 0;
	}
	inside = optprobe_target_ret_unload_start();
	ktap_check(&t, inside && atomic_read(&entries) == 1, "call_followed_inside",
		   "inside: %d, %d entries", inside, atomic_read(&entries));
	optretprobe_unregister(&rp);
	ktap_check(&t, !atomic_read(&runs) && !rp.nmissed, "unregistered_with_call_in_flight",
		   "%d handler runs, %lu missed", atomic_read(&runs), rp.nmissed);
	return 0;
}

static void __exit optprobe_test_ret_unload_exit(void)
{
}

module_init(optprobe_test_ret_unload_init);
module_exit(optprobe_test_ret_unload_exit);
MODULE_DESCRIPTION("optprobe return probes: a call in flight outlives its probe and module");
MODULE_LICENSE("GPL");
