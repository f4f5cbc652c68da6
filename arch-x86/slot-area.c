// SPDX-License-Identifier: GPL-2.0
/*
 * Slot areas on x86_64: module_alloc() memory (execmem since 6.10),
 * within rel32 reach of all kernel and module text, so one kind serves
 * trap-mode slots and detours anywhere.  Unused bytes trap; read-only and
 * executable once allocated, never writable and executable at once.
 */
#include <linux/mm.h>
#include <linux/moduleloader.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "ksyms.h"

/* module_alloc() memory is within rel32 reach of all kernel and module text. */
bool op_arch_slot_reaches(const void *slot, unsigned long addr)
{
	return true;
}

void *op_arch_slot_area_alloc(unsigned long addr, bool near, size_t size, void **slots,
			      unsigned int *nslots)
{
	void *text = op_execmem_alloc(size);
	struct vm_struct *area;

	if (!text)
		return NULL;
	/* vfree() must restore the direct map that set_memory_ro() changes */
	area = op_kcall(find_vm_area)(text);
	area->flags |= VM_FLUSH_RESET_PERMS;
	/* unused slot bytes trap */
	memset(text, INT3_INSN_OPCODE, size);
	/* read-only first, then executable: never writable and executable */
	op_kcall(set_memory_ro)((unsigned long)text, size >> PAGE_SHIFT);
	op_kcall(set_memory_x)((unsigned long)text, size >> PAGE_SHIFT);
	*slots = text;
	*nslots = size / OP_SLOT_SIZE;
	return text;
}

void op_arch_slot_area_free(void *area)
{
	op_execmem_free(area);
}
