/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampolines a detour calls (see site-arch.h).  A detour enters one
 * with "bctrl": r12 = its entry, LR = the return address into the detour,
 * r1 = the detour's frame, a struct pt_regs at STACK_FRAME_OVERHEAD with
 * r12, LR and CTR already in it.  The trampoline saves the rest as a
 * program check from kernel mode would have it, sets up optprobe's TOC
 * pointer and hands the registers and the return address to its C half
 * (trap.c).
 *
 * The C half returns 0: every register but r1, r12, LR and CTR is loaded
 * from pt_regs, where handlers may have changed them, and the trampoline
 * returns to the detour, which loads those four.  Or it returns non-zero:
 * a handler moved the instruction pointer.  The trampoline then traps at
 * op_ppc_detour_redirect, where op_ppc_trap() has the kernel's interrupt
 * return load every register from pt_regs and resume at regs->nip: only
 * an interrupt return can set all of them and branch anywhere.
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

.macro OP_PPC_TRAMPOLINE name, handler
_GLOBAL(\name)
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
	li	r0,0
	std	r0,ORIG_GPR3(r1)
	std	r0,_DAR(r1)
	std	r0,_DSISR(r1)
	std	r0,RESULT(r1)
	std	r0,_PPR(r1)
	std	r0,STACK_REGS_AMR(r1)
	std	r0,STACK_REGS_IAMR(r1)
	/* a stack dump shows the probed code's registers, as for an interrupt */
	LOAD_REG_IMMEDIATE(r0, STACK_FRAME_REGS_MARKER)
	std	r0,STACK_FRAME_OVERHEAD-16(r1)
	addis	r2,r12,(.TOC.-\name)@ha
	addi	r2,r2,(.TOC.-\name)@l
	/* non-volatile: kept across the call, and loaded from pt_regs after */
	mflr	r31
	addi	r3,r1,STACK_FRAME_OVERHEAD
	mr	r4,r31
	bl	\handler
	cmpdi	r3,0
	bne-	.Lredirect
	mtlr	r31
	ld	r0,_CCR(r1)
	mtcr	r0
	ld	r0,_XER(r1)
	mtxer	r0
	REST_GPR(0, r1)
	REST_GPRS(2, 11, r1)
	REST_GPRS(14, 31, r1)
	blr
_ASM_NOKPROBE_SYMBOL(\name)
.endm

	.text
OP_PPC_TRAMPOLINE op_ppc_detour_pre_entry, op_ppc_detour_pre
OP_PPC_TRAMPOLINE op_ppc_detour_post_entry, op_ppc_detour_post

	/* global for op_ppc_trap(); branched to by a local name, resolved here */
	.globl	op_ppc_detour_redirect
op_ppc_detour_redirect:
.Lredirect:
	trap
