/* SPDX-License-Identifier: GPL-2.0 */
/*
 * badframe, for the soak's workload: the kernel fails to restore a signal
 * frame (no argument: rt_sigreturn under a bad stack pointer, which x86
 * reports through signal_fault()) or to build one (any argument: a
 * SIGUSR1 handler, then the signal with a bad stack pointer).  Either way
 * it kills the process with SIGSEGV; exit status 1 if it did not.
 * Freestanding, raw system calls: the guest has no libc.
 */
#define SYS_rt_sigaction	13
#define SYS_rt_sigreturn	15
#define SYS_getpid		39
#define SYS_kill		62
#define SYS_exit		60
#define SIGUSR1			10
#define SA_RESTORER		0x04000000
#define BAD_SP			16

	.text
	.globl	_start
_start:
	cmpq	$1, (%rsp)		/* argc */
	jg	build
	movq	$BAD_SP, %rsp
	movl	$SYS_rt_sigreturn, %eax
	syscall
	jmp	survived
build:
	movl	$SIGUSR1, %edi
	leaq	action(%rip), %rsi
	xorl	%edx, %edx
	movl	$8, %r10d		/* sizeof(sigset_t) */
	movl	$SYS_rt_sigaction, %eax
	syscall
	movl	$SYS_getpid, %eax
	syscall
	movl	%eax, %edi
	movl	$SIGUSR1, %esi
	movq	$BAD_SP, %rsp
	movl	$SYS_kill, %eax
	syscall
survived:
	movl	$1, %edi
	movl	$SYS_exit, %eax
	syscall
handler:
	ret

	.data
	.balign	8
action:				/* struct sigaction as the kernel reads it */
	.quad	handler		/* sa_handler */
	.quad	SA_RESTORER	/* sa_flags */
	.quad	handler		/* sa_restorer */
	.quad	0		/* sa_mask */

	.section .note.GNU-stack,"",@progbits
