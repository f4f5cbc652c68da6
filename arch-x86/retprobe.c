// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes on x86_64: the return side is the kernel's own return
 * hook, rethook (kernel/trace/rethook.c, reached through ksyms), not a
 * trampoline of optprobe's.
 *
 * Why rethook: the kernel's ORC unwinder knows its trampoline
 * (unwind_recover_rethook()) and, while calls are in flight, reads the
 * real return address off the task's list of rethook nodes.  A stack
 * trace through a followed call (stack_trace_save(), /proc/PID/stack of a
 * task sleeping in it, dump_stack() inside it) then goes on through the
 * real caller, where a trampoline of optprobe's would end the trace (or
 * make the unwinder warn): ORC cannot describe a frame whose return
 * address is no longer on the stack.  (dump_stack() prints the
 * trampoline's address in the caller's place, but unwinds on correctly.)
 * The kernel also flushes a dead task's nodes itself
 * (rethook_flush_task()).  Its cost is the work any return trampoline
 * does: one struct pt_regs saved and restored, a lock-free pool (struct
 * freelist_head) and a per-task list in task_struct, where no module
 * could add one (optprobe's own would need a lookup by task).  The
 * kernel's kretprobes take the same return path on this kernel, so what
 * optprobe saves against them is on the entry side.
 *
 * Each probe has its own struct rethook, whose pool holds the probe's
 * instances (struct op_ret_inst, a rethook_node first).  The rethook
 * calls op_x86_rethook_handler() with preemption disabled, regs->ip the
 * real return address and regs->sp the caller's, then recycles the node.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>

#include "ksyms.h"
#include "retprobe.h"

/* This kernel range's static call of kcalls-arch.h (wrap-rethook.h) */
DEFINE_STATIC_CALL_NULL(op_k_rethook_add_node, rethook_add_node);

static void notrace op_x86_rethook_handler(struct rethook_node *node, void *data,
					   struct pt_regs *regs)
{
	struct op_ret_inst *inst = container_of(node, struct op_ret_inst, arch.node);

	/* the rethook recycles the node next: the pool is the rethook's own */
	bool live = op_ret_returned(inst, regs);

	op_ret_reclaimed(data);
	op_ret_done(data, live);
}

NOKPROBE_SYMBOL(op_x86_rethook_handler);

int op_arch_ret_prepare(struct op_ret *ret)
{
	struct rethook *rh = op_kcall(rethook_alloc)(ret, op_x86_rethook_handler);

	if (IS_ERR_OR_NULL(rh))
		return -ENOMEM;
	ret->arch.rh = rh;
	return 0;
}

int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	op_kcall(rethook_add_node)(ret->arch.rh, &inst->arch.node);
	return 0;
}

/* The pool is a lock-free freelist: a hit adds as a process does. */
notrace int op_arch_ret_add_now(struct op_ret *ret, struct op_ret_inst *inst)
{
	return op_arch_ret_add(ret, inst);
}

NOKPROBE_SYMBOL(op_arch_ret_add_now);

notrace struct op_ret_inst *op_x86_ret_get(struct op_ret *ret)
{
	struct rethook_node *node = op_kcall(rethook_try_get)(ret->arch.rh);

	return node ? container_of(node, struct op_ret_inst, arch.node) : NULL;
}

NOKPROBE_SYMBOL(op_x86_ret_get);

void notrace op_x86_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	op_kcall(rethook_recycle)(&inst->arch.node);
}

NOKPROBE_SYMBOL(op_x86_ret_put);

/*
 * At a function's entry, in every mode, regs->sp points at the return
 * address (API-NOTES), which the rethook replaces by its trampoline's.
 * Its last argument (an mcount-style entry) is not used on x86.
 */
void notrace op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	op_kcall(rethook_hook)(&inst->arch.node, regs, false);
}

NOKPROBE_SYMBOL(op_arch_ret_hook);

/* The rethook frees the nodes in its pool after a grace period, then itself. */
void op_arch_ret_release(struct op_ret *ret)
{
	op_kcall(rethook_free)(ret->arch.rh);
}

/*
 * The nodes on current's list stay there until the kernel flushes them
 * when the task is freed; only ours are counted out here.
 */
void op_arch_ret_task_exit(void)
{
	struct llist_node *pos;

	for (pos = current->rethooks.first; pos; pos = pos->next) {
		struct rethook_node *node = container_of(pos, struct rethook_node, llist);

		if ((rethook_handler_t __force)rcu_access_pointer(node->rethook->handler) !=
		    op_x86_rethook_handler)
			continue;
		/* the kernel's flush publishes it with the node, when the task is reaped */
		container_of(node, struct op_ret_inst, arch.node)->held = true;
		op_ret_abandoned(node->rethook->data, false);
	}
}
