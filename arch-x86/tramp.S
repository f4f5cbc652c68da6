/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a detour runs around its copy of the probed instructions (layout
 * in site-arch.h).
 *
 * Both calls into C hand over a struct pt_regs saved as the int3 path
 * would have it, with sp as it was at the probed instruction.
 *
 * Pre handlers, on every hit, are the hot path, so the detour runs them
 * with no trampoline between: its head (op_x86_detour_head, copied into
 * each detour) saves the registers, loads its site and calls
 * op_x86_detour_pre() directly; its tail (op_x86_detour_tail) restores
 * them and goes on to the copy.  Only when a pre handler moved ip does
 * the tail branch to op_x86_detour_redirect instead.
 *
 * The price: a detour is not kernel text to the unwinder, so a stack
 * trace taken in a pre handler of an optimized probe ends at the detour,
 * as it does in the kernel's own optimized kprobes.  Traces taken in post
 * handlers go on through the probed function (op_x86_detour_post_entry
 * tells the unwinder where its saved registers are), as do all traces
 * taken on the trap and boosted paths.
 *
 * Post handlers are called from the detour after the first copied
 * instruction through op_x86_detour_post_entry, which saves the registers
 * itself (a detour has room for one call there) and finds its site from
 * its return address.
 *
 * Handlers run with interrupts disabled, and with the direction flag and
 * (with SMAP) the access flag clear, as the int3 entry code runs them.
 * Masking interrupts is also what holds off preemption and RCU grace
 * periods while the handlers run, one instruction where a preempt count
 * takes three; trap.c tells the irq-flags tracing of it.  The probed code
 * may be copying backwards or inside a user-access window (stac ...
 * clac), and a handler must neither copy backwards nor touch user memory
 * unchecked.  All three flags come back with the saved flags (popfq)
 * before the copy runs.
 * The head is copied, not run where alternatives apply, so it carries a
 * plain clac that optimize.c turns into a nop on a CPU without SMAP.
 *
 * Resuming elsewhere: the C half leaves in regs->sp the address of a word
 * holding where to resume.  Restoring ends by loading that sp and
 * returning, so flags are restored before and sp in a single move, and
 * nothing the resume needs lies below the stack pointer when an interrupt
 * could come.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/segment.h>
#include <asm/smap.h>
#include <asm/unwind_hints.h>

/*
 * Push a struct pt_regs whose sp is @skip bytes above the current one:
 * OP_X86_PUSH_FRAME, then its ip, then OP_X86_PUSH_GPRS.
 */
.macro OP_X86_PUSH_FRAME skip
	pushq	$__KERNEL_DS		/* ss */
	pushq	%rsp			/* sp, fixed up once flags are saved */
	pushfq
	addq	$(8 + \skip), 8(%rsp)
	pushq	$__KERNEL_CS		/* cs */
.endm

.macro OP_X86_PUSH_GPRS
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
.endm

/* Pop the general registers and orig_ax, ip and cs, leaving flags on top. */
.macro OP_X86_POP_REGS
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
.endm

/* Flags, then sp from regs->sp, and return through the word it points to. */
.macro OP_X86_RESUME
	popfq
	movq	(%rsp), %rsp
	UNWIND_HINT_FUNC
	RET
.endm

/*
 * The start of every detour, copied there (never run from here) and
 * entered by the jmp at the probed address, so sp is the probe's.
 * optimize.c fills in the imm64 loaded into %rdi with the site and
 * follows the head with a call to op_x86_detour_pre().
 */
	.pushsection .rodata, "a"
SYM_DATA_START(op_x86_detour_head)
	OP_X86_PUSH_FRAME 0
	.byte	0x68			/* pushq $imm32: ip, the probed address */
SYM_INNER_LABEL(op_x86_detour_head_ip, SYM_L_GLOBAL)
	.long	0			/* filled in by optimize.c */
	OP_X86_PUSH_GPRS
	cli
	cld
SYM_INNER_LABEL(op_x86_detour_head_clac, SYM_L_GLOBAL)
	.byte	0x0f, 0x01, 0xca	/* clac */
	movq	%rsp, %rsi
	movabsq	$0, %rdi
SYM_DATA_END_LABEL(op_x86_detour_head, SYM_L_GLOBAL, op_x86_detour_head_end)

/*
 * Where the call returns: on to op_x86_detour_redirect if a pre handler
 * moved ip (optimize.c fills in the jnz's rel32), else restore the
 * registers at the probe, sp last, so that the copy runs on the sp the
 * handlers left (popq %rsp loads the word it pops, as the int3 path's
 * iret would).
 */
SYM_DATA_START(op_x86_detour_tail)
	testl	%eax, %eax
	.byte	0x0f, 0x85		/* jnz rel32 */
SYM_INNER_LABEL(op_x86_detour_tail_rel, SYM_L_GLOBAL)
	.long	0
	OP_X86_POP_REGS
	popfq
	popq	%rsp
SYM_DATA_END_LABEL(op_x86_detour_tail, SYM_L_GLOBAL, op_x86_detour_tail_end)
	.popsection

/*
 * A detour's way out when a pre handler moved ip: resume there, with the
 * sp the handlers left.  Reached only by the tail's jnz, never by a call
 * or an indirect jump: no ENDBR (IBT).  The unwinder goes on from here
 * through the saved registers into the probed function.
 */
SYM_CODE_START(op_x86_detour_redirect)
	UNWIND_HINT_REGS
	ANNOTATE_NOENDBR
	movq	%rsp, %rdi
	call	op_x86_detour_leave
	OP_X86_POP_REGS
	OP_X86_RESUME
SYM_CODE_END(op_x86_detour_redirect)
_ASM_NOKPROBE(op_x86_detour_redirect)

/* Called by a detour after the first copied instruction, by a direct call. */
SYM_CODE_START(op_x86_detour_post_entry)
	ANNOTATE_NOENDBR
	UNWIND_HINT_FUNC
	OP_X86_PUSH_FRAME 8		/* above the return address */
	pushq	$0			/* ip: the C half sets it */
	OP_X86_PUSH_GPRS
	UNWIND_HINT_REGS
	cli
	cld
	ASM_CLAC
	movq	%rsp, %rdi
	call	op_x86_detour_post
	OP_X86_POP_REGS
	OP_X86_RESUME
SYM_CODE_END(op_x86_detour_post_entry)
_ASM_NOKPROBE(op_x86_detour_post_entry)

/*
 * Where an ftrace site's pre handler returned from the function: ftrace
 * returns here with sp at the return address, which op_arch_ftrace_sp()
 * set to the handler's instruction pointer.  Reached by a return: no
 * ENDBR.
 */
SYM_CODE_START(op_x86_ftrace_ret)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	RET
SYM_CODE_END(op_x86_ftrace_ret)
_ASM_NOKPROBE(op_x86_ftrace_ret)
