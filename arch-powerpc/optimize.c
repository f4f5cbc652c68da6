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
 * Slot areas (patch.c): for kernel text, slots of the kernel's own detour
 * cache (core-cache.c); for module text, pages allocated within branch
 * range of the module.  Detours are
 * written through patch_instruction(), like every text write, with
 * op_mutex held: optprobe's writes are serialized by it.
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <asm/code-patching.h>
#include <asm/inst.h>
#include <asm/ppc-opcode.h>
#include <asm/probes.h>
#include <asm/ptrace.h>

#include "arch.h"
#include "ksyms.h"	/* and asm/sstep.h, which has no include guard */

/* Where a pt_regs field is in the frame a detour pushes. */
#define OP_PPC_FRAME_REG(field)	(STACK_FRAME_OVERHEAD + offsetof(struct pt_regs, field))

#define OP_PPC_MFCTR(t)		(0x7c0902a6 | ___PPC_RT(t))

/*
 * A pc-relative displacement may grow by the distance to the detour,
 * within OP_PPC_REACH + PAGE_SIZE; refused beforehand if that could make
 * it overflow its 34 bits, so that a detour, once placed, always works.
 */
#define OP_PPC_PCREL_MAX	((1L << 33) - SZ_32M)

/* A detour being built: its words and where they will be. */
struct op_ppc_detour {
	u32 words[OP_PPC_DETOUR_WORDS];
	unsigned int n;
	unsigned long at;
};

static void op_ppc_emit(struct op_ppc_detour *d, u32 word)
{
	d->words[d->n++] = word;
}

static unsigned long op_ppc_here(const struct op_ppc_detour *d)
{
	return d->at + d->n * sizeof(u32);
}

/* A call of a trampoline that leaves r1, r12, LR and CTR as they were. */
static void op_ppc_emit_call(struct op_ppc_detour *d, void (*entry)(void))
{
	unsigned long fn = (unsigned long)entry;

	op_ppc_emit(d, PPC_RAW_STDU(1, 1, -STACK_INT_FRAME_SIZE));
	op_ppc_emit(d, PPC_RAW_STD(12, 1, OP_PPC_FRAME_REG(gpr[12])));
	op_ppc_emit(d, PPC_RAW_MFLR(12));
	op_ppc_emit(d, PPC_RAW_STD(12, 1, OP_PPC_FRAME_REG(link)));
	op_ppc_emit(d, OP_PPC_MFCTR(12));
	op_ppc_emit(d, PPC_RAW_STD(12, 1, OP_PPC_FRAME_REG(ctr)));
	op_ppc_emit(d, PPC_RAW_LIS(12, fn >> 48));
	op_ppc_emit(d, PPC_RAW_ORI(12, 12, fn >> 32));
	op_ppc_emit(d, PPC_RAW_RLDICR(12, 12, 32, 31));
	op_ppc_emit(d, PPC_RAW_ORIS(12, 12, fn >> 16));
	op_ppc_emit(d, PPC_RAW_ORI(12, 12, fn));
	op_ppc_emit(d, PPC_RAW_MTCTR(12));
	op_ppc_emit(d, PPC_RAW_BCTRL());
	op_ppc_emit(d, PPC_RAW_LD(12, 1, OP_PPC_FRAME_REG(link)));
	op_ppc_emit(d, PPC_RAW_MTLR(12));
	op_ppc_emit(d, PPC_RAW_LD(12, 1, OP_PPC_FRAME_REG(ctr)));
	op_ppc_emit(d, PPC_RAW_MTCTR(12));
	op_ppc_emit(d, PPC_RAW_LD(12, 1, OP_PPC_FRAME_REG(gpr[12])));
	op_ppc_emit(d, PPC_RAW_LD(1, 1, OP_PPC_FRAME_REG(gpr[1])));
}

/* "b @target" from the next word; false if out of reach. */
static bool op_ppc_emit_branch(struct op_ppc_detour *d, unsigned long target)
{
	ppc_inst_t b;

	if (create_branch(&b, (u32 *)op_ppc_here(d), target, 0))
		return false;
	op_ppc_emit(d, ppc_inst_val(b));
	return true;
}

static unsigned long op_ppc_next(const struct op_site *site)
{
	return site->addr + ppc_inst_len(site->arch.insn);
}

