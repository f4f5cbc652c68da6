// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction checks for powerpc64le probes: is an address an instruction
 * boundary, and can the instruction there be probed.
 *
 * An instruction is one word, or two for a prefixed instruction (ISA 3.1,
 * primary opcode 1), so boundaries are found by walking the words from the
 * start of the function.  Breakpoints of optprobe's and of the kernel's
 * kprobes are read through to the instruction they replaced.
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <asm/code-patching.h>
#include <asm/cpu_has_feature.h>
#include <asm/inst.h>
#include <asm/probes.h>

#include "arch.h"
#include "decode.h"
#include "exports.h"
#include "ksyms.h"	/* and asm/sstep.h, which has no include guard */

/* The primary opcode of b, ba, bl and bla: an optimized site's jump */
#define OP_PPC_BRANCH	18

/*
 * The original word at @addr: a breakpoint, or the b of an optimized
 * site or kprobe, stands for the word it replaced.
 */
static int op_ppc_read_word(unsigned long addr, u32 *word)
{
	struct op_site *site;
	struct kprobe *kp;

	if (copy_from_kernel_nofault(word, (void *)addr, sizeof(*word)))
		return -EFAULT;
	if (*word != BREAKPOINT_INSTRUCTION && get_op(*word) != OP_PPC_BRANCH)
		return 0;
	site = op_site_lookup(addr);
	if (site && !site->ftrace) {
		*word = ppc_inst_val(site->arch.insn);
		return 0;
	}
	rcu_read_lock();
	kp = op_kcall(get_kprobe)((void *)addr);
	if (kp)
		*word = kp->opcode;
	rcu_read_unlock();
	return 0;
}

/* The original instruction at @addr, with its suffix if it is prefixed. */
int op_ppc_read_insn(unsigned long addr, ppc_inst_t *insn)
{
	u32 prefix, suffix;

	if (op_ppc_read_word(addr, &prefix))
		return -EFAULT;
	if (get_op(prefix) != OP_PREFIX) {
		*insn = ppc_inst(prefix);
		return 0;
	}
	if (op_ppc_read_word(addr + 4, &suffix))
		return -EFAULT;
	*insn = ppc_inst_prefix(prefix, suffix);
	return 0;
}

/* Why @insn can never be probed, or NULL if it can. */
static enum op_reason op_ppc_refusal(ppc_inst_t insn)
{
	struct pt_regs regs = { .msr = MSR_KERNEL };
	u32 word = ppc_inst_val(insn);
	struct instruction_op op;
	int ret;

	if (is_trap(word))
		return OP_R_INSN_TRAP;
	/* the kernel's own list, which its kprobes refuse too */
	if (!can_single_step(word))
		return OP_R_INSN_NO_STEP_LISTED;
	/* this kernel's analyse_instr() decodes them on any CPU */
	if (ppc_inst_prefixed(insn) && !cpu_has_feature(CPU_FTR_ARCH_31))
		return OP_R_INSN_PREFIXED_CPU;
	/* what is asked of analyse_instr() here does not depend on the registers */
	ret = analyse_instr(&op, &regs, insn);
	if (ret < 0)
		return OP_R_INSN_NO_STEP;
	/*
	 * Every branch emulate_step() knows, it emulates; the ones it does
	 * not (bctar, rfebb) would leave the slot without reaching the trap
	 * after the copy.
	 */
	if (get_op(word) == OP_19 && ret == 0)
		return OP_R_INSN_BRANCH_NO_EMU;
	return OP_R_NONE;
}

/*
 * Does emulate_step() complete @insn, whatever the registers at a hit?
 * It does when analyse_instr() returns 1: updating the registers is all
 * the instruction does (arithmetic, logic, compares, branches, moves to
 * and from LR, CTR, XER and CR, barriers), and emulate_step() then
 * returns 1.  For the instructions a probe is allowed on, whether
 * analyse_instr() returns 1 depends on the instruction alone: the
 * exceptions, a trap's condition and MSR[PR], are a refused instruction
 * (op_ppc_refusal()) and a mode probes never run in.  Loads, stores,
 * cache operations and moves from other registers may be declined at a
 * hit.
 */
bool op_ppc_always_emulated(ppc_inst_t insn)
{
	struct pt_regs regs = { .msr = MSR_KERNEL };
	struct instruction_op op;

	return analyse_instr(&op, &regs, insn) > 0;
}

/*
 * The 8LS and MLS prefixed forms (prefix types 0 and 2) with R set address
 * relative to the instruction (pld, plwz, pstd, pla, ...).
 */
bool op_ppc_pcrel(ppc_inst_t insn)
{
	u32 prefix = ppc_inst_val(insn);

	return ppc_inst_prefixed(insn) && !(prefix & (1 << 24)) && GET_PREFIX_R(prefix);
}

/* The 34-bit displacement: d0 in the prefix's low 18 bits, d1 in the suffix's low 16. */
s64 op_ppc_disp34(ppc_inst_t insn)
{
	return sign_extend64((u64)(ppc_inst_val(insn) & 0x3ffff) << 16 |
			     (ppc_inst_suffix(insn) & 0xffff), 33);
}

