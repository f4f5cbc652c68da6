// SPDX-License-Identifier: GPL-2.0
/*
 * Slot areas on powerpc64le: trap-mode slots anywhere, in module_alloc()
 * pages; detours within a branch's reach of the probed text
 * (op_arch_slot_reaches()):
 *
 *  - kernel text: the kernel's 64 KiB detour area optinsn_slot in kernel
 *    text: page-sized chunks of the part its own detour cache does not
 *    use, where pages are smaller than the area (core-tail.c), then slots
 *    of that cache, taken and given back through it (core-cache.c);
 *  - module text: pages allocated within reach of the module, as
 *    module_alloc() allocates, in a narrower range.
 *
 * Both are read-only and executable, like the kernel's own kprobe slot
 * pages, and each starts with the veneer its detours' stubs call.
 */
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/moduleloader.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/inst.h>
#include <asm/ppc-opcode.h>
#include <asm/probes.h>
#include <asm/ptrace.h>
#include <asm/set_memory.h>

#include "wrap-frame.h"

#include "arch.h"
#include "core-cache.h"
#include "core-tail.h"
#include "ksyms.h"
#include "slot-area.h"
#include "slot-write.h"
#include "trap.h"

#define OP_PPC_MFCTR(t)		(0x7c0902a6 | ___PPC_RT(t))

bool op_arch_slot_reaches(const void *page, unsigned long addr)
{
	long off = (unsigned long)page - addr;

	return off >= -OP_PPC_REACH && off <= OP_PPC_REACH;
}

/*
 * The veneer at @at, the start of a slot area that will hold stubs: the
 * stubs there reach it with a "bl", it reaches the body anywhere.  The
 * body's address is loaded in as few words as it takes (a module address
 * has zeros in bits 16-31 of its upper half); trap words fill the rest.
 */
static void op_ppc_veneer_write(void *at)
{
	unsigned long fn = (unsigned long)op_ppc_detour_entry;
	u32 veneer[OP_PPC_VENEER_WORDS];
	unsigned int n = 0;

	veneer[n++] = PPC_RAW_STD(12, 1, OP_PPC_FRAME_REG(link));
	veneer[n++] = OP_PPC_MFCTR(12);
	veneer[n++] = PPC_RAW_STD(12, 1, OP_PPC_FRAME_REG(ctr));
	veneer[n++] = PPC_RAW_LIS(12, fn >> 48);
	if ((fn >> 32) & 0xffff)
		veneer[n++] = PPC_RAW_ORI(12, 12, (fn >> 32) & 0xffff);
	veneer[n++] = PPC_RAW_RLDICR(12, 12, 32, 31);
	if ((fn >> 16) & 0xffff)
		veneer[n++] = PPC_RAW_ORIS(12, 12, (fn >> 16) & 0xffff);
	if (fn & 0xffff)
		veneer[n++] = PPC_RAW_ORI(12, 12, fn & 0xffff);
	veneer[n++] = PPC_RAW_MTCTR(12);
	veneer[n++] = PPC_RAW_BCTR();
	while (n < OP_PPC_VENEER_WORDS)
		veneer[n++] = PPC_RAW_TRAP();
	op_arch_slot_write(at, veneer, sizeof(veneer));
}

/* Unused slot words trap; then read-only, then executable: never W+X. */
static void *op_ppc_page_seal(void *page)
{
	memset32(page, BREAKPOINT_INSTRUCTION, PAGE_SIZE / sizeof(u32));
	if (op_kcall(change_memory_attr)((unsigned long)page, 1, SET_MEMORY_RO) ||
	    op_kcall(change_memory_attr)((unsigned long)page, 1, SET_MEMORY_X)) {
		op_execmem_free(page);
		return NULL;
	}
	return page;
}

/*
 * A page whose every word a "b" at @addr reaches, and back: as
 * module_alloc() allocates, but within OP_PPC_REACH of @addr.  The vmalloc
 * area, which holds module text, is searched from the lowest address up.
 */
