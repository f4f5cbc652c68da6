// SPDX-License-Identifier: GPL-2.0
/* vm-run harness test: a module that loads but WARNs. */
#include <linux/module.h>

static int __init harness_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit harness_warn_exit(void)
{
}

module_init(harness_warn_init);
module_exit(harness_warn_exit);
MODULE_DESCRIPTION("vm-run harness test: a module that loads but WARNs");
MODULE_LICENSE("GPL");
