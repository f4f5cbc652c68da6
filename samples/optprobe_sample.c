// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest optprobe client: it links against optprobe.ko's exports
 * and waits for optprobe's pending work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <optprobe.h>

static int __init optprobe_sample_init(void)
{
	optprobe_sync();
	pr_info("linked against optprobe\n");
	return 0;
}

static void __exit optprobe_sample_exit(void)
{
}

module_init(optprobe_sample_init);
module_exit(optprobe_sample_exit);

MODULE_DESCRIPTION("optprobe sample");
MODULE_LICENSE("GPL");
