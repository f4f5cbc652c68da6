// SPDX-License-Identifier: GPL-2.0
/*
 * Jump optimization on powerpc64le: a site's trap becomes a "b" to its
 * detour (layout in site-arch.h), which must be within +-32 MB both ways.
 * The detour runs the probed instruction in place, so the instruction
 * must run the same from there:
 *
 *  - no branch: where it goes depends on where it is, and one that sets
 *    or reads LR or CTR as a branch would see the detour's (the trap path
 *    emulates branches);
 *  - no addpcis, whose result is its own address;
 *  - a pc-relative prefixed load or store (or pla) is re-targeted: its
 *    34-bit displacement is corrected by the distance it moved;
 *  - sc, rfid, mtmsr[d] and traps are never probed at all (decode.c).
 *
 * Only one instruction is replaced, so nothing can branch into the middle
 * of the jump, and no other site can be inside it (op_arch_opt_covers()).
 *
 * Slot areas (slot-area.c): for kernel text, slots of the kernel's own detour
 * cache (core-cache.c); for module text, pages allocated within branch
 * range of the module.  Detours are
 * written before anything leads to them (slot-write.c), the branch to one
 * through patch_instruction(), like every write of live text, with
 * op_mutex held: optprobe's writes are serialized by it.
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <asm/code-patching.h>
#include <asm/inst.h>
#include <asm/ppc-opcode.h>
#include <asm/probes.h>
#include <asm/ptrace.h>

#include "wrap-frame.h"

#include "arch.h"
#include "decode.h"
#include "ksyms.h"	/* and asm/sstep.h, which has no include guard */
#include "optimize.h"
#include "patch.h"
#include "slot-area.h"

/* The stub (site-arch.h): where its site is, its copy, and how long it is for a @len-byte copy. */
#define OP_PPC_STUB_SITE	16
#define OP_PPC_STUB_SIZE(len)	(OP_PPC_STUB_COPY + (len) + sizeof(u32))
#define OP_PPC_STUB_WORDS	(OP_PPC_STUB_SIZE(8) / sizeof(u32))

/*
 * A pc-relative displacement may grow by the distance to the detour,
 * within OP_PPC_REACH + PAGE_SIZE; refused beforehand if that could make
 * it overflow its 34 bits, so that a detour, once placed, always works.
 */
#define OP_PPC_PCREL_MAX	((1L << 33) - SZ_32M)

static unsigned long op_ppc_next(const struct op_site *site)
{
	return site->addr + ppc_inst_len(site->arch.insn);
}

/* The post switch: trap into the post handlers, or branch back. */
static ppc_inst_t op_ppc_post_switch(const struct op_site *site)
{
	unsigned long at = (unsigned long)site->detour + site->arch.post_switch;
	ppc_inst_t insn;

	if (site->post)
		return ppc_inst(BREAKPOINT_INSTRUCTION);
	/* in reach: checked when the stub was written */
	create_branch(&insn, (u32 *)at, op_ppc_next(site), 0);
	return insn;
}

/*
 * Build the stub of @site, at site->detour, in @w; its length in words,
 * or -ERANGE if a branch cannot reach.  Sets site->arch.post_switch.
 */
static int op_ppc_stub_build(struct op_site *site, u32 *w)
{
	unsigned long at = (unsigned long)site->detour;
	unsigned long owner = (unsigned long)site;
	unsigned int post_switch;
	ppc_inst_t b, copy;

	w[0] = PPC_RAW_STDU(1, 1, -STACK_INT_FRAME_SIZE);
	w[1] = PPC_RAW_STD(12, 1, OP_PPC_FRAME_REG(gpr[12]));
	w[2] = PPC_RAW_MFLR(12);
	if (create_branch(&b, (u32 *)(at + 12), (unsigned long)op_slot_area(site->detour),
			  BRANCH_SET_LINK))
		return -ERANGE;
	w[3] = ppc_inst_val(b);
	/* little-endian: the doubleword the C half reads at the return address */
	w[OP_PPC_STUB_SITE / 4] = lower_32_bits(owner);
	w[OP_PPC_STUB_SITE / 4 + 1] = upper_32_bits(owner);
	w[6] = PPC_RAW_LD(12, 1, OP_PPC_FRAME_REG(ctr));
	w[7] = PPC_RAW_MTCTR(12);
	w[8] = PPC_RAW_LD(12, 1, OP_PPC_FRAME_REG(gpr[12]));
	w[9] = PPC_RAW_LD(1, 1, OP_PPC_FRAME_REG(gpr[1]));
	if (op_ppc_relocate(site->arch.insn, site->addr, at + OP_PPC_STUB_COPY, &copy))
		return -ERANGE;
	w[OP_PPC_STUB_COPY / 4] = ppc_inst_val(copy);
	w[OP_PPC_STUB_COPY / 4 + 1] = ppc_inst_suffix(copy);
	post_switch = OP_PPC_STUB_COPY + ppc_inst_len(copy);
	if (create_branch(&b, (u32 *)(at + post_switch), op_ppc_next(site), 0))
		return -ERANGE;
	site->arch.post_switch = post_switch;
	w[post_switch / 4] = ppc_inst_val(op_ppc_post_switch(site));
	return post_switch / 4 + 1;
}

