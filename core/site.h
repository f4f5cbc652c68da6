/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A site: one probed address and everything optprobe keeps for it.  All
 * probes on an address share its site (aggregation).
 *
 * Writers hold op_mutex.  The hit path finds sites and walks their probes
 * under RCU (sched-RCU: trap handlers and ftrace callbacks run with
 * preemption disabled) and takes no lock.
 */
#ifndef OPTPROBE_SITE_H
#define OPTPROBE_SITE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include <optprobe.h>

#include "site-arch.h"

struct module;
struct pt_regs;

/*
 * Where the optimizer is with a site.  Only armed breakpoint sites are
 * optimized; the detour is kept until the site is freed.
 */
enum op_opt_state {
	OP_OPT_NONE,		/* not optimized: not yet tried, or refused (reason) */
	OP_OPT_QUEUED,		/* waiting for the optimizer */
	OP_OPT_PREPARED,	/* detour ready: breakpoint hits are sent to it */
	OP_OPT_DONE,		/* the jump to the detour is in place */
};

struct op_site {
	unsigned long addr;
	struct hlist_node hash;		/* in op_sites, while live */
	struct list_head all;		/* in op_all_sites, until freed */
	struct list_head probes;	/* struct optprobe, registration order */
	struct module *mod;		/* holding the address; NULL: kernel core */
	enum optprobe_mode mode;	/* TRAP, BOOSTED, OPTIMIZED or FTRACE */
	enum optprobe_mode bp_mode;	/* TRAP or BOOSTED: the breakpoint path's */
	const char *reason;		/* why not optimized; "" when it is */
	unsigned int nr_enabled;	/* probes not disabled */
	bool armed;
	bool gone;			/* its module was unloaded */
	bool post;			/* an enabled probe has a post handler */
	bool noopt;			/* a probe has OPTPROBE_F_NOOPT */
	enum op_opt_state opt;
	bool opt_retry;			/* refused for now: retry when sites go */
	bool opt_refused;		/* refused for good */
	struct list_head opt_list;	/* on the optimizer's queue or batch */
	void *slot;			/* out-of-line copy, or NULL */
	void *detour;			/* jump-optimization detour, or NULL */
	struct list_head release;	/* on a list of sites to free */
	struct op_arch_site arch;
};

extern struct mutex op_mutex;

/* The public struct names the site with an opaque type. */
static inline struct op_site *op_site_of(const struct optprobe *p)
{
	return (struct op_site *)READ_ONCE(p->site);
}

/* The hit path (with dispatch.h): call with preemption disabled. */
struct op_site *op_site_lookup(unsigned long addr);

/*
 * Slots, for the backends: op_slot_alloc() gives @site slot space for its
 * out-of-line copy (&site->slot) or its detour (&site->detour);
 * op_slot_owner() finds, on the hit path, the site whose slot space holds
 * @addr.  Both are freed with the site.
 */
int op_slot_alloc(struct op_site *site, void **slot, size_t size, bool near);
struct op_site *op_slot_owner(unsigned long addr);

#endif /* OPTPROBE_SITE_H */
