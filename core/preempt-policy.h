/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On which kernels optprobe can free a detour safely.
 *
 * A detour (and a slot's out-of-line copy) is freed once no task can be
 * inside it (op_quiesce()).  Without preemption, a task runs a detour to
 * its end before it can be switched out, so an RCU grace period covers
 * it.  A kernel that can preempt tasks (CONFIG_PREEMPTION, which
 * PREEMPT_DYNAMIC selects even when booted voluntary) may switch a task
 * out anywhere in a detour, with its next instruction there; only a
 * tasks-RCU grace period (CONFIG_TASKS_RCU) waits for it.  With
 * preemption and no tasks-RCU nothing can, so optprobe refuses to load.
 *
 * Freestanding: no kernel or libc headers, so that the host unit tests
 * build exactly this code; the includer provides bool.
 */
#ifndef OPTPROBE_PREEMPT_POLICY_H
#define OPTPROBE_PREEMPT_POLICY_H

/**
 * op_can_free_detours() - can optprobe wait out every task in a detour?
 * @preemptible:	the kernel can preempt tasks in kernel code
 * @tasks_rcu:		the kernel has tasks-RCU
 *
 * Return: true where optprobe may load.
 */
static inline bool op_can_free_detours(bool preemptible, bool tasks_rcu)
{
	return !preemptible || tasks_rcu;
}

#endif /* OPTPROBE_PREEMPT_POLICY_H */
