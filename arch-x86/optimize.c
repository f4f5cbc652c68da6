// SPDX-License-Identifier: GPL-2.0
/*
 * Jump optimization on x86_64: a site's int3 becomes a rel32 jmp to its
 * detour (layout in site-arch.h).  The jmp replaces whole instructions
 * (the region), which the detour runs instead, so the region must hold
 * only instructions that run the same from there, and nothing may reach
 * into the region other than through its first byte:
 *
 *  - every instruction of the region runs from the detour as
 *    op_x86_insn_relocate() rewrites it: one that may run from a slot with
 *    a jmp back (op_x86_insn_can_boost()), RIP-relative operands
 *    re-targeted; a jmp or jcc (rel8 or rel32), as a rel32 one to the same
 *    target; a ret as it is; a call as "push the return address after it;
 *    jmp to the callee", so that the callee returns into the original text
 *    and no detour address is ever on a stack, where a task sleeping in
 *    the callee would keep it past the detour's freeing (mainline refuses
 *    all of these but the probed instruction's jmp);
 *  - a call ends the region, the bytes it returns to left in place: a call
 *    rel32 is as long as the jmp, so the region's 5 bytes end in it;
 *  - no instruction of the region may fault to an exception fixup, and no
 *    fixup may land inside it;
 *  - nothing enters it but through its first byte.  From the function
 *    itself: no relative jump lands inside it, and nothing an indirect
 *    jump may reach does: no address the function takes of its own code
 *    is inside it, no entry of a jump table the function reads
 *    (op_x86_table_into()) is, and a function that has an indirect jump
 *    other than a tail call takes no address of its own code at all.  A
 *    jmp to a retpoline thunk is an indirect jump; a jmp to the return
 *    thunk is a ret.  From anywhere else (its .cold part, whose jumps
 *    back land at ordinary join points, other symbols, exception fixups):
 *    the index of foreign entries (entries.c);
 *  - it ends at the first unconditional jmp or ret (which the region may
 *    hold only as its last instruction): the bytes after one are not run
 *    from the detour;
 *  - no jump label of its text (kernel or module) jumps inside it: while
 *    its key is off, its jmp is a nop that the walk cannot see.  Static
 *    calls need no such care: whatever a site becomes, it calls or jumps
 *    to the start of a function, never into the middle of one;
 *  - no alternative, jump label, static call, ftrace site, other probe or
 *    kprobe of the kernel's overlaps it, and no int3 padding is in it.
 *
 * Mainline does the same minus the fixups, which make it refuse every
 * function with an exception-table entry, minus the jump labels' targets
 * and every jump from outside the function (a .cold part's included),
 * and refusing every function with an indirect jump (tail calls through a
 * retpoline included) instead of looking where it may go.
 */
#include <linux/extable.h>
#include <linux/memory.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/cpufeature.h>
#include <asm/nops.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "decode.h"
#include "entries.h"
#include "jump-labels.h"
#include "ksyms.h"
#include "patch.h"
#include "trap.h"
#include "wrap-unaligned.h"

/* Is @target strictly inside the region, past the jmp's first byte? */
static bool op_x86_into_region(const struct op_site *site, unsigned long target, u8 rlen)
{
	return target > site->addr && target < site->addr + rlen;
}

/* ff /4 jmp and ff /5 far jmp, through a register or memory. */
static bool op_x86_indirect_jmp(const struct op_x86_insn *insn)
{
	return insn->cls == OP_X86_JMP_INDIRECT ||
	       (insn->cls == OP_X86_FAR && insn->opcode == 0xff && (insn->modrm & 0x38) == 0x28);
}

/* A jump to a retpoline thunk is an indirect jump. */
static bool op_x86_is_thunk(unsigned long target)
{
	static const char * const thunks[] = {
		"__x86_indirect_thunk_", "__x86_indirect_jump_thunk_", NULL
	};

	return op_x86_symbol_prefixed(target, thunks);
}

/*
 * A probed jmp, jcc or call leaves the detour on the taken way: the
 * detour has no place for post handlers (op_arch_opt_blocked()).
 */
static bool op_x86_probed_branch(const struct op_site *site)
{
	return site->arch.emulation == OP_X86_EMU_JMP || site->arch.emulation == OP_X86_EMU_JCC ||
	       site->arch.emulation == OP_X86_EMU_CALL;
}

