// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 marker records (include/optprobe-marker.h): each argument's
 * location is a "movq ARG, %rax" that the assembler encoded and nothing
 * runs.  Its forms:
 *
 *   REX.W 89 /r, mod 3, r/m 0	a register: ARG is the reg field
 *   REX.W 8b /r, reg 0		ARG is r/m: a register (mod 3) or memory
 *   REX.W c7 /0, r/m 0		a constant, imm32 sign-extended
 *
 * Memory is base + (index << scale) + disp, or RIP-relative, which is an
 * absolute address: the instruction's end plus disp.  A prefix (a per-CPU
 * %gs: operand) is not one of the forms: such a marker is not read.
 * Registers are numbered as the encoding numbers them.
 */
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include "wrap-unaligned.h"

#include "arch.h"
#include "markers.h"

#define OP_X86_REX_W	0x48
#define OP_X86_REX_R	0x04
#define OP_X86_REX_X	0x02
#define OP_X86_REX_B	0x01

/* Memory at r/m of @modrm (mod 0-2), what follows it at @p. */
static int op_x86_marker_mem(u8 rex, u8 modrm, const u8 *p, unsigned long end_of_modrm,
			     struct op_marker_loc *loc)
{
	u8 mod = modrm >> 6, rm = modrm & 7, sib;
	bool disp32 = mod == 2;

	loc->mem = true;
	if (rm == 5 && mod == 0) {
		/* RIP-relative: no immediate follows, so disp ends the instruction */
		loc->off = end_of_modrm + 4 + (s32)get_unaligned_le32(p);
		return 0;
	}
	if (rm == 4) {
		sib = *p++;
		end_of_modrm++;
		if (((sib >> 3) & 7) != 4 || (rex & OP_X86_REX_X)) {
			loc->index = ((sib >> 3) & 7) | (rex & OP_X86_REX_X ? 8 : 0);
			loc->scale = sib >> 6;
		}
		if ((sib & 7) == 5 && mod == 0)
			disp32 = true;
		else
			loc->base = (sib & 7) | (rex & OP_X86_REX_B ? 8 : 0);
	} else {
		loc->base = rm | (rex & OP_X86_REX_B ? 8 : 0);
	}
	if (mod == 1)
		loc->off = (s8)*p;
	else if (disp32)
		loc->off = (s32)get_unaligned_le32(p);
	return 0;
}

int op_arch_marker_loc(const u8 *insn, unsigned long at, struct op_marker_loc *loc)
{
	u8 rex = insn[0], op = insn[1], modrm = insn[2];
	u8 reg = ((modrm >> 3) & 7) | (rex & OP_X86_REX_R ? 8 : 0);
	u8 rm = (modrm & 7) | (rex & OP_X86_REX_B ? 8 : 0);

	loc->base = OP_MLOC_NO_REG;
	loc->index = OP_MLOC_NO_REG;
	loc->scale = 0;
	loc->mem = false;
	loc->off = 0;
	if ((rex & 0xf8) != OP_X86_REX_W)
		return -EINVAL;
	switch (op) {
	case 0x89:
		if (modrm >> 6 != 3 || rm)
			return -EINVAL;
		loc->base = reg;
		return 0;
	case 0xc7:
		if (modrm != 0xc0 || (rex & OP_X86_REX_B))
			return -EINVAL;
		loc->off = (s32)get_unaligned_le32(insn + 3);
		return 0;
	case 0x8b:
		if (reg)
			return -EINVAL;
		if (modrm >> 6 == 3) {
			loc->base = rm;
			return 0;
		}
		return op_x86_marker_mem(rex, modrm, insn + 3, at + 3, loc);
	}
	return -EINVAL;
}

bool op_arch_marker_nop(unsigned long addr)
{
	static const u8 nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	u8 now[sizeof(nop5)];

	return !copy_from_kernel_nofault(now, (void *)addr, sizeof(now)) &&
	       !memcmp(now, nop5, sizeof(nop5));
}

int op_arch_marker_reg_offset(int reg)
{
	static const u8 offsets[16] = {
		offsetof(struct pt_regs, ax), offsetof(struct pt_regs, cx),
		offsetof(struct pt_regs, dx), offsetof(struct pt_regs, bx),
		offsetof(struct pt_regs, sp), offsetof(struct pt_regs, bp),
		offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
		offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
		offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
		offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
		offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
	};

	return offsets[reg & 15];
}
