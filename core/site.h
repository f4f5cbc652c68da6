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

#include "opt-state.h"
#include "reasons.h"
#include "site-arch.h"

struct module;
struct pt_regs;

/*
 * What the hit path reads first (the arch part too), then what only
 * writers use; thousands at once, from a cache of their own (sites.c):
 * 88 bytes on powerpc64le, 128 on x86_64.  The flags the hit path never
 * reads share a byte, which writers change holding op_mutex; those it
 * reads (->post while it changes, ->ftrace) have a byte each.  One link
 * serves the optimizer's lists and then the lists of sites to free, and
 * the hash chain is singly linked: a site without probes that waits is
 * found as one, hashed (sites.c), on no list of its own.
 */
struct op_site {
	unsigned long addr;
	struct op_site __rcu *next;	/* in its op_sites chain, while live */
	struct list_head probes;	/* struct optprobe, registration order */
	struct optprobe *sole;		/* the hit path's probe to call (sites.c) */
	void *slot;			/* out-of-line copy, or NULL */
	void *detour;			/* jump-optimization detour, or NULL */
	u8 bp_mode;			/* the breakpoint path's mode: TRAP or BOOSTED */
	enum op_opt_state state;	/* the optimizer's; moved only by optimizer.c */
	bool post;			/* an enabled probe has a post handler */
	bool ftrace;			/* at a function's ftrace site */
	bool init:1;			/* in its module's init text, freed after its init */
	bool noopt:1;			/* a probe has OPTPROBE_F_NOOPT */
	bool own:1;			/* a probe has OP_F_OWN (arch.h) */
	bool marker:1;			/* a probe has OP_F_MARKER: a marker's nop */
	bool unopt_disarm:1;		/* unoptimized to the original, not the breakpoint */
	bool enabled:1;			/* a probe is not disabled (op_site_change()) */
	bool arm_jump:1;		/* armed with its jump (op_arch_jump_ready()) */
	bool arm_failed:1;		/* op_opt_arm_end() could not write its breakpoint */
	enum op_reason reason;		/* why the optimizer last refused or stopped */
	struct op_arch_site arch;
	/*
	 * On one of the optimizer's lists, by state; or, once the optimizer
	 * is done with it, on a list of sites to free, or of those gone with
	 * probes left (sites.c)
	 */
	struct list_head link;
};

extern struct mutex op_mutex;

/* Every site but those on their way to be freed, in no order (op_mutex held). */
void op_sites_for_each(void (*fn)(struct op_site *site, void *arg), void *arg);

/* The public struct names the site with an opaque type. */
static inline struct op_site *op_site_of(const struct optprobe *p)
{
	return (struct op_site *)READ_ONCE(p->site);
}

/* Its breakpoint (or the jump that replaced it) is in the text. */
static inline bool op_site_armed(const struct op_site *site)
{
	return op_opt_state_armed(READ_ONCE(site->state));
}

/* The switch of probing (debugfs "enabled"), sites.c's */
extern bool op_all_enabled;

/* Should @site be armed: not gone, an enabled probe, probing switched on (or its own)? */
static inline bool op_site_wanted(const struct op_site *site)
{
	return (READ_ONCE(op_all_enabled) || site->own) && site->state != OP_ST_GONE &&
	       site->enabled;
}

/* The jump to its detour is in the text. */
static inline bool op_site_jumps(const struct op_site *site)
{
	return op_opt_state_jumps(READ_ONCE(site->state));
}

/* How a hit on it runs (never DISABLED or GONE: see optprobe_mode()). */
static inline enum optprobe_mode op_site_mode(const struct op_site *site)
{
	if (site->ftrace)
		return OPTPROBE_MODE_FTRACE;
	if (op_site_jumps(site))
		return OPTPROBE_MODE_OPTIMIZED;
	return READ_ONCE(site->bp_mode);
}

/* The hit path (with dispatch.h): call with preemption disabled. */
struct op_site *op_site_lookup(unsigned long addr);

/* Is @addr a function's ftrace call site (ftrace-site.c)? */
bool op_ftrace_site_at(unsigned long addr);

/*
 * Slots, for the backends: op_slot_alloc() gives @site slot space for its
 * out-of-line copy (&site->slot) or its detour (&site->detour);
 * op_slot_owner() finds, on the hit path, the site whose slot space holds
 * @addr.  Both are freed with the site, or at once by op_slot_drop() if
 * the backend could not use the space.  op_slot_area() is the start of
 * the area holding a slot, as op_arch_slot_area_alloc() returned it, for
 * what the backend keeps there besides slots.
 */
int op_slot_alloc(struct op_site *site, void **slot, size_t size, bool near);
void op_slot_drop(struct op_site *site, void **slot, size_t size);
struct op_site *op_slot_owner(unsigned long addr);
void *op_slot_area(const void *slot);

#endif /* OPTPROBE_SITE_H */