/* A ret, near or far, or an iret. */
static bool op_x86_returns(const struct op_x86_insn *insn)
{
	return insn->cls == OP_X86_RET || insn->cls == OP_X86_RET_IMM ||
	       insn->cls == OP_X86_IRET || (insn->cls == OP_X86_FAR && insn->opcode != 0xff);
}

/* Does the detour go on after @insn's relocated form, to the jmp back? */
static bool op_x86_detour_goes_on(const struct op_x86_insn *insn)
{
	return op_x86_insn_falls_through(insn) && insn->cls != OP_X86_CALL;
}

/*
 * Choose the region from site->addr: whole instructions, at least a jmp's
 * worth, inside [.., @end).  Fills site->arch.region; returns its length,
 * or a negative errno with site->reason set.
 */
static int op_x86_region(struct op_site *site, unsigned long end, struct op_x86_insn *insns,
			 unsigned int *n)
{
	unsigned long addr = site->addr, pos = addr;
	u8 *region = site->arch.region;
	struct op_x86_insn *insn;

	for (*n = 0; pos - addr < JMP32_INSN_SIZE; (*n)++, pos += insn->len) {
		insn = &insns[*n];
		if (pos >= end) {
			site->reason = OP_R_FUNC_ENDS;
			return -EINVAL;
		}
		if (op_x86_decode(pos, end, insn, region + (pos - addr))) {
			site->reason = OP_R_UNDECODABLE_IN_JUMP;
			return -EINVAL;
		}
		if (insn->cls == OP_X86_INT3) {
			site->reason = OP_R_INT3_IN_JUMP;
			return -EINVAL;
		}
		if (!op_x86_insn_falls_through(insn) && pos + insn->len - addr < JMP32_INSN_SIZE) {
			site->reason = op_x86_returns(insn) ?
				OP_R_AFTER_RET :
				OP_R_AFTER_JMP;
			return -EINVAL;
		}
		if (!op_x86_insn_relocated_len(insn)) {
			site->reason = pos == addr ?
				OP_R_PROBED_NOT_IN_DETOUR :
				OP_R_REPLACED_NOT_IN_DETOUR;
			return -EINVAL;
		}
		if (pos == addr)
			continue;
		if (op_kcall(search_exception_tables)(pos)) {
			site->reason = OP_R_EXTABLE_IN_JUMP;
			return -EINVAL;
		}
		if (op_ftrace_site_at(pos)) {
			site->reason = OP_R_FTRACE_IN_JUMP;
			return -EINVAL;
		}
		if (op_site_lookup(pos)) {
			site->reason = OP_R_PROBE_IN_JUMP;
			return -EAGAIN;
		}
	}
	return pos - addr;
}

/* Text that others rewrite, or a kernel kprobe, over the region. */
static int op_x86_region_owned(struct op_site *site, u8 rlen)
{
	void *first = (void *)site->addr, *last = first + rlen - 1;

	if (op_kcall(alternatives_text_reserved)(first, last)) {
		site->reason = OP_R_ALTERNATIVE_IN_JUMP;
		return -EINVAL;
	}
	if (op_arch_jump_label_in(site->addr, site->addr + rlen - 1)) {
		site->reason = OP_R_JUMP_LABEL_IN_JUMP;
		return -EINVAL;
	}
	if (op_x86_jump_label_target_in(site->addr, site->addr + rlen)) {
		site->reason =
			OP_R_JUMP_LABEL_INTO_JUMP;
		return -EINVAL;
	}
	if (op_kcall(static_call_text_reserved)(first, last)) {
		site->reason = OP_R_STATIC_CALL_IN_JUMP;
		return -EINVAL;
	}
	return 0;
}

/* Entries of a jump table read at most: the BPF interpreter's computed gotos take 256. */
#define OP_X86_TABLE_MAX	256

/* Is @addr text: of the function [@func, @end), of the kernel, or of a module? */
static bool op_x86_text(unsigned long addr, unsigned long func, unsigned long end)
{
	bool text;

	if (addr >= func && addr < end)
		return true;
	/* the module stays while preemption is off (its freeing waits for RCU) */
	preempt_disable();
	text = op_kcall(core_kernel_text)(addr) || op_kcall(__module_text_address)(addr);
	preempt_enable();
	return text;
}

