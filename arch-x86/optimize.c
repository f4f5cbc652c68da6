// SPDX-License-Identifier: GPL-2.0
/*
 * Jump optimization on x86_64: a site's int3 becomes a rel32 jmp to its
 * detour (layout in site-arch.h).  The jmp replaces whole instructions
 * (the region), which the detour runs instead, so the region must hold
 * only instructions that run the same from there, and nothing may reach
 * into the region other than through its first byte:
 *
 *  - every instruction of the region may run from a slot with a jmp back
 *    (op_x86_insn_can_boost()), RIP-relative operands re-targeted; but the
 *    probed instruction may be a relative jmp or jcc, which the detour
 *    runs as a rel32 one to the same target (mainline refuses those);
 *  - no instruction of the region may fault to an exception fixup, and no
 *    fixup may land inside it;
 *  - no relative jump of the function lands inside it, and the function
 *    has no indirect jump (a jump table could);
 *  - it ends at the first unconditional jmp or ret (which the region may
 *    hold only as its probed instruction): what follows one is reached, if
 *    at all, from where the function's walk does not look (a .cold
 *    fragment, a jump table), as mainline's walk does not either;
 *  - no jump label of its text (kernel or module) jumps inside it: while
 *    its key is off, its jmp is a nop that the walk cannot see.  Static
 *    calls need no such care: whatever a site becomes, it calls or jumps
 *    to the start of a function, never into the middle of one;
 *  - no alternative, jump label, static call, ftrace site, other probe or
 *    kprobe of the kernel's overlaps it, and no int3 padding is in it.
 *
 * Mainline does the same minus the fixups, which make it refuse every
 * function with an exception-table entry, and minus the jump labels'
 * targets.
 */
#include <linux/extable.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/cpufeature.h>
#include <asm/nops.h>
#include <asm/unaligned.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "ksyms.h"

static const char op_x86_indirect[] =
	"the function has an indirect jump (a jump table may reach inside)";

/* Where an exception-table entry's fixup resumes. */
static unsigned long op_x86_fixup_of(const struct exception_table_entry *e)
{
	return (unsigned long)&e->fixup + e->fixup;
}

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
	char name[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(name, target);
	return !strncmp(name, "__x86_indirect_thunk_", 21) ||
	       !strncmp(name, "__x86_indirect_jump_thunk_", 26);
}

/*
 * A probed jmp or jcc (rel8 or rel32) goes into the detour as a rel32 one
 * to the same target.  Nothing runs after it on the taken way, so the
 * detour has no place for post handlers (op_arch_opt_blocked()).
 */
static bool op_x86_branch_copied(const struct op_site *site)
{
	return site->arch.emulation == OP_X86_EMU_JMP || site->arch.emulation == OP_X86_EMU_JCC;
}

/* The rel32 form of the probed branch, at @at in the detour; its length or -ERANGE. */
static int op_x86_branch_write(const struct op_site *site, unsigned long at, u8 *buf)
{
	unsigned int len = site->arch.emulation == OP_X86_EMU_JMP ? JMP32_INSN_SIZE :
								     JMP32_INSN_SIZE + 1;
	long rel = (long)site->arch.target - (long)(at + len);

	if (rel != (s32)rel)
		return -ERANGE;
	if (site->arch.emulation == OP_X86_EMU_JMP) {
		buf[0] = JMP32_INSN_OPCODE;
	} else {
		buf[0] = 0x0f;			/* jcc rel32: 0f 80+cc */
		buf[1] = 0x80 | site->arch.cc;
	}
	put_unaligned((s32)rel, (s32 *)(buf + len) - 1);
	return len;
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
			site->reason = "the function ends before a jump's 5 bytes";
			return -EINVAL;
		}
		if (op_x86_decode(pos, end, insn, region + (pos - addr))) {
			site->reason = "undecodable instruction where the jump would go";
			return -EINVAL;
		}
		if (insn->cls == OP_X86_INT3) {
			site->reason = "int3 padding where the jump would go";
			return -EINVAL;
		}
		if (!op_x86_insn_falls_through(insn) && pos + insn->len - addr < JMP32_INSN_SIZE) {
			site->reason =
				"the jump would replace bytes after an unconditional jmp or ret";
			return -EINVAL;
		}
		if (pos == addr && op_x86_branch_copied(site))
			continue;
		if (!op_x86_insn_can_boost(insn)) {
			site->reason = pos == addr ?
				"the probed instruction cannot run from a detour" :
				"an instruction the jump would replace cannot run from a detour";
			return -EINVAL;
		}
		if (pos == addr)
			continue;
		if (op_ksyms.search_exception_tables(pos)) {
			site->reason = "a replaced instruction has an exception fixup";
			return -EINVAL;
		}
		if (op_ksyms.ftrace_location(pos) == pos) {
			site->reason = "an ftrace site where the jump would go";
			return -EINVAL;
		}
		if (op_site_lookup(pos)) {
			site->reason = "another probe inside the bytes its jump would replace";
			return -EAGAIN;
		}
	}
	return pos - addr;
}

