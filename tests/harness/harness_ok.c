// SPDX-License-Identifier: GPL-2.0
/* vm-run harness test: a module whose one KTAP case passes. */
#include <linux/module.h>

/* Set by the harness to check that module parameters reach the guest. */
static int answer;
module_param(answer, int, 0444);

static int __init harness_ok_init(void)
{
	pr_info("KTAP version 1\n1..1\nok 1 harness_ok\n");
	return 0;
}

static void __exit harness_ok_exit(void)
{
}

module_init(harness_ok_init);
module_exit(harness_ok_exit);
MODULE_DESCRIPTION("vm-run harness test: a module whose one KTAP case passes");
MODULE_LICENSE("GPL");
