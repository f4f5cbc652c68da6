// SPDX-License-Identifier: GPL-2.0
/*
 * The slot allocator: executable areas cut into OP_SLOT_SIZE slots that
 * hold out-of-line copies of probed instructions and jump-optimization
 * detours (a run of slots).
 *
 * Areas come from the backend (op_arch_slot_area_alloc()), which places
 * them where the copies work: within rel32 reach of all kernel and module
 * text on x86_64, within a branch's reach of the probed text on powerpc.
 * An area is a page at first, and larger ones (up to OP_SLOT_AREA_MAX)
 * as the space held grows, so that registering or unregistering
 * thousands of probes allocates and frees tens of areas, not hundreds:
 * each one's permissions change and its freeing flushes every CPU's TLB.
 * A backend may give less: on powerpc, a page, or a slot of the kernel's
 * own detour cache near kernel text.
 * Each slot records the site that owns it, so that a backend's trap
 * handler can find the site from an address inside a slot
 * (op_slot_owner()) without any per-CPU state: a task may be preempted or
 * migrate while it executes a slot.
 *
 * The hit path finds an address's area by a binary search of an index of
 * the areas sorted by address (with thousands of probes there are
 * hundreds of areas), republished whole under RCU whenever an area comes
 * or goes.
 *
 * A slot is released only after the grace period that guarantees no task
 * is still inside it (see op_quiesce()), and an area as soon as it has no
 * owner left and is out of the index.  A lookup still reading an older
 * index may find the area's range there, for an address someone else has
 * since been given: its bookkeeping stays one more RCU grace period, so
 * that such a lookup finds no owner, not freed memory.  Writers hold
 * op_mutex.
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "arch.h"
#include "internal.h"
#include "ksyms.h"

struct op_slot_area {
	struct list_head list;		/* in op_slot_areas (op_mutex) */
	struct list_head free;		/* on a list of areas to free */
	struct rcu_head rcu;
	void *area;			/* what the backend allocated */
	void *text;			/* the first slot */
	unsigned int nslots;
	unsigned int used;
	unsigned int free_from;		/* every slot below it is taken */
	struct op_site *owner[];
};

static LIST_HEAD(op_slot_areas);
static unsigned int op_slot_nr_areas;
static unsigned long op_slot_bytes;	/* the slot space of op_slot_areas */

/* An eighth of the space held, in whole pages, from one page to OP_SLOT_AREA_MAX. */
#define OP_SLOT_AREA_MAX	(16 * PAGE_SIZE)

static size_t op_slot_area_size(void)
{
	return clamp_t(size_t, PAGE_ALIGN(op_slot_bytes / 8), PAGE_SIZE, OP_SLOT_AREA_MAX);
}

static void op_slot_area_link(struct op_slot_area *sa)
{
	list_add(&sa->list, &op_slot_areas);
	op_slot_nr_areas++;
	op_slot_bytes += sa->nslots * OP_SLOT_SIZE;
}

static void op_slot_area_unlink(struct op_slot_area *sa)
{
	list_del(&sa->list);
	op_slot_nr_areas--;
	op_slot_bytes -= sa->nslots * OP_SLOT_SIZE;
}

/*
 * The areas of op_slot_areas sorted by address, for lookups: each one's
 * range kept beside it, so that a search reads the index alone.
 */
struct op_slot_index {
	struct rcu_head rcu;
	unsigned int nr;
	struct op_slot_range {
		unsigned long start, size;
		struct op_slot_area *sa;
	} range[];
};

static struct op_slot_index __rcu *op_slot_index;