/*
 * Does an entry of the jump table at @table land strictly inside the
 * region?  Its entries are read for as long as they are text (a table of
 * the function's own labels, as computed gotos make, may point into its
 * .cold fragment too), at most OP_X86_TABLE_MAX of them: a longer table
 * counts as landing inside, since its rest is not read.
 */
static bool op_x86_table_into(const struct op_site *site, unsigned long table,
			      unsigned long func, unsigned long end, u8 rlen)
{
	unsigned long entry;
	unsigned int i;

	for (i = 0; i < OP_X86_TABLE_MAX; i++, table += sizeof(entry)) {
		if (copy_from_kernel_nofault(&entry, (void *)table, sizeof(entry)) ||
		    !op_x86_text(entry, func, end))
			return false;
		if (op_x86_into_region(site, entry, rlen))
			return true;
	}
	return true;
}

/*
 * Walk the whole function [@func, @end): nothing may enter the region but
 * through its first byte.  An indirect jump goes where an address in a
 * register or in memory says: the function's own code only if the
 * function takes the address of its own code somewhere (a jump table of
 * its labels is read and checked), elsewhere a tail call.
 */
static int op_x86_function_check(struct op_site *site, unsigned long func, unsigned long end,
				 u8 rlen)
{
	bool indirect = false, own_code = false;
	u8 buf[OP_X86_MAX_INSN_LEN];
	unsigned long pos, target;
	struct op_x86_insn insn;

	for (pos = func; pos < end; pos += insn.len) {
		if (op_x86_decode(pos, end, &insn, buf)) {
			if (op_x86_padding(pos, end))
				break;
			site->reason = OP_R_UNDECODABLE_IN_FUNC;
			return -EINVAL;
		}
		indirect |= op_x86_indirect_jmp(&insn);
		target = op_x86_address_operand(pos, &insn);
		if (op_x86_into_region(site, target, rlen)) {
			site->reason = OP_R_ADDRESS_INTO_JUMP;
			return -EINVAL;
		}
		if (op_x86_table_read(&insn) && !op_x86_text(target, func, end)) {
			if (op_x86_table_into(site, target, func, end, rlen)) {
				site->reason = OP_R_TABLE_INTO_JUMP;
				return -EINVAL;
			}
		} else if (target > func && target < end) {
			own_code = true;
		}
		/* jmp, jcc, call, loop/jrcxz and xbegin */
		if (!insn.has_rel)
			continue;
		target = pos + insn.len + insn.rel;
		if (op_x86_into_region(site, target, rlen)) {
			site->reason = OP_R_JUMP_INTO_JUMP;
			return -EINVAL;
		}
		if (insn.cls != OP_X86_CALL && (target < func || target >= end) &&
		    op_x86_is_thunk(target))
			indirect = true;
	}
	if (indirect && own_code) {
		site->reason =
			OP_R_INDIRECT_AND_ADDRESS;
		return -EINVAL;
	}
	return 0;
}

/* The detour's post-handler call, or a nop of its size. */
static void op_x86_post_call(const struct op_site *site, u8 *buf)
{
	static const u8 nop5[] = { BYTES_NOP5 };
	void *at = site->detour + op_x86_detour_body() + site->arch.len;

	if (site->post)
		__text_gen_insn(buf, CALL_INSN_OPCODE, at, op_x86_detour_post_entry,
				CALL_INSN_SIZE);
	else
		memcpy(buf, nop5, sizeof(nop5));
}

/* The bytes the detour's body takes for the region's @n instructions @insns. */
static unsigned int op_x86_relocated_len(const struct op_x86_insn *insns, unsigned int n)
{
	unsigned int i, len = 0;

	for (i = 0; i < n; i++)
		len += op_x86_insn_relocated_len(&insns[i]);
	return len;
}