static void *op_ppc_page_near(unsigned long addr)
{
	unsigned long start = max(VMALLOC_START, round_up(addr - OP_PPC_REACH, PAGE_SIZE));
	unsigned long end = min(VMALLOC_END, addr + OP_PPC_REACH + PAGE_SIZE);
	void *page;

	/* the caller says why when there is no room */
	page = op_vmalloc_range(PAGE_SIZE, PAGE_SIZE, start, end,
				GFP_KERNEL | __GFP_NOWARN, PAGE_KERNEL,
				VM_FLUSH_RESET_PERMS, NUMA_NO_NODE,
				__builtin_return_address(0));
	if (!page)
		return NULL;
	if (WARN_ON_ONCE(!op_arch_slot_reaches(page, addr))) {
		vfree(page);
		return NULL;
	}
	return op_ppc_page_seal(page);
}

/*
 * For kernel text at @addr, a chunk of the rest of the kernel's detour
 * area, or else a slot of its cache: the veneer of the stubs it will hold
 * at its start, then OP_SLOT_SIZE-aligned slots.  Its other words are
 * left as they are: nothing branches there.  Chunks first: the cache's
 * slots are few, and the kernel's optimized kprobes need some.
 */
static void *op_ppc_core_area(unsigned long addr, void **slots, unsigned int *nslots)
{
	size_t size = PAGE_SIZE;
	void *area;

	if (!op_arch_slot_reaches(op_ksyms.arch.optinsn_slot, addr))
		return NULL;
	area = op_ppc_core_tail_get(addr - OP_PPC_REACH, addr + OP_PPC_REACH);
	if (!area)
		area = op_ppc_core_slot_get(&size);
	if (!area)
		return NULL;
	if (!op_arch_slot_reaches(area, addr)) {
		op_arch_slot_area_free(area);
		return NULL;
	}
	op_ppc_veneer_write(area);
	*slots = PTR_ALIGN(area + OP_PPC_VENEER_SIZE, OP_SLOT_SIZE);
	*nslots = (area + size - *slots) / OP_SLOT_SIZE;
	return area;
}

/*
 * Near kernel text, a slot of the kernel's cache; near module text, or
 * anywhere for trap-mode slots, a page.  Every area starts with the
 * veneer of the stubs it may hold: a page allocated anywhere may turn out
 * to be in reach of a probe, and serve its stub.  Never more than a page,
 * whatever @size asks: room near probed text is scarce.
 */
void *op_arch_slot_area_alloc(unsigned long addr, bool near, size_t size, void **slots,
			      unsigned int *nslots)
{
	void *page;

	if (near && op_kcall(core_kernel_text)(addr))
		return op_ppc_core_area(addr, slots, nslots);
	if (near) {
		page = op_ppc_page_near(addr);
	} else {
		page = op_execmem_alloc(PAGE_SIZE);
		page = page ? op_ppc_page_seal(page) : NULL;
	}
	if (!page)
		return NULL;
	op_ppc_veneer_write(page);
	*slots = page + ALIGN(OP_PPC_VENEER_SIZE, OP_SLOT_SIZE);
	*nslots = (page + PAGE_SIZE - *slots) / OP_SLOT_SIZE;
	return page;
}

/*
 * A chunk of the rest of the kernel's detour area goes back to
 * core-tail.c, which writes its words back to what they were; a slot of
 * the kernel's cache goes back to it, to be reused at once: no task is
 * inside (op_slots_release() runs after op_quiesce()).  Pages as
 * the kernel frees its kprobe slot pages: they are VM_FLUSH_RESET_PERMS,
 * and the read-only and executable attributes lived only in the vmalloc
 * mapping that vfree() tears down.
 */
void op_arch_slot_area_free(void *area)
{
	op_ppc_slot_write_forget();
	if (op_ppc_core_tail_has(area)) {
		op_ppc_core_tail_put(area);
		return;
	}
	if (op_kcall(core_kernel_text)((unsigned long)area)) {
		op_ppc_core_slot_put(area);
		return;
	}
	op_execmem_free(area);
}

/* Why no slot area in reach of @site has room for a detour. */
enum op_reason op_ppc_no_area(const struct op_site *site)
{
	unsigned long addr = site->addr;
	enum op_reason why;

	if (!op_kcall(core_kernel_text)(addr))
		return OP_R_NO_MODULE_AREA;
	if (!op_arch_slot_reaches(op_ksyms.arch.optinsn_slot, addr))
		return OP_R_CORE_AREA_FAR;
	why = op_ppc_core_cache_why();
	/* full, but for the rest of the area, which could not be proved free */
	if (why == OP_R_CORE_CACHE_FULL && op_ppc_core_tail_refused())
		return OP_R_CORE_TAIL_REFUSED;
	return why;
}
