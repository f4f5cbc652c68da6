// SPDX-License-Identifier: GPL-2.0
/*
 * POWER10 functions for optprobe_test_ppc_opt to probe: prefixed (8-byte)
 * loads, stores and arithmetic, and pc-relative ones, each probed on the
 * prefixed instruction at its start.  Built with -mcpu=power10, so that
 * the assembler takes the ISA 3.1 forms; it loads on any CPU (its init
 * uses none of them), but its functions run only where the CPU has ISA
 * 3.1, which the test checks.
 *
 * The pc-relative operands are constants in the same section, which the
 * assembler resolves: this kernel's module loader knows no pc-relative
 * relocation.  Each function starts on a 64-byte boundary: a prefixed
 * instruction must not cross one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target_ppc.h"

asm(".pushsection .text\n"
	".macro TARGET name\n"
	"	.balign 64\n"
	"	.globl optprobe_target_p10_\\name\n"
	"	.type optprobe_target_p10_\\name, @function\n"
	"optprobe_target_p10_\\name:\n"
	".endm\n"
	".macro END name\n"
	"	.size optprobe_target_p10_\\name, . - optprobe_target_p10_\\name\n"
	".endm\n"
	/* 8LS and MLS forms, relative to a register */
	"	TARGET	pld\n"
	"	pld	%r3,8(%r3)\n"
	"	blr\n"
	"	END	pld\n"
	"	TARGET	plwz\n"
	"	plwz	%r3,4(%r3)\n"
	"	blr\n"
	"	END	plwz\n"
	"	TARGET	pstd\n"
	"	pstd	%r4,16(%r3)\n"
	"	ld	%r3,16(%r3)\n"
	"	blr\n"
	"	END	pstd\n"
	"	TARGET	paddi\n"
	"	paddi	%r3,%r3,0x12345678\n"
	"	blr\n"
	"	END	paddi\n"
	"	TARGET	pnop\n"
	"	pnop\n"
	"	addi	%r3,%r3,1\n"
	"	blr\n"
	"	END	pnop\n"
	/* relative to the instruction */
	"	TARGET	pld_pcrel\n"
	"	pld	%r3,1f@pcrel\n"
	"	add	%r3,%r3,%r4\n"
	"	blr\n"
	"	.balign	8\n"
	"1:	.quad	0x1122334455667788\n"
	"	END	pld_pcrel\n"
	"	TARGET	plwa_pcrel\n"
	"	plwa	%r3,1f@pcrel\n"
	"	add	%r3,%r3,%r4\n"
	"	blr\n"
	"	.balign	4\n"
	"1:	.long	0x87654321\n"
	"	END	plwa_pcrel\n"
	"	TARGET	pla\n"
	"	pla	%r3,1f@pcrel\n"
	"	ld	%r3,0(%r3)\n"
	"	blr\n"
	"	.balign	8\n"
	"1:	.quad	0x0123456789abcdef\n"
	"	END	pla\n"
	".popsection\n");

static int __init optprobe_target_p10_init(void)
{
	return 0;
}

static void __exit optprobe_target_p10_exit(void)
{
}

module_init(optprobe_target_p10_init);
module_exit(optprobe_target_p10_exit);

MODULE_DESCRIPTION("optprobe test: POWER10 prefixed and pc-relative instructions to probe");
MODULE_LICENSE("GPL");
