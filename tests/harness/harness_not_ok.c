// SPDX-License-Identifier: GPL-2.0
/* vm-run harness test: a module whose KTAP case fails. */
#include <linux/module.h>

static int __init harness_not_ok_init(void)
{
	pr_info("KTAP version 1\n1..1\nnot ok 1 harness_not_ok # on purpose\n");
	return 0;
}

static void __exit harness_not_ok_exit(void)
{
}

module_init(harness_not_ok_init);
module_exit(harness_not_ok_exit);
MODULE_DESCRIPTION("vm-run harness test: a module whose KTAP case fails");
MODULE_LICENSE("GPL");