/* Write the detour of @site, whose region holds @n instructions @insns. */
static int op_x86_detour_write(struct op_site *site, struct op_x86_insn *insns,
			       unsigned int n)
{
	static const u8 nop3[] = { BYTES_NOP3 };
	unsigned int head = op_x86_detour_head_end - op_x86_detour_head;
	unsigned int tail = op_x86_detour_tail_end - op_x86_detour_tail;
	unsigned long detour = (unsigned long)site->detour;
	unsigned int i, off = 0, from = 0;
	u8 buf[OP_X86_DETOUR_MAX];
	int ret;

	if (WARN_ON_ONCE(op_x86_detour_size(op_x86_relocated_len(insns, n)) > sizeof(buf)))
		return -E2BIG;
	memcpy(buf, op_x86_detour_head, head);
	/* clac raises #UD without SMAP: alternatives never patch a copy */
	if (!cpu_feature_enabled(X86_FEATURE_SMAP))
		memcpy(buf + (op_x86_detour_head_clac - op_x86_detour_head), nop3, sizeof(nop3));
	/* the probed address, pushed as regs->ip, sign-extended from 32 bits */
	if ((long)(s32)site->addr != site->addr) {
		site->reason = OP_R_NOT_TOP_2G;
		return -ERANGE;
	}
	put_unaligned((s32)site->addr, (s32 *)(buf + (op_x86_detour_head_ip - op_x86_detour_head)));
	/* the imm64 that the head's last instruction loads into %rdi */
	put_unaligned((unsigned long)site, (unsigned long *)(buf + head) - 1);
	off += head;
	__text_gen_insn(buf + off, CALL_INSN_OPCODE, (void *)detour + off, op_x86_detour_pre,
			CALL_INSN_SIZE);
	off += CALL_INSN_SIZE;
	memcpy(buf + off, op_x86_detour_tail, tail);
	/* the tail's jnz to op_x86_detour_redirect: module space, in rel32 reach */
	off += op_x86_detour_tail_rel - op_x86_detour_tail;
	put_unaligned((s32)((unsigned long)op_x86_detour_redirect - (detour + off + sizeof(s32))),
		      (s32 *)(buf + off));
	off = op_x86_detour_body();
	for (i = 0; i < n; i++) {
		ret = op_x86_insn_relocate(&insns[i], site->arch.region + from, site->addr + from,
					   detour + off, buf + off);
		if (ret < 0) {
			site->reason = insns[i].has_rel ?
				OP_R_BRANCH_FAR :
				OP_R_RIPREL_DETOUR;
			return ret;
		}
		off += ret;
		from += insns[i].len;
		if (i)
			continue;
		op_x86_post_call(site, buf + off);
		off += CALL_INSN_SIZE;
	}
	if (op_x86_detour_goes_on(&insns[n - 1])) {
		__text_gen_insn(buf + off, JMP32_INSN_OPCODE, (void *)detour + off,
				(void *)site->addr + from, JMP32_INSN_SIZE);
		off += JMP32_INSN_SIZE;
	}
	op_x86_poke(site->detour, buf, off);
	return 0;
}

/* With text_mutex held. */
static int op_x86_opt_prepare(struct op_site *site, unsigned long func, unsigned long end)
{
	struct op_x86_insn insns[JMP32_INSN_SIZE];
	unsigned int n;
	int rlen, ret;
	size_t size;

	/* a detour masks interrupts with cli (tramp.S), which a PV guest's kernel cannot */
	if (cpu_feature_enabled(X86_FEATURE_XENPV)) {
		site->reason = OP_R_XEN_PV;
		return -EOPNOTSUPP;
	}
	/*
	 * First, before decoding through it: a kernel kprobe's own jump
	 * there would read as instructions that are not the original ones.
	 * Refused for now: the optimizer tries again once it has gone.
	 */
	if (op_x86_kprobe_in(site->addr - OP_X86_KPROBE_REACH, site->addr + OP_X86_REGION_MAX)) {
		site->reason = OP_R_KPROBE_NEAR_JUMP;
		return -EAGAIN;
	}
	rlen = op_x86_region(site, end, insns, &n);
	if (rlen < 0)
		return rlen;
	ret = op_x86_region_owned(site, rlen);
	/*
	 * A marker's region is its nop alone, one instruction: nothing can
	 * jump into it but to its first byte, so neither the function nor
	 * foreign entries need a look.
	 */
	if (!ret && !(site->marker && n == 1))
		ret = op_x86_foreign_entry_in(site->addr, site->addr + rlen, &site->reason);
	if (!ret && !(site->marker && n == 1))
		ret = op_x86_function_check(site, func, end, rlen);
	if (ret)
		return ret;
	if (site->detour) {
		/* the detour of an earlier optimization, still right */
		if (WARN_ON_ONCE(rlen != site->arch.rlen))
			return -EINVAL;
	} else {
		size = op_x86_detour_size(op_x86_relocated_len(insns, n));
		ret = op_slot_alloc(site, &site->detour, size, true);
		if (ret) {
			site->reason = OP_R_NOMEM_DETOUR;
			return ret;
		}
		ret = op_x86_detour_write(site, insns, n);
		if (ret) {
			/* not kept: a later try must not take it for a written one */
			op_slot_drop(site, &site->detour, size);
			return ret;
		}
		site->arch.rlen = rlen;
	}
	WRITE_ONCE(site->arch.to_detour, true);
	return 0;
}