/*
 * Does a jump label of the text holding @site jump strictly inside its
 * region?  The kernel's labels jump within kernel text, a module's within
 * its own; labels of init text that is gone are left out, as the kernel
 * leaves them out.
 */
static bool op_x86_jump_label_into(const struct op_site *site, u8 rlen)
{
	const struct jump_entry *entry, *stop;
	struct module *mod;
	bool into = false;

	/* the module stays while preemption is off (its freeing waits for RCU) */
	preempt_disable();
	mod = op_ksyms.__module_text_address(site->addr);
	if (mod) {
		entry = mod->jump_entries;
		stop = entry + mod->num_jump_entries;
	} else {
		entry = *op_ksyms.arch.__start___jump_table;
		stop = *op_ksyms.arch.__stop___jump_table;
	}
	for (; entry < stop && !into; entry++)
		into = !jump_entry_is_init(entry) &&
		       op_x86_into_region(site, jump_entry_target(entry), rlen);
	preempt_enable();
	return into;
}

/* Text that others rewrite, or a kernel kprobe, over the region. */
static int op_x86_region_owned(struct op_site *site, u8 rlen)
{
	void *first = (void *)site->addr, *last = first + rlen - 1;

	if (op_ksyms.arch.alternatives_text_reserved(first, last)) {
		site->reason = "an alternative overlaps the bytes the jump would replace";
		return -EINVAL;
	}
	if (op_ksyms.jump_label_text_reserved(first, last)) {
		site->reason = "a jump label overlaps the bytes the jump would replace";
		return -EINVAL;
	}
	if (op_x86_jump_label_into(site, rlen)) {
		site->reason =
			"a jump label (static key) jumps inside the bytes the jump would replace";
		return -EINVAL;
	}
	if (op_ksyms.arch.static_call_text_reserved(first, last)) {
		site->reason = "a static call overlaps the bytes the jump would replace";
		return -EINVAL;
	}
	return 0;
}

/*
 * Are [@pos, @end) the padding after a function's last instruction: all
 * zeros (a module's text between its sections) or all int3?  kallsyms
 * sizes a function up to the next symbol, so its end may cut the padding
 * in the middle of what would decode as an instruction.
 */
static bool op_x86_padding(unsigned long pos, unsigned long end)
{
	u8 first, byte;

	if (copy_from_kernel_nofault(&first, (void *)pos, 1) ||
	    (first != 0 && first != INT3_INSN_OPCODE))
		return false;
	for (pos++; pos < end; pos++)
		if (copy_from_kernel_nofault(&byte, (void *)pos, 1) || byte != first)
			return false;
	return true;
}

/*
 * Walk the whole function [@func, @end): nothing may enter the region but
 * through its first byte.
 */