/* inline: on the hit path, the trap after an out-of-line copy calls op_slot_owner() */
static __always_inline struct op_slot_area *op_slot_area_of(unsigned long addr)
{
	const struct op_slot_index *idx;
	const struct op_slot_range *r;
	unsigned int lo = 0, hi, mid;

	idx = rcu_dereference_check(op_slot_index,
				    lockdep_is_held(&op_mutex) || rcu_read_lock_any_held());
	if (!idx)
		return NULL;
	/* the last area starting at or below @addr */
	for (hi = idx->nr; hi - lo > 1;) {
		mid = lo + (hi - lo) / 2;
		if (idx->range[mid].start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	r = &idx->range[lo];
	return addr - r->start < r->size ? r->sa : NULL;
}

static int op_slot_range_cmp(const void *a, const void *b)
{
	unsigned long x = ((const struct op_slot_range *)a)->start;
	unsigned long y = ((const struct op_slot_range *)b)->start;

	return x < y ? -1 : x > y;
}

/*
 * Publish an index of op_slot_areas as it is now; the old one is freed
 * after a grace period.  On -ENOMEM the old index stays.
 */
static int op_slot_index_publish(void)
{
	struct op_slot_index *idx = NULL, *old;
	struct op_slot_area *sa;
	unsigned int i = 0;

	lockdep_assert_held(&op_mutex);
	if (op_slot_nr_areas) {
		idx = kvmalloc(struct_size(idx, range, op_slot_nr_areas), GFP_KERNEL);
		if (!idx)
			return -ENOMEM;
		list_for_each_entry(sa, &op_slot_areas, list) {
			if (WARN_ON_ONCE(i == op_slot_nr_areas))
				break;
			idx->range[i].start = (unsigned long)sa->text;
			idx->range[i].size = sa->nslots * OP_SLOT_SIZE;
			idx->range[i++].sa = sa;
		}
		idx->nr = i;
		sort(idx->range, i, sizeof(idx->range[0]), op_slot_range_cmp, NULL);
	}
	old = rcu_replace_pointer(op_slot_index, idx, lockdep_is_held(&op_mutex));
	if (old)
		kvfree_rcu(old, rcu);
	return 0;
}

/*
 * Take @areas (linked by ->free) off op_slot_areas and out of the index:
 * no new lookup finds them; one still reading the old index may, until a
 * grace period has passed (op_slot_areas_free() keeps their bookkeeping
 * that long).  -ENOMEM: no index without them could be made, and they
 * stay for a later try.
 */
static int op_slot_areas_unlist(struct list_head *areas)
{
	struct op_slot_area *sa;

	list_for_each_entry(sa, areas, free)
		op_slot_area_unlink(sa);
	if (!op_slot_index_publish())
		return 0;
	list_for_each_entry(sa, areas, free)
		op_slot_area_link(sa);
	return -ENOMEM;
}

/*
 * Free @areas (linked by ->free), which have no owner and are out of the
 * index: no task can be inside (op_quiesce() has passed, or no slot was
 * ever used).
 */
static void op_slot_areas_free(struct list_head *areas)
{
	struct op_slot_area *sa, *tmp;

	list_for_each_entry_safe(sa, tmp, areas, free) {
		op_arch_slot_area_free(sa->area);
		kvfree_rcu(sa, rcu);
	}
}

/*
 * How many of an area's @nslots slots, at @text, to use.  An area of a
 * page or more has about a power of two of slots, and their owners would
 * fill about a power of two of bytes; with the bookkeeping before them, a
 * little more, which kmalloc rounds up to the next power of two, nearly
 * twice as much.  The last few slots stay unused instead, as long as they
 * are few (a sixteenth at most) and not in kernel text, where every slot
 * counts (powerpc's detours near kernel text, core-tail.c).
 */
static unsigned int op_slot_area_nslots(const void *text, unsigned int nslots)
{
	size_t size = sizeof(struct op_slot_area) + nslots * sizeof(struct op_site *);
	size_t fit = rounddown_pow_of_two(size);
	unsigned int n;

	if (fit < sizeof(struct op_slot_area) || op_kcall(core_kernel_text)((unsigned long)text))
		return nslots;
	n = (fit - sizeof(struct op_slot_area)) / sizeof(struct op_site *);
	return nslots - n <= nslots / 16 ? n : nslots;
}

static struct op_slot_area *op_slot_area_new(unsigned long addr, bool near)
{
	unsigned int nslots;
	struct op_slot_area *sa;
	void *area, *text;

	area = op_arch_slot_area_alloc(addr, near, op_slot_area_size(), &text, &nslots);
	if (!area)
		return NULL;
	nslots = op_slot_area_nslots(text, nslots);
	sa = kvzalloc(struct_size(sa, owner, nslots), GFP_KERNEL);
	if (!sa) {
		op_arch_slot_area_free(area);
		return NULL;
	}
	sa->area = area;
	sa->text = text;
	sa->nslots = nslots;
	op_slot_area_link(sa);
	if (op_slot_index_publish()) {
		/* no index ever held it: it goes at once */
		op_slot_area_unlink(sa);
		op_arch_slot_area_free(area);
		kvfree(sa);
		return NULL;
	}
	return sa;
}

/*
 * The first run of @n free slots in @sa, or -1.  From sa->free_from:
 * areas fill up in order, and a scan from the start would make filling
 * one quadratic in its slots (thousands in a 64 KiB page).
 */
static int op_slot_area_fit(const struct op_slot_area *sa, unsigned int n)
{
	unsigned int i, run = 0;

	for (i = sa->free_from; i < sa->nslots; i++) {
		run = sa->owner[i] ? 0 : run + 1;
		if (run == n)
			return i + 1 - n;
	}
	return -1;
}

/**
 * op_slot_alloc() - give a site slot space
 * @site:	the owner
 * @slot:	where to store the address of the space (&site->slot or
 *		&site->detour)
 * @size:	bytes wanted; whole slots are taken, within one area
 * @near:	the space must be in reach of site->addr
 *		(op_arch_slot_reaches()); otherwise anywhere will do
 *
 * Context: op_mutex held.
 * Return: 0 or -ENOMEM.
 */
int op_slot_alloc(struct op_site *site, void **slot, size_t size, bool near)
{
	unsigned int i, n = DIV_ROUND_UP(size, OP_SLOT_SIZE);
	struct op_slot_area *sa;
	int first;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(sa, &op_slot_areas, list) {
		if (sa->used + n > sa->nslots)
			continue;
		if (near && !op_arch_slot_reaches(sa->text, site->addr))
			continue;
		/* room in kernel text (ppc64le: the kernel's detour cache) is for detours */
		if (!near && op_kcall(core_kernel_text)((unsigned long)sa->text))
			continue;
		first = op_slot_area_fit(sa, n);
		if (first >= 0)
			goto found;
	}
	sa = op_slot_area_new(site->addr, near);
	if (!sa)
		return -ENOMEM;
	first = op_slot_area_fit(sa, n);
	if (first < 0) {
		LIST_HEAD(unfit);

		list_add(&sa->free, &unfit);
		if (!op_slot_areas_unlist(&unfit))
			op_slot_areas_free(&unfit);
		return -ENOMEM;
	}
found:
	sa->used += n;
	*slot = sa->text + first * OP_SLOT_SIZE;
	/* Published before the site is armed or optimized, which orders it. */
	for (i = first; i < first + n; i++)
		WRITE_ONCE(sa->owner[i], site);
	while (sa->free_from < sa->nslots && sa->owner[sa->free_from])
		sa->free_from++;
	return 0;
}

/**
 * op_slot_owner() - the site whose slot holds an address
 * @addr:	an address, typically of a trap inside a slot
 *
 * Context: preemption disabled (the hit path), or op_mutex held.
 * Return: the site, or NULL if @addr is in no slot.
 */
notrace struct op_site *op_slot_owner(unsigned long addr)
{
	struct op_slot_area *sa = op_slot_area_of(addr);

	if (!sa)
		return NULL;
	return READ_ONCE(sa->owner[(addr - (unsigned long)sa->text) / OP_SLOT_SIZE]);
}

NOKPROBE_SYMBOL(op_slot_owner);

/**
 * op_slot_area() - the area holding a slot
 * @slot:	slot space from op_slot_alloc()
 *
 * Context: op_mutex held.
 * Return: the area's start, as op_arch_slot_area_alloc() returned it.
 */
void *op_slot_area(const void *slot)
{
	lockdep_assert_held(&op_mutex);
	return op_slot_area_of((unsigned long)slot)->area;
}

/* Slot @i of @sa is free again. */
static void op_slot_put(struct op_slot_area *sa, unsigned int i)
{
	WRITE_ONCE(sa->owner[i], NULL);
	sa->used--;
	sa->free_from = min(sa->free_from, i);
}

/* Give back the slot space at @slot, which @site owns. */
static void op_slot_free(struct op_site *site, void *slot)
{
	struct op_slot_area *sa = op_slot_area_of((unsigned long)slot);
	unsigned int i;

	for (i = (slot - sa->text) / OP_SLOT_SIZE; i < sa->nslots && sa->owner[i] == site; i++)
		op_slot_put(sa, i);
}

/**
 * op_slot_drop() - give back slot space that nothing can have reached
 * @site:	its owner
 * @slot:	&site->slot or &site->detour, as given to op_slot_alloc()
 * @size:	the size asked of op_slot_alloc()
 *
 * For a backend that could not fill the space (a detour with an operand
 * out of its reach): no text leads there yet, so no grace period is due.
 * Exactly the slots of that space go: the site's other space may follow
 * them in the area.  An area this leaves empty goes with the next
 * op_slots_release().
 *
 * Context: op_mutex held.
 */
void op_slot_drop(struct op_site *site, void **slot, size_t size)
{
	struct op_slot_area *sa = op_slot_area_of((unsigned long)*slot);
	unsigned int i = (*slot - sa->text) / OP_SLOT_SIZE;
	unsigned int end = i + DIV_ROUND_UP(size, OP_SLOT_SIZE);

	lockdep_assert_held(&op_mutex);
	for (; i < end; i++) {
		WARN_ON_ONCE(sa->owner[i] != site);
		op_slot_put(sa, i);
	}
	*slot = NULL;
}

/**
 * op_slots_release() - free the slots of sites no task can be inside
 * @sites:	sites linked by ->link, past op_quiesce()
 *
 * Both a site's slot and its detour go, and areas left without owners:
 * on powerpc a slot of the kernel's own detour cache is back in it
 * before unregistering returns, for the kernel's kprobes.
 *
 * Context: op_mutex held; sleeps.
 */
void op_slots_release(struct list_head *sites)
{
	struct op_slot_area *sa, *tmp;
	struct op_site *site;
	LIST_HEAD(empty);

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(site, sites, link) {
		if (site->slot)
			op_slot_free(site, site->slot);
		if (site->detour)
			op_slot_free(site, site->detour);
		site->slot = NULL;
		site->detour = NULL;
	}
	list_for_each_entry_safe(sa, tmp, &op_slot_areas, list)
		if (!sa->used)
			list_add(&sa->free, &empty);
	if (!list_empty(&empty) && !op_slot_areas_unlist(&empty))
		op_slot_areas_free(&empty);
}

/* Debugfs: one line per slot area: its slots' address and bytes, slots used/total. */
void op_slots_show(struct seq_file *m)
{
	struct op_slot_area *sa;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(sa, &op_slot_areas, list)
		seq_printf(m, "0x%lx %u %u/%u\n", (unsigned long)sa->text,
			   sa->nslots * OP_SLOT_SIZE, sa->used, sa->nslots);
}

unsigned int op_slots_used(void)
{
	struct op_slot_area *sa;
	unsigned int used = 0;

	mutex_lock(&op_mutex);
	list_for_each_entry(sa, &op_slot_areas, list)
		used += sa->used;
	mutex_unlock(&op_mutex);
	return used;
}
EXPORT_SYMBOL_NS_GPL(op_slots_used, OPTPROBE_INTERNAL);
