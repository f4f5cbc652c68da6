// SPDX-License-Identifier: GPL-2.0
/*
 * Detour space near kernel-core text past the kernel's detour cache: the
 * rest of its detour area, optinsn_slot.
 *
 * The kernel reserves 64 KiB of kernel text for detours (optinsn_slot, in
 * arch/powerpc/kernel/optprobes_head.S), but its slot cache,
 * kprobe_optinsn_slots, cuts only one page of it into slots: the cache's
 * page allocator, alloc_optinsn_page(), returns optinsn_slot once and
 * NULL while that is in use.  With 64 KiB pages (Debian's 6.1) that page
 * is the whole area; with 4 KiB pages (Debian's 6.12) the 60 KiB after it
 * (the tail) are handed out by nobody.  optprobe hands them out as slot
 * areas, one page-sized chunk at a time.
 *
 * That the tail is nobody's is proved from the running kernel when the
 * first chunk is wanted (op_ppc_core_page_pin(), in core-cache.c, which
 * owns the cache), and kept true while any chunk is out: optprobe holds a
 * slot of the cache's page (the pin), so the page stays in use and the
 * cache never asks its allocator for another.  The tail's words are saved
 * then; every word of a chunk that comes back is written back to what was
 * saved (through the kernel's patching, as all text: op_ppc_write_text()),
 * so that once no chunk is out the area is as the kernel left it, and the
 * pin goes back.  If the proof fails, the tail stays unused and
 * kernel-core probes beyond the cache's share stay traps, saying why
 * (debugfs "core_cache").
 *
 * Everything here runs under op_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <asm/inst.h>
#include <asm/ppc-opcode.h>

#include "arch.h"
#include "core-cache.h"
#include "core-tail.h"
#include "exports.h"
#include "ksyms.h"
#include "slot-write.h"

/* The kernel's area is 64 KiB: at most this many chunks past its first page. */
#define OP_PPC_TAIL_CHUNKS_MAX	(SZ_64K / SZ_4K - 1)

static bool op_ppc_tail_test_fail;
module_param_named(core_tail_test_fail, op_ppc_tail_test_fail, bool, 0444);
MODULE_PARM_DESC(core_tail_test_fail,
		 "For tests only: fail the proof that the rest of the kernel's detour area is free, so that it stays unused (default off)");

static unsigned long op_ppc_tail;		/* the first chunk, 0: no tail */
static unsigned int op_ppc_tail_chunks;
static DECLARE_BITMAP(op_ppc_tail_out, OP_PPC_TAIL_CHUNKS_MAX);
static u32 *op_ppc_tail_saved;			/* the tail's words, while chunks are out */
static void *op_ppc_tail_pin;			/* a slot of the cache, while chunks are out */
/* no tail, or the proof failed for good: why; NULL while it may be used */
static const char *op_ppc_tail_why;
static const char *op_ppc_tail_why_load;	/* what op_ppc_core_tail_init() found */

/**
 * op_ppc_core_tail_init() - find the rest of the kernel's detour area, at load
 *
 * After op_ppc_core_cache_init().  Nothing is taken yet: the proof is
 * made when the first chunk is wanted.
 */
void __init op_ppc_core_tail_init(void)
{
	unsigned long area = (unsigned long)op_ksyms.arch.optinsn_slot;
	unsigned long end = (unsigned long)op_ksyms.arch.optprobe_template_entry;
	unsigned long size, off;

	/*
	 * The area is a ".space" that the template follows: kallsyms must see
	 * nothing else inside it.
	 */
	if (!op_kcall(kallsyms_lookup_size_offset)(area, &size, &off) || off ||
	    size != end - area)
		op_ppc_tail_why = "optinsn_slot's kallsyms size is not its span to the template";
	else if (size <= PAGE_SIZE)
		op_ppc_tail_why = "the cache's page is the whole area";
	else if ((size - PAGE_SIZE) / PAGE_SIZE > OP_PPC_TAIL_CHUNKS_MAX)
		op_ppc_tail_why = "optinsn_slot is larger than the kernel's 64 KiB";
	if (op_ppc_tail_why) {
		op_ppc_tail_why_load = op_ppc_tail_why;
		pr_info("kernel-core detours: no room past the cache's page: %s\n",
			op_ppc_tail_why);
		return;
	}
	op_ppc_tail = area + PAGE_SIZE;
	op_ppc_tail_chunks = (size - PAGE_SIZE) / PAGE_SIZE;
	pr_info("kernel-core detours: %u chunks of %lu bytes past the cache's page, at 0x%lx, once proved free\n",
		op_ppc_tail_chunks, PAGE_SIZE, op_ppc_tail);
}

