// SPDX-License-Identifier: GPL-2.0
/*
 * Writing text on powerpc64le: only through the kernel's
 * patch_instruction(), which writes through a temporary mapping of the
 * page and flushes the data and instruction caches (icbi reaches every
 * CPU).  Slot pages are module_alloc() memory, read-only and executable
 * once allocated, like the kernel's own kprobe slot pages.
 */
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/moduleloader.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/inst.h>
#include <asm/probes.h>
#include <asm/set_memory.h>

#include "arch.h"
#include "ksyms.h"

/*
 * The kernel's text_mutex cannot be resolved here (see ksyms-arch.h), so
 * the kernel's kprobes may be registered at the same time.  Every order
 * still leaves the text consistent: a kprobe that reads the trap refuses
 * it (the kernel does not step a trap); one that reads the original before
 * the trap is written owns the trap with the right original, and
 * op_arch_disarm() then leaves it in place.
 */
static bool op_ppc_kprobe_at(unsigned long addr)
{
	bool found;

	rcu_read_lock();
	found = op_ksyms.get_kprobe((void *)addr);
	rcu_read_unlock();
	return found;
}

/*
 * Write one instruction of live text.  patch_instruction() flushes the
 * caches, which is enough on hardware: icbi reaches every CPU, and a CPU
 * retrying a removed trap refetches.  Under QEMU's multi-threaded TCG, a
 * vCPU that translates the page while the write lands can keep the old
 * instruction for good: a removed trap that kprobe_handler() then retries
 * forever, or a trap that never fires.  Writing the same word again once
 * that translation is over drops the stale copy.
 */
static void op_ppc_patch(unsigned long addr, ppc_inst_t insn)
{
	WARN_ON_ONCE(op_ksyms.arch.patch_instruction((u32 *)addr, insn));
	usleep_range(1000, 2000);
	WARN_ON_ONCE(op_ksyms.arch.patch_instruction((u32 *)addr, insn));
}

/* The instruction prepared must still be there, and no kernel kprobe. */
int op_arch_arm(struct op_site *site)
{
	u32 now;

	if (copy_from_kernel_nofault(&now, (void *)site->addr, sizeof(now)) ||
	    now != ppc_inst_val(site->arch.insn) || op_ppc_kprobe_at(site->addr))
		return -EBUSY;
	op_ppc_patch(site->addr, ppc_inst(BREAKPOINT_INSTRUCTION));
	return 0;
}

/*
 * Only our own trap goes.  A prefixed original is written whole: its
 * suffix word never changed.
 */
void op_arch_disarm(struct op_site *site)
{
	u32 now;

	if (copy_from_kernel_nofault(&now, (void *)site->addr, sizeof(now)) ||
	    now != BREAKPOINT_INSTRUCTION || op_ppc_kprobe_at(site->addr))
		return;
	op_ppc_patch(site->addr, site->arch.insn);
}

/* @src holds whole instructions: a prefix is written with its suffix. */
void op_arch_slot_write(void *dst, const void *src, size_t len)
{
	ppc_inst_t insn;
	size_t i;

	for (i = 0; i < len; i += ppc_inst_len(insn)) {
		insn = ppc_inst_read(src + i);
		WARN_ON_ONCE(op_ksyms.arch.patch_instruction(dst + i, insn));
	}
}

/*
 * Anywhere will do for the copies: nothing run from a slot depends on
 * where the slot is (branches are emulated, pc-relative prefixed
 * instructions refused).
 */
void *op_arch_slot_page_alloc(unsigned long addr, bool near)
{
	void *page = op_ksyms.module_alloc(PAGE_SIZE);

	if (!page)
		return NULL;
	/* unused slot words trap */
	memset32(page, BREAKPOINT_INSTRUCTION, PAGE_SIZE / sizeof(u32));
	/* read-only first, then executable: never writable and executable */
	if (op_ksyms.arch.change_memory_attr((unsigned long)page, 1, SET_MEMORY_RO) ||
	    op_ksyms.arch.change_memory_attr((unsigned long)page, 1, SET_MEMORY_X)) {
		op_ksyms.module_memfree(page);
		return NULL;
	}
	return page;
}

/*
 * As the kernel frees its kprobe slot pages: module_alloc() areas are
 * VM_FLUSH_RESET_PERMS, and the read-only and executable attributes lived
 * only in the vmalloc mapping that vfree() tears down.
 */
void op_arch_slot_page_free(void *page)
{
	op_ksyms.module_memfree(page);
}