static int op_x86_function_check(struct op_site *site, unsigned long func, unsigned long end,
				 u8 rlen)
{
	const struct exception_table_entry *e;
	u8 buf[OP_X86_MAX_INSN_LEN];
	unsigned long pos, target;
	struct op_x86_insn insn;

	for (pos = func; pos < end; pos += insn.len) {
		if (op_x86_decode(pos, end, &insn, buf)) {
			if (op_x86_padding(pos, end))
				break;
			site->reason = "undecodable instruction in the function";
			return -EINVAL;
		}
		e = op_ksyms.search_exception_tables(pos);
		if (e && op_x86_into_region(site, op_x86_fixup_of(e), rlen)) {
			site->reason = "an exception fixup lands inside the jump's bytes";
			return -EINVAL;
		}
		if (op_x86_indirect_jmp(&insn)) {
			site->reason = op_x86_indirect;
			return -EINVAL;
		}
		/* jmp, jcc, call, loop/jrcxz and xbegin */
		if (!insn.has_rel)
			continue;
		target = pos + insn.len + insn.rel;
		if (op_x86_into_region(site, target, rlen)) {
			site->reason = "a jump in the function lands inside the jump's bytes";
			return -EINVAL;
		}
		if (insn.cls != OP_X86_CALL && (target < func || target >= end) &&
		    op_x86_is_thunk(target)) {
			site->reason = op_x86_indirect;
			return -EINVAL;
		}
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

/* Write the detour of @site, whose region holds @n instructions @insns. */
static int op_x86_detour_write(struct op_site *site, struct op_x86_insn *insns,
			       unsigned int n)
{
	static const u8 nop3[] = { BYTES_NOP3 };
	unsigned int head = op_x86_detour_head_end - op_x86_detour_head;
	unsigned int tail = op_x86_detour_tail_end - op_x86_detour_tail;
	unsigned long detour = (unsigned long)site->detour, at;
	unsigned int i, off = 0, from = 0;
	u8 buf[OP_X86_DETOUR_MAX];
	const char *why;
	int ret;

	if (WARN_ON_ONCE(op_x86_detour_size(site->arch.rlen) > sizeof(buf)))
		return -E2BIG;
	memcpy(buf, op_x86_detour_head, head);
	/* clac raises #UD without SMAP: alternatives never patch a copy */
	if (!cpu_feature_enabled(X86_FEATURE_SMAP))
		memcpy(buf + (op_x86_detour_head_clac - op_x86_detour_head), nop3, sizeof(nop3));
	/* the imm64 that the head's last instruction loads into %rdi */
	put_unaligned((unsigned long)site, (unsigned long *)(buf + head) - 1);
	off += head;
	__text_gen_insn(buf + off, CALL_INSN_OPCODE, (void *)detour + off, op_x86_detour_pre,
			CALL_INSN_SIZE);
	off += CALL_INSN_SIZE;
	memcpy(buf + off, op_x86_detour_tail, tail);
	/* the rel32 of the tail's jnz, which ends at op_x86_detour_tail_redirect */
	off += op_x86_detour_tail_redirect - op_x86_detour_tail;
	put_unaligned((s32)((long)op_x86_detour_redirect - (long)(detour + off)),
		      (s32 *)(buf + off) - 1);
	off = op_x86_detour_body();
	for (i = 0; i < n; i++) {
		at = detour + off;
		if (!i && op_x86_branch_copied(site)) {
			ret = op_x86_branch_write(site, at, buf + off);
			why = "the branch target is out of reach of the detour";
		} else {
			memcpy(buf + off, site->arch.region + from, insns[i].len);
			ret = op_x86_fixup_riprel(&insns[i], site->addr + from, at, buf + off) ?:
			      insns[i].len;
			why = "a RIP-relative operand is out of reach of the detour";
		}
		if (ret < 0) {
			site->reason = why;
			return ret;
		}
		off += ret;
		from += insns[i].len;
		if (i)
			continue;
		op_x86_post_call(site, buf + off);
		off += CALL_INSN_SIZE;
	}
	__text_gen_insn(buf + off, JMP32_INSN_OPCODE, (void *)detour + off,
			(void *)site->addr + from, JMP32_INSN_SIZE);
	off += JMP32_INSN_SIZE;
	op_x86_poke(site->detour, buf, off);
	return 0;
}

/* With text_mutex held. */
static int op_x86_opt_prepare(struct op_site *site, unsigned long func, unsigned long end)
{
	struct op_x86_insn insns[JMP32_INSN_SIZE];
	unsigned int n;
	int rlen, ret;

	/*
	 * First, before decoding through it: a kernel kprobe's own jump
	 * there would read as instructions that are not the original ones.
	 * Refused for now: the optimizer tries again once it has gone.
	 */
	if (op_x86_kprobe_in(site->addr - OP_X86_KPROBE_REACH, site->addr + OP_X86_REGION_MAX)) {
		site->reason = "a kprobe of the kernel's is in or near the jump's bytes";
		return -EAGAIN;
	}
	rlen = op_x86_region(site, end, insns, &n);
	if (rlen < 0)
		return rlen;
	ret = op_x86_region_owned(site, rlen);
	if (!ret)
		ret = op_x86_function_check(site, func, end, rlen);
	if (ret)
		return ret;
	if (site->detour) {
		/* the detour of an earlier optimization, still right */
		if (WARN_ON_ONCE(rlen != site->arch.rlen))
			return -EINVAL;
	} else {
		ret = op_slot_alloc(site, &site->detour, op_x86_detour_size(rlen), true);
		if (ret) {
			site->reason = "out of memory for a detour";
			return ret;
		}
		site->arch.rlen = rlen;
		ret = op_x86_detour_write(site, insns, n);
		if (ret)
			return ret;
	}
	WRITE_ONCE(site->arch.to_detour, true);
	return 0;
}

int op_arch_opt_prepare(struct op_site *site)
{
	unsigned long size, offset;
	int ret;

	if (site->arch.emulation != OP_X86_OUT_OF_LINE && !op_x86_branch_copied(site)) {
		site->reason = "a call or return is emulated, not copied to a detour";
		return -EINVAL;
	}
	if (!op_ksyms.kallsyms_lookup_size_offset(site->addr, &size, &offset)) {
		site->reason = "no symbol covers it";
		return -EINVAL;
	}
	op_x86_text_lock();
	ret = op_x86_opt_prepare(site, site->addr - offset, site->addr - offset + size);
	op_x86_text_unlock();
	return ret;
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
 * place the detour returns to.  @original: put the original tail back.
 */
static void op_x86_region_tail(const struct op_site *site, bool original)
{
	u8 int3s[OP_X86_REGION_MAX], now[OP_X86_REGION_MAX];
	unsigned int len = site->arch.rlen - JMP32_INSN_SIZE;
	void *tail = (void *)site->addr + JMP32_INSN_SIZE;

	if (!len)
		return;
	memset(int3s, INT3_INSN_OPCODE, len);
	memcpy(now, tail, len);
	op_x86_poke_dead(tail, original ? site->arch.region + JMP32_INSN_SIZE : int3s, len, now);
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
	list_for_each_entry_safe(site, tmp, sites, opt_list) {
		if (!op_x86_may_optimize(site)) {
			site->reason = "its text changed while its detour was prepared";
			list_move_tail(&site->opt_list, failed);
			continue;
		}
		__text_gen_insn(jmp, JMP32_INSN_OPCODE, (void *)site->addr, site->detour,
				JMP32_INSN_SIZE);
		op_ksyms.arch.text_poke_queue((void *)site->addr, jmp, JMP32_INSN_SIZE, NULL);
	}
	op_ksyms.arch.text_poke_finish();
	list_for_each_entry(site, sites, opt_list)
		op_x86_region_tail(site, false);
	op_x86_text_unlock();
}

/*
 * Back to the int3 and the original bytes after it, in one batch.  While
 * the batch runs, a CPU meeting the first byte is sent to the detour, as
 * the jmp being removed would.  A site with a kernel kprobe anywhere in
 * its region keeps its jmp: one on its first byte saved the jmp as the
 * instruction it displaced and will write it back.
 */
void op_arch_unoptimize(struct list_head *sites, struct list_head *held)
{
	u8 jmp[JMP32_INSN_SIZE], bp[JMP32_INSN_SIZE];
	struct op_site *site, *tmp;

	op_x86_text_lock();
	list_for_each_entry_safe(site, tmp, sites, opt_list) {
		__text_gen_insn(jmp, JMP32_INSN_OPCODE, (void *)site->addr, site->detour,
				JMP32_INSN_SIZE);
		if (op_x86_kprobe_in(site->addr, site->addr + site->arch.rlen) ||
		    memcmp((void *)site->addr, jmp, JMP32_INSN_SIZE)) {
			list_move_tail(&site->opt_list, held);
			continue;
		}
		/* first the tail: nothing runs it before the jmp is gone */
		op_x86_region_tail(site, true);
		bp[0] = INT3_INSN_OPCODE;
		memcpy(bp + 1, site->arch.region + 1, JMP32_INSN_SIZE - 1);
		op_ksyms.arch.text_poke_queue((void *)site->addr, bp, JMP32_INSN_SIZE, jmp);
	}
	op_ksyms.arch.text_poke_finish();
	op_x86_text_unlock();
}

/* A kprobe that emulates a jmp to the detour (kprobes' prepare_emulation()). */
bool op_arch_detour_reached(const struct op_site *site)
{
	struct kprobe *kp;
	bool reached;

	rcu_read_lock();
	kp = op_ksyms.get_kprobe((void *)site->addr);
	reached = kp && !kprobe_gone(kp) && kp->opcode == JMP32_INSN_OPCODE &&
		  site->addr + kp->ainsn.size + kp->ainsn.rel32 == (unsigned long)site->detour;
	rcu_read_unlock();
	return reached;
}

bool op_arch_opt_covers(const struct op_site *site, unsigned long addr)
{
	return op_x86_into_region(site, addr, site->arch.rlen);
}

const char *op_arch_opt_blocked(const struct op_site *site)
{
	if (site->post && op_x86_branch_copied(site))
		return "a post handler on a jmp or jcc runs from the breakpoint only";
	return NULL;
}

/*
 * Switch the detour's post call (site-arch.h) on or off with the kernel's
 * int3-protected patching: a CPU inside the detour takes the old or the
 * new instruction, never a mix.
 */
void op_x86_detour_set_post(struct op_site *site)
{
	u8 call[CALL_INSN_SIZE];

	/* a branch's detour has no post call: the site leaves its detour */
	if (!site->detour || op_x86_branch_copied(site))
		return;
	op_x86_post_call(site, call);
	mutex_lock(op_ksyms.arch.text_mutex);
	op_ksyms.arch.text_poke_bp(site->detour + op_x86_detour_body() + site->arch.len, call,
				   CALL_INSN_SIZE, NULL);
	mutex_unlock(op_ksyms.arch.text_mutex);
}
