// SPDX-License-Identifier: GPL-2.0
/*
 * A function that no detour can reach: it sits in the middle of 66 MB of
 * module text, 33 MB of it on either side, and a "b" reaches 32 MB.  The
 * padding is never run.  The linker puts NOBITS sections (zero-filled at
 * load, no room in the .ko) after the others, so only the padding above
 * the function can be NOBITS: the one below takes 33 MB of zeros in the
 * .ko.  optprobe_test_ppc_opt probes the function: it must stay a trap,
 * saying why.
 *
 * No init or exit function: they would call _mcount, through a branch
 * stub that may then be out of their reach.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target_ppc.h"

asm(".pushsection .text.optprobe_far_below,\"ax\",@progbits\n"
	"	.globl	optprobe_target_ppc_far_start\n"
	"optprobe_target_ppc_far_start:\n"
	"	.space	33 << 20\n"
	".popsection\n"
	".pushsection .text.optprobe_far,\"ax\",@progbits\n"
	"	.balign	16\n"
	"	.globl	optprobe_target_ppc_far_fn\n"
	"	.type	optprobe_target_ppc_far_fn, @function\n"
	"optprobe_target_ppc_far_fn:\n"
	"	addi	%r3,%r3,9\n"
	"	add	%r3,%r3,%r4\n"
	"	blr\n"
	"	.size	optprobe_target_ppc_far_fn, . - optprobe_target_ppc_far_fn\n"
	".popsection\n"
	".pushsection .optprobe_far_above,\"ax\",@nobits\n"
	"	.space	33 << 20\n"
	"	.globl	optprobe_target_ppc_far_end\n"
	"optprobe_target_ppc_far_end:\n"
	".popsection\n");

const struct optprobe_target_ppc_far optprobe_target_ppc_far = {
	.fn = optprobe_target_ppc_far_fn,
	.text_start = optprobe_target_ppc_far_start,
	.text_end = optprobe_target_ppc_far_end,
};
EXPORT_SYMBOL_GPL(optprobe_target_ppc_far);

MODULE_DESCRIPTION("optprobe test: a function out of branch range of any memory");
MODULE_LICENSE("GPL");
