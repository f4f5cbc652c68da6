/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hit path: from a backend's trap handler, a detour or the ftrace
 * callback to the probes' handlers.  Inline, because every hit of every
 * probe runs it: a jump-optimized hit spends as much on a call and return
 * as on the rest of this.
 *
 * Runs with preemption disabled, possibly in NMI context: no locks, no
 * allocation.  Sites and their probe lists are read under (sched-)RCU;
 * writers in registry.c wait for a grace period before freeing them.
 *
 * Recursion: while any optprobe handler runs on a CPU, a probe hit on that
 * CPU skips its handlers and counts a miss.  The guard is a per-CPU flag
 * set only around handler calls; an interrupting context (IRQ, NMI) that
 * sees it clear runs to completion before the interrupted one resumes, so
 * a plain read-then-set is enough.  A hit whose pre handlers were skipped
 * reaches its post handlers (if the instruction ran out of line) while the
 * interrupted handler is still running, so they are skipped too and the
 * miss is not counted twice.
 */
#ifndef OPTPROBE_DISPATCH_H
#define OPTPROBE_DISPATCH_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/rculist.h>

#include "site.h"

DECLARE_PER_CPU(bool, op_in_handler);

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

/**
 * op_dispatch_missed() - count a hit whose handlers are skipped
 * @site:	the site hit
 *
 * Context: preemption disabled, possibly NMI.
 */
void op_dispatch_missed(struct op_site *site);

/**
 * op_dispatch_pre_all() - run the pre handlers of every enabled probe of a site
 * @site:	the site hit
 * @regs:	as for op_dispatch_pre()
 *
 * Out of line, so that the common case of op_dispatch_pre(), one probe,
 * keeps nothing across its handler's call but @regs.
 *
 * Context: preemption disabled, possibly NMI; op_in_handler set.
 * Return: as op_dispatch_pre().
 */
int op_dispatch_pre_all(struct op_site *site, struct pt_regs *regs);

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
	int redirected = 0;

	if (__this_cpu_read(op_in_handler)) {
		op_dispatch_missed(site);
		return 0;
	}

	__this_cpu_write(op_in_handler, true);
	if (likely(p)) {
		__this_cpu_inc(*p->nhit);
		redirected = p->pre_handler(p, regs);
	} else {
		redirected = op_dispatch_pre_all(site, regs);
	}
	__this_cpu_write(op_in_handler, false);
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

	if (!READ_ONCE(site->post) || __this_cpu_read(op_in_handler))
		return;

	__this_cpu_write(op_in_handler, true);
	list_for_each_entry_rcu(p, &site->probes, list)
		if (p->post_handler && !READ_ONCE(p->disabled))
			p->post_handler(p, regs);
	__this_cpu_write(op_in_handler, false);
	instruction_pointer_set(regs, next);
}

#endif /* OPTPROBE_DISPATCH_H */
