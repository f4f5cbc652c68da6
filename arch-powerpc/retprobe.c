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
 * Pools: a lock-free list per probe, and per CPU a place for one free
 * instance (->hot), where a return leaves its instance and the next entry
 * on that CPU takes it back: one atomic exchange each way, where the
 * list's reference-counted pop and push take several.  An entry that
 * finds its CPU's place and the list empty takes from other CPUs' places
 * before it counts a miss, so that no instance is stranded on a CPU that
 * does not call the function: a pool of N follows N calls at once,
 * wherever they come from.
 *
 * A task exiting inside followed calls: op_arch_ret_task_exit() gives its
 * instances back to their pools and frees its entry.
 */
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
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

/* A task's entry is within OP_PPC_RET_REACH of its hash, with no wrap. */
static struct op_ppc_ret_task op_ppc_ret_tasks[OP_PPC_RET_TASKS + OP_PPC_RET_REACH - 1];

/*
 * The entry at @task's hash.  task_structs are cache-line aligned: the
 * bits below carry nothing, and a 32-bit multiplicative hash of the rest
 * spreads them as well as hash_ptr() does, in fewer instructions.
 */
static __always_inline struct op_ppc_ret_task *op_ppc_ret_home(struct task_struct *task)
{
	u32 bits = (unsigned long)task >> L1_CACHE_SHIFT;

	return &op_ppc_ret_tasks[hash_32(bits, ilog2(OP_PPC_RET_TASKS))];
}

/* @task's entry, or NULL. */
static __always_inline struct op_ppc_ret_task *op_ppc_ret_find(struct task_struct *task)
{
	struct op_ppc_ret_task *t = op_ppc_ret_home(task);
	struct op_ppc_ret_task *end = t + OP_PPC_RET_REACH;

	for (; t < end; t++)
		if (READ_ONCE(t->task) == task)
			return t;
	return NULL;
}

/*
 * A free entry for @task, which has none, from @home on; or NULL.  Its
 * ->top is whatever its last owner left, not read: a task that claims an
 * entry has no call in flight.
 */
static notrace struct op_ppc_ret_task *
op_ppc_ret_claim(struct op_ppc_ret_task *home, struct task_struct *task)
{
	struct op_ppc_ret_task *t, *end = home + OP_PPC_RET_REACH;

	for (t = home; t < end; t++)
		if (!READ_ONCE(t->task) && !cmpxchg_acquire(&t->task, NULL, task))
			return t;
	return NULL;
}

NOKPROBE_SYMBOL(op_ppc_ret_claim);

/* The task that holds @t, with no call left in it, gives it back; @home is at its hash. */
static __always_inline void op_ppc_ret_release(struct op_ppc_ret_task *t,
					       struct op_ppc_ret_task *home)
{
	/* after its last ->top: the next owner's claim (acquire) sees no older one */
	smp_store_release(&t->task, NULL);
	atomic_dec(&home->homed);
}

int op_arch_ret_prepare(struct op_ret *ret)
{
	ret->arch.pool.head = NULL;
	ret->arch.hot = alloc_percpu(struct op_ret_inst *);
	return ret->arch.hot ? 0 : -ENOMEM;
}

int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	freelist_add(&inst->arch.free, &ret->arch.pool);
	return 0;
}

/* This CPU's place was empty: the list's instance, or another CPU's, or NULL. */
static noinline notrace struct op_ret_inst *op_ppc_ret_get_slow(struct op_ret *ret)
{
	struct freelist_node *node = freelist_try_get(&ret->arch.pool);
	struct op_ret_inst **hot, *inst;
	int cpu;

	if (node)
		return container_of(node, struct op_ret_inst, arch.free);
	for_each_possible_cpu(cpu) {
		hot = per_cpu_ptr(ret->arch.hot, cpu);
		inst = READ_ONCE(*hot) ? xchg_acquire(hot, NULL) : NULL;
		if (inst)
			return inst;
	}
	return NULL;
}

NOKPROBE_SYMBOL(op_ppc_ret_get_slow);

/* This CPU's instance, or the list's, or another CPU's; NULL if none is free. */
notrace struct op_ret_inst *op_arch_ret_get(struct op_ret *ret)
{
	struct op_ret_inst *inst = xchg_acquire(this_cpu_ptr(ret->arch.hot), NULL);

	return likely(inst) ? inst : op_ppc_ret_get_slow(ret);
}

NOKPROBE_SYMBOL(op_arch_ret_get);

/* To this CPU's place if it is free, else to the list. */
void notrace op_arch_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	if (cmpxchg_release(this_cpu_ptr(ret->arch.hot), NULL, inst))
		freelist_add(&inst->arch.free, &ret->arch.pool);
}

NOKPROBE_SYMBOL(op_arch_ret_put);

bool notrace op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	struct op_ppc_ret_task *home = op_ppc_ret_home(current);
	struct op_ppc_ret_task *t = atomic_read(&home->homed) ? op_ppc_ret_find(current) : NULL;

	if (t) {
		inst->arch.home = NULL;
		inst->arch.below = t->top;
	} else {
		atomic_inc(&home->homed);
		t = op_ppc_ret_claim(home, current);
		if (!t) {
			atomic_dec(&home->homed);
			return false;
		}
		inst->arch.home = home;
		inst->arch.below = NULL;
	}
	inst->arch.ret_addr = regs->link;
	inst->arch.sp = regs->gpr[1];
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
	if (inst->arch.home)
		op_ppc_ret_release(t, inst->arch.home);
	ret_addr = inst->arch.ret_addr;
	regs->nip = ret_addr;
	regs->link = ret_addr;
	live = op_ret_returned(inst, regs);
	ret = inst->ret;
	op_arch_ret_put(ret, inst);
	op_ret_done(ret, live);
	preempt_enable_notrace();
	return ret_addr;
}

NOKPROBE_SYMBOL(op_ppc_ret_return);

/* Every instance is back in the pool: nothing takes from it any more. */
void op_arch_ret_release(struct op_ret *ret)
{
	struct freelist_node *node;
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(*per_cpu_ptr(ret->arch.hot, cpu));
	free_percpu(ret->arch.hot);
	while ((node = freelist_try_get(&ret->arch.pool)))
		kfree(container_of(node, struct op_ret_inst, arch.free));
}

void op_arch_ret_task_exit(void)
{
	struct op_ppc_ret_task *t = op_ppc_ret_find(current), *home = NULL;
	struct op_ret_inst *inst;
	struct op_ret *ret;

	if (!t)
		return;
	/* the entry goes only once empty: another task may take it then */
	while ((inst = t->top)) {
		WRITE_ONCE(t->top, inst->arch.below);
		home = inst->arch.home ?: home;
		ret = inst->ret;
		freelist_add(&inst->arch.free, &ret->arch.pool);
		op_ret_abandoned(ret, true);
	}
	if (home)
		op_ppc_ret_release(t, home);
}