/* The post switch: fall into the post handlers' call, or branch back. */
static ppc_inst_t op_ppc_post_switch(const struct op_site *site)
{
	unsigned long at = (unsigned long)site->detour + site->arch.post_switch;
	ppc_inst_t insn;

	if (site->post)
		return ppc_inst(PPC_RAW_NOP());
	/* in reach: checked when the detour was written */
	create_branch(&insn, (u32 *)at, op_ppc_next(site), 0);
	return insn;
}

/*
 * Build the detour of @site at site->detour, and where its post switch is;
 * -ERANGE if a branch cannot reach.
 */
static int op_ppc_detour_build(struct op_site *site, struct op_ppc_detour *d,
			       unsigned int *post_switch)
{
	ppc_inst_t insn = site->arch.insn, copy;

	d->n = 0;
	d->at = (unsigned long)site->detour;
	op_ppc_emit_call(d, op_ppc_detour_pre_entry);
	/* a prefixed instruction must not cross a 64-byte boundary */
	if (ppc_inst_prefixed(insn) && (op_ppc_here(d) & 63) == 60)
		op_ppc_emit(d, PPC_RAW_NOP());
	if (op_ppc_relocate(insn, site->addr, op_ppc_here(d), &copy))
		return -ERANGE;
	op_ppc_emit(d, ppc_inst_val(copy));
	if (ppc_inst_prefixed(copy))
		op_ppc_emit(d, ppc_inst_suffix(copy));
	*post_switch = op_ppc_here(d) - d->at;
	if (!op_ppc_emit_branch(d, op_ppc_next(site)))
		return -ERANGE;
	op_ppc_emit_call(d, op_ppc_detour_post_entry);
	if (!op_ppc_emit_branch(d, op_ppc_next(site)))
		return -ERANGE;
	if (site->post)
		d->words[*post_switch / sizeof(u32)] = PPC_RAW_NOP();
	return 0;
}

/* Why the instruction of @site cannot run from a detour, or NULL. */
static const char *op_ppc_opt_refusal(const struct op_site *site)
{
	struct pt_regs regs = { .nip = site->addr, .msr = MSR_KERNEL };
	ppc_inst_t insn = site->arch.insn;
	u32 word = ppc_inst_val(insn);
	struct instruction_op op;
	int ret;

	if (get_op(word) == OP_19 && ((word >> 1) & 0x1f) == 2)
		return "addpcis: its result depends on where it runs";
	ret = analyse_instr(&op, &regs, insn);
	/* what emulate_step() does not know of op 19 is a branch (bctar, rfebb) */
	if ((ret > 0 && GETTYPE(op.type) == BRANCH) || (get_op(word) == OP_19 && ret == 0))
		return "a branch: the trap emulates it, a detour could not run it";
	if (op_ppc_pcrel(insn) && abs(op_ppc_disp34(insn)) > OP_PPC_PCREL_MAX)
		return "a pc-relative operand out of reach of a detour";
	return NULL;
}

/* Allocate and write the detour of @site. */
static int op_ppc_detour_new(struct op_site *site)
{
	unsigned int post_switch;
	struct op_ppc_detour d;
	ppc_inst_t b;
	int ret;

	ret = op_slot_alloc(site, &site->detour, OP_PPC_DETOUR_SIZE, true);
	if (ret) {
		site->reason = op_ppc_no_area(site);
		return -EAGAIN;
	}
	/* both ways: the slot area reaches by construction; checked all the same */
	ret = op_ppc_detour_build(site, &d, &post_switch);
	if (ret || create_branch(&b, (u32 *)site->addr, (unsigned long)site->detour, 0)) {
		/* the slots stay with the site, unused, until it is freed */
		site->reason = "its detour is out of branch range";
		return -ERANGE;
	}
	op_arch_slot_write(site->detour, d.words, d.n * sizeof(u32));
	site->arch.post_switch = post_switch;
	return 0;
}

int op_arch_opt_prepare(struct op_site *site)
{
	const char *why = op_ppc_opt_refusal(site);
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
		site->reason = "its detour is out of branch range";
		return -ERANGE;
	}
	/*
	 * A detour written earlier is still right: its post switch follows
	 * site->post (op_arch_site_flags()).  patch_instruction() ended in a
	 * sync: a trap handler that reads to_detour sees the detour written.
	 */
	WRITE_ONCE(site->arch.to_detour, true);
	return 0;
}

