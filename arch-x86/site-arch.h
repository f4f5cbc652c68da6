/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86_64 backend keeps per site (struct op_site.arch).
 *
 * A probed instruction is either emulated in the int3 handler (relative
 * jumps, calls and returns, whose effect depends on where they run) or
 * copied into a slot and run out of line.  The copy is followed by a jmp
 * back when it is boosted, else by an int3 (written over that jmp's first
 * byte) that brings the CPU back to the handler for the post handlers.
 *
 * A jump-optimized site replaces the bytes of one or more whole
 * instructions (the region) with a jmp to its detour:
 *
 *	detour:	push a struct pt_regs		op_x86_detour_head
 *		(ip: pushq $addr, an imm32: x86_64 kernel and module text
 *		lie in the top 2 GB)
 *		cld; clac (or a nop3)
 *		movabs $site, %rdi
 *		call op_x86_detour_pre		the pre handlers
 *		jnz op_x86_detour_redirect	if they moved ip
 *		pop them, sp last		op_x86_detour_tail
 *		<first instruction>		the body
 *		call op_x86_detour_post_entry	the post handlers, or a nop5
 *		<rest of the region>
 *		jmp  addr + region length	unless the region ends with a jmp,
 *						ret or call (op_x86_insn_relocate())
 */
#ifndef OPTPROBE_SITE_ARCH_H
#define OPTPROBE_SITE_ARCH_H

#include <linux/types.h>
#include <asm/text-patching.h>

#include "x86-insn.h"

/* An instruction (at most 15 bytes) and the jmp or int3 after it. */
#define OP_ARCH_SLOT_SIZE	32

/* The region: whole instructions covering a rel32 jmp (5 bytes). */
#define OP_X86_REGION_MAX	(JMP32_INSN_SIZE - 1 + OP_X86_MAX_INSN_LEN)
#define OP_ARCH_OPT_SPAN	OP_X86_REGION_MAX

/* A probe on a function's ENDBR64 goes after it (op_arch_probe_addr()). */
#define OP_ARCH_MOVES_FUNC_START	1

enum op_x86_emulation {
	OP_X86_OUT_OF_LINE,
	OP_X86_EMU_JMP,		/* jmp rel8/rel32 */
	OP_X86_EMU_JCC,		/* jcc rel8/rel32 */
	OP_X86_EMU_CALL,	/* call rel32 */
	OP_X86_EMU_RET,		/* ret */
};

struct op_arch_site {
	unsigned long target;		/* of a jmp, jcc or call */
	u8 insn[OP_X86_MAX_INSN_LEN];	/* the original bytes */
	u8 len;
	u8 emulation;			/* enum op_x86_emulation */
	u8 cc;				/* condition code of a jcc */
	bool boostable;			/* the slot's copy may jmp back */
	/* jump optimization */
	u8 region[OP_X86_REGION_MAX];	/* the original bytes the jmp replaces */
	u8 rlen;			/* their length; 0 before the first detour */
	bool to_detour;			/* int3 hits go to the detour */
};

#endif /* OPTPROBE_SITE_ARCH_H */
