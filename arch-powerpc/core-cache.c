// SPDX-License-Identifier: GPL-2.0
/*
 * Detour space near kernel-core text: slots of the kernel's own
 * instruction-slot cache for optimized kprobes, kprobe_optinsn_slots.
 *
 * The cache cuts the first page of the kernel's 64 KiB detour area
 * (optinsn_slot, in kernel text) into slots of the kernel's detour size;
 * the kernel's own kprobes use a few.  optprobe is a second tenant: it
 * takes and returns whole slots only through the kernel's
 * __get_insn_slot() and __free_insn_slot(), which take the cache's mutex,
 * and never writes a byte outside the slots it got.  It leaves the kernel
 * a share: at most op_ppc_core_share slots are optprobe's (by default all
 * but 16 of those free at load).  Where pages are smaller than the area,
 * the rest of it is core-tail.c's, which asks this file to prove from the
 * running kernel that it is nobody's (op_ppc_core_page_pin()).
 *
 * Finding the cache: the kernel has no KALLSYMS_ALL, so the data symbol
 * is not in kallsyms.  Three kernel functions pass it to a call in r3:
 * arch_prepare_optimized_kprobe() to __get_insn_slot(),
 * arch_remove_optimized_kprobe() to __free_insn_slot(), and
 * kprobe_get_kallsym() to kprobe_cache_get_kallsym() (after the other
 * cache, kprobe_insn_slots).  toc-ref.c decodes each; at least two must
 * agree, and the structure found must check out: its alloc and free are
 * alloc_optinsn_page() and free_optinsn_page(), its sym is the kernel's
 * name for the page, its insn_size the size of the kernel's detour
 * template.  If anything fails, kernel-core probes stay traps, with the
 * failed check as their reason; the module loads all the same.
 *
 * Lock order: op_mutex, then the cache's mutex (inside the kernel's
 * calls).  The kernel never calls into optprobe with the cache's mutex
 * held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "arch.h"
#include "core-cache.h"
#include "exports.h"
#include "ksyms.h"
#include "toc-ref.h"

/*
 * What the share is by default: the kernel keeps this many free slots, or
 * a quarter of them where slots are few.  The cache cuts one page of the
 * area into slots: Debian's 6.1 has 64 KiB pages, 150 slots of 436 bytes;
 * its 6.12 has 4 KiB pages, 9 slots, and the other 60 KiB of the area are
 * used by nobody but optprobe (core-tail.c).
 */
#define OP_PPC_CORE_KERNEL_KEEPS	16

/* Every reason why the cache was not found begins so, then names the check. */
#define OP_PPC_NOT_FOUND	"kernel-core detour cache not found: "

/* The longest function read for TOC references. */
#define OP_PPC_CORE_FUNC_MAX		(2 * SZ_1K)

static int op_ppc_core_share = -1;
module_param_named(core_slots, op_ppc_core_share, int, 0444);
MODULE_PARM_DESC(core_slots,
		 "Most slots of the kernel's kprobe detour cache optprobe holds (default -1: all but 16 of those free at load)");

static bool op_ppc_core_test_fail;
module_param_named(core_cache_test_fail, op_ppc_core_test_fail, bool, 0444);
MODULE_PARM_DESC(core_cache_test_fail,
		 "For tests only: act as if the kernel's detour cache could not be found, so that kernel-core probes stay traps (default off)");

static struct kprobe_insn_cache *op_ppc_cache;	/* NULL: not found, see why */
static const char *op_ppc_cache_why;
static unsigned int op_ppc_cache_votes;		/* call sites that agreed */
static unsigned int op_ppc_core_held;		/* slots optprobe holds */
static unsigned int op_ppc_core_peak;

/*
 * kernel/kprobes.c's page of slots, declared in no header: read only to
 * show and test the kernel's own use, under the cache's mutex.
 */
struct op_ppc_insn_page {
	struct list_head list;
	kprobe_opcode_t *insns;
	struct kprobe_insn_cache *cache;
	int nused;
	int ngarbage;
	char slot_used[];
};

/* Slots per page, as kernel/kprobes.c counts them. */
static unsigned int op_ppc_cache_slots_per_page(void)
{
	return PAGE_SIZE / (op_ppc_cache->insn_size * sizeof(kprobe_opcode_t));
}

