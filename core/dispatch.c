// SPDX-License-Identifier: GPL-2.0
/*
 * The hit path's state and its cold part; the rest is inline in
 * dispatch.h.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rcupdate_wait.h>

#include "dispatch.h"
#include "internal.h"
#include "ksyms.h"

DEFINE_PER_CPU(const void *, op_running);

/* Live sites, by address; sites.c hashes and unhashes them under op_mutex. */
struct op_site __rcu *op_sites[1 << OP_SITES_BITS];

/*
 * With preemption disabled (sched-RCU) or op_mutex held.  Raw reads, as
 * the hlist walk's were: on the hit path, before its recursion guard,
 * lockdep's RCU checks are probeable functions of the kernel.
 */
notrace struct op_site *op_site_lookup(unsigned long addr)
{
	struct op_site *site;

	for (site = rcu_dereference_raw(*op_sites_bucket(addr)); site;
	     site = rcu_dereference_raw(site->next))
		if (site->addr == addr)
			return site;
	return NULL;
}

NOKPROBE_SYMBOL(op_site_lookup);

/* The first hashed site from bucket *@bkt on, or NULL. */
static struct op_site *op_sites_from(unsigned int *bkt)
{
	struct op_site *site;

	for (; *bkt < ARRAY_SIZE(op_sites); (*bkt)++) {
		site = op_site_next(op_sites[*bkt]);
		if (site)
			return site;
	}
	return NULL;
}

/**
 * op_sites_first() - walk every hashed site, with op_sites_next()
 * @bkt:	the walk's bucket
 *
 * The walk's body may unhash the site it is at (op_site_unhash() leaves
 * its ->next), not free it.
 *
 * Context: op_mutex held.
 * Return: the first site, or NULL.
 */
struct op_site *op_sites_first(unsigned int *bkt)
{
	*bkt = 0;
	return op_sites_from(bkt);
}

/* The hashed site after @site in op_sites_first()'s walk, or NULL. */
struct op_site *op_sites_next(struct op_site *site, unsigned int *bkt)
{
	struct op_site *next = op_site_next(site->next);

	if (next)
		return next;
	(*bkt)++;
	return op_sites_from(bkt);
}

/*
 * Wait until nothing can still use what was just unhashed or disarmed:
 * handlers and hash walks run with preemption disabled (an RCU grace
 * period), and on a preemptible kernel a task may be preempted inside a
 * slot (a tasks-RCU grace period, needed only when slots are involved;
 * optprobe does not load on a preemptible kernel without tasks-RCU).
 * Both at once, not one after the other.
 */
void op_quiesce(bool slots)
{
	if (slots && IS_ENABLED(CONFIG_TASKS_RCU))
		synchronize_rcu_mult(call_rcu, call_rcu_tasks);
	else
		synchronize_rcu();
}

DEFINE_PER_CPU(unsigned long, op_bp_taken);

/**
 * op_bp_traps() - how many breakpoint traps optprobe has taken
 *
 * Return: the sum over the CPUs.
 */
unsigned long op_bp_traps(void)
{
	return op_percpu_sum(&op_bp_taken);
}
EXPORT_SYMBOL_NS_GPL(op_bp_traps, OPTPROBE_INTERNAL);

/* Interrupts stay masked while RCU watches this way, as ct_nmi_enter() requires. */
unsigned long notrace op_dispatch_rcu_enter(void)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	op_kcall(ct_nmi_enter)();
	return flags;
}

NOKPROBE_SYMBOL(op_dispatch_rcu_enter);

void notrace op_dispatch_rcu_exit(unsigned long flags)
{
	op_kcall(ct_nmi_exit)();
	raw_local_irq_restore(flags);
}

NOKPROBE_SYMBOL(op_dispatch_rcu_exit);

/* op_aggr_probe's hits: every hit of its sites counts on their probes */
static DEFINE_PER_CPU(unsigned long, op_aggr_nhit);

void notrace op_dispatch_missed(struct op_site *site)
{
	struct optprobe *p;

	list_for_each_entry_rcu(p, &site->probes, list)
		if (!READ_ONCE(p->disabled))
			op_count(p->missed);
}

NOKPROBE_SYMBOL(op_dispatch_missed);

/*
 * Several enabled probes, one without a pre handler, or none left (a hit
 * that overtook the last one's disabling): each enabled probe counts the
 * hit and runs its pre handler, until one moves the instruction pointer.
 */
static int notrace op_dispatch_aggr(struct optprobe *aggr, struct pt_regs *regs)
{
	struct op_site *site = (struct op_site *)__this_cpu_read(op_running);
	struct optprobe *p;

	list_for_each_entry_rcu(p, &site->probes, list) {
		if (READ_ONCE(p->disabled))
			continue;
		__this_cpu_inc(*p->nhit);
		if (p->pre_handler && p->pre_handler(p, regs))
			return 1;
	}
	return 0;
}

NOKPROBE_SYMBOL(op_dispatch_aggr);

struct optprobe op_aggr_probe = {
	.pre_handler = op_dispatch_aggr,
	.nhit = &op_aggr_nhit,
};
