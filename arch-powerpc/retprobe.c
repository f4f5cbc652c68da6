// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes on powerpc64le.  The kernel has no return hook here
 * (no CONFIG_RETHOOK) and its kretprobes keep their instances in a list
 * of task_struct's that only they may use, so optprobe keeps its own:
 *
 *  - at the entry, the link register in pt_regs holds the return address
 *    (API-NOTES).  op_arch_ret_hook() keeps it in the instance and puts
 *    op_ret_trampoline (rettramp.S) there instead; every entry mode loads
 *    the link register back from pt_regs (ftrace's regs caller, the
 *    detour's restore, the interrupt return);
 *  - each task inside a followed call has an entry in op_ppc_ret_tasks,
 *    found by hashing its task_struct: the top of its stack of instances,
 *    newest first, linked by ->below.  The entry at a task's hash counts
 *    (->homed) the tasks of that hash holding an entry: where it is 0, the
 *    task holds none, and its first call is hooked without a search;
 *  - the function returns to op_ret_trampoline, which saves a pt_regs and
 *    calls op_ppc_ret_return(): it pops the task's newest instance, whose
 *    real return address the trampoline then returns to.
 *
 * The table is lock-free.  An entry belongs to one task, and only that
 * task changes it: a call's entry and return, and interrupts (NMIs too)
 * on that task, which run to completion inside whatever they interrupted
 * and leave the stack as they found it.  A task takes a free entry with
 * cmpxchg() at its first followed call, within OP_PPC_RET_REACH entries
 * of its hash, and gives it back when that call returns (->claimed): a
 * call that finds no room is missed.  So the table holds only the tasks
 * inside followed calls right now, at most OP_PPC_RET_TASKS.
 *
 * Stack traces: the probed function saves op_ret_trampoline as its
 * return address, so a trace shows the trampoline in the caller's place,
 * then follows the back chain on through the rest: powerpc's unwinder
 * walks frames, not return addresses, and does not warn.
 *
 * A task exiting inside followed calls: op_arch_ret_task_exit() gives its
 * instances back to their pools and frees its entry.
 */
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "retprobe.h"

#define OP_PPC_RET_TASKS	8192
#define OP_PPC_RET_REACH	16

struct op_ppc_ret_task {
	struct task_struct *task;	/* NULL: free */
	struct op_ret_inst *top;	/* its newest call in flight */
	atomic_t homed;			/* entries held by tasks of this hash */
};

static struct op_ppc_ret_task op_ppc_ret_tasks[OP_PPC_RET_TASKS];

static __always_inline struct op_ppc_ret_task *op_ppc_ret_slot(struct task_struct *task,
							       unsigned int i)
{
	unsigned int h = hash_ptr(task, ilog2(OP_PPC_RET_TASKS));

	return &op_ppc_ret_tasks[(h + i) & (OP_PPC_RET_TASKS - 1)];
}

/* @task's entry, or NULL. */
static notrace struct op_ppc_ret_task *op_ppc_ret_find(struct task_struct *task)
{
	unsigned int i;

	for (i = 0; i < OP_PPC_RET_REACH; i++) {
		struct op_ppc_ret_task *t = op_ppc_ret_slot(task, i);

		if (READ_ONCE(t->task) == task)
			return t;
	}
	return NULL;
}

NOKPROBE_SYMBOL(op_ppc_ret_find);

/* A free entry for @task, which has none, or NULL. */
static notrace struct op_ppc_ret_task *op_ppc_ret_claim(struct task_struct *task)
{
	unsigned int i;

	for (i = 0; i < OP_PPC_RET_REACH; i++) {
		struct op_ppc_ret_task *t = op_ppc_ret_slot(task, i);

		if (!READ_ONCE(t->task) && !cmpxchg(&t->task, NULL, task))
			return t;
	}
	return NULL;
}

NOKPROBE_SYMBOL(op_ppc_ret_claim);

/* @task gives back its entry @t. */
static void notrace op_ppc_ret_release(struct op_ppc_ret_task *t, struct task_struct *task)
{
	WRITE_ONCE(t->task, NULL);
	atomic_dec(&op_ppc_ret_slot(task, 0)->homed);
}

NOKPROBE_SYMBOL(op_ppc_ret_release);

int op_arch_ret_prepare(struct op_ret *ret)
{
	ret->arch.pool.head = NULL;
	return 0;
}

int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	freelist_add(&inst->arch.free, &ret->arch.pool);
	return 0;
}

