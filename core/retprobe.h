/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Return probes (struct optretprobe): what the core keeps per probe and
 * per followed call, shared with the arch backends' return hooks
 * (arch-x86/retprobe.c, arch-powerpc/retprobe.c).
 *
 * The entry side is an ordinary optprobe at the function's entry whose
 * pre handler, op_ret_entry(), takes an instance from the probe's pool,
 * runs the entry handler and has the backend hook the call's return.
 * When the call returns, the backend finds the instance again (x86: on the
 * task's list of rethook nodes; powerpc: by the stub the call returned
 * to), and calls op_ret_returned(), then gives the instance back to the
 * pool and calls op_ret_done() with what op_ret_returned() said.  A task
 * that exits inside a followed call never returns: the backend counts its
 * calls out (op_ret_abandoned()) from the sched_process_exit tracepoint,
 * and gives their instances back then, or (x86: they ride on the kernel's
 * rethook nodes) when the kernel flushes the task's nodes once it is
 * reaped.
 */
#ifndef OPTPROBE_RETPROBE_H
#define OPTPROBE_RETPROBE_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>

#include <optprobe.h>

#include "arch.h"
#include "dispatch.h"
#include "ret-arch.h"

/* Per CPU, summed for debugfs: where each call went. */
struct op_ret_stats {
	unsigned long followed;		/* instance hooked on the return */
	unsigned long skipped;		/* the entry handler said no */
	unsigned long ran;		/* handler runs */
	unsigned long nested;		/* returns in an optprobe handler: missed */
	unsigned long abandoned;	/* followed, but the task exited inside */
};

/**
 * struct op_ret - optprobe's state for one registered return probe
 * @entry:	the probe at the function's entry (pre handler op_ret_entry())
 * @rp:		the caller's struct; not touched once @dead is seen
 * @dead:	unregistered: handlers no longer run
 * @data_size:	bytes of data per instance
 * @auto_size:	maxactive 0: the pool grows when it runs low
 * @stats:	per CPU; while the probe lives, also what tells how many
 *		calls are in flight (followed, not returned nor abandoned)
 * @draining:	after @dead, the calls in flight, counted down as they
 *		return; the probe is freed when it reaches 0 (see
 *		op_ret_drain())
 * @nfree:	instances in the pool (@auto_size only)
 * @pool_size:	instances allocated
 * @pool_max:	the most @auto_size grows the pool to: OP_RET_POOL_MAX, or
 *		where the backend had no room for more (-ENOSPC)
 * @grow_kick:	the hit path asks for more instances (NMI-safe) ...
 * @grow_work:	... and they are allocated here, where sleeping is fine
 * @free_kick:	@draining dropped to 0 (possibly in NMI) ...
 * @free_work:	... and the probe is freed here
 * @list:	in op_rets, while registered
 * @arch:	the backend's return hook and pool
 */
struct op_ret {
	struct optprobe entry;
	struct optretprobe *rp;
	bool dead;
	unsigned int data_size;
	bool auto_size;
	struct op_ret_stats __percpu *stats;
	atomic_long_t draining;
	atomic_t nfree;
	atomic_t pool_size;
	unsigned int pool_max;
	struct irq_work grow_kick;
	struct work_struct grow_work;
	struct irq_work free_kick;
	struct work_struct free_work;
	struct list_head list;
	struct op_arch_ret arch;
};

/**
 * struct op_ret_inst - one followed call, or a free instance in the pool
 * @arch:	the backend's part; first, since the x86 rethook frees
 *		instances itself by it
 * @ret:	the probe it belongs to
 * @held:	its task exited inside its call, and the backend gave it back
 *		to the pool only later (op_ret_abandoned())
 * @data:	struct optretprobe.data_size bytes for the handlers
 */
struct op_ret_inst {
	struct op_arch_ret_inst arch;
	struct op_ret *ret;
	bool held;
	u8 data[] __aligned(sizeof(long));
};

/*
 * Called by the backends on the return path, with preemption disabled;
 * inline there, since every followed call takes them.  First, what
 * op_ret_returned() does where RCU watches.
 */
static __always_inline bool op_ret_returned_watched(struct op_ret_inst *inst,
						    struct pt_regs *regs)
{
	struct op_ret *ret = inst->ret;
	struct optretprobe *rp;

	if (READ_ONCE(ret->dead))
		return false;
	rp = ret->rp;
	if (__this_cpu_read(op_running)) {
		/* maybe inside a __this_cpu_inc() of ran: a count of its own */
		this_cpu_inc(ret->stats->nested);
		op_count(&rp->nmissed);
		return true;
	}
	__this_cpu_write(op_running, inst);
	__this_cpu_inc(ret->stats->ran);
	rp->handler(rp, regs, inst->data);
	__this_cpu_write(op_running, NULL);
	return true;
}

