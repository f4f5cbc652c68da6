/* SPDX-License-Identifier: GPL-2.0 */
/*
 * op_ret_trampoline: where a call followed by a return probe returns to
 * first (see retprobe.c).  It starts with OP_PPC_RET_STUBS stubs, one
 * branch each to the common part; every instance of every return probe
 * owns one stub, and the probed function returns to its instance's, so
 * that the link register says which call returned.  Entered by the
 * function's "blr" with r1 the caller's stack pointer, r3 (and r4) the
 * return value, r2 the function's TOC pointer, LR the stub.
 *
 * The common part saves every register in a struct pt_regs in a frame of
 * its own below r1 (nothing below the caller's r1 is live once the call
 * has returned), sets optprobe's TOC pointer, and calls
 * op_ppc_ret_return(regs, stub), which runs the handler and returns the
 * real return address.  Then it loads what a return must leave as it was
 * (r0, r2-r12, CR, XER, CTR; r14-r31 are kept by the C call) from
 * pt_regs and returns there with LR set to it, as the function's own
 * "blr" would have left it.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/ppc_asm.h>
#include <asm/ptrace.h>

#include "ret-arch.h"
#include "wrap-frame.h"

	.text
_GLOBAL(op_ret_trampoline)
	.rept	OP_PPC_RET_STUBS
	b	.Lop_ret_common
	.endr
.Lop_ret_common:
	stdu	r1,-INT_FRAME_SIZE(r1)
	SAVE_GPR(0, r1)
	SAVE_GPRS(2, 31, r1)
	addi	r0,r1,INT_FRAME_SIZE
	std	r0,GPR1(r1)
	mfcr	r0
	std	r0,_CCR(r1)
	mfxer	r0
	std	r0,_XER(r1)
	mfctr	r0
	std	r0,_CTR(r1)
	/* kernel mode, as the handler's user_mode(regs) must say */
	mfmsr	r0
	std	r0,_MSR(r1)
	li	r0,0
	std	r0,_TRAP(r1)
	mflr	r4
	bcl	20,31,1f
1:	mflr	r12
	addis	r2,r12,(.TOC.-1b)@ha
	addi	r2,r2,(.TOC.-1b)@l
	addi	r3,r1,OP_PPC_FRAME_REGS
	bl	op_ppc_ret_return
	mtlr	r3
	ld	r0,_CCR(r1)
	mtcr	r0
	ld	r0,_XER(r1)
	mtxer	r0
	ld	r0,_CTR(r1)
	mtctr	r0
	REST_GPR(0, r1)
	REST_GPRS(2, 12, r1)
	addi	r1,r1,INT_FRAME_SIZE
	blr
	.size	op_ret_trampoline, . - op_ret_trampoline
_ASM_NOKPROBE_SYMBOL(op_ret_trampoline)
