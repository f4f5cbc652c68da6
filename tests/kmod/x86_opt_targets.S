/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets of optprobe_test_x86_opt, written in assembly so that the bytes
 * a jump replaces are known: the probe goes on the first instruction (the
 * second in op_tx86_flags, OP_TX86_FLAGS_PROBE bytes in).  Results are
 * computed from the arguments (a, b) so that a wrong copy or a wrong
 * resume shows.  A module of its own (x86_opt_exports.c exports them): a
 * module's text cannot be probed while it initializes.  At the end, the
 * targets of optprobe_test_coexist.
 */
#include <linux/linkage.h>
#include <asm/nops.h>
#include <asm/nospec-branch.h>
#include <asm/smap.h>

	.data
SYM_DATA(op_tx86_var, .quad 1000)
SYM_DATA(op_tx86_var2, .quad 0)
/* where op_tx86_tail_call tail-calls */
SYM_DATA(op_tx86_tail_fn, .quad op_tx86_pushpop)

	.text

/*
 * long op_tx86_call(long (*fn)(long, long), long a, long b): call fn(a, b)
 * with every other register set to a known pattern, so that a handler sees
 * the same registers on every call, and the stack pointer of the call in
 * op_tx86_call_sp (its callers' stack depth varies).
 */
SYM_FUNC_START(op_tx86_call)
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rdi, %rax
	movq	%rsi, %rdi
	movq	%rdx, %rsi
	movabsq	$0x0303030303030303, %rdx
	movabsq	$0x0404040404040404, %rcx
	movabsq	$0x0808080808080808, %r8
	movabsq	$0x0909090909090909, %r9
	movabsq	$0x1010101010101010, %r10
	movabsq	$0x1111111111111111, %r11
	movabsq	$0x0b0b0b0b0b0b0b0b, %rbx
	movabsq	$0x0e0e0e0e0e0e0e0e, %rbp
	movabsq	$0x1212121212121212, %r12
	movabsq	$0x1313131313131313, %r13
	movabsq	$0x1414141414141414, %r14
	movabsq	$0x1515151515151515, %r15
	movq	%rsp, op_tx86_call_sp(%rip)
	CALL_NOSPEC rax
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	RET
SYM_FUNC_END(op_tx86_call)

/* a + op_tx86_var: a RIP-relative load (7 bytes) */
SYM_FUNC_START(op_tx86_riprel_load)
	movq	op_tx86_var(%rip), %rax
	addq	%rdi, %rax
	RET
SYM_FUNC_END(op_tx86_riprel_load)

/* a + b, by way of a RIP-relative store of a (7 bytes) */
SYM_FUNC_START(op_tx86_riprel_store)
	movq	%rdi, op_tx86_var2(%rip)
	movq	op_tx86_var2(%rip), %rax
	addq	%rsi, %rax
	RET
SYM_FUNC_END(op_tx86_riprel_store)

/* a + b, in a pushed register: push (1), mov (3), add (3) */
SYM_FUNC_START(op_tx86_pushpop)
	pushq	%rbx
	movq	%rdi, %rbx
	addq	%rsi, %rbx
	movq	%rbx, %rax
	popq	%rbx
	RET
SYM_FUNC_END(op_tx86_pushpop)

/* 1 if a + b == 7, else 0: flags set in the region, read after it */
SYM_FUNC_START(op_tx86_flags)
	xorl	%eax, %eax
	addq	%rsi, %rdi
	subq	$7, %rdi
	setz	%al
	RET
SYM_FUNC_END(op_tx86_flags)

/* (a << 5) + (b >> 1): group 2 shifts, by an immediate (4) and by one (3) */
SYM_FUNC_START(op_tx86_shift)
	shlq	$5, %rdi
	sarq	%rsi
	leaq	(%rdi,%rsi), %rax
	RET
SYM_FUNC_END(op_tx86_shift)

/*
 * b - a if a < b, else 8a + b: probed on its jge (rel8, OP_TX86_BRANCH_PROBE
 * bytes in), which the detour runs as a rel32 jge, with the mov after it
 */
SYM_FUNC_START(op_tx86_jcc)
	cmpq	%rsi, %rdi
	jge	1f
	movq	%rsi, %rax
	subq	%rdi, %rax
	RET
1:	leaq	(%rsi,%rdi,8), %rax
	RET
SYM_FUNC_END(op_tx86_jcc)

/* 2a + b: probed on a jmp rel32 (OP_TX86_BRANCH_PROBE bytes in), the whole region */
SYM_FUNC_START(op_tx86_jmp)
	movq	%rdi, %rax
	.byte	0xe9			/* jmp 1f, in its rel32 form */
	.long	1f - 2f
2:	addq	%rsi, %rax
	RET
1:	shlq	$1, %rax
	jmp	2b
SYM_FUNC_END(op_tx86_jmp)

/* 42, where a redirecting pre handler sends op_tx86_pushpop */
SYM_FUNC_START(op_tx86_ret42)
	movl	$42, %eax
	RET
SYM_FUNC_END(op_tx86_ret42)

