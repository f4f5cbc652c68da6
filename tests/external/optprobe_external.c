// SPDX-License-Identifier: GPL-2.0
/*
 * An external probe module, built out of tree against <optprobe.h> and
 * optprobe.ko's Module.symvers: it must link against an optprobe export.
 */
#include <linux/module.h>
#include <optprobe.h>

static int __init optprobe_external_init(void)
{
	pr_info("KTAP version 1\n1..1\n");
	optprobe_sync();
	pr_info("ok 1 external_module_calls_optprobe_sync\n");
	return 0;
}

static void __exit optprobe_external_exit(void)
{
}

module_init(optprobe_external_init);
module_exit(optprobe_external_exit);

MODULE_DESCRIPTION("optprobe test: an external probe module");
MODULE_LICENSE("GPL");
