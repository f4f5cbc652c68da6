// SPDX-License-Identifier: GPL-2.0
/*
 * A powerpc64le site's out-of-line copy of its instruction, for the hits
 * emulate_step() declines (trap.c): a slot, or its detour stub's copy.
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <asm/inst.h>
#include <asm/probes.h>

#include "arch.h"
#include "decode.h"
#include "optimize.h"

/*
 * A site whose instruction emulate_step() may decline gets an out-of-line
 * copy: whether it declines depends on the registers at the hit (a load's
 * address, MSR[FP] for a floating-point load, ...).  In module text, the
 * copy in the site's stub where it can have one (optimize.c), which also
 * readies the site for its jump; else, unless emulate_step() completes
 * the instruction whatever the registers (decode.c), a slot holding
 * [instruction][trap], 16 bytes and the slot's owner.  (The kernel's
 * kprobes give every probe a slot.)  The slot of a pc-relative
 * instruction must be near enough for its displacement to be corrected;
 * any other may be anywhere.  Post handlers run from the trap after the
 * copy, or from the stub's post switch: never boosted.
 */
int op_arch_prepare(struct op_site *site)
{
	u32 copy[OP_ARCH_SLOT_SIZE / sizeof(u32)];
	ppc_inst_t insn;
	unsigned int len;
	bool near;
	int ret;

	if (op_ppc_read_insn(site->addr, &site->arch.insn)) {
		site->reason = OP_R_UNREADABLE_INSN;
		return -EINVAL;
	}
	site->bp_mode = OPTPROBE_MODE_TRAP;
	if (op_ppc_stub_for_copy(site) || op_ppc_always_emulated(site->arch.insn))
		return 0;
	near = op_ppc_pcrel(site->arch.insn);
	ret = op_slot_alloc(site, &site->slot, OP_ARCH_SLOT_SIZE, near);
	if (ret) {
		site->reason = near ? OP_R_PCREL_NO_AREA :
			OP_R_NOMEM_SLOT;
		return ret;
	}
	if (op_ppc_relocate(site->arch.insn, site->addr, (unsigned long)site->slot, &insn)) {
		site->reason = OP_R_PCREL_SLOT;
		return -ERANGE;
	}
	len = ppc_inst_len(insn);
	copy[0] = ppc_inst_val(insn);
	copy[1] = ppc_inst_suffix(insn);
	copy[len / sizeof(u32)] = BREAKPOINT_INSTRUCTION;
	op_arch_slot_write(site->slot, copy, len + sizeof(u32));
	return 0;
}
