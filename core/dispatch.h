/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hit path: from a backend's trap handler, a detour or the ftrace
 * callback to the probes' handlers.  Inline, because every hit of every
 * probe runs it: a jump-optimized hit spends as much on a call and return
 * as on the rest of this.
 *
 * Runs with preemption disabled, possibly in NMI context: no locks, no
 * allocation.  Sites and their probe lists are read under (sched-)RCU;
 * writers in sites.c wait for a grace period before freeing them.
 *
 * Recursion: while any optprobe handler runs on a CPU, a probe hit on that
 * CPU skips its handlers and counts a miss.  The guard is a per-CPU
 * pointer (op_running), set only around handler calls to what they run
 * for; an interrupting context (IRQ, NMI) that sees it clear runs to
 * completion before the interrupted one resumes, so a plain read-then-set
 * is enough.  A hit whose pre handlers were skipped
 * reaches its post handlers (if the instruction ran out of line) while the
 * interrupted handler is still running, so they are skipped too and the
 * miss is not counted twice.
 */
#ifndef OPTPROBE_DISPATCH_H
#define OPTPROBE_DISPATCH_H

#include <linux/atomic.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/rculist.h>

#include "site.h"
#include "wrap-rcu-watching.h"

/*
 * What this CPU's optprobe handlers run for, NULL while none runs: the
 * site hit (pre and post handlers) or a return probe's instance (its
 * handler).  A site's pre handlers find their site here when it has no
 * sole probe (op_dispatch_aggr()).
 */
DECLARE_PER_CPU(const void *, op_running);

/*
 * The sole probe of a site that has none (sites.c): its pre handler runs
 * the site's probes one by one, each counting its hit.  Its own count is
 * never read.
 */
extern struct optprobe op_aggr_probe;

/*
 * Misses are counted in the public unsigned long nmissed; atomic_long_t
 * has the same layout, and several CPUs may miss one probe at once, so
 * count atomically to keep the count exact.  Hits, on every hit of every
 * probe, are counted per CPU: no atomic, no cache line shared between the
 * CPUs hitting a probe (op_probe_hits() sums them).  The recursion guard
 * is set while a CPU counts a hit, so an interrupting hit on that CPU
 * counts a miss instead, never the same hit counter: the plain per-CPU
 * increment is exact without masking interrupts (which this_cpu_inc()
 * does on powerpc, through an out-of-line interrupt-state restore).
 */
static __always_inline void op_count(unsigned long *counter)
{
	atomic_long_inc((atomic_long_t *)counter);
}

DECLARE_PER_CPU(unsigned long, op_bp_taken);

/*
 * Handlers run with RCU watching: sites, probes and what they point to
 * are freed after grace periods that do not wait for a CPU in an
 * extended quiescent state (idle between context tracking's enter and
 * exit, or on its way to and from user mode).  Most of that code is
 * noinstr, which optprobe refuses, but not all of it (cpuidle drivers'
 * enter functions on 6.1, platform idle loops).  The hit paths test
 * op_rcu_watching() (one per-CPU read) and, where RCU does not watch,
 * run from a function of their own between op_dispatch_rcu_enter() and
 * op_dispatch_rcu_exit(), which make RCU watch as an NMI there would
 * (ct_nmi_enter()), interrupts masked; so such hits run their handlers
 * and none is missed.  The fast path keeps no state across handlers.
 */
unsigned long op_dispatch_rcu_enter(void);
void op_dispatch_rcu_exit(unsigned long flags);

/**
 * op_dispatch_bp_taken() - count a breakpoint trap that optprobe took
 *
 * For debugfs and the benchmarks: how many traps a breakpoint mode costs
 * per hit (one, or two with a trap after an out-of-line copy).  A trap on
 * a breakpoint already removed, which the CPU retries, is not one.  A plain
 * per-CPU increment: on powerpc an NMI-like interrupt that traps on a
 * probe in between may lose one, which a statistic can afford.
 *
 * Context: a trap handler, interrupts masked.
 * Return: NOTIFY_STOP, what the trap's notifier returns.
 */
static __always_inline int op_dispatch_bp_taken(void)
{
	__this_cpu_inc(op_bp_taken);
	return NOTIFY_STOP;
}

/**
 * op_dispatch_missed() - count a hit whose handlers are skipped
 * @site:	the site hit
 *
 * Context: preemption disabled, possibly NMI.
 */
void op_dispatch_missed(struct op_site *site);

/**
 * op_dispatch_pre() - run the pre handlers of a hit site
 * @site:	the site hit
 * @regs:	registers at the probed instruction; the instruction pointer
 *		is the probed address
 *
 * Context: preemption disabled, possibly NMI.
 * Return: nonzero if a pre handler changed the instruction pointer and
 * execution resumes there (the probed instruction does not run); 0
 * otherwise.
 */
static __always_inline int op_dispatch_pre(struct op_site *site, struct pt_regs *regs)
{
	struct optprobe *p = READ_ONCE(site->sole);
	int redirected;

	if (__this_cpu_read(op_running)) {
		op_dispatch_missed(site);
		return 0;
	}

	__this_cpu_write(op_running, site);
	__this_cpu_inc(*p->nhit);
	redirected = p->pre_handler(p, regs);
	__this_cpu_write(op_running, NULL);
	return redirected;
}

/**
 * op_dispatch_post() - run the post handlers of a hit site
 * @site:	the site hit
 * @regs:	registers after the probed instruction; the instruction
 *		pointer is the next instruction's address
 *
 * Execution goes on at that address whatever the handlers do to the
 * instruction pointer: a detour could not honour a change there (its
 * copied instructions come next), so no mode does.  The other registers
 * the handlers change are honoured in every mode.  A site with no
 * enabled post handler costs one test: the ftrace path comes here on
 * every hit.
 *
 * Context: preemption disabled, possibly NMI.
 */
static __always_inline void op_dispatch_post(struct op_site *site, struct pt_regs *regs)
{
	unsigned long next = instruction_pointer(regs);
	struct optprobe *p;

	if (!READ_ONCE(site->post) || __this_cpu_read(op_running))
		return;

	__this_cpu_write(op_running, site);
	list_for_each_entry_rcu(p, &site->probes, list)
		if (p->post_handler && !READ_ONCE(p->disabled))
			p->post_handler(p, regs);
	__this_cpu_write(op_running, NULL);
	instruction_pointer_set(regs, next);
}

#endif /* OPTPROBE_DISPATCH_H */
