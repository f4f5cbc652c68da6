// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes on powerpc64le.  The kernel's kretprobes keep their
 * instances where only they may (up to 6.1 a list in task_struct, since
 * 6.2 the rethook's, whose return takes a trap here), so optprobe keeps
 * its own:
 *
 *  - every instance owns one of op_ret_trampoline's stubs (rettramp.S),
 *    one instruction each, from its allocation to its free, and
 *    op_ppc_ret_by_stub[] maps the stub back to it;
 *  - at the entry, the link register in pt_regs holds the return address
 *    (API-NOTES).  op_arch_ret_hook() keeps it in the instance and puts
 *    the instance's stub there instead; every entry mode loads the link
 *    register back from pt_regs (ftrace's regs caller, the detour's
 *    restore, the interrupt return);
 *  - the function returns to the stub, and the trampoline calls
 *    op_ppc_ret_return() with it: the stub names the call that returned,
 *    so the return path looks nothing up by task, takes no lock and makes
 *    no atomic access but the pool's.  Recursion and interrupts need
 *    nothing more: each call returns to its own stub.
 *
 * Stack traces: the probed function saves the stub as its return
 * address, so a trace shows op_ret_trampoline in the caller's place, then
 * follows the back chain on through the rest: powerpc's unwinder walks
 * frames, not return addresses, and does not warn.
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
 * A task exiting inside followed calls: op_arch_ret_task_exit() walks its
 * stack as the unwinder does and gives back the instances whose stubs
 * its frames and the kernel's kretprobe records hold as return addresses,
 * directly or through another return probe's instance stacked over one;
 * an instance marks the task it is in flight on, so that a stale stub
 * left in a frame is never taken for a call in flight.
 *
 * The function graph tracer on powerpc takes the return address a call
 * came with, not the one ftrace callbacks before it put in place: where
 * its callback runs after optprobe's, the call returns past optprobe's
 * stub, its handler does not run and its instance stays taken (so do
 * the kernel's kretprobes' there).
 */
#include <linux/idr.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>

#include "retprobe.h"
#include "wrap-kretprobe.h"

/* The instance that owns each stub, or NULL; instances are freed after a grace period. */
static struct op_ret_inst *op_ppc_ret_by_stub[OP_PPC_RET_STUBS];
static DEFINE_IDA(op_ppc_ret_stubs);

static __always_inline unsigned long op_ppc_ret_stub_index(unsigned long stub)
{
	return (stub - (unsigned long)op_ret_trampoline) / sizeof(u32);
}

/* The instance whose stub @addr is, or NULL. */
static __always_inline struct op_ret_inst *op_ppc_ret_stub_inst(unsigned long addr)
{
	unsigned long idx = op_ppc_ret_stub_index(addr);

	if (idx >= OP_PPC_RET_STUBS)
		return NULL;
	return READ_ONCE(op_ppc_ret_by_stub[idx]);
}

int op_arch_ret_prepare(struct op_ret *ret)
{
	ret->arch.pool.head = NULL;
	ret->arch.hot = alloc_percpu(struct op_ret_inst *);
	return ret->arch.hot ? 0 : -ENOMEM;
}

/* Give @inst a stub of its own; -ENOSPC when all are taken. */
static int op_ppc_ret_add(struct op_ret *ret, struct op_ret_inst *inst, gfp_t gfp)
{
	int idx = ida_alloc_max(&op_ppc_ret_stubs, OP_PPC_RET_STUBS - 1, gfp);

	if (idx < 0)
		return idx;
	inst->arch.stub = (unsigned long)op_ret_trampoline + idx * sizeof(u32);
	WRITE_ONCE(op_ppc_ret_by_stub[idx], inst);
	/* a release: whoever takes it from the pool sees its stub mapped */
	freelist_add(&inst->arch.free, &ret->arch.pool);
	return 0;
}

int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	return op_ppc_ret_add(ret, inst, GFP_KERNEL);
}

/* The IDA takes its lock with interrupts disabled; the pool is lock-free. */
notrace int op_arch_ret_add_now(struct op_ret *ret, struct op_ret_inst *inst)
{
	return op_ppc_ret_add(ret, inst, GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC);
}

NOKPROBE_SYMBOL(op_arch_ret_add_now);

