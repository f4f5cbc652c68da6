// SPDX-License-Identifier: GPL-2.0
/*
 * Writing text on powerpc64le: only through the kernel's
 * patch_instruction(), which writes through a temporary mapping of the
 * page and flushes the data and instruction caches (icbi reaches every
 * CPU).  Every write is made with op_mutex held, which serializes them.
 *
 * Slot areas: trap-mode slots anywhere, in module_alloc() pages; detours
 * within a branch's reach of the probed text (op_arch_slot_reaches()):
 *
 *  - kernel text: slots of the kernel's own detour cache for its optimized
 *    kprobes, in its 64 KiB detour area optinsn_slot in kernel text,
 *    taken and given back through the cache (core-cache.c);
 *  - module text: pages allocated within reach of the module, as
 *    module_alloc() allocates, in a narrower range.
 *
 * Both are read-only and executable, like the kernel's own kprobe slot
 * pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/inst.h>
#include <asm/probes.h>
#include <asm/set_memory.h>

#include "arch.h"
#include "ksyms.h"

/*
 * The kernel's kprobe_mutex, or NULL if it was not found.  Every text
 * write of the kernel's kprobes is made under it, and the kernel reads a
 * new kprobe's instruction, then may sleep (taking an instruction slot)
 * before hashing it, all under it: holding it, get_kprobe() tells of every
 * kernel kprobe that is or will be written, and none writes meanwhile.
 * (The kernel's text_mutex, which it also takes, is of no use here: the
 * kernel's kprobes hash a new kprobe outside it.)
 *
 * Without it, every order still leaves the text consistent but one: a
 * kprobe that reads the trap refuses it (the kernel does not step a trap);
 * one that reads the original before the trap is written owns the trap
 * with the right original, and op_arch_disarm() then leaves it in place;
 * one that reads a jump optimizer is about to take out is caught before
 * the detour is freed (op_arch_detour_reached()), unless it is hashed
 * only after that.
 */
static struct mutex *op_ppc_kprobe_mutex;

/*
 * The kernel's text_mutex, where kallsyms has data symbols (6.12,
 * KALLSYMS_ALL), or NULL.  Taken inside kprobe_mutex, in the kernel's
 * order, so that optprobe's writes also exclude every other writer that
 * takes it (jump labels, static calls, ftrace, the kernel's kprobes).
 */
static struct mutex *op_ppc_text_mutex;

void op_ppc_text_lock(void)
{
	if (op_ppc_kprobe_mutex)
		mutex_lock(op_ppc_kprobe_mutex);
	if (op_ppc_text_mutex)
		mutex_lock(op_ppc_text_mutex);
}

void op_ppc_text_unlock(void)
{
	if (op_ppc_text_mutex)
		mutex_unlock(op_ppc_text_mutex);
	if (op_ppc_kprobe_mutex)
		mutex_unlock(op_ppc_kprobe_mutex);
}

/* Is there a mutex at @addr: its waiters' list well linked, in the kernel? */
static bool op_ppc_looks_like_mutex(unsigned long addr)
{
	struct list_head *head = &((struct mutex *)addr)->wait_list, *prev;
	struct mutex m;	/* a copy, to look at */

	if (!is_kernel_addr(addr) || copy_from_kernel_nofault(&m, (void *)addr, sizeof(m)))
		return false;
	return is_kernel_addr((unsigned long)m.wait_list.next) &&
	       !copy_from_kernel_nofault(&prev, &m.wait_list.next->prev, sizeof(prev)) &&
	       prev == head;
}

/*
 * The mutex that every mutex_lock() call of kernel functions @f1 and @f2
 * passes in r3 (toc-ref.c), as both agree, if it looks like a mutex; else
 * 0.  For data symbols that kallsyms lacks without KALLSYMS_ALL: @f1 and
 * @f2 must lock nothing else.
 */
static u64 op_ppc_mutex_locked_in(const char *f1, const char *f2)
{
	u64 lock = op_kcall(kallsyms_lookup_name)("mutex_lock"), found[8], a, b;

	if (!lock)
		return 0;
	a = op_ppc_same(found, op_ppc_refs_in(f1, lock, found, ARRAY_SIZE(found)));
	b = op_ppc_same(found, op_ppc_refs_in(f2, lock, found, ARRAY_SIZE(found)));
	return a && a == b && op_ppc_looks_like_mutex(a) ? a : 0;
}