void op_arch_opt_unprepare(struct op_site *site)
{
	WRITE_ONCE(site->arch.to_detour, false);
}

static ppc_inst_t op_ppc_trap_insn(const struct op_site *site)
{
	return ppc_inst(BREAKPOINT_INSTRUCTION);
}

static ppc_inst_t op_ppc_jump_insn(const struct op_site *site)
{
	ppc_inst_t b;

	/* in reach: checked when the detour was written */
	create_branch(&b, (u32 *)site->addr, (unsigned long)site->detour, 0);
	return b;
}

/* Is @insn at site->addr, and no kernel kprobe there? */
static bool op_ppc_word_is(const struct op_site *site, ppc_inst_t insn)
{
	u32 now;

	return !copy_from_kernel_nofault(&now, (void *)site->addr, sizeof(now)) &&
	       now == ppc_inst_val(insn) && !op_ppc_kprobe_at(site->addr);
}

/*
 * Replace @from by @to at each of @sites where @from still is, in one
 * batch (op_ppc_patch()).  A single aligned word changes: a CPU fetches
 * the old instruction or the new one.
 */
static void op_ppc_patch_sites(struct list_head *sites,
			       ppc_inst_t (*from)(const struct op_site *site),
			       ppc_inst_t (*to)(const struct op_site *site))
{
	struct op_site *site;

	list_for_each_entry(site, sites, opt_list)
		if (op_ppc_word_is(site, from(site)))
			op_ppc_patch(site->addr, to(site));
}

/*
 * A site whose trap is no longer there, or that a kernel kprobe took
 * since it was prepared, stays a trap.
 */
void op_arch_optimize(struct list_head *sites, struct list_head *failed)
{
	struct op_site *site, *tmp;

	list_for_each_entry_safe(site, tmp, sites, opt_list) {
		if (!op_ppc_word_is(site, op_ppc_trap_insn(site))) {
			site->reason = "its text changed while its detour was prepared";
			list_move_tail(&site->opt_list, failed);
		}
	}
	op_ppc_patch_sites(sites, op_ppc_trap_insn, op_ppc_jump_insn);
}

/*
 * Back to the traps.  Tasks still inside a detour finish it: it stays
 * until its site is freed.  A jump that a kernel kprobe took over stays:
 * the kprobe saved it as the instruction it displaced and will write it
 * back.
 */
void op_arch_unoptimize(struct list_head *sites, struct list_head *held)
{
	struct op_site *site, *tmp;

	list_for_each_entry_safe(site, tmp, sites, opt_list)
		if (!op_ppc_word_is(site, op_ppc_jump_insn(site)))
			list_move_tail(&site->opt_list, held);
	op_ppc_patch_sites(sites, op_ppc_jump_insn, op_ppc_trap_insn);
}

bool op_arch_detour_reached(const struct op_site *site)
{
	struct kprobe *kp;
	bool reached;

	rcu_read_lock();
	kp = op_ksyms.get_kprobe((void *)site->addr);
	reached = kp && !kprobe_gone(kp) && kp->opcode == ppc_inst_val(op_ppc_jump_insn(site));
	rcu_read_unlock();
	return reached;
}

bool op_arch_opt_covers(const struct op_site *site, unsigned long addr)
{
	return false;
}

/* Post handlers run from every detour, through its post switch. */
const char *op_arch_opt_blocked(const struct op_site *site)
{
	return NULL;
}

/*
 * Run the post handlers from the detour or not: one word, the post switch,
 * changes, so a CPU inside the detour takes the old way or the new one.
 * Nothing is boosted: the trap path runs post handlers from the trap after
 * the slot's copy, which is always there.
 */
void op_arch_site_flags(struct op_site *site)
{
	if (site->detour && site->arch.post_switch)
		op_ppc_patch((unsigned long)site->detour + site->arch.post_switch,
			     op_ppc_post_switch(site));
	site->bp_mode = OPTPROBE_MODE_TRAP;
}

bool op_arch_slot_reaches(const void *page, unsigned long addr)
{
	long off = (unsigned long)page - addr;

	return off >= -OP_PPC_REACH && off <= OP_PPC_REACH;
}