/* op_ret_returned() where RCU is not watching (dispatch.h), out of line */
bool op_ret_returned_unwatched(struct op_ret_inst *inst, struct pt_regs *regs);

/**
 * op_ret_returned() - a followed call returned: run the handler
 * @inst:	its instance, no longer hooked
 * @regs:	the registers at the return, instruction pointer the real
 *		return address
 *
 * Not after the probe was unregistered (@dead, checked under the same
 * preempt-disabled section that calls the handler, which
 * optretprobe_unregister() waits for).  A return on a CPU that is in an
 * optprobe handler (an interrupt's, or a call made by the handler) is a
 * miss, as the kernel's kretprobes count a return under a running kprobe;
 * and while the handler runs, probes hit on this CPU count a miss, as in
 * any optprobe handler, so the count of runs needs no interrupt masking.
 *
 * The return is counted (ran or nested) only while the probe lives, in the
 * same preempt-disabled section as the test of @dead: after the grace
 * period that follows @dead, the counts are final, and the returns still
 * to come are the calls op_ret_drain() counts down.
 *
 * Context: preemption disabled, possibly NMI.
 * Return: whether the probe lived: what to give op_ret_done().
 */
static __always_inline bool op_ret_returned(struct op_ret_inst *inst, struct pt_regs *regs)
{
	if (unlikely(!op_rcu_watching()))
		return op_ret_returned_unwatched(inst, regs);
	return op_ret_returned_watched(inst, regs);
}

/* A maxactive 0 pool: the most it grows to. */
#define OP_RET_POOL_MAX	65536U

/*
 * A quarter of the pool in use is the cue to ask for more.  @nfree counts
 * the instances in the backend's pool; those it keeps aside for speed
 * (OP_ARCH_RET_ASIDE at most, ret-hit.h) count as free.
 */
static __always_inline bool op_ret_pool_low(struct op_ret *ret, int nfree)
{
	unsigned int size = atomic_read(&ret->pool_size);

	return nfree + OP_ARCH_RET_ASIDE <= size - size / 4 && size < READ_ONCE(ret->pool_max);
}

/**
 * op_ret_took() - the backend took an instance from its pool
 * @ret:	its probe
 *
 * For a pool that grows (maxactive 0), which counts its free instances:
 * when it runs low, the allocation of more is queued (NMI-safe).  Not for
 * an instance the backend kept aside (see op_ret_pool_low()).
 *
 * Context: preemption disabled, possibly NMI.
 */
static __always_inline void op_ret_took(struct op_ret *ret)
{
	if (ret->auto_size && op_ret_pool_low(ret, atomic_dec_return_relaxed(&ret->nfree)))
		irq_work_queue(&ret->grow_kick);
}

/**
 * op_ret_reclaimed() - the backend put an instance back into its pool
 * @ret:	its probe
 *
 * As op_ret_took(), the other way.
 *
 * Context: preemption disabled, possibly NMI.
 */
static __always_inline void op_ret_reclaimed(struct op_ret *ret)
{
	if (ret->auto_size)
		atomic_inc(&ret->nfree);
}

/**
 * op_ret_done() - a followed call is over, its instance free
 * @ret:	its probe, which may be freed from here on if it is dead
 * @live:	what op_ret_returned() returned, in the same preempt-disabled
 *		section: the return was counted
 *
 * A call of a dead probe (!@live) is one fewer for op_ret_drain() to wait
 * for.  Fully ordered: every access to @ret before it comes before the
 * free.
 *
 * Context: preemption disabled, possibly NMI.
 */
static __always_inline void op_ret_done(struct op_ret *ret, bool live)
{
	if (!live && atomic_long_dec_and_test(&ret->draining))
		irq_work_queue(&ret->free_kick);
}

void op_ret_abandoned(struct op_ret *ret, bool back);

#include "ret-hit.h"

/* ret-hit.h defines the hit path's four as core/arch.h declares them. */
static_assert(__same_type(&op_arch_ret_get, struct op_ret_inst *(*)(struct op_ret *)));
static_assert(__same_type(&op_arch_ret_put, void (*)(struct op_ret *, struct op_ret_inst *)));
static_assert(__same_type(&op_arch_ret_hook, void (*)(struct op_ret_inst *, struct pt_regs *)));
static_assert(__same_type(&op_arch_regs_irqs_on, bool (*)(struct pt_regs *)));

#endif /* OPTPROBE_RETPROBE_H */