/*
 * kprobe_mutex and text_mutex are data symbols, in kallsyms only with
 * KALLSYMS_ALL (6.12): then kallsyms gives them.  Without it (6.1),
 * text_mutex stays unknown and kprobe_mutex is found as the cache is
 * (core-cache.c), from two functions that lock nothing else, so every
 * mutex_lock() call of theirs passes it in r3; then it must look like a
 * mutex.
 */
void __init op_ppc_kprobe_lock_init(void)
{
	u64 a;

	op_ppc_text_mutex = (struct mutex *)op_kcall(kallsyms_lookup_name)("text_mutex");
	a = op_kcall(kallsyms_lookup_name)("kprobe_mutex");
	if (a) {
		op_ppc_kprobe_mutex = (struct mutex *)a;
		pr_info("the kernel's kprobe_mutex%s found through kallsyms\n",
			op_ppc_text_mutex ? " and text_mutex" : "");
		return;
	}
	a = op_ppc_mutex_locked_in("wait_for_kprobe_optimizer", "kprobe_free_init_mem");
	if (!a) {
		pr_warn("the kernel's kprobe_mutex not found: text changes race with the kernel's kprobes\n");
		return;
	}
	op_ppc_kprobe_mutex = (struct mutex *)a;
	pr_info("the kernel's kprobe_mutex found (two kernel functions agree)\n");
}

/*
 * event_mutex, as kprobe_mutex: trace_set_clr_event() (trace_events.c,
 * through the inlined __ftrace_set_clr_event()) and
 * dyn_events_release_all() (trace_dynevent.c) lock it and nothing else.
 */
struct mutex *op_arch_event_mutex(void)
{
	u64 a = op_ppc_mutex_locked_in("trace_set_clr_event", "dyn_events_release_all");

	if (a)
		pr_info("the kernel's event_mutex found (two kernel functions agree)\n");
	return (struct mutex *)a;
}

bool op_ppc_kprobe_at(unsigned long addr)
{
	bool found;

	rcu_read_lock();
	found = op_kcall(get_kprobe)((void *)addr);
	rcu_read_unlock();
	return found;
}

/* One write of live text. */
static void op_ppc_write(unsigned long addr, ppc_inst_t insn)
{
	WARN_ON_ONCE(op_kcall(patch_instruction)((u32 *)addr, insn));
}

/*
 * Write one instruction of live text.  patch_instruction() flushes the
 * caches, which is all hardware needs: icbi reaches every CPU, and a CPU
 * retrying a removed trap refetches.
 *
 * tcg_rewrite is an emulator workaround, for the QEMU test matrix only,
 * off by default.  Under QEMU's multi-threaded TCG, a vCPU that translates
 * the page while the write lands can keep the old instruction for good: a
 * removed trap that kprobe_handler() then retries forever, or a trap that
 * never fires.  With tcg_rewrite, each word is written again once that
 * translation is over, which drops the stale copy: op_arch_commit() waits
 * 1-2 ms and writes the words of the whole operation a second time.  On
 * hardware that would only cost the wait, and could undo a kernel write
 * landing between the check and the second write, so it stays off there.
 * The tests switch it with op_ppc_set_tcg_rewrite(); words recorded while
 * it was on are still written again at the next commit.
 */
static bool op_ppc_tcg_rewrite;
module_param_named(tcg_rewrite, op_ppc_tcg_rewrite, bool, 0444);
MODULE_PARM_DESC(tcg_rewrite,
		 "Emulator workaround for the QEMU TCG test matrix only (default off): write each text word again 1-2 ms later");

#define OP_PPC_PENDING	256

static struct {
	unsigned long addr;
	ppc_inst_t insn;
} op_ppc_pending[OP_PPC_PENDING];
static unsigned int op_ppc_npending;
static unsigned long op_ppc_rewrites;	/* second writes made, for the tests */

void op_ppc_patch(unsigned long addr, ppc_inst_t insn)
{
	lockdep_assert_held(&op_mutex);
	if (!op_ppc_tcg_rewrite) {
		op_ppc_write(addr, insn);
		return;
	}
	if (op_ppc_npending == OP_PPC_PENDING)
		op_arch_commit();
	op_ppc_write(addr, insn);
	op_ppc_pending[op_ppc_npending].addr = addr;
	op_ppc_pending[op_ppc_npending].insn = insn;
	op_ppc_npending++;
}

/*
 * With tcg_rewrite, the second writes: of each word still as written (a
 * later write wins).  Without, nothing was recorded and nothing is done.
 */
