// SPDX-License-Identifier: GPL-2.0
/*
 * The slot allocator: executable pages cut into OP_SLOT_SIZE slots that
 * hold out-of-line copies of probed instructions.
 *
 * Pages come from the backend (op_arch_slot_page_alloc()), which places
 * them where the copies work: within rel32 reach of all kernel and module
 * text on x86_64.  Each slot records the site that owns it, so that a
 * backend's trap handler can find the site from an address inside a slot
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

static struct op_slot_page *op_slot_page_new(unsigned long near)
{
	struct op_slot_page *page = kzalloc(sizeof(*page), GFP_KERNEL);

	if (!page)
		return NULL;
	page->text = op_arch_slot_page_alloc(near);
	if (!page->text) {
		kfree(page);
		return NULL;
	}
	list_add_rcu(&page->list, &op_slot_pages);
	return page;
}

/**
 * op_slot_alloc() - give a site a slot
 * @site:	the site; site->slot is set on success
 *
 * Context: op_mutex held.
 * Return: 0 or -ENOMEM.
 */
int op_slot_alloc(struct op_site *site)
{
	struct op_slot_page *page;
	unsigned int i;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(page, &op_slot_pages, list)
		if (page->used < OP_SLOTS_PER_PAGE)
			goto found;
	page = op_slot_page_new(site->addr);
	if (!page)
		return -ENOMEM;
found:
	for (i = 0; page->owner[i]; i++)
		;
	page->used++;
	site->slot = page->text + i * OP_SLOT_SIZE;
	/* Published before the site is armed; the arming orders it. */
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

/**
 * op_slots_release() - free the slots of sites no task can be inside
 * @sites:	sites on their ->release lists, past op_quiesce()
 *
 * Pages left without owners are freed after one more grace period, for
 * op_slot_owner() lookups that may still be walking past them.
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
		if (!site->slot)
			continue;
		page = op_slot_page_of((unsigned long)site->slot);
		WRITE_ONCE(page->owner[(site->slot - page->text) / OP_SLOT_SIZE], NULL);
		site->slot = NULL;
		if (!--page->used) {
			/* ->list stays intact for readers still walking it */
			list_del_rcu(&page->list);
			list_add(&page->free, &empty);
		}
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