/* The cache's slots in use, the kernel's and optprobe's, and how many there are. */
static unsigned int op_ppc_cache_used(unsigned int *total)
{
	struct op_ppc_insn_page *page;
	unsigned int used = 0;

	*total = 0;
	mutex_lock(&op_ppc_cache->mutex);
	list_for_each_entry(page, &op_ppc_cache->pages, list) {
		used += page->nused;
		*total += op_ppc_cache_slots_per_page();
	}
	mutex_unlock(&op_ppc_cache->mutex);
	return used;
}

/**
 * op_ppc_refs_in() - the data addresses kernel function @func passes in r3
 * to each call of @callee (toc-ref.c)
 * @func:	the function's name
 * @callee:	the callee's global entry
 * @found:	the addresses
 * @max:	room in @found
 *
 * Return: how many were found.
 */
int op_ppc_refs_in(const char *func, u64 callee, u64 *found, unsigned int max)
{
	unsigned long start = op_kcall(kallsyms_lookup_name)(func), size, off;
	u32 *words;
	int n;

	if (!start || !op_kcall(kallsyms_lookup_size_offset)(start, &size, &off))
		return 0;
	size = min_t(unsigned long, size, OP_PPC_CORE_FUNC_MAX);
	words = kmalloc(size, GFP_KERNEL);
	if (!words)
		return 0;
	n = copy_from_kernel_nofault(words, (void *)start, size) ? 0 :
		op_ppc_toc_refs(words, size / sizeof(u32), start, callee, found, max);
	kfree(words);
	return max_t(int, n, 0);
}

/* The one address @found[0..@n) holds, or 0: a function's calls all pass the same. */
u64 op_ppc_same(const u64 *found, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (found[i] != found[0])
			return 0;
	return n > 0 ? found[0] : 0;
}

/* The address at least two call sites agree on, or 0 with op_ppc_cache_why set. */
static unsigned long op_ppc_cache_decode(void)
{
	u64 found[4], cand[3];
	unsigned int i, j, votes;
	int n;

	n = op_ppc_refs_in("arch_prepare_optimized_kprobe",
			   op_kcall_addr(__get_insn_slot), found, ARRAY_SIZE(found));
	cand[0] = op_ppc_same(found, n);
	n = op_ppc_refs_in("arch_remove_optimized_kprobe",
			   op_kcall_addr(__free_insn_slot), found, ARRAY_SIZE(found));
	cand[1] = op_ppc_same(found, n);
	/* kprobe_insn_slots first, then kprobe_optinsn_slots (kernel/kprobes.c) */
	n = op_ppc_refs_in("kprobe_get_kallsym",
			   (unsigned long)op_ksyms.arch.kprobe_cache_get_kallsym, found,
			   ARRAY_SIZE(found));
	cand[2] = n == 2 ? found[1] : 0;
	for (i = 0; i < ARRAY_SIZE(cand); i++) {
		for (j = 0, votes = 0; j < ARRAY_SIZE(cand); j++)
			votes += cand[i] && cand[j] == cand[i];
		if (votes >= 2) {
			op_ppc_cache_votes = votes;
			return cand[i];
		}
	}
	op_ppc_cache_why = OP_PPC_NOT_FOUND
		"fewer than two of its kernel call sites decode to one address";
	return 0;
}

/* Does the structure at @addr check out as kprobe_optinsn_slots? */
static struct kprobe_insn_cache *op_ppc_cache_check(unsigned long addr)
{
	const struct op_arch_ksyms *k = &op_ksyms.arch;
	size_t detour = *k->optprobe_template_end - *k->optprobe_template_entry;
	char name[sizeof(KPROBE_OPTINSN_PAGE_SYM)];
	struct kprobe_insn_cache c;