/* Why the instruction of @site cannot run from a detour, or NULL. */
static enum op_reason op_ppc_opt_refusal(const struct op_site *site)
{
	struct pt_regs regs = { .nip = site->addr, .msr = MSR_KERNEL };
	ppc_inst_t insn = site->arch.insn;
	u32 word = ppc_inst_val(insn);
	struct instruction_op op;
	int ret;

	if (get_op(word) == OP_19 && ((word >> 1) & 0x1f) == 2)
		return OP_R_INSN_ADDPCIS;
	ret = analyse_instr(&op, &regs, insn);
	/* what emulate_step() does not know of op 19 is a branch (bctar, rfebb) */
	if ((ret > 0 && GETTYPE(op.type) == BRANCH) || (get_op(word) == OP_19 && ret == 0))
		return OP_R_BRANCH_TRAP_ONLY;
	if (op_ppc_pcrel(insn) && abs(op_ppc_disp34(insn)) > OP_PPC_PCREL_MAX)
		return OP_R_PCREL_DETOUR;
	return OP_R_NONE;
}

/* Allocate and write the stub of @site. */
static int op_ppc_detour_new(struct op_site *site)
{
	u32 w[OP_PPC_STUB_WORDS];
	ppc_inst_t b;
	int ret, n;

	ret = op_slot_alloc(site, &site->detour, OP_PPC_STUB_SIZE(ppc_inst_len(site->arch.insn)),
			    true);
	if (ret) {
		site->reason = op_ppc_no_area(site);
		return -EAGAIN;
	}
	/* both ways: the slot area reaches by construction; checked all the same */
	n = op_ppc_stub_build(site, w);
	if (n < 0 || create_branch(&b, (u32 *)site->addr, (unsigned long)site->detour, 0)) {
		/* the slots stay with the site, unused, until it is freed */
		site->arch.post_switch = 0;
		site->reason = OP_R_DETOUR_FAR;
		return -ERANGE;
	}
	/*
	 * Written as instructions: a word of the site's address that looks
	 * like a prefix goes with the next one, the rest of the address or
	 * an instruction, which puts the same bytes in place.  The last word,
	 * the post switch, is never one.
	 */
	op_arch_slot_write(site->detour, w, n * sizeof(u32));
	return 0;
}

/**
 * op_ppc_stub_for_copy() - write @site's stub now, its copy to run out of line
 * @site:	a new site in module text, its instruction read
 *
 * Its stub's copy, followed by the post switch (a trap while post
 * handlers run, else a branch back), does what a slot's copy and trap
 * would: the site needs no slot, and the stub is ready for the optimizer.
 * Not for a site the optimizer will not take (in init text, or with
 * optimization switched off: a stub is three times a slot), nor in
 * kernel text, where room for stubs is scarce and kept for the sites the
 * optimizer picks.
 *
 * Return: true if the stub was written; else the site needs a slot.
 */
bool op_ppc_stub_for_copy(struct op_site *site)
{
	unsigned long addr = site->addr;
	int ret;

	if (site->init || !op_optimize_enabled() || op_kcall(core_kernel_text)(addr) ||
	    op_ppc_opt_refusal(site))
		return false;
	ret = op_ppc_detour_new(site);
	if (!ret)
		return true;
	/* nothing leads to a stub that could not be written: it goes at once */
	if (ret == -ERANGE)
		op_slot_drop(site, &site->detour,
			     OP_PPC_STUB_SIZE(ppc_inst_len(site->arch.insn)));
	/* the optimizer finds out again, and says why */
	site->reason = OP_R_NONE;
	return false;
}

int op_arch_opt_prepare(struct op_site *site)
{
	enum op_reason why = op_ppc_opt_refusal(site);
	int ret;

	if (why) {
		site->reason = why;
		return -EINVAL;
	}
	if (!site->detour) {
		ret = op_ppc_detour_new(site);
		if (ret)
			return ret;
	} else if (!site->arch.post_switch) {
		site->reason = OP_R_DETOUR_FAR;
		return -ERANGE;
	}
	/*
	 * A detour written earlier is still right: its post switch follows
	 * site->post (op_arch_site_flags()).  Its write ended in a sync
	 * (op_arch_slot_write()): a trap handler that reads to_detour sees
	 * the detour written.
	 */
	WRITE_ONCE(site->arch.to_detour, true);
	return 0;
}

/* A branch replaces one instruction, a prefixed one whole (its suffix stays). */
bool op_arch_opt_at_once(const struct op_site *site)
{
	return true;
}

void op_arch_opt_unprepare(struct op_site *site)
{
	WRITE_ONCE(site->arch.to_detour, false);
}

