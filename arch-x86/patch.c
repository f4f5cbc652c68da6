// SPDX-License-Identifier: GPL-2.0
/*
 * Writing text on x86_64: only through the kernel's text_poke(), under the
 * kernel's text_mutex, followed by text_poke_sync() so that every CPU
 * serializes before it could execute the new bytes: at once for slots,
 * once per operation (op_arch_commit()) for the one-byte int3s of arming
 * and disarming, however many sites it changed.  Every change is told to
 * perf (PERF_RECORD_TEXT_POKE), as the kernel's kprobes tell theirs, so
 * that a trace decoder following the text sees what runs; the batched
 * text_poke_queue() writes are told by the kernel itself.  Slot areas
 * are slot-area.c's.
 */
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/moduleloader.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "ksyms.h"
#include "patch.h"

/*
 * Slot text, with text_mutex held.  Told to perf as new code, as the
 * kernel tells of the detours of its own optimized kprobes.
 */
void op_x86_poke(void *addr, const void *bytes, size_t len)
{
	op_kcall(text_poke)(addr, bytes, len);
	op_kcall(text_poke_sync)();
	op_kcall(perf_event_text_poke)(addr, NULL, 0, bytes, len);
}

/*
 * Before text changes at a probe: lock out the kernel's kprobes, then
 * other text writers, in the kernel's own order.  The kernel copies a new
 * kprobe's instruction under text_mutex but hashes the kprobe (where
 * get_kprobe() finds it) only after dropping it, under kprobe_mutex alone:
 * under text_mutex alone, a look for kernel kprobes could miss one that
 * has already saved the bytes about to change, and would later write them
 * back.
 */
void op_x86_text_lock(void)
{
	mutex_lock(op_ksyms.arch.kprobe_mutex);
	mutex_lock(op_ksyms.arch.text_mutex);
}

void op_x86_text_unlock(void)
{
	mutex_unlock(op_ksyms.arch.text_mutex);
	mutex_unlock(op_ksyms.arch.kprobe_mutex);
}

/* Text at a probe was written since the last op_arch_commit() or op_x86_sync(). */
static bool op_x86_unsynced;

/*
 * Text at a probe, with the text locks held.  No CPU runs the new bytes
 * for sure before the next sync (op_x86_sync(), op_arch_commit()).
 */
void op_x86_poke_text(void *addr, const void *bytes, size_t len)
{
	u8 old[OP_X86_REGION_MAX];

	memcpy(old, addr, len);
	op_kcall(text_poke)(addr, bytes, len);
	op_kcall(perf_event_text_poke)(addr, old, len, bytes, len);
	op_x86_unsynced = true;
}

/* Every CPU serializes: from now on none runs text written before. */
void op_x86_sync(void)
{
	op_kcall(text_poke_sync)();
	op_x86_unsynced = false;
}

/*
 * The kernel's jump-optimized kprobes replace up to MAX_INSN_SIZE + 4 bytes
 * from their address with a jmp (OP_X86_KPROBE_REACH): an address that
 * close after a kprobe may be inside its jmp, or become so.
 */
/* Is there a kernel kprobe in [start, end)? */
bool op_x86_kprobe_in(unsigned long start, unsigned long end)
{
	unsigned long a;
	bool found = false;

	rcu_read_lock();
	for (a = start; a < end && !found; a++)
		found = op_kcall(get_kprobe)((void *)a);
	rcu_read_unlock();
	return found;
}

/* ...that is, or could become, a jmp over [addr, addr + len)? */
bool op_x86_near_kprobe(unsigned long addr, unsigned int len)
{
	return op_x86_kprobe_in(addr - OP_X86_KPROBE_REACH, addr + len);
}

/*
 * Arming, with text_mutex held: the instruction must still be the one
 * prepared, and no kernel kprobe may have arrived over or just before it.
 */
static bool op_x86_may_arm(const struct op_site *site)
{
	u8 now;

	if (copy_from_kernel_nofault(&now, (void *)site->addr, 1) || now != site->arch.insn[0])
		return false;
	return !op_x86_near_kprobe(site->addr, site->arch.len);
}

void op_arch_arm(struct list_head *sites, struct list_head *failed)
{
	static const u8 int3 = INT3_INSN_OPCODE;
	struct op_site *site, *tmp;

	op_x86_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link) {
		if (op_x86_may_arm(site))
			op_x86_poke_text((void *)site->addr, &int3, INT3_INSN_SIZE);
		else
			list_move_tail(&site->link, failed);
		cond_resched();
	}
	op_x86_text_unlock();
}

void op_arch_disarm(struct list_head *sites)
{
	struct op_site *site;
	u8 now;

	op_x86_text_lock();
	/*
	 * Only our own int3 goes: not a kernel kprobe's, which holds the
	 * original as its own and puts it back itself.
	 */
	list_for_each_entry(site, sites, link)
		if (!copy_from_kernel_nofault(&now, (void *)site->addr, 1) &&
		    now == INT3_INSN_OPCODE && !op_x86_kprobe_in(site->addr, site->addr + 1))
			op_x86_poke_text((void *)site->addr, site->arch.insn, INT3_INSN_SIZE);
	op_x86_text_unlock();
}

void op_arch_commit(void)
{
	lockdep_assert_held(&op_mutex);
	if (op_x86_unsynced)
		op_x86_sync();
}

void op_arch_slot_write(void *dst, const void *src, size_t len)
{
	mutex_lock(op_ksyms.arch.text_mutex);
	op_x86_poke(dst, src, len);
	mutex_unlock(op_ksyms.arch.text_mutex);
}
