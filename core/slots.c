// SPDX-License-Identifier: GPL-2.0
/*
 * The slot allocator: executable pages cut into OP_SLOT_SIZE slots that
 * hold out-of-line copies of probed instructions and jump-optimization
 * detours (a run of slots).
 *
 * Pages come from the backend (op_arch_slot_page_alloc()), which places
 * them where the copies work: within rel32 reach of all kernel and module
 * text on x86_64, within a branch's reach of the probed text on powerpc.
 * Each slot records the site that owns it, so that a backend's trap
 * handler can find the site from an address inside a slot
 * (op_slot_owner()) without any per-CPU state: a task may be preempted or
 * migrate while it executes a slot.
 *
 * A slot is released only after the grace period that guarantees no task
 * is still inside it (see op_quiesce()), and a page once it has no owner
 * left and one more RCU grace period has passed for lookups walking the
 * page list.  Writers hold op_mutex.
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "arch.h"
#include "internal.h"

#define OP_SLOTS_PER_PAGE	(PAGE_SIZE / OP_SLOT_SIZE)

struct op_slot_page {
	struct list_head list;		/* in op_slot_pages */
	struct list_head free;		/* on a list of pages to free */
	void *text;
	unsigned int used;
	struct op_site *owner[OP_SLOTS_PER_PAGE];
};

static LIST_HEAD(op_slot_pages);

static struct op_slot_page *op_slot_page_of(unsigned long addr)
{
	struct op_slot_page *page;

	list_for_each_entry_rcu(page, &op_slot_pages, list, lockdep_is_held(&op_mutex))
		if (addr - (unsigned long)page->text < PAGE_SIZE)
			return page;
	return NULL;
}

NOKPROBE_SYMBOL(op_slot_page_of);

static struct op_slot_page *op_slot_page_new(unsigned long addr, bool near)
{
	struct op_slot_page *page = kzalloc(sizeof(*page), GFP_KERNEL);

	if (!page)
		return NULL;
	page->text = op_arch_slot_page_alloc(addr, near);
	if (!page->text) {
		kfree(page);
		return NULL;
	}
	list_add_rcu(&page->list, &op_slot_pages);
	return page;
}

/* The first run of @n free slots in @page, or -1. */
static int op_slot_page_fit(const struct op_slot_page *page, unsigned int n)
{
	unsigned int i, run = 0;

	for (i = 0; i < OP_SLOTS_PER_PAGE; i++) {
		run = page->owner[i] ? 0 : run + 1;
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
 * @size:	bytes wanted, at most PAGE_SIZE; whole slots are taken
 * @near:	the space must be in reach of site->addr
 *		(op_arch_slot_reaches()); otherwise anywhere will do
 *
 * Context: op_mutex held.
 * Return: 0 or -ENOMEM.
 */
int op_slot_alloc(struct op_site *site, void **slot, size_t size, bool near)
{
	unsigned int i, n = DIV_ROUND_UP(size, OP_SLOT_SIZE);
	struct op_slot_page *page;
	int first;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(page, &op_slot_pages, list) {
		if (near && !op_arch_slot_reaches(page->text, site->addr))
			continue;
		first = op_slot_page_fit(page, n);
		if (first >= 0)
			goto found;
	}
	page = op_slot_page_new(site->addr, near);
	if (!page)
		return -ENOMEM;
	first = 0;
found:
	page->used += n;
	*slot = page->text + first * OP_SLOT_SIZE;
	/* Published before the site is armed or optimized, which orders it. */
	for (i = first; i < first + n; i++)
		WRITE_ONCE(page->owner[i], site);
	return 0;
}

/**
 * op_slot_owner() - the site whose slot holds an address
 * @addr:	an address, typically of a trap inside a slot
 *
 * Context: preemption disabled (the hit path), or op_mutex held.
 * Return: the site, or NULL if @addr is in no slot.
 */
struct op_site *op_slot_owner(unsigned long addr)
{
	struct op_slot_page *page = op_slot_page_of(addr);

	if (!page)
		return NULL;
	return READ_ONCE(page->owner[(addr - (unsigned long)page->text) / OP_SLOT_SIZE]);
}

NOKPROBE_SYMBOL(op_slot_owner);

/* Give back the slot space at @slot, which @site owns. */
static void op_slot_free(struct op_site *site, void *slot)
{
	struct op_slot_page *page = op_slot_page_of((unsigned long)slot);
	unsigned int i;

	for (i = (slot - page->text) / OP_SLOT_SIZE;
	     i < OP_SLOTS_PER_PAGE && page->owner[i] == site; i++) {
		WRITE_ONCE(page->owner[i], NULL);
		page->used--;
	}
}

/**
 * op_slots_release() - free the slots of sites no task can be inside
 * @sites:	sites on their ->release lists, past op_quiesce()
 *
 * Both a site's slot and its detour go.  Pages left without owners are
 * freed after one more grace period, for op_slot_owner() lookups that may
 * still be walking past them.
 *
 * Context: op_mutex held; sleeps.
 */
void op_slots_release(struct list_head *sites)
{
	struct op_slot_page *page, *tmp;
	struct op_site *site;
	LIST_HEAD(empty);

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(site, sites, release) {
		if (site->slot)
			op_slot_free(site, site->slot);
		if (site->detour)
			op_slot_free(site, site->detour);
		site->slot = NULL;
		site->detour = NULL;
	}
	list_for_each_entry_safe(page, tmp, &op_slot_pages, list) {
		if (page->used)
			continue;
		/* ->list stays intact for readers still walking it */
		list_del_rcu(&page->list);
		list_add(&page->free, &empty);
	}
	if (list_empty(&empty))
		return;
	synchronize_rcu();
	list_for_each_entry_safe(page, tmp, &empty, free) {
		op_arch_slot_page_free(page->text);
		kfree(page);
	}
}

/* Debugfs: one line per slot page. */
void op_slots_show(struct seq_file *m)
{
	struct op_slot_page *page;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(page, &op_slot_pages, list)
		seq_printf(m, "0x%lx %lu %u/%lu\n", (unsigned long)page->text,
			   PAGE_SIZE, page->used, OP_SLOTS_PER_PAGE);
}