	if (copy_from_kernel_nofault(&c, (void *)addr, sizeof(c))) {
		op_ppc_cache_why = OP_PPC_NOT_FOUND "the address decoded is unreadable";
		return NULL;
	}
	if (c.alloc != k->alloc_optinsn_page || c.free != k->free_optinsn_page) {
		op_ppc_cache_why = OP_PPC_NOT_FOUND
			"its alloc/free are not alloc_optinsn_page/free_optinsn_page";
		return NULL;
	}
	if (copy_from_kernel_nofault(name, c.sym, sizeof(name)) ||
	    memcmp(name, KPROBE_OPTINSN_PAGE_SYM, sizeof(name))) {
		op_ppc_cache_why = OP_PPC_NOT_FOUND "its sym is not " KPROBE_OPTINSN_PAGE_SYM;
		return NULL;
	}
	if (c.insn_size != detour) {
		op_ppc_cache_why = OP_PPC_NOT_FOUND "its insn_size is not the kernel's detour size";
		return NULL;
	}
	return (struct kprobe_insn_cache *)addr;
}

/* kernel/kprobes.c's states of a slot in slot_used[] */
enum { OP_PPC_SLOT_CLEAN, OP_PPC_SLOT_DIRTY, OP_PPC_SLOT_USED };

/*
 * Does the cache's page list read as the kernel's own struct
 * kprobe_insn_page (op_ppc_insn_page is a copy of a kernel-private
 * type)?  Each page points back at the cache, and its counts agree with
 * its slots' states.
 */
static bool op_ppc_cache_pages_agree(struct kprobe_insn_cache *cache)
{
	unsigned int i, n = PAGE_SIZE / (cache->insn_size * sizeof(kprobe_opcode_t));
	struct op_ppc_insn_page *page;
	int used, dirty;
	bool agree = true;

	mutex_lock(&cache->mutex);
	list_for_each_entry(page, &cache->pages, list) {
		if (page->cache != cache) {
			agree = false;
			break;
		}
		for (i = 0, used = 0, dirty = 0; i < n; i++) {
			used += page->slot_used[i] == OP_PPC_SLOT_USED;
			dirty += page->slot_used[i] == OP_PPC_SLOT_DIRTY;
			agree &= page->slot_used[i] <= OP_PPC_SLOT_USED;
		}
		agree &= used == page->nused && dirty == page->ngarbage;
		if (!agree)
			break;
	}
	mutex_unlock(&cache->mutex);
	return agree;
}

/* Find and check the cache, and set the share. */
static void op_ppc_cache_find(void)
{
	unsigned int used, total, keeps;
	unsigned long addr;

	op_ppc_cache = NULL;
	op_ppc_cache_votes = 0;
	if (op_ppc_core_test_fail) {
		op_ppc_cache_why = OP_PPC_NOT_FOUND "lookup disabled (core_cache_test_fail)";
		return;
	}
	/*
	 * With KALLSYMS_ALL (6.12) kallsyms knows it, and the decoding (all
	 * 6.1 has) is only checked against it; else decode.
	 */
	addr = op_kcall(kallsyms_lookup_name)("kprobe_optinsn_slots");
	if (addr) {
		unsigned long decoded = op_ppc_cache_decode();

		pr_info("kernel-core detours: the call-site decoding %s kallsyms (%u votes)\n",
			decoded == addr ? "agrees with" : "DISAGREES with", op_ppc_cache_votes);
		op_ppc_cache_votes = 0;
	} else {
		addr = op_ppc_cache_decode();
	}
	if (!addr)
		return;
	op_ppc_cache = op_ppc_cache_check(addr);
	if (!op_ppc_cache)
		return;
	if (!op_ppc_cache_pages_agree(op_ppc_cache)) {
		op_ppc_cache = NULL;
		op_ppc_cache_why = OP_PPC_NOT_FOUND
			"its pages do not read as the kernel's struct kprobe_insn_page";
		return;
	}
	op_ppc_cache_why = NULL;
	if (op_ppc_core_share < 0) {
		used = op_ppc_cache_used(&total);
		/*
		 * No page yet (no optimized kprobe of the kernel's since boot,
		 * as on 6.12): the first slot taken brings the kernel's one
		 * page (alloc_optinsn_page()).
		 */
		if (!total)
			total = op_ppc_cache_slots_per_page();
		keeps = min_t(unsigned int, OP_PPC_CORE_KERNEL_KEEPS, total / 4);
		op_ppc_core_share = max_t(int, total - used - keeps, 0);
	}
}

/**
 * op_ppc_core_cache_init() - find the kernel's detour cache, at load
 *
 * Never fails: without the cache, kernel-core probes stay traps and say
 * why (op_ppc_core_cache_why()).
 */
