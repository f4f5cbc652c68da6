// SPDX-License-Identifier: GPL-2.0
/*
 * A powerpc64le function that optprobe_test_ppc_gone.sh unloads while
 * jump-optimized probes are on it.  optprobe_test_ppc_gone.ko reaches it
 * only by name (symbol_get() and probes by symbol), so that nothing holds
 * this module in place.  In assembly: no ftrace site, and "symbol + 0" and
 * "symbol + 4" are the two instructions the test probes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target_ppc.h"

asm(".pushsection .text\n"
	"	.balign	16\n"
	"	.globl	optprobe_target_ppc_gone_fn\n"
	"	.type	optprobe_target_ppc_gone_fn, @function\n"
	"optprobe_target_ppc_gone_fn:\n"
	"	mulli	%r3,%r3,43\n"
	"	addi	%r3,%r3,12\n"
	"	blr\n"
	"	.size	optprobe_target_ppc_gone_fn, . - optprobe_target_ppc_gone_fn\n"
	".popsection\n");

const struct optprobe_target_ppc_gone optprobe_target_ppc_gone = {
	.fn = optprobe_target_ppc_gone_fn,
};
EXPORT_SYMBOL_GPL(optprobe_target_ppc_gone);

static int __init optprobe_target_ppc_gone_init(void)
{
	return 0;
}

static void __exit optprobe_target_ppc_gone_exit(void)
{
}

module_init(optprobe_target_ppc_gone_init);
module_exit(optprobe_target_ppc_gone_exit);

MODULE_DESCRIPTION("optprobe test: a powerpc64le function in a module that goes away");
MODULE_LICENSE("GPL");
