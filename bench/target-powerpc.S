/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ppc64le assembly targets of optprobe_bench.ko (optprobe_bench_target.h):
 * one leaf per class of probed instruction, its site at a local label, so
 * that kallsyms sees one function each; then the floor.  Only the
 * TOC-relative one and the floor need their module's TOC pointer, and set
 * it up at their global entry.
 */
#include <asm/asm-offsets.h>
#include <asm/ppc_asm.h>
#include <asm/ptrace.h>

#include "../arch-powerpc/wrap-frame.h"

	.data
	.balign 8
bench_data:
	.quad	0x1234

	.text
_GLOBAL(optprobe_bench_noftrace)
.Lnoftrace:
	mr	r5,r3
	add	r3,r5,r4
	xori	r3,r3,0x55
	blr

_GLOBAL(optprobe_bench_alu)
	mr	r5,r3
.Lalu:
	add	r5,r5,r4
	mulli	r3,r5,9
	xori	r3,r3,0x55
	blr

_GLOBAL(optprobe_bench_mem)
	stdu	r1,-32(r1)
.Lmem:
	std	r4,24(r1)
	ld	r5,24(r1)
	addi	r1,r1,32
	add	r3,r3,r5
	xori	r3,r3,0x55
	blr

_GLOBAL_TOC(optprobe_bench_pcrel)
.Lpcrel:
	addis	r5,r2,bench_data@toc@ha
	ld	r5,bench_data@toc@l(r5)
	add	r3,r3,r5
	xori	r3,r3,0x55
	blr

/* b is never 0 in the benchmark: the bne is taken, over the addi */
_GLOBAL(optprobe_bench_jcc)
	cmpdi	r4,0
.Ljcc:
	bne	1f
	addi	r3,r3,1
1:	xori	r3,r3,0x55
	blr

/*
 * The floor: a struct pt_regs saved and restored in an interrupt-sized
 * frame, as optprobe's trampolines (tramp.S) keep one, with
 * optprobe_bench_pre() called directly in between, then
 * optprobe_bench_noftrace()'s body.
 */
_GLOBAL_TOC(optprobe_bench_floor)
	mflr	r0
	std	r0,16(r1)
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
	mflr	r0
	std	r0,_LINK(r1)
	li	r3,0
	addi	r4,r1,OP_PPC_FRAME_REGS
	bl	optprobe_bench_pre
	nop
	ld	r0,_CCR(r1)
	mtcr	r0
	ld	r0,_XER(r1)
	mtxer	r0
	ld	r0,_CTR(r1)
	mtctr	r0
	ld	r0,_LINK(r1)
	mtlr	r0
	REST_GPR(0, r1)
	REST_GPRS(2, 31, r1)
	addi	r1,r1,INT_FRAME_SIZE
	mr	r5,r3
	add	r3,r5,r4
	xori	r3,r3,0x55
	blr

	.section .rodata, "a"
	.balign 8
	.globl	optprobe_bench_asm_table
optprobe_bench_asm_table:
	.quad	optprobe_bench_noftrace, .Lnoftrace - optprobe_bench_noftrace
	.quad	optprobe_bench_alu, .Lalu - optprobe_bench_alu
	.quad	optprobe_bench_mem, .Lmem - optprobe_bench_mem
	.quad	optprobe_bench_pcrel, .Lpcrel - optprobe_bench_pcrel
	.quad	optprobe_bench_jcc, .Ljcc - optprobe_bench_jcc
	.quad	optprobe_bench_floor, 0
