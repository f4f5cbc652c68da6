/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's kretprobes on powerpc, which may take one of optprobe's
 * stubs as the return address of a call they follow: the task-exit walk
 * of return probes reads the addresses they took (retprobe.c).  Each
 * task keeps them in a list of its own, newest first: up to 6.1 of
 * kretprobe instances (current->kretprobe_instances), since 6.2
 * (CONFIG_KRETPROBE_ON_RETHOOK) of rethook nodes (current->rethooks).
 */
#ifndef OPTPROBE_WRAP_KRETPROBE_H
#define OPTPROBE_WRAP_KRETPROBE_H

#include <linux/kprobes.h>
#include <linux/llist.h>
#include <linux/sched.h>

#ifdef CONFIG_KRETPROBE_ON_RETHOOK
#include <linux/rethook.h>

#define OP_PPC_KRETPROBE_LIST(task)	((task)->rethooks.first)

static inline unsigned long op_ppc_kretprobe_ret_addr(struct llist_node *node)
{
	return container_of(node, struct rethook_node, llist)->ret_addr;
}
#else
#define OP_PPC_KRETPROBE_LIST(task)	((task)->kretprobe_instances.first)

static inline unsigned long op_ppc_kretprobe_ret_addr(struct llist_node *node)
{
	return (unsigned long)container_of(node, struct kretprobe_instance, llist)->ret_addr;
}
#endif

#endif /* OPTPROBE_WRAP_KRETPROBE_H */