SYM_FUNC_START(op_tx86_nothing)
	RET
SYM_FUNC_END(op_tx86_nothing)

/* a + b, with a call ending the bytes a jump replaces (mov 3, call 5) */
SYM_FUNC_START(op_tx86_call_in_region)
	movq	%rdi, %rax
	call	op_tx86_nothing
	addq	%rsi, %rax
	RET
SYM_FUNC_END(op_tx86_call_in_region)

/*
 * 3a: calls op_tx86_callee_hook (if set; it may sleep) first, with the
 * stack aligned for C
 */
SYM_FUNC_START(op_tx86_callee)
	pushq	%rdi
	movq	op_tx86_callee_hook(%rip), %rax
	testq	%rax, %rax
	jz	1f
	CALL_NOSPEC rax
1:	popq	%rax
	leaq	(%rax,%rax,2), %rax
	RET
SYM_FUNC_END(op_tx86_callee)

/*
 * 3a + b: a call of op_tx86_callee ends the bytes a jump at the start
 * replaces (push 1, mov 3, call 5); probed on the call too
 * (OP_TX86_CALL_PROBE bytes in), the whole region then
 */
SYM_FUNC_START(op_tx86_call_end)
	pushq	%rbx
	movq	%rsi, %rbx
	call	op_tx86_callee
	addq	%rbx, %rax
	popq	%rbx
	RET
SYM_FUNC_END(op_tx86_call_end)

/*
 * a - b if a < b, else a + b: probed on the cmp (OP_TX86_END_PROBE bytes
 * in), whose region a jl ends, rel8 here and rel32 in op_tx86_jcc32_end
 */
SYM_FUNC_START(op_tx86_jcc8_end)
	movq	%rdi, %rax
	cmpq	%rsi, %rdi
	jl	1f
	addq	%rsi, %rax
	RET
1:	subq	%rsi, %rax
	RET
SYM_FUNC_END(op_tx86_jcc8_end)

SYM_FUNC_START(op_tx86_jcc32_end)
	movq	%rdi, %rax
	cmpq	%rsi, %rdi
	.byte	0x0f, 0x8c		/* jl 1f, in its rel32 form */
	.long	1f - 2f
2:	addq	%rsi, %rax
	RET
1:	subq	%rsi, %rax
	RET
SYM_FUNC_END(op_tx86_jcc32_end)

/*
 * a + 2b: probed on the first add (OP_TX86_END_PROBE bytes in), whose
 * region a jmp ends, rel8 here and rel32 in op_tx86_jmp32_end; the jmp
 * back lands right after the region
 */
SYM_FUNC_START(op_tx86_jmp8_end)
	movq	%rdi, %rax
	addq	%rsi, %rax
	jmp	1f
2:	RET
1:	addq	%rsi, %rax
	jmp	2b
SYM_FUNC_END(op_tx86_jmp8_end)

SYM_FUNC_START(op_tx86_jmp32_end)
	movq	%rdi, %rax
	addq	%rsi, %rax
	.byte	0xe9			/* jmp 1f, in its rel32 form */
	.long	1f - 2f
2:	RET
1:	addq	%rsi, %rax
	jmp	2b
SYM_FUNC_END(op_tx86_jmp32_end)

/* 2(a + b): a tail call of op_tx86_pushpop(a + b, a + b) through a retpoline */
SYM_FUNC_START(op_tx86_tail_call)
	addq	%rsi, %rdi
	movq	%rdi, %rsi
	movq	op_tx86_tail_fn(%rip), %rax
	JMP_NOSPEC rax
SYM_FUNC_END(op_tx86_tail_call)

/* a + b: a lea (4) and the return, a jmp to the return thunk or a ret */
SYM_FUNC_START(op_tx86_ret_end)
	leaq	(%rdi,%rsi), %rax
	RET
SYM_FUNC_END(op_tx86_ret_end)

/*
 * a + 30 if b is even, else a + 20: a jump table in rodata.  The probe at
 * the start replaces the mov and the and, where no entry lands; one on its
 * first target (OP_TX86_TABLE_PROBE bytes in) would replace its second.
 */
SYM_FUNC_START(op_tx86_table)
	movq	%rdi, %rax
	andq	$1, %rsi
	movq	op_tx86_table_targets(,%rsi,8), %rcx
	JMP_NOSPEC rcx
1:	addq	$10, %rax
2:	addq	$20, %rax
	RET
SYM_FUNC_END(op_tx86_table)

	.pushsection .rodata
	.balign	8
op_tx86_table_targets:
	.quad	1b, 2b
	.popsection

/* a + b (b > 0), with a loop jumping back to the probe's second instruction */
SYM_FUNC_START(op_tx86_jump_into)
	movq	%rdi, %rax
1:	addq	$1, %rax
	decq	%rsi
	jnz	1b
	RET
SYM_FUNC_END(op_tx86_jump_into)

/*
 * a + b, then an indirect jump, as a jump table makes.  The jz, never
 * taken, shows objtool that the code after the indirect jump is reached.
 */