void __init op_ppc_core_cache_init(void)
{
	op_ppc_cache_find();
	if (op_ppc_cache && !op_ppc_cache_votes)
		pr_info("kernel-core detours: kprobe_optinsn_slots found through kallsyms, share %d slots\n",
			op_ppc_core_share);
	else if (op_ppc_cache)
		pr_info("kernel-core detours: kprobe_optinsn_slots found (%u call sites agree), share %d slots\n",
			op_ppc_cache_votes, op_ppc_core_share);
	else
		pr_info("%s\n", op_ppc_cache_why);
}

/**
 * op_ppc_core_slot_get() - take a slot of the kernel's detour cache
 * @size:	its size in bytes
 *
 * Context: op_mutex held; process context, sleeps.
 * Return: the slot, or NULL: cache not found, optprobe's share used up,
 * or the cache full (op_ppc_core_cache_why() says which).
 */
void *op_ppc_core_slot_get(size_t *size)
{
	void *slot;

	lockdep_assert_held(&op_mutex);
	if (!op_ppc_cache || op_ppc_core_held >= (unsigned int)op_ppc_core_share)
		return NULL;
	slot = op_kcall(__get_insn_slot)(op_ppc_cache);
	if (!slot)
		return NULL;
	op_ppc_core_held++;
	op_ppc_core_peak = max(op_ppc_core_peak, op_ppc_core_held);
	*size = op_ppc_cache->insn_size * sizeof(kprobe_opcode_t);
	return slot;
}

/**
 * op_ppc_core_slot_put() - give a slot back to the kernel's detour cache
 * @slot:	a slot from op_ppc_core_slot_get(), that no task can be
 *		inside any more (after op_quiesce()): the kernel may reuse
 *		it at once
 *
 * Context: op_mutex held; process context, sleeps.
 */
void op_ppc_core_slot_put(void *slot)
{
	lockdep_assert_held(&op_mutex);
	op_kcall(__free_insn_slot)(op_ppc_cache, slot, 0);
	op_ppc_core_held--;
}

/**
 * op_ppc_core_page_pin() - hold a slot of the kernel's detour cache, and
 * prove from the running kernel that the rest of its area is nobody's
 * @why:	set to the check that failed
 * @lasting:	set if that check would fail again: the kernel is not as
 *		expected; else (no cache, no slot left) it may pass later
 *
 * The kernel's page allocator for the cache, alloc_optinsn_page(), hands
 * out optinsn_slot once and nothing while it is in use: the rest of the
 * area is nobody's while the cache has that one page.  The slot held (the
 * pin) keeps it in use: the kernel frees a page only once it has no slot
 * used, and never its last one.  Then the cache must have exactly that
 * page, and its own allocator, asked under the cache's mutex as the
 * kernel asks it, must have no other to give.
 *
 * Context: op_mutex held; sleeps.
 * Return: the pin, for op_ppc_core_slot_put() once the rest of the area
 * is given back, or NULL.
 */
void *op_ppc_core_page_pin(const char **why, bool *lasting)
{
	struct op_ppc_insn_page *page;
	unsigned int pages = 0;
	void *pin, *other = NULL;
	bool ours = false;
	size_t size;

	lockdep_assert_held(&op_mutex);
	*lasting = false;
	if (!op_ppc_cache) {
		*why = "the kernel's detour cache was not found";
		return NULL;
	}
	pin = op_ppc_core_slot_get(&size);
	if (!pin) {
		*why = "no slot of the cache left to pin its page";
		return NULL;
	}
	*lasting = true;
	mutex_lock(&op_ppc_cache->mutex);
	list_for_each_entry(page, &op_ppc_cache->pages, list) {
		pages++;
		ours = page->insns == op_ksyms.arch.optinsn_slot;
	}
	if (pages == 1 && ours) {
		other = op_ppc_cache->alloc();
		/* as the kernel gives back a page it did not use */
		if (other)
			op_ppc_cache->free(other);
	}
	mutex_unlock(&op_ppc_cache->mutex);
	if (pages != 1 || !ours) {
		*why = "the cache does not have exactly one page, at optinsn_slot";
	} else if (other) {
		*why = "alloc_optinsn_page() gave a page while the cache's was in use";
	} else {
		*why = NULL;
		return pin;
	}
	op_ppc_core_slot_put(pin);
	return NULL;
}

