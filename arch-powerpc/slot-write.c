// SPDX-License-Identifier: GPL-2.0
/*
 * Writing slots on powerpc64le: words that no CPU runs yet (a new site's
 * out-of-line copy, a new stub, the veneer of a new area), written
 * through a writable alias of their page, not a patch_instruction() per
 * word.
 *
 * Each patch_instruction() maps the page at a temporary address, writes
 * one word and flushes that mapping from the TLB: most of what a stub's
 * 12 words cost on hardware, and all of it under QEMU's TCG, which drops
 * its whole software TLB on each flush (17 us a word).  Here the page is
 * vmap()ed once, on the first write to it in an operation, every write is
 * pushed from the data cache to the instruction cache at once
 * (flush_icache_range() on the address it runs at), as
 * patch_instruction() does, so the words can run as soon as the write
 * returns; the alias goes at the operation's end (op_arch_commit()), or
 * at a write to other pages, and vm_unmap_aliases() then flushes the
 * TLBs of every CPU once: no translation of it outlives the operation.
 * A slot area is at most a page, but the kernel's detour area need not
 * start on one (core-tail.c): a write may span two.
 *
 * Where no alias can be had, and for the kernel-core tail given back
 * (core-tail.c), the kernel's patching writes them: op_ppc_write_text().
 * Live words, a site's instruction and a stub's post switch, are written
 * by patch_instruction() only (patch.c).  Every write is made with
 * op_mutex held, which serializes them.
 */
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/cacheflush.h>
#include <asm/inst.h>

#include "arch.h"
#include "ksyms.h"
#include "slot-write.h"

/* The pages aliased (where they run: [start, end)), and their writable alias. */
static void *op_ppc_alias_start, *op_ppc_alias_end;
static void *op_ppc_alias;

/* Unmap the alias; @flush: the TLBs too, now. */
static void op_ppc_alias_put(bool flush)
{
	if (!op_ppc_alias)
		return;
	vunmap(op_ppc_alias);
	op_ppc_alias = NULL;
	op_ppc_alias_start = NULL;
	op_ppc_alias_end = NULL;
	/* vunmap() leaves that to the next lazy purge */
	if (flush)
		vm_unmap_aliases();
}

/* A writable alias of [@dst, @dst + @len), at most a page long, or NULL. */
static void *op_ppc_alias_get(void *dst, size_t len)
{
	void *start = PTR_ALIGN_DOWN(dst, PAGE_SIZE);
	void *end = PTR_ALIGN(dst + len, PAGE_SIZE);
	struct page *pages[2];
	unsigned int i, n = (end - start) / PAGE_SIZE;

	if (start >= op_ppc_alias_start && end <= op_ppc_alias_end)
		return op_ppc_alias + (dst - op_ppc_alias_start);
	/* flushed with this one's at the operation's end */
	op_ppc_alias_put(false);
	for (i = 0; i < n; i++) {
		void *page = start + i * PAGE_SIZE;

		/* kernel text is in the linear map; module_alloc()'s pages are not */
		pages[i] = virt_addr_valid(page) ? virt_to_page(page) : vmalloc_to_page(page);
		if (!pages[i])
			return NULL;
	}
	op_ppc_alias = vmap(pages, n, VM_MAP, PAGE_KERNEL);
	if (!op_ppc_alias)
		return NULL;
	op_ppc_alias_start = start;
	op_ppc_alias_end = end;
	return op_ppc_alias + (dst - start);
}

/**
 * op_ppc_write_text() - write instructions that no CPU runs at the moment
 * @dst:	text: the kernel-core tail given back, or a slot without an alias
 * @src:	whole instructions (a prefix is written with its suffix)
 * @len:	in bytes
 *
 * Since 6.8 one patch_instructions() for the range, where the mapping
 * and the flush of each patch_instruction() were most of a detour's
 * writing (12 to 14 words for a detour); before, one patch_instruction()
 * per instruction that changes.
 *
 * Return: 0, or the first error of the kernel's.
 */
int op_ppc_write_text(void *dst, const void *src, size_t len)
{
#if OP_PATCH_INSTRUCTIONS
	if (!memcmp(dst, src, len))
		return 0;
	return op_kcall(patch_instructions)(dst, (u32 *)src, len, false);
#else
	ppc_inst_t insn;
	size_t i;
	int err = 0;

	for (i = 0; i < len; i += ppc_inst_len(insn)) {
		insn = ppc_inst_read(src + i);
		/* the bytes alone: what is there may not be whole instructions */
		if (memcmp(dst + i, src + i, ppc_inst_len(insn)))
			err = err ?: op_kcall(patch_instruction)(dst + i, insn);
	}
	return err;
#endif
}

/*
 * Words that no CPU can reach before this returns: the caller publishes
 * them afterwards, with a patch_instruction() of live text.  Through the
 * kernel's patching if no alias can be had.
 */
void op_arch_slot_write(void *dst, const void *src, size_t len)
{
	void *alias = NULL;

	lockdep_assert_held(&op_mutex);
	if (!memcmp(dst, src, len))
		return;
	if (!WARN_ON_ONCE(len > PAGE_SIZE))
		alias = op_ppc_alias_get(dst, len);
	if (!alias) {
		WARN_ON_ONCE(op_ppc_write_text(dst, src, len));
		return;
	}
	memcpy(alias, src, len);
	flush_icache_range((unsigned long)dst, (unsigned long)dst + len);
}

void op_ppc_slot_write_done(void)
{
	lockdep_assert_held(&op_mutex);
	op_ppc_alias_put(true);
}

/*
 * A slot area goes: the alias, found by address, must not outlive its
 * pages, or a new area given the same address in the same operation
 * would be written through it into pages the area no longer holds.
 */
void op_ppc_slot_write_forget(void)
{
	lockdep_assert_held(&op_mutex);
	op_ppc_alias_put(false);
}