/*
 * Before the first chunk goes out: pin the cache's page and prove the
 * tail free (op_ppc_core_page_pin()), then save its words.  A failure
 * that would repeat (the kernel is not as expected) is remembered and the
 * tail is not tried again; one that may pass later (no cache slot left
 * for the pin, no memory) is not.
 */
static bool op_ppc_tail_prove(void)
{
	size_t words = op_ppc_tail_chunks * PAGE_SIZE / sizeof(u32), i;
	const char *why = "proof failed on purpose (core_tail_test_fail)";
	bool lasting = true;

	if (op_ppc_tail_test_fail)
		goto refuse;
	op_ppc_tail_pin = op_ppc_core_page_pin(&why, &lasting);
	if (!op_ppc_tail_pin)
		goto refuse;
	op_ppc_tail_saved = kvmalloc_array(words, sizeof(u32), GFP_KERNEL);
	lasting = false;
	if (!op_ppc_tail_saved)
		goto unpin;
	memcpy(op_ppc_tail_saved, (void *)op_ppc_tail, words * sizeof(u32));
	/*
	 * A word with the prefix opcode would be written back as the first
	 * half of an 8-byte instruction (ppc_inst_prefixed()): over the next
	 * word, which may be another chunk's.
	 */
	for (i = 0; i < words; i++)
		if (op_ppc_tail_saved[i] >> 26 == OP_PREFIX)
			break;
	if (i == words)
		return true;
	why = "a word of it has the prefix opcode: it could not be written back alone";
	lasting = true;
	kvfree(op_ppc_tail_saved);
	op_ppc_tail_saved = NULL;
unpin:
	op_ppc_core_slot_put(op_ppc_tail_pin);
	op_ppc_tail_pin = NULL;
refuse:
	if (lasting) {
		op_ppc_tail_why = why;
		pr_info("kernel-core detours: the rest of optinsn_slot refused: %s\n", why);
	}
	return false;
}

/**
 * op_ppc_core_tail_get() - a chunk of the tail that starts in [@lo, @hi]
 * @lo:		the lowest start the caller can use
 * @hi:		the highest
 *
 * Its words are left as they are: nothing branches there yet.
 *
 * Context: op_mutex held; sleeps.
 * Return: the chunk, PAGE_SIZE bytes, or NULL: no tail, the proof
 * failed, all out or none in [@lo, @hi].
 */
void *op_ppc_core_tail_get(unsigned long lo, unsigned long hi)
{
	unsigned long chunk;
	unsigned int k;

	lockdep_assert_held(&op_mutex);
	if (!op_ppc_tail || op_ppc_tail_why)
		return NULL;
	for_each_clear_bit(k, op_ppc_tail_out, op_ppc_tail_chunks) {
		chunk = op_ppc_tail + k * PAGE_SIZE;
		if (chunk >= lo && chunk <= hi)
			break;
	}
	if (k >= op_ppc_tail_chunks)
		return NULL;
	if (bitmap_empty(op_ppc_tail_out, op_ppc_tail_chunks) && !op_ppc_tail_prove())
		return NULL;
	__set_bit(k, op_ppc_tail_out);
	return (void *)chunk;
}

/* Is @area a chunk of the tail? */
bool op_ppc_core_tail_has(const void *area)
{
	unsigned long a = (unsigned long)area;

	return op_ppc_tail && a >= op_ppc_tail &&
	       a < op_ppc_tail + op_ppc_tail_chunks * PAGE_SIZE;
}