int op_arch_opt_prepare(struct op_site *site)
{
	unsigned long size, offset;
	int ret;

	if (!op_kcall(kallsyms_lookup_size_offset)(site->addr, &size, &offset)) {
		site->reason = OP_R_NO_SYMBOL;
		return -EINVAL;
	}
	op_x86_text_lock();
	ret = op_x86_opt_prepare(site, site->addr - offset, site->addr - offset + size);
	op_x86_text_unlock();
	return ret;
}

bool op_arch_opt_at_once(const struct op_site *site)
{
	return site->arch.rlen == site->arch.len;
}

/* A detour is written only when its site is prepared, armed already. */
int op_arch_jump_ready(struct op_site *site)
{
	return -EAGAIN;
}

void op_arch_opt_unprepare(struct op_site *site)
{
	WRITE_ONCE(site->arch.to_detour, false);
}

/* With text_mutex held: still our int3 over the region prepared? */
static bool op_x86_may_optimize(const struct op_site *site)
{
	u8 now[OP_X86_REGION_MAX];
	u8 rlen = site->arch.rlen;

	if (copy_from_kernel_nofault(now, (void *)site->addr, rlen) ||
	    now[0] != INT3_INSN_OPCODE || memcmp(now + 1, site->arch.region + 1, rlen - 1))
		return false;
	return !op_x86_kprobe_in(site->addr - OP_X86_KPROBE_REACH, site->addr + rlen);
}

/*
 * The bytes of a region past its jmp, [addr + 5, addr + rlen): the tail of
 * the region's last instruction, which nothing runs while the jmp is there.
 * They hold int3 meanwhile, so that the kernel's kprobes, which decode
 * through optprobe's jmp into the middle of that instruction, find no
 * instruction boundary there to optimize a kprobe of their own over the
 * place the detour returns to.  op_arch_unoptimize() puts them back.
 */
static void op_x86_region_tail(const struct op_site *site)
{
	u8 int3s[OP_X86_REGION_MAX];
	unsigned int len = site->arch.rlen - JMP32_INSN_SIZE;

	if (!len)
		return;
	memset(int3s, INT3_INSN_OPCODE, len);
	op_x86_poke_text((void *)site->addr + JMP32_INSN_SIZE, int3s, len);
}

/*
 * One batch of the kernel's int3-protected patching: a CPU that meets a
 * site's first byte while the batch runs is sent where the new jmp goes.
 */
void op_arch_optimize(struct list_head *sites, struct list_head *failed)
{
	struct op_site *site, *tmp;
	u8 jmp[JMP32_INSN_SIZE];

	op_x86_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link) {
		if (!op_x86_may_optimize(site)) {
			site->reason = OP_R_TEXT_CHANGED;
			list_move_tail(&site->link, failed);
			continue;
		}
		__text_gen_insn(jmp, JMP32_INSN_OPCODE, (void *)site->addr, site->detour,
				JMP32_INSN_SIZE);
		op_kcall(text_poke_queue)((void *)site->addr, jmp, JMP32_INSN_SIZE, NULL);
	}
	op_kcall(text_poke_finish)();
	list_for_each_entry(site, sites, link)
		op_x86_region_tail(site);
	op_x86_text_unlock();
}

