// SPDX-License-Identifier: GPL-2.0
/* vm-run harness test: a module that fails to load. */
#include <linux/module.h>

static int __init harness_fail_init_init(void)
{
	return -EINVAL;
}

module_init(harness_fail_init_init);
MODULE_DESCRIPTION("vm-run harness test: a module that fails to load");
MODULE_LICENSE("GPL");