/**
 * op_ppc_core_tail_put() - give a chunk back
 * @chunk:	from op_ppc_core_tail_get(), that no task can be inside any
 *		more (after op_quiesce()); a lookup through an older slot
 *		index finds no owner in it (core/slots.c)
 *
 * Its words are written back to what they were before the first chunk
 * went out; after the last one, the pin goes back to the cache.  A chunk
 * that could not be written back stays out: the next proof must not
 * save what optprobe wrote as the kernel's.
 *
 * Context: op_mutex held; sleeps.
 */
void op_ppc_core_tail_put(void *chunk)
{
	unsigned int k = ((unsigned long)chunk - op_ppc_tail) / PAGE_SIZE;
	const u32 *saved = op_ppc_tail_saved + k * PAGE_SIZE / sizeof(u32);

	lockdep_assert_held(&op_mutex);
	if (WARN_ON_ONCE(op_ppc_write_text(chunk, saved, PAGE_SIZE)))
		return;
	__clear_bit(k, op_ppc_tail_out);
	if (!bitmap_empty(op_ppc_tail_out, op_ppc_tail_chunks))
		return;
	kvfree(op_ppc_tail_saved);
	op_ppc_tail_saved = NULL;
	op_ppc_core_slot_put(op_ppc_tail_pin);
	op_ppc_tail_pin = NULL;
}

/**
 * op_ppc_core_tail_exit() - at unload, after every site is gone: no chunk
 * may be out; one that is (its slot area leaked) is written back all the
 * same, so that no veneer into optprobe's freed text stays in the kernel's.
 *
 * Context: process context; sleeps.
 */
void op_ppc_core_tail_exit(void)
{
	unsigned int k;

	mutex_lock(&op_mutex);
	if (WARN_ON_ONCE(!bitmap_empty(op_ppc_tail_out, op_ppc_tail_chunks)))
		for_each_set_bit(k, op_ppc_tail_out, op_ppc_tail_chunks)
			op_ppc_core_tail_put((void *)(op_ppc_tail + k * PAGE_SIZE));
	mutex_unlock(&op_mutex);
}

/**
 * op_ppc_core_tail_refused() - is there a tail that the proof refused?
 *
 * Context: op_mutex held.
 */
bool op_ppc_core_tail_refused(void)
{
	return op_ppc_tail && op_ppc_tail_why;
}

/**
 * op_ppc_core_tail_set_test_fail() - for the tests: make the proof fail
 * on purpose, or not
 * @fail:	fail it from now on
 *
 * Either way the tail may be tried again: a failure remembered before is
 * forgotten.
 *
 * Return: 0, or -EBUSY while a chunk is out.
 */
int op_ppc_core_tail_set_test_fail(bool fail)
{
	int ret = -EBUSY;

	mutex_lock(&op_mutex);
	if (bitmap_empty(op_ppc_tail_out, OP_PPC_TAIL_CHUNKS_MAX)) {
		op_ppc_tail_test_fail = fail;
		op_ppc_tail_why = op_ppc_tail_why_load;
		ret = 0;
	}
	mutex_unlock(&op_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_core_tail_set_test_fail, OPTPROBE_INTERNAL);

/* Debugfs "core_cache": the cache (core-cache.c), then the rest of its area. */
static int core_cache_show(struct seq_file *m, void *v)
{
	mutex_lock(&op_mutex);
	op_ppc_core_cache_show(m);
	if (op_ppc_tail)
		seq_printf(m, "tail: 0x%lx chunks %u\n", op_ppc_tail, op_ppc_tail_chunks);
	else
		seq_puts(m, "tail: none\n");
	seq_printf(m, "tail_out: %u\n", bitmap_weight(op_ppc_tail_out, OP_PPC_TAIL_CHUNKS_MAX));
	seq_printf(m, "tail_refused: %s\n", op_ppc_tail_why ?: "none");
	mutex_unlock(&op_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(core_cache);

void op_arch_debugfs(struct dentry *dir)
{
	debugfs_create_file("core_cache", 0400, dir, NULL, &core_cache_fops);
}