/*
 * Back to the int3 and the original bytes after it, or to the original
 * instruction (site->unopt_disarm), in one batch of three steps with a
 * sync of every CPU after each, as the kernel's own batches go: an int3
 * over each jmp's first byte; the rest of the region, jmp's tail and all,
 * in one write; then the first byte, where the original goes back.
 * While the batch runs a CPU meeting the int3 is sent to the detour
 * (op_x86_int3(), site->arch.to_detour, set here also for a site whose
 * jmp a kernel kprobe wrote back), as the jmp being removed would send
 * it; the detour runs the whole original region.  The kernel's
 * text_poke_queue() would take a write more per site: it writes at most
 * one instruction's 5 bytes at a time, so the region's tail would need a
 * write of its own.
 *
 * A site with a kernel kprobe anywhere in its region keeps its jmp: one
 * on its first byte saved the jmp as the instruction it displaced and
 * will write it back.  So does one with a kernel kprobe close before it:
 * were the kernel to jump-optimize that kprobe, its jump would replace
 * bytes of ours, copied as instructions of its region to run from its
 * detour and to be written back.  Whether the kernel's checks would
 * refuse such a region is not relied on.
 */
void op_arch_unoptimize(struct list_head *sites, struct list_head *held)
{
	static const u8 int3 = INT3_INSN_OPCODE;
	u8 jmp[JMP32_INSN_SIZE];
	struct op_site *site, *tmp;
	unsigned long addr;

	op_x86_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link) {
		addr = site->addr;
		__text_gen_insn(jmp, JMP32_INSN_OPCODE, (void *)addr, site->detour,
				JMP32_INSN_SIZE);
		if (op_x86_kprobe_in(addr - OP_X86_KPROBE_REACH, addr + site->arch.rlen) ||
		    memcmp((void *)addr, jmp, JMP32_INSN_SIZE)) {
			list_move_tail(&site->link, held);
			continue;
		}
		WRITE_ONCE(site->arch.to_detour, true);
		op_x86_poke_text((void *)addr, &int3, INT3_INSN_SIZE);
	}
	if (list_empty(sites))
		goto out;
	op_x86_sync();
	list_for_each_entry(site, sites, link)
		op_x86_poke_text((void *)site->addr + 1, &site->arch.region[1],
				 site->arch.rlen - 1);
	op_x86_sync();
	list_for_each_entry(site, sites, link)
		if (site->unopt_disarm)
			op_x86_poke_text((void *)site->addr, site->arch.region, INT3_INSN_SIZE);
	op_arch_commit();
out:
	op_x86_text_unlock();
}

/* A kprobe that emulates a jmp to the detour (kprobes' prepare_emulation()). */
bool op_arch_detour_reached(const struct op_site *site)
{
	struct kprobe *kp;
	bool reached;

	rcu_read_lock();
	kp = op_kcall(get_kprobe)((void *)site->addr);
	reached = kp && !kprobe_gone(kp) && kp->opcode == JMP32_INSN_OPCODE &&
		  site->addr + kp->ainsn.size + kp->ainsn.rel32 == (unsigned long)site->detour;
	rcu_read_unlock();
	return reached;
}

bool op_arch_opt_covers(const struct op_site *site, unsigned long addr)
{
	return op_x86_into_region(site, addr, site->arch.rlen);
}

enum op_reason op_arch_opt_blocked(const struct op_site *site)
{
	if (site->post && op_x86_probed_branch(site))
		return OP_R_POST_ON_BRANCH;
	return OP_R_NONE;
}

/*
 * Switch the detour's post call (site-arch.h) on or off with the kernel's
 * int3-protected patching: a CPU inside the detour takes the old or the
 * new instruction, never a mix.
 */
static void op_x86_detour_set_post(struct op_site *site)
{
	u8 call[CALL_INSN_SIZE];

	/* a branch's detour has no post call: the site leaves its detour */
	if (!site->detour || op_x86_probed_branch(site))
		return;
	op_x86_post_call(site, call);
	mutex_lock(op_ksyms.arch.text_mutex);
	op_kcall(text_poke_bp)(site->detour + op_x86_detour_body() + site->arch.len, call,
			       CALL_INSN_SIZE, NULL);
	mutex_unlock(op_ksyms.arch.text_mutex);
}

/*
 * A post handler, or a probe that forbids boosting, came or went: the
 * byte after a boostable copy switches between the jmp back and the int3.
 * A CPU inside the slot meanwhile takes either, both right.  The detour's
 * post call follows.
 */
void op_arch_site_flags(struct op_site *site)
{
	u8 exit = op_x86_slot_exit(site);

	if (site->slot && site->arch.boostable)
		op_arch_slot_write(site->slot + site->arch.len, &exit, 1);
	op_x86_set_bp_mode(site);
	op_x86_detour_set_post(site);
}