void op_arch_commit(void)
{
	unsigned int i;
	u32 now;

	lockdep_assert_held(&op_mutex);
	if (!op_ppc_npending)
		return;
	usleep_range(1000, 2000);
	for (i = 0; i < op_ppc_npending; i++) {
		unsigned long addr = op_ppc_pending[i].addr;
		ppc_inst_t insn = op_ppc_pending[i].insn;

		if (!copy_from_kernel_nofault(&now, (void *)addr, sizeof(now)) &&
		    now == ppc_inst_val(insn)) {
			op_ppc_write(addr, insn);
			op_ppc_rewrites++;
		}
	}
	op_ppc_npending = 0;
}

/* For the tests: switch tcg_rewrite; what it was. */
bool op_ppc_set_tcg_rewrite(bool on)
{
	bool was;

	mutex_lock(&op_mutex);
	was = op_ppc_tcg_rewrite;
	op_ppc_tcg_rewrite = on;
	mutex_unlock(&op_mutex);
	return was;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_set_tcg_rewrite, OPTPROBE_INTERNAL);

/* For the tests: how many second writes tcg_rewrite made since load. */
unsigned long op_ppc_tcg_rewrites(void)
{
	unsigned long n;

	mutex_lock(&op_mutex);
	n = op_ppc_rewrites;
	mutex_unlock(&op_mutex);
	return n;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_tcg_rewrites, OPTPROBE_INTERNAL);

/* The instruction prepared must still be there, and no kernel kprobe. */
int op_arch_arm(struct op_site *site)
{
	int ret = -EBUSY;
	u32 now;

	op_ppc_text_lock();
	if (!copy_from_kernel_nofault(&now, (void *)site->addr, sizeof(now)) &&
	    now == ppc_inst_val(site->arch.insn) && !op_ppc_kprobe_at(site->addr)) {
		op_ppc_patch(site->addr, ppc_inst(BREAKPOINT_INSTRUCTION));
		ret = 0;
	}
	op_ppc_text_unlock();
	return ret;
}

/*
 * Only our own trap goes.  A prefixed original is written whole: its
 * suffix word never changed.
 */
void op_arch_disarm(struct op_site *site)
{
	u32 now;

	op_ppc_text_lock();
	if (!copy_from_kernel_nofault(&now, (void *)site->addr, sizeof(now)) &&
	    now == BREAKPOINT_INSTRUCTION && !op_ppc_kprobe_at(site->addr))
		op_ppc_patch(site->addr, site->arch.insn);
	op_ppc_text_unlock();
}

/* @src holds whole instructions: a prefix is written with its suffix. */
void op_arch_slot_write(void *dst, const void *src, size_t len)
{
	ppc_inst_t insn;
	size_t i;

	for (i = 0; i < len; i += ppc_inst_len(insn)) {
		insn = ppc_inst_read(src + i);
		WARN_ON_ONCE(op_kcall(patch_instruction)(dst + i, insn));
	}
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
 * A slot of the kernel's detour cache for kernel text at @addr: the
 * veneer of the stubs it will hold at its start, then OP_SLOT_SIZE-aligned
 * slots.  Its other words are left as they are: nothing branches there.
 */
static void *op_ppc_core_area(unsigned long addr, void **slots, unsigned int *nslots)
{
	void *area;
	size_t size;

	if (!op_arch_slot_reaches(op_ksyms.arch.optinsn_slot, addr))
		return NULL;
	area = op_ppc_core_slot_get(&size);
	if (!area)
		return NULL;
	if (!op_arch_slot_reaches(area, addr)) {
		op_ppc_core_slot_put(area);
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
 * A slot of the kernel's cache goes back to it, to be reused at once: no
 * task is inside (op_slots_release() runs after op_quiesce()).  Pages as
 * the kernel frees its kprobe slot pages: they are VM_FLUSH_RESET_PERMS,
 * and the read-only and executable attributes lived only in the vmalloc
 * mapping that vfree() tears down.
 */
void op_arch_slot_area_free(void *area)
{
	if (op_kcall(core_kernel_text)((unsigned long)area)) {
		op_ppc_core_slot_put(area);
		return;
	}
	op_execmem_free(area);
}

/* Why no slot area in reach of @site has room for a detour. */
const char *op_ppc_no_area(const struct op_site *site)
{
	if (site->mod)
		return "no memory for a detour within branch range (32 MB) of its module";
	if (!op_arch_slot_reaches(op_ksyms.arch.optinsn_slot, site->addr))
		return "the kernel's detour area (optinsn_slot) is out of its branch range";
	return op_ppc_core_cache_why();
}
