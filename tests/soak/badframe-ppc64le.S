/* SPDX-License-Identifier: GPL-2.0 */
/*
 * badframe, for the soak's workload: the kernel fails to restore a signal
 * frame (no argument: rt_sigreturn under a bad stack pointer) or to build
 * one (any argument: a SIGUSR1 handler, then the signal with a bad stack
 * pointer), both reported through signal_fault().  Either way it kills
 * the process with SIGSEGV; exit status 1 if it did not.  Freestanding,
 * raw system calls: the guest has no libc.
 */
#define SYS_exit		1
#define SYS_getpid		20
#define SYS_kill		37
#define SYS_rt_sigreturn	172
#define SYS_rt_sigaction	173
#define SIGUSR1			10
#define BAD_SP			16

	.abiversion 2
	.text
	.globl	_start
_start:
	ld	%r3,0(%r1)		/* argc */
	cmpdi	%r3,1
	bgt	build
	li	%r1,BAD_SP
	li	%r0,SYS_rt_sigreturn
	sc
	b	survived
build:
	/* struct sigaction as the kernel reads it: handler, flags, restorer, mask */
	stdu	%r1,-64(%r1)
	lis	%r9,handler@ha
	addi	%r9,%r9,handler@l
	std	%r9,32(%r1)
	li	%r10,0
	std	%r10,40(%r1)
	std	%r10,48(%r1)
	std	%r10,56(%r1)
	li	%r3,SIGUSR1
	addi	%r4,%r1,32
	li	%r5,0
	li	%r6,8			/* sizeof(sigset_t) */
	li	%r0,SYS_rt_sigaction
	sc
	li	%r0,SYS_getpid
	sc
	li	%r4,SIGUSR1
	li	%r1,BAD_SP
	li	%r0,SYS_kill
	sc
survived:
	li	%r3,1
	li	%r0,SYS_exit
	sc
handler:
	blr

	.section .note.GNU-stack,"",@progbits