/* Free an instance no call is in flight through, and its stub. */
static void op_ppc_ret_inst_free(struct op_ret_inst *inst)
{
	unsigned long idx = op_ppc_ret_stub_index(inst->arch.stub);

	WRITE_ONCE(op_ppc_ret_by_stub[idx], NULL);
	ida_free(&op_ppc_ret_stubs, idx);
	/* op_arch_ret_task_exit() may be reading it */
	kfree_rcu(inst, arch.rcu);
}

/**
 * op_ppc_ret_return() - a followed call returned to op_ret_trampoline
 * @regs:	the registers at the return, saved by the trampoline
 * @stub:	the stub it returned to: its instance's
 *
 * Context: the returning task; from rettramp.S.
 * Return: the real return address, where the trampoline goes on.
 */
unsigned long notrace op_ppc_ret_return(struct pt_regs *regs, unsigned long stub)
{
	struct op_ret_inst *inst = op_ppc_ret_stub_inst(stub);
	unsigned long ret_addr;
	struct op_ret *ret;
	bool live;

	/* only a call hooked by this task comes here: without it, nowhere to return to */
	if (!inst || inst->arch.task != current)
		panic("optprobe: a return to %pS, which no call of this task was given\n",
		      (void *)stub);
	WARN_ON_ONCE(inst->arch.sp != regs->gpr[1]);
	preempt_disable_notrace();
	WRITE_ONCE(inst->arch.task, NULL);
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
	struct op_ret_inst *inst;
	int cpu;

	for_each_possible_cpu(cpu) {
		inst = *per_cpu_ptr(ret->arch.hot, cpu);
		if (inst)
			op_ppc_ret_inst_free(inst);
	}
	free_percpu(ret->arch.hot);
	while ((node = freelist_try_get(&ret->arch.pool)))
		op_ppc_ret_inst_free(container_of(node, struct op_ret_inst, arch.free));
}

/*
 * Give back the instances in flight on this task that @addr, a return
 * address the task holds, leads to: its stub's, then those whose stubs
 * that one took as the return address (return probes stacked on one
 * function), and so on.  An instance in flight on the exiting task is one
 * of its calls that will never return, wherever it is found: a stale stub
 * left in a frame names no other.
 */
static void op_ppc_ret_reclaim(unsigned long addr)
{
	struct op_ret_inst *inst;
	struct op_ret *ret;

	for (;;) {
		inst = op_ppc_ret_stub_inst(addr);
		if (!inst || READ_ONCE(inst->arch.task) != current)
			return;
		/* before the instance is free for other calls to take */
		addr = inst->arch.ret_addr;
		WRITE_ONCE(inst->arch.task, NULL);
		ret = inst->ret;
		freelist_add(&inst->arch.free, &ret->arch.pool);
		op_ret_abandoned(ret, true);
	}
}

/*
 * The calls in flight on the exiting task are found where their return
 * addresses are: in each frame's LR save word, as the unwinder finds
 * them (a call that exits the task does so through calls of its own,
 * which saved its return address there), and in the kernel's kretprobe
 * records, when a kernel kretprobe hooked the call after optprobe (its
 * trampoline is then in the frame, and optprobe's stub in its record).
 * Not a leaf function killed by an oops: its return address is only in
 * the interrupt frame's registers, and its instance stays taken.
 *
 * Only the task itself, and interrupts that finish before it goes on,
 * change its frames and its kretprobe records.
 */
void op_arch_ret_task_exit(void)
{
	unsigned long stack = (unsigned long)task_stack_page(current);
	unsigned long sp = current_stack_pointer, *frame;
	struct llist_node *node;

	rcu_read_lock();
	while (sp >= stack && sp <= stack + THREAD_SIZE - STACK_FRAME_MIN_SIZE && !(sp % 16)) {
		frame = (unsigned long *)sp;
		op_ppc_ret_reclaim(frame[STACK_FRAME_LR_SAVE]);
		/* the back chain goes up the stack, or ends */
		if (frame[0] <= sp)
			break;
		sp = frame[0];
	}
	for (node = OP_PPC_KRETPROBE_LIST(current); node; node = node->next)
		op_ppc_ret_reclaim(op_ppc_kretprobe_ret_addr(node));
	rcu_read_unlock();
}
