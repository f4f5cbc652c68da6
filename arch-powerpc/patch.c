// SPDX-License-Identifier: GPL-2.0
/*
 * Writing text on powerpc64le: live text only through the kernel's
 * patch_instruction(), which writes through a temporary mapping of the
 * page and flushes the data and instruction caches (icbi reaches every
 * CPU).  Every write is made with op_mutex held, which serializes
 * optprobe's operations; a large batch's words are written by several
 * CPUs at once for the one holding it (patch-batch.c).
 *
 * Slot areas are slot-area.c's, text that nothing runs yet is written by
 * slot-write.c; the emulator-only second write is tcg-rewrite.c's.
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
#include "core-cache.h"
#include "ksyms.h"
#include "patch.h"
#include "slot-write.h"
#include "tcg-rewrite.h"

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

/*
 * Write one instruction of live text.  patch_instruction() flushes the
 * caches, which is all hardware needs: icbi reaches every CPU, and a CPU
 * retrying a removed trap refetches.  Under QEMU's TCG, and only if asked
 * (tcg_rewrite), the word is written again later (tcg-rewrite.c).
 */
void op_ppc_patch(unsigned long addr, ppc_inst_t insn)
{
	lockdep_assert_held(&op_mutex);
	WARN_ON_ONCE(op_kcall(patch_instruction)((u32 *)addr, insn));
	op_ppc_tcg_rewrite_later(addr, insn);
}

/* Is @insn at site->addr, and no kernel kprobe there? */
bool op_ppc_word_is(const struct op_site *site, ppc_inst_t insn)
{
	u32 now;

	return !copy_from_kernel_nofault(&now, (void *)site->addr, sizeof(now)) &&
	       now == ppc_inst_val(insn) && !op_ppc_kprobe_at(site->addr);
}

/* Does op_ppc_text_lock() keep the kernel's kprobes from writing meanwhile? */
bool op_ppc_text_lock_holds_kprobes(void)
{
	return op_ppc_kprobe_mutex;
}

ppc_inst_t op_ppc_trap_insn(const struct op_site *site)
{
	return ppc_inst(BREAKPOINT_INSTRUCTION);
}

static ppc_inst_t op_ppc_original(const struct op_site *site)
{
	return site->arch.insn;
}

/*
 * Only our own traps go.  A prefixed original is written whole: its
 * suffix word never changed.  Every site is looked at before any is
 * written, @sites left as they came.
 */
void op_arch_disarm(struct list_head *sites)
{
	struct op_site *site, *tmp;
	LIST_HEAD(kept);

	op_ppc_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link)
		if (!op_ppc_word_is(site, ppc_inst(BREAKPOINT_INSTRUCTION)))
			list_move_tail(&site->link, &kept);
	op_ppc_patch_sites(sites, op_ppc_original);
	op_ppc_text_unlock();
	list_splice_tail(&kept, sites);
}

/*
 * The operation is over: the alias of slots written goes from every TLB,
 * and with tcg_rewrite, live words are written again.
 */
void op_arch_commit(void)
{
	op_ppc_slot_write_done();
	op_ppc_tcg_rewrite_now();
}