static ppc_inst_t op_ppc_jump_insn(const struct op_site *site)
{
	ppc_inst_t b;

	/* in reach: checked when the detour was written */
	create_branch(&b, (u32 *)site->addr, (unsigned long)site->detour, 0);
	return b;
}

/*
 * A site with its stub from its creation (op_ppc_stub_for_copy()): the
 * branch goes where the original is.  It replaces one word, as the trap
 * would have; a CPU fetches the original or the branch to a stub that
 * is written and pushed to every instruction cache already.  The
 * original need not be of the ISA's patch class (branches and the nop),
 * as the kernel's own writes assume: its kprobes put a trap over any
 * instruction, its optprobes a branch over the trap, one aligned word
 * each.  Not without the kernel's kprobe_mutex: a kernel kprobe could
 * then read the original and write its trap over the branch, and the
 * site would be optimized with no branch, where a trap taken over that
 * way is found gone before its branch is written (op_arch_optimize()).
 */
int op_arch_jump_ready(struct op_site *site)
{
	if (!site->detour || !site->arch.post_switch || !op_ppc_text_lock_holds_kprobes())
		return -EAGAIN;
	return op_arch_opt_prepare(site);
}

/* What arming writes: the trap, or the jump where op_arch_jump_ready() said so. */
static ppc_inst_t op_ppc_arm_insn(const struct op_site *site)
{
	return site->arm_jump ? op_ppc_jump_insn(site) : op_ppc_trap_insn(site);
}

/*
 * Where the instruction prepared still is, and no kernel kprobe.  A
 * prefixed original gets its trap or branch over the prefix word alone.
 */
void op_arch_arm(struct list_head *sites, struct list_head *failed)
{
	struct op_site *site, *tmp;

	op_ppc_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link)
		if (!op_ppc_word_is(site, site->arch.insn))
			list_move_tail(&site->link, failed);
	op_ppc_patch_sites(sites, op_ppc_arm_insn);
	op_ppc_text_unlock();
}

/*
 * A site whose trap is no longer there, or that a kernel kprobe took
 * since it was prepared, stays a trap.
 */
void op_arch_optimize(struct list_head *sites, struct list_head *failed)
{
	struct op_site *site, *tmp;

	op_ppc_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link) {
		if (!op_ppc_word_is(site, op_ppc_trap_insn(site))) {
			site->reason = OP_R_TEXT_CHANGED;
			list_move_tail(&site->link, failed);
		}
	}
	op_ppc_patch_sites(sites, op_ppc_jump_insn);
	op_ppc_text_unlock();
}

/* What a jump goes back to: the trap, or the original (site->unopt_disarm). */
static ppc_inst_t op_ppc_unjump_insn(const struct op_site *site)
{
	return site->unopt_disarm ? site->arch.insn : op_ppc_trap_insn(site);
}

/*
 * Back to the traps, or straight to the original instructions.  Tasks
 * still inside a detour finish it: it stays until its site is freed.  A
 * jump that a kernel kprobe took over stays: the kprobe saved it as the
 * instruction it displaced and will write it back.
 */
void op_arch_unoptimize(struct list_head *sites, struct list_head *held)
{
	struct op_site *site, *tmp;

	op_ppc_text_lock();
	list_for_each_entry_safe(site, tmp, sites, link)
		if (!op_ppc_word_is(site, op_ppc_jump_insn(site)))
			list_move_tail(&site->link, held);
	op_ppc_patch_sites(sites, op_ppc_unjump_insn);
	op_ppc_text_unlock();
}

bool op_arch_detour_reached(const struct op_site *site)
{
	struct kprobe *kp;
	bool reached;

	rcu_read_lock();
	kp = op_kcall(get_kprobe)((void *)site->addr);
	reached = kp && !kprobe_gone(kp) && kp->opcode == ppc_inst_val(op_ppc_jump_insn(site));
	rcu_read_unlock();
	return reached;
}

bool op_arch_opt_covers(const struct op_site *site, unsigned long addr)
{
	return false;
}

/* Post handlers run from every detour, through its post switch. */
enum op_reason op_arch_opt_blocked(const struct op_site *site)
{
	return OP_R_NONE;
}

/*
 * Run the post handlers from the stub or not: one word, the post switch,
 * changes, so a CPU inside the stub takes the old way or the new one.
 * Nothing is boosted: the trap path runs post handlers from the trap after
 * the slot's copy, which is always there, or from this same post switch
 * where the stub's copy serves instead (op_ppc_stub_for_copy()).
 */
void op_arch_site_flags(struct op_site *site)
{
	ppc_inst_t to;
	u32 *at;

	site->bp_mode = OPTPROBE_MODE_TRAP;
	if (!site->detour || !site->arch.post_switch)
		return;
	at = site->detour + site->arch.post_switch;
	/* called for OPTPROBE_F_NOOPT coming or going too, which changes nothing here */
	to = op_ppc_post_switch(site);
	if (READ_ONCE(*at) != ppc_inst_val(to))
		op_ppc_patch((unsigned long)at, to);
}
