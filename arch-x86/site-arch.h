/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86_64 backend keeps per site (struct op_site.arch).
 *
 * A probed instruction is either emulated in the int3 handler (relative
 * jumps, calls and returns, whose effect depends on where they run) or
 * copied into a slot, followed by an int3, and run out of line.
 */
#ifndef OPTPROBE_SITE_ARCH_H
#define OPTPROBE_SITE_ARCH_H

#include <linux/types.h>
#include <asm/insn.h>

/* An instruction (at most 15 bytes) and the int3 after it. */
#define OP_ARCH_SLOT_SIZE	32

enum op_x86_emulation {
	OP_X86_OUT_OF_LINE,
	OP_X86_JMP,		/* jmp rel8/rel32 */
	OP_X86_JCC,		/* jcc rel8/rel32 */
	OP_X86_CALL,		/* call rel32 */
	OP_X86_RET,		/* ret */
};

struct op_arch_site {
	u8 insn[MAX_INSN_SIZE];		/* the original bytes */
	u8 len;
	u8 emulation;			/* enum op_x86_emulation */
	u8 cc;				/* condition code of a jcc */
	unsigned long target;		/* of a jmp, jcc or call */
};

struct op_site;

/* decode.c, for patch.c */
bool op_x86_may_arm(const struct op_site *site);

#endif /* OPTPROBE_SITE_ARCH_H */