/**
 * op_ppc_relocate() - the copy of an instruction that runs the same elsewhere
 * @insn:	the instruction
 * @from:	its address
 * @to:		where the copy goes
 * @copy:	the copy: @insn, with a pc-relative displacement corrected
 *
 * Return: 0, or -ERANGE if the displacement no longer fits its 34 bits.
 */
int op_ppc_relocate(ppc_inst_t insn, unsigned long from, unsigned long to, ppc_inst_t *copy)
{
	u32 prefix = ppc_inst_val(insn), suffix = ppc_inst_suffix(insn);
	s64 d;

	*copy = insn;
	if (!op_ppc_pcrel(insn))
		return 0;
	d = op_ppc_disp34(insn) + (from - to);
	if (d != sign_extend64(d, 33))
		return -ERANGE;
	*copy = ppc_inst_prefix((prefix & ~0x3ffff) | ((d >> 16) & 0x3ffff),
				(suffix & ~0xffff) | (d & 0xffff));
	return 0;
}

/*
 * An ELFv2 function's global entry sets up the TOC pointer for callers
 * that do not share it: "addis r2,r12,hi; addi r2,r2,lo" (or "lis r2,hi"
 * when the linker made it absolute).  The local entry follows.
 */
unsigned long op_arch_local_entry(unsigned long func)
{
	u32 hi, lo;

	if (op_ppc_read_word(func, &hi) || op_ppc_read_word(func + 4, &lo))
		return func;
	if (((hi & OP_RT_RA_MASK) == ADDIS_R2_R12 || (hi & OP_RT_RA_MASK) == LIS_R2) &&
	    (lo & OP_RT_RA_MASK) == ADDI_R2_R2)
		return func + 8;
	return func;
}

/* The kernel keeps an address probe on a global entry there; so does optprobe. */
unsigned long op_arch_probe_addr(unsigned long addr)
{
	return addr;
}

/*
 * A load-reserve (lbarx, lharx, lwarx, ldarx, lqarx), or a
 * store-conditional (stbcx., sthcx., stwcx., stdcx., stqcx.) when
 * @store: primary opcode 31 with these extended opcodes.
 */
static bool op_ppc_reserve(ppc_inst_t insn, bool store)
{
	u32 word = ppc_inst_val(insn), xo = (word >> 1) & 0x3ff;

	if (ppc_inst_prefixed(insn) || word >> 26 != 31)
		return false;
	if (store)
		return xo == 150 || xo == 214 || xo == 694 || xo == 726 || xo == 182;
	return xo == 20 || xo == 84 || xo == 52 || xo == 116 || xo == 276;
}

/* How far after a load-reserve its store-conditional comes, at most (as arm64 counts). */
#define OP_PPC_RESERVE_SPAN	(16 * sizeof(u32))

int op_arch_check_insn(unsigned long func, unsigned long size,
		       unsigned long addr, enum op_reason *reason)
{
	unsigned long pos = func, reserved = 0;
	ppc_inst_t insn;

	if (addr & 3) {
		*reason = OP_R_NOT_ALIGNED;
		return -EILSEQ;
	}
	while (pos < addr) {
		if (op_ppc_read_insn(pos, &insn)) {
			*reason = OP_R_UNREADABLE_BEFORE;
			return -EILSEQ;
		}
		if (op_ppc_reserve(insn, false))
			reserved = pos;
		else if (op_ppc_reserve(insn, true))
			reserved = 0;
		pos += ppc_inst_len(insn);
	}
	if (pos != addr) {
		*reason = OP_R_PREFIX_SUFFIX;
		return -EILSEQ;
	}
	if (op_ppc_read_insn(addr, &insn)) {
		*reason = OP_R_UNREADABLE_INSN;
		return -EINVAL;
	}
	/*
	 * Returning from a trap (or a detour's calls) clears the
	 * reservation: the store-conditional would fail every time, and
	 * its loop never end.  On the load-reserve itself too: its trap
	 * returns after the load, emulated or run out of line (and the
	 * kernel's exit from the trap clears reservations on purpose).
	 * arm64's kprobes refuse the same.
	 */
	if (op_ppc_reserve(insn, false) ||
	    (reserved && addr - reserved <= OP_PPC_RESERVE_SPAN)) {
		*reason = OP_R_IN_LARX_STCX;
		return -EINVAL;
	}
	*reason = op_ppc_refusal(insn);
	return *reason ? -EINVAL : 0;
}
EXPORT_SYMBOL_NS_GPL(op_arch_check_insn, OPTPROBE_INTERNAL);

int op_arch_insn_len(unsigned long func, unsigned long size,
		     unsigned long addr, enum op_reason *reason)
{
	unsigned long pos = func;
	ppc_inst_t insn;

	if (addr & 3) {
		*reason = OP_R_NOT_ALIGNED;
		return -EILSEQ;
	}
	for (;;) {
		if (op_ppc_read_insn(pos, &insn)) {
			*reason = OP_R_UNREADABLE_TEXT;
			return -EILSEQ;
		}
		if (pos >= addr)
			break;
		pos += ppc_inst_len(insn);
	}
	if (pos != addr) {
		*reason = OP_R_PREFIX_SUFFIX;
		return -EILSEQ;
	}
	return ppc_inst_len(insn);
}