notrace struct op_ret_inst *op_arch_ret_get(struct op_ret *ret)
{
	struct freelist_node *node = freelist_try_get(&ret->arch.pool);

	return node ? container_of(node, struct op_ret_inst, arch.free) : NULL;
}

NOKPROBE_SYMBOL(op_arch_ret_get);

void notrace op_arch_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	freelist_add(&inst->arch.free, &ret->arch.pool);
}

NOKPROBE_SYMBOL(op_arch_ret_put);

bool notrace op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	atomic_t *homed = &op_ppc_ret_slot(current, 0)->homed;
	struct op_ppc_ret_task *t = atomic_read(homed) ? op_ppc_ret_find(current) : NULL;

	inst->arch.claimed = !t;
	if (!t) {
		atomic_inc(homed);
		t = op_ppc_ret_claim(current);
		if (!t) {
			atomic_dec(homed);
			return false;
		}
	}
	inst->arch.ret_addr = regs->link;
	inst->arch.sp = regs->gpr[1];
	inst->arch.below = t->top;
	/* complete before an interrupt on this task can see it on top */
	barrier();
	WRITE_ONCE(t->top, inst);
	regs->link = (unsigned long)op_ret_trampoline;
	return true;
}

NOKPROBE_SYMBOL(op_arch_ret_hook);

/**
 * op_ppc_ret_return() - a followed call returned to op_ret_trampoline
 * @regs:	the registers at the return, saved by the trampoline
 *
 * Context: the returning task; from rettramp.S.
 * Return: the real return address, where the trampoline goes on.
 */
unsigned long notrace op_ppc_ret_return(struct pt_regs *regs)
{
	struct op_ppc_ret_task *t;
	struct op_ret_inst *inst;
	unsigned long ret_addr;
	struct op_ret *ret;
	bool live;

	preempt_disable_notrace();
	t = op_ppc_ret_find(current);
	inst = t ? t->top : NULL;
	/* only a call hooked by this task comes here: without it, nowhere to return to */
	if (!inst)
		panic("optprobe: a return with no call followed on this task\n");
	WARN_ON_ONCE(inst->arch.sp != regs->gpr[1]);
	WRITE_ONCE(t->top, inst->arch.below);
	if (inst->arch.claimed)
		op_ppc_ret_release(t, current);
	ret_addr = inst->arch.ret_addr;
	regs->nip = ret_addr;
	regs->link = ret_addr;
	live = op_ret_returned(inst, regs);
	ret = inst->ret;
	freelist_add(&inst->arch.free, &ret->arch.pool);
	op_ret_done(ret, live);
	preempt_enable_notrace();
	return ret_addr;
}

NOKPROBE_SYMBOL(op_ppc_ret_return);

/* Every instance is back in the pool: nothing takes from it any more. */
void op_arch_ret_release(struct op_ret *ret)
{
	struct op_ret_inst *inst;

	while ((inst = op_arch_ret_get(ret)))
		kfree(inst);
}

void op_arch_ret_task_exit(void)
{
	struct op_ppc_ret_task *t = op_ppc_ret_find(current);
	struct op_ret_inst *inst;
	struct op_ret *ret;

	if (!t)
		return;
	while ((inst = t->top)) {
		WRITE_ONCE(t->top, inst->arch.below);
		ret = inst->ret;
		freelist_add(&inst->arch.free, &ret->arch.pool);
		op_ret_abandoned(ret, true);
	}
	op_ppc_ret_release(t, current);
}
