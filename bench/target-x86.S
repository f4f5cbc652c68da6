/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 assembly targets of optprobe_bench.ko (optprobe_bench_target.h):
 * one leaf per class of probed instruction, its site at a local label, so
 * that kallsyms sees one function each; then the floor.  Past every site
 * come at least 5 bytes of instructions that the kernel's optprobes copy
 * (no shift, no group-3 opcode) before the return.
 */
#include <linux/linkage.h>
#include <asm/segment.h>

	.data
	.balign 8
bench_data:
	.quad	0x1234

	.text
SYM_FUNC_START(optprobe_bench_noftrace)
.Lnoftrace:
	movq	%rdi, %rax
	leaq	1(%rax,%rsi), %rax
	xorq	$0x55, %rax
	RET
SYM_FUNC_END(optprobe_bench_noftrace)

SYM_FUNC_START(optprobe_bench_alu)
	movq	%rdi, %rax
.Lalu:
	addq	%rsi, %rax
	imulq	$9, %rax, %rax
	xorq	$0x55, %rax
	RET
SYM_FUNC_END(optprobe_bench_alu)

SYM_FUNC_START(optprobe_bench_mem)
	movq	%rdi, %rax
	pushq	%rsi
.Lmem:
	movq	(%rsp), %rdx
	addq	%rdx, %rax
	xorq	$0x55, %rax
	popq	%rsi
	RET
SYM_FUNC_END(optprobe_bench_mem)

SYM_FUNC_START(optprobe_bench_pcrel)
	movq	%rdi, %rax
.Lpcrel:
	addq	bench_data(%rip), %rax
	xorq	$0x55, %rax
	RET
SYM_FUNC_END(optprobe_bench_pcrel)

/* b is never 0 in the benchmark: the jne is taken, over the add */
SYM_FUNC_START(optprobe_bench_jcc)
	movq	%rdi, %rax
	testq	%rsi, %rsi
.Ljcc:
	jne	1f
	addq	$1, %rax
1:	xorq	$0x55, %rax
	RET
SYM_FUNC_END(optprobe_bench_jcc)

/*
 * The floor: a struct pt_regs pushed and popped as optprobe's x86 detour
 * head and tail do (tramp.S), with optprobe_bench_pre() called directly in
 * between, then optprobe_bench_noftrace()'s body.
 */
SYM_FUNC_START(optprobe_bench_floor)
	pushq	$__KERNEL_DS		/* ss */
	pushq	%rsp			/* sp, fixed up once flags are saved */
	pushfq
	addq	$8, 8(%rsp)
	pushq	$__KERNEL_CS		/* cs */
	pushq	$0			/* ip */
	pushq	$-1			/* orig_ax */
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, %rsi
	xorl	%edi, %edi
	call	optprobe_bench_pre
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	addq	$24, %rsp		/* orig_ax, ip, cs */
	popfq
	leaq	16(%rsp), %rsp		/* sp and ss */
	movq	%rdi, %rax
	leaq	1(%rax,%rsi), %rax
	xorq	$0x55, %rax
	RET
SYM_FUNC_END(optprobe_bench_floor)

	.section .rodata, "a"
	.balign 8
SYM_DATA_START(optprobe_bench_asm_table)
	.quad	optprobe_bench_noftrace, .Lnoftrace - optprobe_bench_noftrace
	.quad	optprobe_bench_alu, .Lalu - optprobe_bench_alu
	.quad	optprobe_bench_mem, .Lmem - optprobe_bench_mem
	.quad	optprobe_bench_pcrel, .Lpcrel - optprobe_bench_pcrel
	.quad	optprobe_bench_jcc, .Ljcc - optprobe_bench_jcc
	.quad	optprobe_bench_floor, 0
SYM_DATA_END(optprobe_bench_asm_table)
