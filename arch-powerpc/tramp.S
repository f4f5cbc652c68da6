/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared body of every detour (layout in site-arch.h).  A stub enters
 * it through its slot area's veneer: r1 = the stub's frame, a struct
 * pt_regs at OP_PPC_FRAME_REGS with r12, LR and CTR already in it;
 * r12 = CTR = op_ppc_detour_entry; LR = the stub's address of its site.
 * The body saves the rest as a program check from kernel mode would have
 * it, sets up optprobe's TOC pointer and hands the registers and the
 * stub's site to its C half (trap.c).
 *
 * The C half returns 0: every register but r1, r12 and CTR is loaded
 * from pt_regs, where handlers may have changed them, and the body
 * branches back into the stub through CTR, past the site's address; the
 * stub loads those three.  Or it returns non-zero: a handler moved the
 * instruction pointer.  The body then traps at op_ppc_detour_redirect,
 * where op_ppc_trap() has the kernel's interrupt return load every
 * register from pt_regs and resume at regs->nip: only an interrupt return
 * can set all of them and branch anywhere.
 *
 * r13 (the paca) is saved for handlers, never loaded: as on the kernel's
 * own interrupt return.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/interrupt.h>
#include <asm/ppc_asm.h>
#include <asm/ptrace.h>
#include <asm/reg.h>

#include "wrap-frame.h"

	.text
	/* the body loads it relative to r12, its own address */
	.balign	8
.Lregs_marker:
	.8byte	STACK_FRAME_REGS_MARKER
_GLOBAL(op_ppc_detour_entry)
	SAVE_GPR(0, r1)
	SAVE_GPRS(2, 11, r1)
	SAVE_GPRS(13, 31, r1)
	addi	r0,r1,INT_FRAME_SIZE
	std	r0,GPR1(r1)
	mfcr	r0
	std	r0,_CCR(r1)
	mfxer	r0
	std	r0,_XER(r1)
	/* as a program check for a trap shows it: SRR1 has its reason bit */
	mfmsr	r0
	oris	r0,r0,SRR1_PROGTRAP@h
	std	r0,_MSR(r1)
	li	r0,INTERRUPT_PROGRAM
	std	r0,_TRAP(r1)
	lbz	r0,PACAIRQSOFTMASK(r13)
	std	r0,SOFTE(r1)
	/* dar, dsisr and ppr unset, as a program check from kernel mode leaves them */
	li	r0,0
	std	r0,ORIG_GPR3(r1)
	std	r0,RESULT(r1)
	std	r0,STACK_REGS_AMR(r1)
	std	r0,STACK_REGS_IAMR(r1)
	/* a stack dump shows the probed code's registers, as for an interrupt */
	ld	r0,(.Lregs_marker - op_ppc_detour_entry)(r12)
	std	r0,OP_PPC_FRAME_REGS-16(r1)
	addis	r2,r12,(.TOC.-op_ppc_detour_entry)@ha
	addi	r2,r2,(.TOC.-op_ppc_detour_entry)@l
	/* non-volatile: kept across the call, and loaded from pt_regs after */
	mflr	r31
	addi	r3,r1,OP_PPC_FRAME_REGS
	mr	r4,r31
	bl	op_ppc_detour_pre
	cmpwi	r3,0			/* an int: its low word */
	bne-	.Lredirect
	/* back into the stub, past its site's address */
	addi	r0,r31,8
	mtctr	r0
	ld	r0,_LINK(r1)
	mtlr	r0
	ld	r0,_CCR(r1)
	mtcr	r0
	ld	r0,_XER(r1)
	mtxer	r0
	REST_GPR(0, r1)
	REST_GPRS(2, 11, r1)
	REST_GPRS(14, 31, r1)
	bctr
_ASM_NOKPROBE_SYMBOL(op_ppc_detour_entry)

	/* global for op_ppc_trap(); branched to by a local name, resolved here */
	.globl	op_ppc_detour_redirect
op_ppc_detour_redirect:
.Lredirect:
	trap
