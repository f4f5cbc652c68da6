// SPDX-License-Identifier: GPL-2.0
/*
 * Functions in a module that optprobe_test_gone.sh unloads while probes
 * are registered on them, and loads again.  optprobe_test_gone.ko reaches
 * them only by name (symbol_get() and probes by symbol), so that nothing
 * holds this module in place.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target_gone.h"

noinline __noipa int optprobe_target_gone_fn(int x)
{
	return x * 41 + 11;
}
EXPORT_SYMBOL_GPL(optprobe_target_gone_fn);

static int __init optprobe_target_gone_init(void)
{
	return 0;
}

static void __exit optprobe_target_gone_exit(void)
{
}

module_init(optprobe_target_gone_init);
module_exit(optprobe_target_gone_exit);

MODULE_DESCRIPTION("optprobe test: functions in a module that goes away");
MODULE_LICENSE("GPL");
