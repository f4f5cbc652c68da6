/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampolines a detour calls (see site-arch.h).  Each saves a struct
 * pt_regs as the int3 path would have it, with sp as it was before the
 * detour's call and the call's return address just below that, and hands
 * it to its C half (trap.c).  The C half leaves in regs->sp the address of
 * a word holding where to resume: the detour, or where a pre handler
 * redirected.  Restoring ends by loading that sp and returning, so flags
 * are restored before and sp in a single move, and nothing the resume
 * needs lies below the stack pointer when an interrupt could come.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

.macro OP_X86_TRAMPOLINE name, handler
SYM_CODE_START(\name)
	UNWIND_HINT_FUNC
	pushq	$__KERNEL_DS		/* ss */
	pushq	%rsp			/* sp, fixed up once flags are saved */
	pushfq
	addq	$16, 8(%rsp)		/* sp: above the return address */
	pushq	$__KERNEL_CS		/* cs */
	pushq	$0			/* ip: the handler sets it */
	pushq	$-1			/* orig_ax, as an int3 leaves it */
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
	UNWIND_HINT_REGS
	movq	%rsp, %rdi
	call	\handler
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
	movq	(%rsp), %rsp
	RET
SYM_CODE_END(\name)
_ASM_NOKPROBE(\name)
.endm

OP_X86_TRAMPOLINE op_x86_detour_pre_entry, op_x86_detour_pre
OP_X86_TRAMPOLINE op_x86_detour_post_entry, op_x86_detour_post
