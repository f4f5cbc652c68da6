/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's kretprobes on powerpc, which may take one of optprobe's
 * stubs as the return address of a call they follow: the task-exit walk
 * of return probes looks through them (retprobe.c).  Up to 6.1 their own
 * trampoline, and the address they took in a list per task that
 * kretprobe_find_ret_addr() searches by frame, which powerpc's kretprobes
 * leave NULL; since 6.2 (CONFIG_KRETPROBE_ON_RETHOOK) the rethook's
 * trampoline, searched by rethook_find_ret_addr() with r1 at the entry
 * as the frame.
 */
#ifndef OPTPROBE_WRAP_KRETPROBE_H
#define OPTPROBE_WRAP_KRETPROBE_H

#include <linux/kprobes.h>

#ifdef CONFIG_KRETPROBE_ON_RETHOOK
#include <linux/rethook.h>

#define OP_PPC_KRETPROBE_TRAMPOLINE	arch_rethook_trampoline
#define OP_PPC_KRETPROBE_FIND		rethook_find_ret_addr
#define OP_PPC_KRETPROBE_FRAME(sp)	(sp)
#else
#define OP_PPC_KRETPROBE_TRAMPOLINE	__kretprobe_trampoline
#define OP_PPC_KRETPROBE_FIND		kretprobe_find_ret_addr
#define OP_PPC_KRETPROBE_FRAME(sp)	NULL
#endif

#endif /* OPTPROBE_WRAP_KRETPROBE_H */