SYM_FUNC_START(op_tx86_jump_table)
	movq	%rdi, %rax
	addq	%rsi, %rax
	leaq	1f(%rip), %rcx
	testq	%rcx, %rcx
	jz	1f
	JMP_NOSPEC rcx
1:	RET
SYM_FUNC_END(op_tx86_jump_table)

/*
 * Targets of optprobe_test_coexist, one per case so that a case that fails
 * leaves nothing behind on the next one's: a + 2b, in a pushed register.
 * The jump over push (1), mov (3), add (3) covers 7 bytes; the region's
 * second instruction is OP_TX86_COEXIST_SECOND bytes in.
 */
.macro COEXIST_TARGET name
SYM_FUNC_START(\name)
	pushq	%rbx
	movq	%rdi, %rbx
	addq	%rsi, %rbx
	addq	%rsi, %rbx
	movq	%rbx, %rax
	popq	%rbx
	RET
SYM_FUNC_END(\name)
.endm

COEXIST_TARGET op_tx86_coexist0
COEXIST_TARGET op_tx86_coexist1
COEXIST_TARGET op_tx86_coexist2
COEXIST_TARGET op_tx86_coexist3
COEXIST_TARGET op_tx86_coexist4
COEXIST_TARGET op_tx86_coexist5

/*
 * optprobe_test_coexist's boundary case: 0xb848 + 3a + 1.  Its first
 * instruction S, movl $0xb848, %eax (b8 48 b8 00 00), read from its
 * second byte is a movabs (48 b8 and 8 bytes) ending at S + 11, inside
 * the addq $1 at S + 10 (OP_TX86_BOUNDARY_*).  The two addq after that
 * give the kernel 7 bytes to jump-optimize a kprobe at S + 10 over.
 */
SYM_FUNC_START(op_tx86_boundary)
	movl	$0xb848, %eax
	addq	%rdi, %rax
	xchg	%ax, %ax
	addq	$1, %rax
	addq	%rdi, %rax
	addq	%rdi, %rax
	RET
SYM_FUNC_END(op_tx86_boundary)

/*
 * 2a + b: probed on a jmp rel8 (OP_TX86_BRANCH_PROBE bytes in), whose next
 * bytes are reached only from its .cold fragment, as gcc lays such out
 */
SYM_FUNC_START(op_tx86_jmp8)
	movq	%rdi, %rax
	jmp	1f
2:	addq	%rsi, %rax
	RET
1:	jmp	op_tx86_jmp8.cold
SYM_FUNC_END(op_tx86_jmp8)

SYM_FUNC_START_LOCAL(op_tx86_jmp8.cold)
	shlq	$1, %rax
	jmp	2b
SYM_FUNC_END(op_tx86_jmp8.cold)

/*
 * a + 2b: probed on a 2-byte mov followed by a jmp rel8, whose next bytes
 * are reached only from its .cold fragment
 */
SYM_FUNC_START(op_tx86_jmp_next)
	movl	%edi, %eax
	jmp	1f
2:	addl	%esi, %eax
	RET
1:	jmp	op_tx86_jmp_next.cold
SYM_FUNC_END(op_tx86_jmp_next)

SYM_FUNC_START_LOCAL(op_tx86_jmp_next.cold)
	addl	%esi, %eax
	jmp	2b
SYM_FUNC_END(op_tx86_jmp_next.cold)

/*
 * a + 2b with op_tx86_key off, a + b with it on: a jump label, a nop until
 * the key turns it into a jmp over the probed add (OP_TX86_KEY_PROBE bytes
 * in) to the add right after it, inside the bytes a jump there replaces
 */
SYM_FUNC_START(op_tx86_static_key)
	movq	%rdi, %rax
1:	.byte	BYTES_NOP5
	addq	%rsi, %rax
2:	addq	%rsi, %rax
	RET
SYM_FUNC_END(op_tx86_static_key)

	/* the entry static_branch_unlikely() makes: code, target, key (jump if on) */
	.pushsection __jump_table, "aw"
	.balign	8
	.long	1b - .
	.long	2b - .
	.quad	op_tx86_key - .
	.popsection

/*
 * (a + b) << 32 | the flags after the probed mov (OP_TX86_UACCESS_PROBE
 * bytes in) and the add after it, inside a user-access window: AC is set
 * there if the CPU has SMAP
 */
SYM_FUNC_START(op_tx86_uaccess)
	ASM_STAC
	movq	%rdi, %rax
	addq	%rsi, %rax
	shlq	$32, %rax
	pushfq
	orq	(%rsp), %rax
	popq	%rcx
	ASM_CLAC
	RET
SYM_FUNC_END(op_tx86_uaccess)

/*
 * (a + b) << 32 | the flags after the probed mov (OP_TX86_DF_PROBE bytes
 * in) and the add after it, with the direction flag set
 */
SYM_FUNC_START(op_tx86_df)
	std
	movq	%rdi, %rax
	addq	%rsi, %rax
	shlq	$32, %rax
	pushfq
	orq	(%rsp), %rax
	popq	%rcx
	cld
	RET
SYM_FUNC_END(op_tx86_df)