/**
 * op_ppc_core_cache_why() - why no slot of the kernel's detour cache
 *
 * Context: op_mutex held.
 * Return: the reason for a kernel-core probe that stays a trap.
 */
enum op_reason op_ppc_core_cache_why(void)
{
	return op_ppc_cache ? OP_R_CORE_CACHE_FULL : OP_R_CORE_CACHE_NOT_FOUND;
}

/**
 * op_ppc_core_cache_used() - slots of the kernel's detour cache in use
 * @optprobe:	set to how many of them optprobe holds
 *
 * For the tests: the kernel's own use is the difference.
 *
 * Return: the slots in use, or -ENOENT if the cache was not found.
 */
int op_ppc_core_cache_used(unsigned int *optprobe)
{
	unsigned int total;
	int used;

	if (!op_ppc_cache)
		return -ENOENT;
	mutex_lock(&op_mutex);
	used = op_ppc_cache_used(&total);
	*optprobe = op_ppc_core_held;
	mutex_unlock(&op_mutex);
	return used;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_core_cache_used, OPTPROBE_INTERNAL);

/**
 * op_ppc_core_set_share() - for the tests: change optprobe's share
 * @slots:	the most slots optprobe may hold from now on
 *
 * Slots held beyond it stay until their sites go.
 *
 * Return: the share before.
 */
int op_ppc_core_set_share(int slots)
{
	int was;

	mutex_lock(&op_mutex);
	was = op_ppc_core_share;
	op_ppc_core_share = slots;
	mutex_unlock(&op_mutex);
	return was;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_core_set_share, OPTPROBE_INTERNAL);

/**
 * op_ppc_core_set_test_fail() - for the tests: look for the cache again,
 * failing on purpose or not
 * @fail:	act as if the cache could not be found
 *
 * Return: 0, or -EBUSY while optprobe holds slots of the cache.
 */
int op_ppc_core_set_test_fail(bool fail)
{
	int ret = -EBUSY;

	mutex_lock(&op_mutex);
	if (!op_ppc_core_held) {
		op_ppc_core_test_fail = fail;
		op_ppc_cache_find();
		ret = 0;
	}
	mutex_unlock(&op_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_core_set_test_fail, OPTPROBE_INTERNAL);

static void op_ppc_count_core_stub(struct op_site *site, void *stubs)
{
	*(unsigned int *)stubs += site->detour &&
				  op_kcall(core_kernel_text)((unsigned long)site->detour);
}

/**
 * op_ppc_core_cache_show() - debugfs "core_cache", the cache's part
 * @m:	the file
 *
 * Where the kernel's detour cache is and how it was found, how many slots
 * the kernel and optprobe use, optprobe's share (core-tail.c owns the
 * file and adds the rest of the area).
 *
 * Context: op_mutex held.
 */
void op_ppc_core_cache_show(struct seq_file *m)
{
	unsigned int used, total, stubs = 0;

	lockdep_assert_held(&op_mutex);
	if (!op_ppc_cache) {
		seq_printf(m, "cache: none\nreason: %s\n", op_ppc_cache_why);
		return;
	}
	used = op_ppc_cache_used(&total);
	op_sites_for_each(op_ppc_count_core_stub, &stubs);
	seq_printf(m, "cache: 0x%lx kprobe_optinsn_slots\n", (unsigned long)op_ppc_cache);
	seq_printf(m, "found: TOC references decoded at %u of 3 kernel call sites, fields checked\n",
		   op_ppc_cache_votes);
	seq_printf(m, "slot_bytes: %zu\n", op_ppc_cache->insn_size * sizeof(kprobe_opcode_t));
	seq_printf(m, "slots: %u\n", total);
	seq_printf(m, "kernel_used: %u\n", used - op_ppc_core_held);
	seq_printf(m, "optprobe_share: %d\n", op_ppc_core_share);
	seq_printf(m, "optprobe_used: %u\n", op_ppc_core_held);
	seq_printf(m, "optprobe_peak: %u\n", op_ppc_core_peak);
	seq_printf(m, "optprobe_stubs: %u\n", stubs);
}
