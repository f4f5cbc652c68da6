// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe: jump-optimized dynamic probes for the Linux kernel.
 *
 * Module load and unload.  Loading resolves every kernel symbol optprobe
 * needs before anything else, so that a kernel that lacks one is refused
 * at load rather than failing later on a probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "internal.h"
#include "ksyms.h"

static int __init optprobe_init(void)
{
	int ret;

	ret = op_ksyms_init();
	if (ret)
		return ret;
	ret = op_optimizer_init();
	if (ret)
		return ret;
	ret = op_debugfs_init();
	if (ret)
		goto out_optimizer;
	pr_info("loaded\n");
	return 0;

out_optimizer:
	op_optimizer_exit();
	return ret;
}

static void __exit optprobe_exit(void)
{
	op_debugfs_exit();
	op_optimizer_exit();
}

module_init(optprobe_init);
module_exit(optprobe_exit);

MODULE_DESCRIPTION("Jump-optimized dynamic probes");
MODULE_AUTHOR("The optprobe developers");
MODULE_LICENSE("GPL");
