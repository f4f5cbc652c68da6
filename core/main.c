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

#include "arch.h"
#include "internal.h"
#include "ksyms.h"

static int __init optprobe_init(void)
{
	int ret;

	ret = op_ksyms_init();
	if (ret)
		return ret;
	ret = op_blacklist_init();
	if (ret)
		return ret;
	ret = op_optimizer_init();
	if (ret)
		return ret;
	ret = op_arch_init();
	if (ret)
		goto out_optimizer;
	ret = op_module_init();
	if (ret)
		goto out_arch;
	ret = op_debugfs_init();
	if (ret)
		goto out_module;
	pr_info("loaded\n");
	return 0;

out_module:
	op_module_exit();
out_arch:
	op_arch_exit();
out_optimizer:
	op_optimizer_exit();
	return ret;
}

/* Probe modules hold references to optprobe: no probe is left here. */
static void __exit optprobe_exit(void)
{
	op_debugfs_exit();
	op_module_exit();
	op_arch_exit();
	op_ftrace_exit();
	op_optimizer_exit();
}

module_init(optprobe_init);
module_exit(optprobe_exit);

MODULE_DESCRIPTION("Jump-optimized dynamic probes");
MODULE_AUTHOR("The optprobe developers");
MODULE_LICENSE("GPL");
