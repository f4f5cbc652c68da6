/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the powerpc64le backend keeps per site (struct op_site.arch).
 *
 * A hit first offers the original instruction to the kernel's
 * emulate_step(); what it declines (some loads and stores, moves from and
 * to special registers, ...) runs out of line: from the site's slot, or,
 * in module text, from the copy in its stub (below), written when the
 * site is created if the instruction can run from a detour at all; such
 * a site has no slot.
 *
 * A jump-optimized site replaces its one instruction with a "b" to its
 * detour, within +-32 MB (OP_PPC_REACH).  A detour is split in three, so
 * that many fit in the little space there is near kernel text (slots of
 * the kernel's own detour cache, 436 bytes each):
 *
 *  - a stub per site, in a slot area in reach of the site, 16-byte aligned
 *    (so the copy, at +40, never makes a prefixed instruction cross 64
 *    bytes): 48 bytes, 64 with a prefixed instruction
 *
 *	+0   stdu  r1,-STACK_INT_FRAME_SIZE(r1)	below the red zone
 *	+4   std   r12,GPR12(r1)
 *	+8   mflr  r12
 *	+12  bl    veneer
 *	+16  .8byte site			the C half reads it at LR
 *	+24  ld    r12,_CTR(r1)			the body returns here
 *	+28  mtctr r12
 *	+32  ld    r12,GPR12(r1)
 *	+36  ld    r1,GPR1(r1)
 *	+40  <the instruction>			pc-relative operands re-targeted
 *	+44  b addr + len | trap		the post switch: trap for post handlers
 *
 *  - a veneer per slot area, at its start (10 words), shared by the stubs
 *    there, which reach it with a "bl":
 *
 *	std   r12,_LINK(r1);  mfctr r12;  std r12,_CTR(r1)
 *	<r12 = op_ppc_detour_entry, 2 to 5 words>;  mtctr r12;  bctr;  traps
 *
 *  - the body, op_ppc_detour_entry in tramp.S, in optprobe's module text,
 *    out of a branch's reach from kernel text: it saves the other
 *    registers into the struct pt_regs the frame holds, calls the pre
 *    handlers (trap.c), restores all registers but r1, r12 and CTR, and
 *    branches back to stub + 24 through CTR, where the stub restores
 *    those three.  Handlers may change any of them.
 *
 * Post handlers run from the trap at the post switch, as on the trap path
 * (the trap after a slot's copy): the same registers, one word to switch
 * them on and off, nothing more per stub.
 */
#ifndef OPTPROBE_SITE_ARCH_H
#define OPTPROBE_SITE_ARCH_H

#include <linux/types.h>
#include <asm/inst.h>
#include <asm/reg.h>

/* Where a stub holds its copy of the instruction (the layout above). */
#define OP_PPC_STUB_COPY	40

/*
 * A slot: the copied instruction (4 or 8 bytes) and the trap after it.
 * Slots are 16-byte aligned, so a prefixed copy never crosses a 64-byte
 * boundary, which the ISA forbids.
 */
#define OP_ARCH_SLOT_SIZE	16

/* A branch replaces the probed instruction only. */
#define OP_ARCH_OPT_SPAN	1

/* A probe on a function's global entry stays there (op_arch_probe_addr()). */
#define OP_ARCH_MOVES_FUNC_START	0

struct op_arch_site {
	/* the original: one word, or a prefix and its suffix (ppc_inst_len()) */
	ppc_inst_t insn;
	/* jump optimization */
	u8 post_switch;		/* its offset in the stub; 0 until the stub is written */
	bool to_detour;		/* trap hits go to the detour */
};

#endif /* OPTPROBE_SITE_ARCH_H */
