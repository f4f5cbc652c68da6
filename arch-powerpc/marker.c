// SPDX-License-Identifier: GPL-2.0
/*
 * ppc64le marker records (include/optprobe-marker.h): each argument's
 * location is an instruction that the assembler encoded and nothing
 * runs, "add%I 3,3,ARG":
 *
 *   addi 3,3,SIMM	a constant (constraint "I": 16 bits, signed)
 *   add 3,3,RB		a register, RB
 *
 * Arguments are never in memory here: the operand's constraint is "rI",
 * and the compiler loads one it holds in memory into a register.
 */
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <asm/ppc-opcode.h>

#include "arch.h"
#include "markers.h"

int op_arch_marker_loc(const u8 *insn, unsigned long at, struct op_marker_loc *loc)
{
	/* at 4 bytes into an argument's record: aligned */
	u32 word = le32_to_cpup((const __le32 *)insn);

	loc->base = OP_MLOC_NO_REG;
	loc->index = OP_MLOC_NO_REG;
	loc->scale = 0;
	loc->mem = false;
	loc->off = 0;
	if ((word & ~0xffffu) == PPC_RAW_ADDI(3, 3, 0)) {
		loc->off = (s16)(word & 0xffff);
		return 0;
	}
	if ((word & ~(0x1fu << 11)) == PPC_RAW_ADD(3, 3, 0)) {
		loc->base = (word >> 11) & 0x1f;
		return 0;
	}
	return -EINVAL;
}

bool op_arch_marker_nop(unsigned long addr)
{
	u32 now;

	return !copy_from_kernel_nofault(&now, (void *)addr, sizeof(now)) && now == PPC_RAW_NOP();
}

int op_arch_marker_reg_offset(int reg)
{
	return offsetof(struct pt_regs, gpr[reg & 31]);
}
