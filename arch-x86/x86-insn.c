// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's x86_64 instruction decoder; see x86-insn.h.
 *
 * An instruction is: legacy prefixes (any number, in any order), an
 * optional REX byte right before the opcode, then either an opcode from
 * the one-byte map, 0f xx, 0f 38 xx or 0f 3a xx, or a VEX (c4, c5), EVEX
 * (62) or XOP (8f with a map >= 8) prefix and an opcode from the map it
 * names; then ModRM, SIB, displacement and immediates as the opcode asks.
 * In 64-bit mode c4, c5 and 62 are always VEX/EVEX (les, lds and bound do
 * not exist there), and ModRM/SIB have the same form whatever the address
 * size.
 *
 * Each map has a table with one 32-bit word per opcode: in which
 * mandatory-prefix columns (none, 66, f3, f2) the opcode is defined, with
 * a register and with a memory operand, for the legacy, VEX and EVEX
 * encodings; whether it has ModRM and what immediate; whether LOCK may
 * precede it; and whether the ModRM reg field or the operand refines it
 * further (A_GRP), which op_x86_check_*() then look at.  An opcode or
 * column not in a table is undefined and refused.
 *
 * Not checked, because they change neither the length nor the class:
 * VEX.L, VEX/EVEX/XOP.W, vvvv, and EVEX's L'L, b, z and aaa fields.
 */
#include "x86-insn.h"

/* Mandatory-prefix columns: which of 66, f3, f2 (or none) selects the form. */
#define C_N	0x1
#define C_66	0x2
#define C_F3	0x4
#define C_F2	0x8
#define C_ANY	(C_N | C_66 | C_F3 | C_F2)

/* Where each encoding's columns sit in an attribute word. */
#define SH_LEGACY	0
#define SH_VEX		8
#define SH_EVEX		16

/* Defined columns with a register operand (or no ModRM), with a memory one, or both */
#define LGR(c)	((u32)(c) << SH_LEGACY)
#define LGM(c)	((u32)(c) << (SH_LEGACY + 4))
#define LG(c)	((u32)(c) * 0x11 << SH_LEGACY)
#define VXR(c)	((u32)(c) << SH_VEX)
#define VXM(c)	((u32)(c) << (SH_VEX + 4))
#define VX(c)	((u32)(c) * 0x11 << SH_VEX)
#define EVR(c)	((u32)(c) << SH_EVEX)
#define EVM(c)	((u32)(c) << (SH_EVEX + 4))
#define EV(c)	((u32)(c) * 0x11 << SH_EVEX)
#define OK	LG(C_ANY)

/* Immediate kinds, bits 24-27 */
#define IMM_NONE	0
#define IMM_B		1	/* imm8 */
#define IMM_W		2	/* imm16 */
#define IMM_Z		3	/* imm16 with 66 (and no REX.W), else imm32 */
#define IMM_V		4	/* b8-bf: imm64 with REX.W, else as IMM_Z */
#define IMM_WB		5	/* enter: imm16, imm8 */
#define IMM_BB		6	/* extrq, insertq: imm8, imm8 */
#define IMM_D		7	/* imm32 */
#define IMM_O		8	/* moffs: an 8-byte address, 4 with 67 */
#define IMM_JB		9	/* rel8 */
#define IMM_JZ		10	/* rel32 */
#define IMM_SHIFT	24
#define IMM(k)		((u32)(k) << IMM_SHIFT)
#define IB		IMM(IMM_B)
#define IW		IMM(IMM_W)
#define IZ		IMM(IMM_Z)
#define IV		IMM(IMM_V)
#define IWB		IMM(IMM_WB)
#define ID		IMM(IMM_D)
#define IO		IMM(IMM_O)
#define JB		IMM(IMM_JB)
#define JZ		IMM(IMM_JZ)

#define A_M		0x10000000u	/* ModRM, in the legacy one-byte and 0f maps */
#define A_LOCK		0x20000000u	/* LOCK allowed with a memory operand */
#define A_GRP		0x40000000u	/* refined by op_x86_check_*() */
#define A_BOOST		0x80000000u	/* 0f map: boostable; see op_x86_insn_can_boost() */

/*
 * The one-byte map.  Missing, hence refused: 06 07 0e 16 17 1e 1f 27 2f
 * 37 3f 60 61 82 9a ce d4 d5 d6 ea, which 64-bit mode does not have.
 * Prefixes, REX and the escapes (0f, c4, c5, 62, 8f with XOP) never get
 * here.  Group 2 /6 (c0 c1 d0-d3) and group 3 /1 (f6 f7) are reserved
 * to Intel and aliases of shl and test to AMD; both vendors' processors
 * run them as such, so their length is known and they are decoded.
 */
static const u32 op_x86_one[256] = {
	/* add, or, adc, sbb, and, sub, xor, cmp: E,G  G,E  AL,Ib  rAX,Iz */
	[0x00 ... 0x01] = OK | A_M | A_LOCK,
	[0x02 ... 0x03] = OK | A_M,
	[0x04] = OK | IB,
	[0x05] = OK | IZ,
	[0x08 ... 0x09] = OK | A_M | A_LOCK,
	[0x0a ... 0x0b] = OK | A_M,
	[0x0c] = OK | IB,
	[0x0d] = OK | IZ,
	[0x10 ... 0x11] = OK | A_M | A_LOCK,
	[0x12 ... 0x13] = OK | A_M,
	[0x14] = OK | IB,
	[0x15] = OK | IZ,
	[0x18 ... 0x19] = OK | A_M | A_LOCK,
	[0x1a ... 0x1b] = OK | A_M,
	[0x1c] = OK | IB,
	[0x1d] = OK | IZ,
	[0x20 ... 0x21] = OK | A_M | A_LOCK,
	[0x22 ... 0x23] = OK | A_M,
	[0x24] = OK | IB,
	[0x25] = OK | IZ,
	[0x28 ... 0x29] = OK | A_M | A_LOCK,
	[0x2a ... 0x2b] = OK | A_M,
	[0x2c] = OK | IB,
	[0x2d] = OK | IZ,
	[0x30 ... 0x31] = OK | A_M | A_LOCK,
	[0x32 ... 0x33] = OK | A_M,
	[0x34] = OK | IB,
	[0x35] = OK | IZ,
	[0x38 ... 0x3b] = OK | A_M,
	[0x3c] = OK | IB,
	[0x3d] = OK | IZ,
	[0x50 ... 0x5f] = OK,			/* push, pop */
	[0x63] = OK | A_M,			/* movsxd */
	[0x68] = OK | IZ,			/* push */
	[0x69] = OK | A_M | IZ,			/* imul */
	[0x6a] = OK | IB,			/* push */
	[0x6b] = OK | A_M | IB,			/* imul */
	[0x6c ... 0x6f] = OK,			/* ins, outs */
	[0x70 ... 0x7f] = OK | JB,		/* jcc */
	[0x80] = OK | A_M | A_GRP | A_LOCK | IB,	/* group 1 */
	[0x81] = OK | A_M | A_GRP | A_LOCK | IZ,
	[0x83] = OK | A_M | A_GRP | A_LOCK | IB,
	[0x84 ... 0x85] = OK | A_M,		/* test */
	[0x86 ... 0x87] = OK | A_M | A_LOCK,	/* xchg */
	[0x88 ... 0x8b] = OK | A_M,		/* mov */
	[0x8c ... 0x8f] = OK | A_M | A_GRP,	/* mov from Sreg, lea, mov to Sreg, pop */
	[0x90 ... 0x99] = OK,			/* nop, pause, xchg, cbw, cwd */
	[0x9b ... 0x9f] = OK,			/* fwait, pushf, popf, sahf, lahf */
	[0xa0 ... 0xa3] = OK | IO,		/* mov to/from moffs */
	[0xa4 ... 0xa7] = OK,			/* movs, cmps */
	[0xa8] = OK | IB,			/* test */
	[0xa9] = OK | IZ,
	[0xaa ... 0xaf] = OK,			/* stos, lods, scas */
	[0xb0 ... 0xb7] = OK | IB,		/* mov r8, imm8 */
	[0xb8 ... 0xbf] = OK | IV,		/* mov r, imm */
	[0xc0 ... 0xc1] = OK | A_M | A_GRP | IB,	/* group 2 */
	[0xc2] = OK | IW,			/* ret imm16 */
	[0xc3] = OK,				/* ret */
	[0xc6] = OK | A_M | A_GRP | IB,		/* mov, xabort */
	[0xc7] = OK | A_M | A_GRP | IZ,		/* mov, xbegin */
	[0xc8] = OK | IWB,			/* enter */
	[0xc9] = OK,				/* leave */
	[0xca] = OK | IW,			/* far ret imm16 */
	[0xcb ... 0xcc] = OK,			/* far ret, int3 */
	[0xcd] = OK | IB,			/* int n */
	[0xcf] = OK,				/* iret */
	[0xd0 ... 0xd3] = OK | A_M | A_GRP,	/* group 2 */
	[0xd7] = OK,				/* xlat */
	[0xd8 ... 0xdf] = OK | A_M | A_GRP,	/* x87 */
	[0xe0 ... 0xe3] = OK | JB,		/* loop(n)(e), jrcxz */
	[0xe4 ... 0xe7] = OK | IB,		/* in, out */
	[0xe8 ... 0xe9] = OK | JZ,		/* call, jmp */
	[0xeb] = OK | JB,			/* jmp */
	[0xec ... 0xef] = OK,			/* in, out */
	[0xf1] = OK,				/* int1 */
	[0xf4 ... 0xf5] = OK,			/* hlt, cmc */
	[0xf6 ... 0xf7] = OK | A_M | A_GRP | A_LOCK,	/* group 3 */
	[0xf8 ... 0xfd] = OK,			/* clc, stc, cli, sti, cld, std */
	[0xfe ... 0xff] = OK | A_M | A_GRP | A_LOCK,	/* groups 4, 5 */
};

/* 0f xx */
static const u32 op_x86_0f[256] = {
	[0x00 ... 0x01] = OK | A_M | A_GRP,		/* groups 6, 7 */
	[0x02 ... 0x03] = OK | A_M | A_BOOST,		/* lar, lsl */
	[0x05] = OK,					/* syscall */
	[0x06] = OK | A_BOOST,				/* clts */
	[0x07] = OK,					/* sysret */
	[0x08 ... 0x09] = OK | A_BOOST,			/* invd, wbinvd */
	[0x0b] = OK,					/* ud2 */
	[0x0d] = LGM(C_ANY) | A_M | A_GRP,		/* prefetch, prefetchw, prefetchwt1 */
	[0x0e] = LG(C_N),				/* femms */
	[0x0f] = LG(C_N) | A_M | IB,			/* 3DNow!: the imm8 is the opcode */
	[0x10 ... 0x11] = LG(C_ANY) | VX(C_ANY) | EV(C_ANY) | A_M,
	[0x12] = LGR(C_N | C_F3 | C_F2) | LGM(C_ANY) |
		 VXR(C_N | C_F3 | C_F2) | VXM(C_ANY) |
		 EVR(C_N | C_F3 | C_F2) | EVM(C_ANY) | A_M,
	[0x13] = LGM(C_N | C_66) | VXM(C_N | C_66) | EVM(C_N | C_66) | A_M,
	[0x14 ... 0x15] = LG(C_N | C_66) | VX(C_N | C_66) | EV(C_N | C_66) | A_M,
	[0x16] = LGR(C_N | C_F3) | LGM(C_N | C_66 | C_F3) |
		 VXR(C_N | C_F3) | VXM(C_N | C_66 | C_F3) |
		 EVR(C_N | C_F3) | EVM(C_N | C_66 | C_F3) | A_M,
	[0x17] = LGM(C_N | C_66) | VXM(C_N | C_66) | EVM(C_N | C_66) | A_M,
	[0x18 ... 0x1e] = OK | A_M,			/* prefetch, hint nops, bnd*, endbr */
	[0x1f] = OK | A_M,			/* nop */
	[0x20 ... 0x23] = OK | A_M | A_GRP,	/* mov to/from cr, dr */
	[0x28 ... 0x29] = LG(C_N | C_66) | VX(C_N | C_66) | EV(C_N | C_66) | A_M,
	[0x2a] = LG(C_ANY) | VX(C_F3 | C_F2) | EV(C_F3 | C_F2) | A_M,
	[0x2b] = LGM(C_ANY) | VXM(C_N | C_66) | EVM(C_N | C_66) | A_M,
	[0x2c ... 0x2d] = LG(C_ANY) | VX(C_F3 | C_F2) | EV(C_F3 | C_F2) | A_M,
	[0x2e ... 0x2f] = LG(C_N | C_66) | VX(C_N | C_66) | EV(C_N | C_66) | A_M,
	[0x30] = OK,					/* wrmsr */
	[0x31] = OK,				/* rdtsc */
	[0x32 ... 0x35] = OK,		/* rdmsr, rdpmc, sysenter, sysexit */
	[0x37] = OK,					/* getsec */
	[0x40] = OK | A_M | A_BOOST,			/* cmovcc */
	[0x41 ... 0x42] = OK | VXR(C_N | C_66) | A_M | A_BOOST,	/* and k-mask ops */
	[0x43] = OK | A_M | A_BOOST,
	[0x44 ... 0x47] = OK | VXR(C_N | C_66) | A_M | A_BOOST,
	[0x48 ... 0x49] = OK | A_M | A_BOOST,
	[0x4a ... 0x4b] = OK | VXR(C_N | C_66) | A_M | A_BOOST,
	[0x4c ... 0x4f] = OK | A_M | A_BOOST,
	[0x50] = LGR(C_N | C_66) | VXR(C_N | C_66) | A_M,
	[0x51] = LG(C_ANY) | VX(C_ANY) | EV(C_ANY) | A_M,
	[0x52 ... 0x53] = LG(C_N | C_F3) | VX(C_N | C_F3) | A_M,
	[0x54 ... 0x57] = LG(C_N | C_66) | VX(C_N | C_66) | EV(C_N | C_66) | A_M,
	[0x58 ... 0x5a] = LG(C_ANY) | VX(C_ANY) | EV(C_ANY) | A_M,
	[0x5b] = LG(C_N | C_66 | C_F3) | VX(C_N | C_66 | C_F3) | EV(C_N | C_66 | C_F3) | A_M,
	[0x5c ... 0x5f] = LG(C_ANY) | VX(C_ANY) | EV(C_ANY) | A_M,
	[0x60 ... 0x6b] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0x6c ... 0x6d] = LG(C_66) | VX(C_66) | EV(C_66) | A_M,
	[0x6e] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0x6f] = LG(C_N | C_66 | C_F3) | VX(C_66 | C_F3) | EV(C_66 | C_F3 | C_F2) | A_M,
	[0x70] = LG(C_ANY) | VX(C_66 | C_F3 | C_F2) | EV(C_66 | C_F3 | C_F2) | A_M | IB,
	[0x71 ... 0x73] = LGR(C_N | C_66) | VXR(C_66) | EV(C_66) | A_M | A_GRP | IB,
	[0x74 ... 0x76] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0x77] = LG(C_N) | VXR(C_N),		/* emms; vzeroupper, vzeroall */
	[0x78 ... 0x79] = LG(C_N | C_66 | C_F2) | EV(C_ANY) | A_M | A_GRP,
	[0x7a ... 0x7b] = EV(C_66 | C_F3 | C_F2) | A_M,
	[0x7c ... 0x7d] = LG(C_66 | C_F2) | VX(C_66 | C_F2) | A_M,
	[0x7e] = LG(C_N | C_66 | C_F3) | VX(C_66 | C_F3) | EV(C_66 | C_F3) | A_M,
	[0x7f] = LG(C_N | C_66 | C_F3) | VX(C_66 | C_F3) | EV(C_66 | C_F3 | C_F2) | A_M,
	[0x80 ... 0x8f] = OK | JZ,			/* jcc */
	[0x90] = OK | VX(C_N | C_66) | A_M | A_BOOST,	/* setcc, and kmov */
	[0x91] = OK | VXM(C_N | C_66) | A_M | A_BOOST,
	[0x92 ... 0x93] = OK | VXR(C_N | C_66 | C_F2) | A_M | A_BOOST,
	[0x94 ... 0x97] = OK | A_M | A_BOOST,
	[0x98 ... 0x99] = OK | VXR(C_N | C_66) | A_M | A_BOOST,	/* and kortest, ktest */
	[0x9a ... 0x9f] = OK | A_M | A_BOOST,
	[0xa0 ... 0xa1] = OK | A_BOOST,			/* push, pop fs */
	[0xa2] = OK,					/* cpuid */
	[0xa3] = OK | A_M | A_BOOST,			/* bt */
	[0xa4] = OK | A_M | A_BOOST | IB,		/* shld */
	[0xa5] = OK | A_M | A_BOOST,
	[0xa6 ... 0xa7] = LGR(C_N | C_F3) | A_M | A_GRP,	/* VIA PadLock */
	[0xa8 ... 0xa9] = OK | A_BOOST,			/* push, pop gs */
	[0xaa] = OK,					/* rsm */
	[0xab] = OK | A_M | A_LOCK | A_BOOST,		/* bts */
	[0xac] = OK | A_M | A_BOOST | IB,		/* shrd */
	[0xad] = OK | A_M | A_BOOST,
	[0xae] = OK | VXM(C_N) | A_M | A_GRP,		/* group 15 */
	[0xaf] = OK | A_M | A_BOOST,			/* imul */
	[0xb0 ... 0xb1] = OK | A_M | A_LOCK | A_BOOST,	/* cmpxchg */
	[0xb2] = LGM(C_ANY) | A_M | A_BOOST,		/* lss */
	[0xb3] = OK | A_M | A_LOCK | A_BOOST,		/* btr */
	[0xb4 ... 0xb5] = LGM(C_ANY) | A_M | A_BOOST,	/* lfs, lgs */
	[0xb6 ... 0xb7] = OK | A_M | A_BOOST,		/* movzx */
	[0xb8] = LG(C_F3) | A_M,			/* popcnt */
	[0xb9] = OK | A_M,				/* ud1 */
	[0xba] = OK | A_M | A_GRP | A_LOCK | IB,	/* group 8 */
	[0xbb] = OK | A_M | A_LOCK | A_BOOST,		/* btc */
	[0xbc ... 0xbf] = OK | A_M | A_BOOST,		/* bsf/tzcnt, bsr/lzcnt, movsx */
	[0xc0 ... 0xc1] = OK | A_M | A_LOCK | A_BOOST,	/* xadd */
	[0xc2] = LG(C_ANY) | VX(C_ANY) | EV(C_ANY) | A_M | IB,
	[0xc3] = LGM(C_N) | A_M,			/* movnti */
	[0xc4] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M | IB,
	[0xc5] = LGR(C_N | C_66) | VXR(C_66) | EVR(C_66) | A_M | IB,
	[0xc6] = LG(C_N | C_66) | VX(C_N | C_66) | EV(C_N | C_66) | A_M | IB,
	[0xc7] = OK | A_M | A_GRP | A_LOCK,		/* group 9 */
	[0xc8 ... 0xcf] = OK | A_BOOST,			/* bswap */
	[0xd0] = LG(C_66 | C_F2) | VX(C_66 | C_F2) | A_M,
	[0xd1 ... 0xd3] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xd4] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xd5] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xd6] = LGR(C_66 | C_F3 | C_F2) | LGM(C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xd7] = LGR(C_N | C_66) | VXR(C_66) | A_M,
	[0xd8 ... 0xd9] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xda] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xdb ... 0xdd] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xde] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xdf] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xe0] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xe1 ... 0xe2] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xe3 ... 0xe4] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xe5] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xe6] = LG(C_66 | C_F3 | C_F2) | VX(C_66 | C_F3 | C_F2) | EV(C_66 | C_F3 | C_F2) | A_M,
	[0xe7] = LGM(C_N | C_66) | VXM(C_66) | EVM(C_66) | A_M,
	[0xe8 ... 0xe9] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xea] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xeb ... 0xed] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xee] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xef] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xf0] = LGM(C_F2) | VXM(C_F2) | A_M,		/* lddqu */
	[0xf1 ... 0xf3] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xf4] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xf5] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xf6] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xf7] = LGR(C_N | C_66) | VXR(C_66) | A_M,	/* maskmovq, maskmovdqu */
	[0xf8 ... 0xfa] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xfb] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xfc ... 0xfe] = LG(C_N | C_66) | VX(C_66) | EV(C_66) | A_M,
	[0xff] = OK | A_M,				/* ud0 */
};

/* 0f 38 xx: every form has ModRM and no immediate. */
static const u32 op_x86_0f38[256] = {
	[0x00] = LG(C_N | C_66) | VX(C_66) | EV(C_66),	/* pshufb */
	[0x01 ... 0x03] = LG(C_N | C_66) | VX(C_66),	/* phadd */
	[0x04] = LG(C_N | C_66) | VX(C_66) | EV(C_66),	/* pmaddubsw */
	[0x05 ... 0x0a] = LG(C_N | C_66) | VX(C_66),	/* phsub, psign */
	[0x0b] = LG(C_N | C_66) | VX(C_66) | EV(C_66),	/* pmulhrsw */
	[0x0c ... 0x0d] = VX(C_66) | EV(C_66),		/* vpermilps/pd */
	[0x0e ... 0x0f] = VX(C_66),			/* vtestps/pd */
	[0x10] = LG(C_66) | EV(C_66 | C_F3),		/* pblendvb; vpsrlvw, vpmovuswb */
	[0x11 ... 0x12] = EV(C_66 | C_F3),
	[0x13] = VX(C_66) | EV(C_66 | C_F3),		/* vcvtph2ps */
	[0x14 ... 0x15] = LG(C_66) | EV(C_66 | C_F3),	/* blendvps/pd; vprorv, vprolv */
	[0x16] = VX(C_66) | EV(C_66),			/* vpermps */
	[0x17] = LG(C_66) | VX(C_66),			/* ptest */
	[0x18 ... 0x19] = VX(C_66) | EV(C_66),		/* vbroadcastss/sd */
	[0x1a] = VXM(C_66) | EVM(C_66),			/* vbroadcastf128 */
	[0x1b] = EVM(C_66),
	[0x1c ... 0x1e] = LG(C_N | C_66) | VX(C_66) | EV(C_66),	/* pabs */
	[0x1f] = EV(C_66),
	[0x20 ... 0x25] = LG(C_66) | VX(C_66) | EV(C_66 | C_F3),	/* pmovsx; vpmov */
	[0x26 ... 0x27] = EV(C_66 | C_F3),		/* vptestm, vptestnm */
	[0x28 ... 0x29] = LG(C_66) | VX(C_66) | EV(C_66) | EVR(C_F3),
	[0x2a] = LGM(C_66) | VXM(C_66) | EVM(C_66) | EVR(C_F3),	/* movntdqa */
	[0x2b] = LG(C_66) | VX(C_66) | EV(C_66),	/* packusdw */
	[0x2c ... 0x2d] = VXM(C_66) | EV(C_66),		/* vmaskmov loads; vscalef */
	[0x2e ... 0x2f] = VXM(C_66),			/* vmaskmov stores */
	[0x30 ... 0x35] = LG(C_66) | VX(C_66) | EV(C_66 | C_F3),	/* pmovzx; vpmov */
	[0x36] = VX(C_66) | EV(C_66),			/* vpermd */
	[0x37] = LG(C_66) | VX(C_66) | EV(C_66),	/* pcmpgtq */
	[0x38 ... 0x3a] = LG(C_66) | VX(C_66) | EV(C_66) | EVR(C_F3),
	[0x3b ... 0x40] = LG(C_66) | VX(C_66) | EV(C_66),	/* pmin, pmax, pmulld */
	[0x41] = LG(C_66) | VX(C_66),			/* phminposuw */
	[0x42 ... 0x44] = EV(C_66),			/* vgetexp, vplzcnt */
	[0x45 ... 0x47] = VX(C_66) | EV(C_66),		/* vpsrlv, vpsrav, vpsllv */
	[0x49] = VXR(C_N | C_F2) | VXM(C_N | C_66) | A_GRP,	/* AMX tile config, zero */
	[0x4b] = VXM(C_66 | C_F3 | C_F2) | A_GRP,	/* tileloadd(t1), tilestored */
	[0x4c ... 0x4f] = EV(C_66),			/* vrcp14, vrsqrt14 */
	[0x50 ... 0x53] = VX(C_66) | EV(C_66),		/* vpdpbusd(s), vpdpwssd(s) */
	[0x54 ... 0x55] = EV(C_66),			/* vpopcnt */
	[0x58 ... 0x59] = VX(C_66) | EV(C_66),		/* vpbroadcastd/q */
	[0x5a] = VXM(C_66) | EVM(C_66),			/* vbroadcasti128 */
	[0x5b] = EVM(C_66),
	[0x5c] = VXR(C_F3 | C_F2),			/* tdpbf16ps, tdpfp16ps */
	[0x5e] = VXR(C_ANY),				/* tdpb[su][su]d */
	[0x62 ... 0x66] = EV(C_66),			/* vpexpand, vpcompress, vblendm */
	[0x70 ... 0x71] = EV(C_66),			/* vpshldv */
	[0x72 ... 0x73] = EV(C_66),			/* vpshrdv */
	[0x75 ... 0x77] = EV(C_66),			/* vpermi2 */
	[0x78 ... 0x79] = VX(C_66) | EV(C_66),		/* vpbroadcastb/w */
	[0x7a ... 0x7c] = EVR(C_66),			/* vpbroadcast from a GPR */
	[0x7d ... 0x7f] = EV(C_66),			/* vpermt2 */
	[0x80 ... 0x82] = LGM(C_66),			/* invept, invvpid, invpcid */
	[0x83] = EV(C_66),				/* vpmultishiftqb */
	[0x88 ... 0x8b] = EV(C_66),			/* vexpand, vcompress */
	[0x8c] = VXM(C_66),				/* vpmaskmov load */
	[0x8d] = EV(C_66),				/* vpermb/w */
	[0x8e] = VXM(C_66),				/* vpmaskmov store */
	[0x8f] = EV(C_66),				/* vpshufbitqmb */
	[0x90 ... 0x93] = VXM(C_66) | EVM(C_66) | A_GRP,	/* gathers (VSIB) */
	[0x96 ... 0x9f] = VX(C_66) | EV(C_66),		/* fma */
	[0xa0 ... 0xa3] = EVM(C_66) | A_GRP,		/* scatters (VSIB) */
	[0xa6 ... 0xaf] = VX(C_66) | EV(C_66),		/* fma */
	[0xb4 ... 0xb5] = EV(C_66),			/* vpmadd52 */
	[0xb6 ... 0xbf] = VX(C_66) | EV(C_66),		/* fma */
	[0xc4] = EV(C_66),				/* vpconflict */
	[0xc6 ... 0xc7] = EVM(C_66) | A_GRP,		/* gather/scatter prefetches (VSIB) */
	[0xc8] = LG(C_N) | EV(C_66),			/* sha1nexte; vexp2 */
	[0xc9] = LG(C_N),				/* sha1msg1 */
	[0xca ... 0xcd] = LG(C_N) | EV(C_66),		/* sha; vrcp28, vrsqrt28 */
	[0xcf] = LG(C_66) | VX(C_66) | EV(C_66),	/* gf2p8mulb */
	[0xdb] = LG(C_66) | VX(C_66),			/* aesimc */
	[0xdc ... 0xdf] = LG(C_66) | VX(C_66) | EV(C_66),	/* aes */
	[0xf0 ... 0xf1] = LGM(C_N | C_66) | LG(C_F2),	/* movbe; crc32 */
	[0xf2] = VX(C_N),				/* andn */
	[0xf3] = VX(C_N) | A_GRP,			/* blsr, blsmsk, blsi */
	[0xf5] = LGM(C_66) | VX(C_N | C_F3 | C_F2),	/* wruss; bzhi, pext, pdep */
	[0xf6] = LG(C_66 | C_F3) | LGM(C_N) | VX(C_F2),	/* adcx, adox, wrss; mulx */
	[0xf7] = VX(C_ANY),				/* bextr, shlx, sarx, shrx */
	[0xf8] = LGM(C_66 | C_F3 | C_F2),		/* movdir64b, enqcmds, enqcmd */
	[0xf9] = LGM(C_N),				/* movdiri */
};

/* 0f 3a xx: every form has ModRM and an imm8. */
static const u32 op_x86_0f3a[256] = {
	[0x00 ... 0x01] = VX(C_66) | EV(C_66),		/* vpermq, vpermpd */
	[0x02] = VX(C_66),				/* vpblendd */
	[0x03] = EV(C_66),				/* valign */
	[0x04 ... 0x05] = VX(C_66) | EV(C_66),		/* vpermilps/pd */
	[0x06] = VX(C_66),				/* vperm2f128 */
	[0x08 ... 0x0b] = LG(C_66) | VX(C_66) | EV(C_66),	/* round; vrndscale */
	[0x0c ... 0x0e] = LG(C_66) | VX(C_66),		/* blendps/pd, pblendw */
	[0x0f] = LG(C_N | C_66) | VX(C_66) | EV(C_66),	/* palignr */
	[0x14 ... 0x17] = LG(C_66) | VX(C_66) | EV(C_66),	/* pextr, extractps */
	[0x18 ... 0x19] = VX(C_66) | EV(C_66),		/* vinsertf128, vextractf128 */
	[0x1a ... 0x1b] = EV(C_66),
	[0x1d] = VX(C_66) | EV(C_66),			/* vcvtps2ph */
	[0x1e ... 0x1f] = EV(C_66),			/* vpcmp(u) */
	[0x20 ... 0x22] = LG(C_66) | VX(C_66) | EV(C_66),	/* pinsr, insertps */
	[0x23] = EV(C_66),				/* vshuff32x4 */
	[0x25 ... 0x27] = EV(C_66),			/* vpternlog, vgetmant */
	[0x30 ... 0x33] = VXR(C_66),			/* kshiftr, kshiftl */
	[0x38 ... 0x39] = VX(C_66) | EV(C_66),		/* vinserti128, vextracti128 */
	[0x3a ... 0x3b] = EV(C_66),
	[0x3e ... 0x3f] = EV(C_66),			/* vpcmp(u)b/w */
	[0x40 ... 0x41] = LG(C_66) | VX(C_66),		/* dpps, dppd */
	[0x42] = LG(C_66) | VX(C_66) | EV(C_66),	/* mpsadbw; vdbpsadbw */
	[0x43] = EV(C_66),				/* vshufi32x4 */
	[0x44] = LG(C_66) | VX(C_66) | EV(C_66),	/* pclmulqdq */
	[0x46] = VX(C_66),				/* vperm2i128 */
	[0x48 ... 0x4c] = VX(C_66),		/* vpermil2ps/pd, vblendvps/pd, vpblendvb */
	[0x50 ... 0x51] = EV(C_66),			/* vrange */
	[0x54 ... 0x57] = EV(C_66),			/* vfixupimm, vreduce */
	[0x5c ... 0x5f] = VX(C_66),			/* fma4 */
	[0x60 ... 0x63] = LG(C_66) | VX(C_66),		/* pcmpestr, pcmpistr */
	[0x66 ... 0x67] = EV(C_66),			/* vfpclass */
	[0x68 ... 0x6f] = VX(C_66),			/* fma4 */
	[0x70 ... 0x73] = EV(C_66),			/* vpshld, vpshrd */
	[0x78 ... 0x7f] = VX(C_66),			/* fma4 */
	[0xcc] = LG(C_N),				/* sha1rnds4 */
	[0xce ... 0xcf] = LG(C_66) | VX(C_66) | EV(C_66),	/* gf2p8affine(inv)qb */
	[0xdf] = LG(C_66) | VX(C_66),			/* aeskeygenassist */
	[0xf0] = VX(C_F2),				/* rorx */
};

/* AMD's XOP maps (pp must be 0: column C_N); every form has ModRM. */
static u32 op_x86_xop_attr(u8 map, u8 op)
{
	switch (map) {
	case OP_X86_MAP_XOP8:		/* multiply-add, cmov, perm, rotate, compare */
		switch (op) {
		case 0x85 ... 0x87:
		case 0x8e ... 0x8f:
		case 0x95 ... 0x97:
		case 0x9e ... 0x9f:
		case 0xa2 ... 0xa3:
		case 0xa6:
		case 0xb6:
		case 0xc0 ... 0xc3:
		case 0xcc ... 0xcf:
		case 0xec ... 0xef:
			return LG(C_N) | IB;
		}
		break;
	case OP_X86_MAP_XOP9:		/* TBM, LWP, frcz, shifts, horizontal adds */
		switch (op) {
		case 0x01 ... 0x02:
		case 0x12:
			return LG(C_N) | A_GRP;
		case 0x80 ... 0x83:
		case 0x90 ... 0x9b:
		case 0xc1 ... 0xc3:
		case 0xc6 ... 0xc7:
		case 0xcb:
		case 0xd1 ... 0xd3:
		case 0xd6 ... 0xd7:
		case 0xdb:
		case 0xe1 ... 0xe3:
			return LG(C_N);
		}
		break;
	case OP_X86_MAP_XOPA:		/* bextr imm32, lwpins, lwpval */
		if (op == 0x10)
			return LG(C_N) | ID;
		if (op == 0x12)
			return LG(C_N) | ID | A_GRP;
		break;
	}
	return 0;
}

#undef LGR
#undef LGM
#undef LG
#undef VXR
#undef VXM
#undef VX
#undef EVR
#undef EVM
#undef EV
#undef OK
#undef IB
#undef IW
#undef IZ
#undef IV
#undef IWB
#undef ID
#undef IO
#undef JB
#undef JZ

#define MODRM_MOD(m)	((m) >> 6)
#define MODRM_REG(m)	(((m) >> 3) & 7)
#define MODRM_RM(m)	((m) & 7)

/* The decoder's position in the bytes it was given. */
struct op_x86_cursor {
	const u8 *buf;
	size_t avail;
	unsigned int pos;
};

/* Take @n bytes: -EILSEQ past the architectural limit, -ENODATA past @avail. */
static int op_x86_take(struct op_x86_cursor *c, unsigned int n, const u8 **p)
{
	if (c->pos + n > OP_X86_MAX_INSN_LEN)
		return -EILSEQ;
	if (c->pos + n > c->avail)
		return -ENODATA;
	*p = c->buf + c->pos;
	c->pos += n;
	return 0;
}

static int op_x86_take_byte(struct op_x86_cursor *c, u8 *b)
{
	const u8 *p;
	int ret = op_x86_take(c, 1, &p);

	if (!ret)
		*b = *p;
	return ret;
}

/* @n little-endian bytes, sign-extended. */
static s64 op_x86_le(const u8 *p, unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = n; i-- > 0; )
		v = v << 8 | p[i];
	if (n < 8 && (v >> (n * 8 - 1)) & 1)
		v |= ~0ULL << (n * 8);
	return (s64)v;
}

static u16 op_x86_legacy_prefix(u8 b)
{
	switch (b) {
	case 0x26: return OP_X86_PFX_ES;
	case 0x2e: return OP_X86_PFX_CS;
	case 0x36: return OP_X86_PFX_SS;
	case 0x3e: return OP_X86_PFX_DS;
	case 0x64: return OP_X86_PFX_FS;
	case 0x65: return OP_X86_PFX_GS;
	case 0x66: return OP_X86_PFX_OPSIZE;
	case 0x67: return OP_X86_PFX_ADSIZE;
	case 0xf0: return OP_X86_PFX_LOCK;
	case 0xf2: return OP_X86_PFX_REPNE;
	case 0xf3: return OP_X86_PFX_REP;
	}
	return 0;
}

/* The x87 escapes d8-df: which ModRM values are defined. */
static bool op_x86_x87_valid(u8 op, u8 modrm)
{
	u8 reg = MODRM_REG(modrm);

	if (MODRM_MOD(modrm) != 3) {
		switch (op) {
		case 0xd9:
			return reg != 1;
		case 0xdb:
			return reg != 4 && reg != 6;
		case 0xdd:
			return reg != 5;
		}
		return true;
	}
	switch (op) {
	case 0xd8:
		return true;
	case 0xd9:	/* fld, fxch, fnop, fchs..fxam, constants, transcendental */
		return modrm <= 0xd0 || modrm == 0xe0 || modrm == 0xe1 || modrm == 0xe4 ||
		       modrm == 0xe5 || (modrm >= 0xe8 && modrm <= 0xee) || modrm >= 0xf0;
	case 0xda:	/* fcmovcc, fucompp */
		return modrm <= 0xdf || modrm == 0xe9;
	case 0xdb:	/* fcmovncc, fnclex, fninit, fucomi, fcomi */
		return modrm <= 0xdf || modrm == 0xe2 || modrm == 0xe3 ||
		       (modrm >= 0xe8 && modrm <= 0xf7);
	case 0xdc:
		return modrm <= 0xcf || modrm >= 0xe0;
	case 0xdd:	/* ffree, fst, fstp, fucom, fucomp */
		return modrm <= 0xc7 || (modrm >= 0xd0 && modrm <= 0xef);
	case 0xde:
		return modrm <= 0xcf || modrm == 0xd9 || modrm >= 0xe0;
	default:	/* df: fnstsw ax, fucomip, fcomip */
		return modrm == 0xe0 || (modrm >= 0xe8 && modrm <= 0xf7);
	}
}

/* The register forms of group 7 (0f 01 mod=11) that are defined. */
static bool op_x86_grp7_reg_valid(u8 modrm)
{
	switch (modrm) {
	case 0xc0 ... 0xc6:	/* enclv vmcall vmlaunch vmresume vmxoff pconfig wrmsrns */
	case 0xc8 ... 0xcc:	/* monitor, mwait, clac, stac; tdcall (66) */
	case 0xcf ... 0xd1:	/* encls, xgetbv, xsetbv */
	case 0xd4 ... 0xdf:	/* vmfunc, xend, xtest, enclu, SVM */
	case 0xe0 ... 0xea:	/* smsw, serialize, setssbsy, xsusldtrk, xresldtrk, saveprevssp */
	case 0xec ... 0xed:	/* uiret, testui */
	case 0xee ... 0xfd:	/* rdpkru wrpkru lmsw swapgs rdtscp monitorx mwaitx clzero rdpru */
	case 0xfe ... 0xff:	/* invlpgb/rmpadjust/rmpupdate, tlbsync/pvalidate/psmash */
		return true;
	}
	return false;
}

/* Group 15 (0f ae), legacy encoding: which reg values each column defines. */
static bool op_x86_grp15_valid(u8 modrm, u8 col)
{
	u8 reg = MODRM_REG(modrm);

	if (MODRM_MOD(modrm) != 3) {
		switch (col) {
		case C_N:	/* fxsave fxrstor ldmxcsr stmxcsr xsave xrstor xsaveopt clflush */
			return true;
		case C_66:	/* clwb, clflushopt */
			return reg >= 6;
		case C_F3:	/* ptwrite, clrssbsy */
			return reg == 4 || reg == 6;
		}
		return false;
	}
	switch (col) {
	case C_N:	/* lfence, mfence, sfence */
		return reg >= 5;
	case C_66:	/* tpause */
	case C_F2:	/* umwait */
		return reg == 6;
	}
	/* rd/wr fs/gs base, ptwrite, incssp, umonitor */
	return reg <= 6;
}

/* Group 9 (0f c7). */
static bool op_x86_grp9_valid(u8 modrm, u8 col, bool *lockable)
{
	u8 reg = MODRM_REG(modrm);

	*lockable = reg == 1;
	if (MODRM_MOD(modrm) != 3) {
		switch (reg) {
		case 1:		/* cmpxchg8b/16b */
			return true;
		case 3 ... 5:	/* xrstors, xsavec, xsaves */
		case 7:		/* vmptrst */
			return col == C_N;
		case 6:		/* vmptrld, vmclear, vmxon */
			return col != C_F2;
		}
		return false;
	}
	/* rdrand, rdseed; senduipi, rdpid */
	return reg >= 6 && col != C_F2;
}

/*
 * 0f 71-73: shifts by an immediate.  EVEX adds vprord/vprold (72 /0, /1);
 * psrldq/pslldq (73 /3, /7) exist only with 66.
 */
static bool op_x86_shift_imm_valid(u8 op, u8 reg, u8 col, bool evex)
{
	switch (op) {
	case 0x71:
		return reg == 2 || reg == 4 || reg == 6;
	case 0x72:
		return reg == 2 || reg == 4 || reg == 6 || (evex && reg <= 1);
	default:
		return reg == 2 || reg == 6 || ((reg == 3 || reg == 7) && col == C_66);
	}
}

/* What decoding has learned that the A_GRP checks need, and may change. */
struct op_x86_form {
	u8 col;		/* the mandatory-prefix column */
	u8 imm;		/* IMM_* */
	bool lockable;
	bool reg_only;	/* mov to/from cr/dr: the mod field is ignored */
};

static int op_x86_check_one(const struct op_x86_insn *insn, struct op_x86_form *f)
{
	u8 op = insn->opcode, modrm = insn->modrm;
	u8 mod = MODRM_MOD(modrm), reg = MODRM_REG(modrm);

	switch (op) {
	case 0x80 ... 0x83:
		f->lockable &= reg != 7;	/* cmp does not write */
		return 0;
	case 0x8c:		/* es cs ss ds fs gs; REX.R names no segment register */
		return reg <= 5 && !(insn->rex & 0x4) ? 0 : -EILSEQ;
	case 0x8d:
		return mod != 3 ? 0 : -EILSEQ;
	case 0x8e:		/* and cs cannot be loaded */
		return reg <= 5 && reg != 1 && !(insn->rex & 0x4) ? 0 : -EILSEQ;
	case 0x8f:
		return reg == 0 ? 0 : -EILSEQ;
	case 0xc6:		/* mov; c6 f8 xabort imm8 */
		return reg == 0 || modrm == 0xf8 ? 0 : -EILSEQ;
	case 0xc7:		/* mov; c7 f8 xbegin rel32 */
		if (modrm == 0xf8)
			f->imm = IMM_JZ;
		return reg == 0 || modrm == 0xf8 ? 0 : -EILSEQ;
	case 0xd8 ... 0xdf:
		return op_x86_x87_valid(op, modrm) ? 0 : -EILSEQ;
	case 0xf6 ... 0xf7:	/* test takes an immediate (/1: see op_x86_one) */
		if (reg <= 1)
			f->imm = op == 0xf6 ? IMM_B : IMM_Z;
		f->lockable &= reg == 2 || reg == 3;
		return 0;
	case 0xfe:		/* inc, dec */
		return reg <= 1 ? 0 : -EILSEQ;
	case 0xff:		/* inc dec call callf jmp jmpf push */
		f->lockable &= reg <= 1;
		if (reg == 7 || ((reg == 3 || reg == 5) && mod == 3))
			return -EILSEQ;
		return 0;
	}
	return 0;
}

static int op_x86_check_0f(const struct op_x86_insn *insn, struct op_x86_form *f)
{
	u8 op = insn->opcode, modrm = insn->modrm;
	u8 mod = MODRM_MOD(modrm), reg = MODRM_REG(modrm);
	bool legacy = !insn->vex && !insn->evex;
	u8 n;

	switch (op) {
	case 0x00:		/* sldt str lldt ltr verr verw; f2 /6 lkgs */
		return reg <= 5 || (reg == 6 && f->col == C_F2) ? 0 : -EILSEQ;
	case 0x01:		/* group 7; /5 with memory is f3's rstorssp */
		if (mod == 3)
			return op_x86_grp7_reg_valid(modrm) ? 0 : -EILSEQ;
		return reg != 5 || f->col == C_F3 ? 0 : -EILSEQ;
	case 0x0d:
		return reg <= 2 ? 0 : -EILSEQ;
	case 0x20 ... 0x23:	/* cr0 cr2 cr3 cr4 cr8; dr0-dr7 */
		f->reg_only = true;
		n = reg | (insn->rex & 0x4 ? 8 : 0);
		if (op & 1)
			return n <= 7 ? 0 : -EILSEQ;
		return n == 0 || (n >= 2 && n <= 4) || n == 8 ? 0 : -EILSEQ;
	case 0x71 ... 0x73:
		return op_x86_shift_imm_valid(op, reg, f->col, insn->evex) ? 0 : -EILSEQ;
	case 0x78 ... 0x79:
		if (!legacy || f->col == C_N)	/* vcvt*; vmread, vmwrite */
			return 0;
		if (op == 0x78)			/* extrq imm8, imm8 (66 /0); insertq */
			f->imm = IMM_BB;
		if (mod != 3 || (op == 0x78 && f->col == C_66 && reg != 0))
			return -EILSEQ;
		return 0;
	case 0xa6:		/* montmul, xsha1, xsha256 */
		return modrm == 0xc0 || modrm == 0xc8 || modrm == 0xd0 ? 0 : -EILSEQ;
	case 0xa7:		/* xstore, xcrypt-ecb/cbc/ctr/cfb/ofb */
		return modrm <= 0xe8 && !(modrm & 7) ? 0 : -EILSEQ;
	case 0xae:
		if (legacy)
			return op_x86_grp15_valid(modrm, f->col) ? 0 : -EILSEQ;
		return reg == 2 || reg == 3 ? 0 : -EILSEQ;	/* vldmxcsr, vstmxcsr */
	case 0xba:		/* bt bts btr btc */
		f->lockable &= reg >= 5;
		return reg >= 4 ? 0 : -EILSEQ;
	case 0xc7:
		return op_x86_grp9_valid(modrm, f->col, &f->lockable) ? 0 : -EILSEQ;
	}
	return 0;
}

static int op_x86_check_0f38(const struct op_x86_insn *insn, const struct op_x86_form *f)
{
	u8 reg = MODRM_REG(insn->modrm);

	switch (insn->opcode) {
	case 0xc6 ... 0xc7:	/* vgatherpf0/1, vscatterpf0/1 */
		if (reg != 1 && reg != 2 && reg != 5 && reg != 6)
			return -EILSEQ;
		return MODRM_RM(insn->modrm) == 4 ? 0 : -EILSEQ;
	case 0x90 ... 0x93:
	case 0xa0 ... 0xa3:	/* a vector index needs a SIB byte */
		return MODRM_RM(insn->modrm) == 4 ? 0 : -EILSEQ;
	case 0xf3:		/* blsr, blsmsk, blsi */
		return reg >= 1 && reg <= 3 ? 0 : -EILSEQ;
	case 0x49:		/* tilerelease is c0 alone; tilezero names no r/m */
		if (MODRM_MOD(insn->modrm) != 3)
			return 0;
		if (f->col == C_N)
			return insn->modrm == 0xc0 ? 0 : -EILSEQ;
		return MODRM_RM(insn->modrm) == 0 ? 0 : -EILSEQ;
	case 0x4b:		/* tile loads and stores address through a SIB byte */
		return MODRM_RM(insn->modrm) == 4 ? 0 : -EILSEQ;
	}
	return 0;
}

static int op_x86_check_xop(const struct op_x86_insn *insn)
{
	u8 reg = MODRM_REG(insn->modrm);

	if (insn->map == OP_X86_MAP_XOPA)	/* lwpins, lwpval */
		return reg <= 1 ? 0 : -EILSEQ;
	switch (insn->opcode) {
	case 0x01:		/* blcfill blsfill blcs tzmsk blcic blsic t1mskc */
		return reg ? 0 : -EILSEQ;
	case 0x02:		/* blcmsk, blci */
		return reg == 1 || reg == 6 ? 0 : -EILSEQ;
	default:		/* 12: llwpcb, slwpcb */
		return reg <= 1 && MODRM_MOD(insn->modrm) == 3 ? 0 : -EILSEQ;
	}
}

/* 3DNow! (0f 0f): the imm8 names the operation. */
static bool op_x86_3dnow_valid(u8 op)
{
	switch (op) {
	case 0x0c ... 0x0d:
	case 0x1c ... 0x1d:
	case 0x8a:
	case 0x8e:
	case 0x90:
	case 0x94:
	case 0x96 ... 0x97:
	case 0x9a:
	case 0x9e:
	case 0xa0:
	case 0xa4:
	case 0xa6 ... 0xa7:
	case 0xaa:
	case 0xae:
	case 0xb0:
	case 0xb4:
	case 0xb6 ... 0xb7:
	case 0xbb:
	case 0xbf:
		return true;
	}
	return false;
}

/* ModRM, then SIB and displacement unless the operand is a register. */
static int op_x86_modrm(struct op_x86_cursor *c, struct op_x86_insn *insn, bool reg_only)
{
	u8 mod = MODRM_MOD(insn->modrm), rm = MODRM_RM(insn->modrm);
	const u8 *p;
	int ret;

	if (mod == 3 || reg_only)
		return 0;
	if (rm == 4) {
		ret = op_x86_take_byte(c, &insn->sib);
		if (ret)
			return ret;
		insn->has_sib = true;
		if (mod == 0 && MODRM_RM(insn->sib) == 5)	/* no base: disp32 */
			insn->disp_size = 4;
	} else if (mod == 0 && rm == 5) {
		insn->disp_size = 4;
		insn->rip_relative = true;
	}
	if (mod == 1)
		insn->disp_size = 1;
	else if (mod == 2)
		insn->disp_size = 4;
	if (!insn->disp_size)
		return 0;
	insn->disp_off = c->pos;
	ret = op_x86_take(c, insn->disp_size, &p);
	if (ret)
		return ret;
	insn->disp = (s32)op_x86_le(p, insn->disp_size);
	return 0;
}

/* The immediate(s) of kind @kind. */
static int op_x86_imm(struct op_x86_cursor *c, struct op_x86_insn *insn, u8 kind)
{
	bool rexw = insn->rex & 0x8, opsize = insn->prefixes & OP_X86_PFX_OPSIZE;
	unsigned int size, extra = 0;
	const u8 *p;
	int ret;

	switch (kind) {
	case IMM_NONE:
		return 0;
	case IMM_B:
	case IMM_JB:
		size = 1;
		break;
	case IMM_W:
		size = 2;
		break;
	case IMM_Z:
		size = opsize && !rexw ? 2 : 4;
		break;
	case IMM_V:
		size = rexw ? 8 : opsize ? 2 : 4;
		break;
	case IMM_WB:
		size = 2;
		extra = 1;
		break;
	case IMM_BB:
		size = 1;
		extra = 1;
		break;
	case IMM_O:
		size = insn->prefixes & OP_X86_PFX_ADSIZE ? 4 : 8;
		break;
	default:		/* IMM_D, IMM_JZ */
		size = 4;
		break;
	}
	/*
	 * With 66, a near branch takes a rel16 and truncates the target to
	 * 16 bits on AMD, while Intel ignores the prefix: the length or the
	 * target depends on the vendor.  Compilers never emit it.
	 */
	if ((kind == IMM_JB || kind == IMM_JZ) && opsize)
		return -EILSEQ;
	insn->imm_off = c->pos;
	insn->imm_size = size;
	ret = op_x86_take(c, size + extra, &p);
	if (ret)
		return ret;
	insn->imm = op_x86_le(p, size);
	if (kind == IMM_JB || kind == IMM_JZ) {
		insn->has_rel = true;
		insn->rel = (s32)insn->imm;
	}
	return 0;
}

static enum op_x86_class op_x86_class_one(const struct op_x86_insn *insn)
{
	switch (insn->opcode) {
	case 0x6c ... 0x6f:	/* ins, outs */
	case 0xe4 ... 0xe7:	/* in, out */
	case 0xec ... 0xef:
	case 0xf4:		/* hlt */
		return OP_X86_PRIVILEGED;
	case 0x70 ... 0x7f:
		return OP_X86_JCC;
	case 0x8e:
		return OP_X86_SEG_MOV;
	case 0x9d:		/* popf */
	case 0xfa:		/* cli */
	case 0xfb:		/* sti */
		return OP_X86_IF_CHANGING;
	case 0xc2:
		return OP_X86_RET_IMM;
	case 0xc3:
		return OP_X86_RET;
	case 0xc7:
		return insn->modrm == 0xf8 ? OP_X86_XBEGIN : OP_X86_OTHER;
	case 0xca ... 0xcb:
		return OP_X86_FAR;
	case 0xcc:
		return OP_X86_INT3;
	case 0xcd:
	case 0xf1:
		return OP_X86_INT;
	case 0xcf:
		return OP_X86_IRET;
	case 0xe0 ... 0xe3:
		return OP_X86_LOOP;
	case 0xe8:
		return OP_X86_CALL;
	case 0xe9:
	case 0xeb:
		return OP_X86_JMP;
	case 0xff:
		switch (MODRM_REG(insn->modrm)) {
		case 2:
			return OP_X86_CALL_INDIRECT;
		case 4:
			return OP_X86_JMP_INDIRECT;
		case 3:
		case 5:
			return OP_X86_FAR;
		}
		break;
	}
	return OP_X86_OTHER;
}

/*
 * Legacy 0f and 0f 38 opcodes.  Privileged: descriptor tables and task
 * register (0f 00), all of group 7 (0f 01: lgdt lidt lmsw invlpg swapgs,
 * VMX/SVM, monitor/mwait, xsetbv, clac/stac...), clts, invd, wbinvd,
 * mov to/from cr/dr, wrmsr, rdmsr, rdpmc, getsec, rsm, vmread/vmwrite,
 * xrstors/xsaves and the VMX pointer operations (0f c7 /3 /5 /6 /7),
 * invept/invvpid/invpcid.
 */
static enum op_x86_class op_x86_class_0f(const struct op_x86_insn *insn, u8 col)
{
	u8 reg = MODRM_REG(insn->modrm);

	if (insn->map == OP_X86_MAP_0F38)
		return insn->opcode >= 0x80 && insn->opcode <= 0x82 ?
		       OP_X86_PRIVILEGED : OP_X86_OTHER;
	switch (insn->opcode) {
	case 0x00 ... 0x01:
	case 0x06:
	case 0x08 ... 0x09:
	case 0x20 ... 0x23:
	case 0x30:
	case 0x32 ... 0x33:
	case 0x37:
	case 0xaa:
		return OP_X86_PRIVILEGED;
	case 0x05:
	case 0x07:
	case 0x34 ... 0x35:
		return OP_X86_SYSCALL;
	case 0x0b:
	case 0xb9:
	case 0xff:
		return OP_X86_UD;
	case 0x78 ... 0x79:
		return col == C_N ? OP_X86_PRIVILEGED : OP_X86_OTHER;
	case 0x80 ... 0x8f:
		return OP_X86_JCC;
	case 0xa1:		/* pop fs */
	case 0xa9:		/* pop gs */
	case 0xb2:		/* lss */
	case 0xb4 ... 0xb5:	/* lfs, lgs */
		return OP_X86_SEG_MOV;
	case 0xc7:
		if (MODRM_MOD(insn->modrm) != 3 && (reg == 3 || reg >= 5))
			return OP_X86_PRIVILEGED;
		break;
	}
	return OP_X86_OTHER;
}

/* The column of a VEX/EVEX/XOP pp field */
static const u8 op_x86_pp_col[4] = { C_N, C_66, C_F3, C_F2 };

/* c4, c5, 62 or 8f (XOP) at the cursor: read the prefix and the opcode. */
static int op_x86_vex(struct op_x86_cursor *c, struct op_x86_insn *insn, u8 esc, u8 *col)
{
	const u8 *p;
	int ret;

	/* With 66, f2, f3, lock or REX before them, they raise #UD. */
	if (insn->rex || (insn->prefixes & (OP_X86_PFX_OPSIZE | OP_X86_PFX_LOCK |
					    OP_X86_PFX_REP | OP_X86_PFX_REPNE)))
		return -EILSEQ;
	switch (esc) {
	case 0xc5:		/* R vvvv L pp; map 0f */
		ret = op_x86_take(c, 1, &p);
		if (ret)
			return ret;
		insn->vex = true;
		insn->map = OP_X86_MAP_0F;
		*col = op_x86_pp_col[p[0] & 3];
		break;
	case 0xc4:		/* R X B mmmmm, W vvvv L pp */
	case 0x8f:
		ret = op_x86_take(c, 2, &p);
		if (ret)
			return ret;
		insn->map = p[0] & 0x1f;
		if (esc == 0xc4) {
			insn->vex = true;
			if (insn->map < OP_X86_MAP_0F || insn->map > OP_X86_MAP_0F3A)
				return -EILSEQ;
		} else {
			insn->xop = true;
			if (insn->map > OP_X86_MAP_XOPA || (p[1] & 3))
				return -EILSEQ;
		}
		*col = op_x86_pp_col[p[1] & 3];
		break;
	default:		/* 62: R X B R' 0 0 mm, W vvvv 1 pp, z L'L b V' aaa */
		ret = op_x86_take(c, 3, &p);
		if (ret)
			return ret;
		insn->evex = true;
		insn->map = p[0] & 3;
		if ((p[0] & 0x0c) || !(p[1] & 0x04) || insn->map == OP_X86_MAP_ONE)
			return -EILSEQ;
		*col = op_x86_pp_col[p[1] & 3];
		break;
	}
	insn->opcode_off = c->pos;
	return op_x86_take_byte(c, &insn->opcode);
}

/*
 * Prefixes, REX, escapes and the opcode byte.  The mandatory-prefix
 * column goes to *@col, and whether 66 came after the last f2/f3 to
 * *@opsize_last.
 */
static int op_x86_opcode(struct op_x86_cursor *c, struct op_x86_insn *insn, u8 *col,
			 bool *opsize_last)
{
	u16 pfx, rep = 0;
	u8 b, next;
	int ret;

	for (;;) {
		ret = op_x86_take_byte(c, &b);
		if (ret)
			return ret;
		pfx = op_x86_legacy_prefix(b);
		if (pfx) {
			insn->prefixes |= pfx;
			if (pfx & (OP_X86_PFX_REP | OP_X86_PFX_REPNE))
				rep = pfx;
			if (pfx & (OP_X86_PFX_REP | OP_X86_PFX_REPNE | OP_X86_PFX_OPSIZE))
				*opsize_last = pfx == OP_X86_PFX_OPSIZE;
			insn->rex = 0;	/* REX counts only right before the opcode */
		} else if ((b & 0xf0) == 0x40) {
			insn->rex = b;
		} else {
			break;
		}
	}
	insn->nprefixes = c->pos - 1 - !!insn->rex;
	/* The last of f2/f3 selects the form, and either one over 66. */
	if (rep)
		*col = rep == OP_X86_PFX_REP ? C_F3 : C_F2;
	else
		*col = insn->prefixes & OP_X86_PFX_OPSIZE ? C_66 : C_N;

	if (b == 0xc4 || b == 0xc5 || b == 0x62)
		return op_x86_vex(c, insn, b, col);
	if (b == 0x8f && c->pos < c->avail && (c->buf[c->pos] & 0x1f) >= OP_X86_MAP_XOP8)
		return op_x86_vex(c, insn, b, col);

	insn->opcode_off = c->pos - 1;
	insn->opcode = b;
	if (b != 0x0f)
		return 0;
	ret = op_x86_take_byte(c, &next);
	if (ret)
		return ret;
	insn->map = OP_X86_MAP_0F;
	if (next == 0x38 || next == 0x3a) {
		insn->map = next == 0x38 ? OP_X86_MAP_0F38 : OP_X86_MAP_0F3A;
		ret = op_x86_take_byte(c, &next);
		if (ret)
			return ret;
	}
	insn->opcode_off = c->pos - 1;
	insn->opcode = next;
	return 0;
}

/* The attribute word of the opcode just read. */
static u32 op_x86_attr(const struct op_x86_insn *insn)
{
	switch (insn->map) {
	case OP_X86_MAP_ONE:
		return op_x86_one[insn->opcode];
	case OP_X86_MAP_0F:
		return op_x86_0f[insn->opcode];
	case OP_X86_MAP_0F38:
		return op_x86_0f38[insn->opcode] | A_M;
	case OP_X86_MAP_0F3A:
		return op_x86_0f3a[insn->opcode] | A_M | IMM(IMM_B);
	}
	return op_x86_xop_attr(insn->map, insn->opcode) | A_M;
}

static int op_x86_check(const struct op_x86_insn *insn, struct op_x86_form *f)
{
	switch (insn->map) {
	case OP_X86_MAP_ONE:
		return op_x86_check_one(insn, f);
	case OP_X86_MAP_0F:
		return op_x86_check_0f(insn, f);
	case OP_X86_MAP_0F38:
		return op_x86_check_0f38(insn, f);
	}
	return op_x86_check_xop(insn);
}

static int op_x86_decode_one(const u8 *buf, size_t avail, struct op_x86_insn *insn)
{
	struct op_x86_cursor c = { .buf = buf, .avail = avail };
	struct op_x86_form f = { };
	bool opsize_last = false;
	unsigned int shift;
	u8 cols;
	u32 attr;
	int ret;

	*insn = (struct op_x86_insn){ .cls = OP_X86_OTHER };
	ret = op_x86_opcode(&c, insn, &f.col, &opsize_last);
	if (ret)
		return ret;
	attr = op_x86_attr(insn);
	shift = insn->evex ? SH_EVEX : insn->vex ? SH_VEX : SH_LEGACY;
	cols = (attr >> shift) & 0xff;
	if (!((cols | cols >> 4) & f.col))
		return -EILSEQ;
	/*
	 * 66 after f2/f3, on an opcode whose form the mandatory prefix
	 * selects: the SDM gives f2/f3 precedence, the kernel's decoder
	 * and others take the last prefix.  Compilers emit 66 first.
	 */
	if (opsize_last && f.col != C_66 && insn->map != OP_X86_MAP_ONE && cols != 0xff)
		return -EILSEQ;

	if (insn->vex || insn->evex)	/* all but vzeroupper/vzeroall have ModRM */
		insn->has_modrm = insn->map != OP_X86_MAP_0F || insn->opcode != 0x77;
	else
		insn->has_modrm = attr & A_M;
	f.imm = (attr >> IMM_SHIFT) & 0xf;
	if (insn->has_modrm) {
		ret = op_x86_take_byte(&c, &insn->modrm);
		if (ret)
			return ret;
		if (MODRM_MOD(insn->modrm) != 3)
			cols >>= 4;
		f.lockable = (attr & A_LOCK) && MODRM_MOD(insn->modrm) != 3;
		if ((attr & A_GRP) && op_x86_check(insn, &f))
			return -EILSEQ;
	}
	if (!(cols & f.col & 0xf))
		return -EILSEQ;
	if ((insn->prefixes & OP_X86_PFX_LOCK) && !f.lockable)
		return -EILSEQ;

	if (insn->has_modrm) {
		ret = op_x86_modrm(&c, insn, f.reg_only);
		if (ret)
			return ret;
	}
	ret = op_x86_imm(&c, insn, f.imm);
	if (ret)
		return ret;
	if (insn->map == OP_X86_MAP_0F && insn->opcode == 0x0f && !op_x86_3dnow_valid(insn->imm))
		return -EILSEQ;

	insn->len = c.pos;
	if (insn->vex || insn->evex || insn->xop)
		insn->cls = OP_X86_OTHER;
	else if (insn->map == OP_X86_MAP_ONE)
		insn->cls = op_x86_class_one(insn);
	else
		insn->cls = op_x86_class_0f(insn, f.col);
	return 0;
}

/*
 * Xen's and KVM's "emulate prefix" (asm/emulate_prefix.h): ud2 and a
 * signature before an instruction that the hypervisor emulates.  The
 * kernel's decoder and kprobes treat the whole as one instruction; so
 * does this one, as an OP_X86_UD that is never run out of line.
 */
#define OP_X86_EMULATE_PREFIX_LEN	5

static bool op_x86_emulate_prefix(const u8 *buf, size_t avail)
{
	static const u8 sig[2][OP_X86_EMULATE_PREFIX_LEN] = {
		{ 0x0f, 0x0b, 'x', 'e', 'n' },
		{ 0x0f, 0x0b, 'k', 'v', 'm' },
	};
	unsigned int i, j, same;

	if (avail < OP_X86_EMULATE_PREFIX_LEN)
		return false;
	for (i = 0; i < 2; i++) {
		same = 0;
		for (j = 0; j < OP_X86_EMULATE_PREFIX_LEN; j++)
			same += buf[j] == sig[i][j];
		if (same == OP_X86_EMULATE_PREFIX_LEN)
			return true;
	}
	return false;
}

/**
 * op_x86_insn_decode() - decode one x86_64 instruction
 * @buf:	its bytes
 * @avail:	how many bytes may be read from @buf (at most 15 are)
 * @insn:	the result; offsets in it count from @buf
 *
 * Return: 0; -EILSEQ if the bytes are not a valid, defined 64-bit mode
 * instruction of at most 15 bytes, or one whose length or target depends
 * on the CPU vendor; -ENODATA if @avail ends before the instruction does.
 */
int op_x86_insn_decode(const u8 *buf, size_t avail, struct op_x86_insn *insn)
{
	const unsigned int n = OP_X86_EMULATE_PREFIX_LEN;
	int ret;

	if (!op_x86_emulate_prefix(buf, avail))
		return op_x86_decode_one(buf, avail, insn);
	/* the whole, prefix included, within the 15 bytes */
	ret = op_x86_decode_one(buf + n, avail - n, insn);
	if (ret)
		return ret;
	if (insn->len > OP_X86_MAX_INSN_LEN - n)
		return -EILSEQ;
	insn->len += n;
	insn->opcode_off += n;
	if (insn->disp_size)
		insn->disp_off += n;
	if (insn->imm_size)
		insn->imm_off += n;
	insn->cls = OP_X86_UD;
	return 0;
}

/**
 * op_x86_insn_can_boost() - may the instruction run out of line, followed by a
 *			jmp back to the next one, without a trap after it?
 * @insn:	a decoded instruction
 *
 * The one boostability rule of optprobe, for single-stepping out of line
 * and for the instructions a jump-optimized probe copies to its detour.
 * Mainline Linux 6.1's can_boost() (arch/x86/kernel/kprobes/core.c) is
 * the reference, never more permissive but in one point:
 *
 * - nothing that changes or reads the instruction pointer other than a
 *   RIP-relative ModRM operand, which the caller re-targets to the copy:
 *   every class but OP_X86_OTHER is refused, which also refuses (unlike
 *   mainline) ret, iret, indirect jmp, in/out, hlt, cli/sti/popf,
 *   segment register loads, xbegin and privileged instructions;
 * - no address-size (67) prefix on a RIP-relative operand, whose address
 *   it truncates to 32 bits where the instruction is;
 * - two-byte (0f xx) opcodes only where the table has A_BOOST: the
 *   general-purpose part of mainline's twobyte_is_boostable bitmap (its
 *   rows 00, 40, 90, a0, b0 and c0; not mov cr/dr, rdtsc nor the MMX/SSE
 *   rows), and the hint nops; nothing from 0f 38, 0f 3a, 3DNow!, and
 *   (unlike mainline, which looks at their opcode byte as if it were a
 *   one-byte one) nothing VEX, EVEX or XOP encoded;
 * - one-byte opcodes except the x87 escapes (d8-df), and of groups 4 and
 *   5 (fe ff) all but inc, dec and push.
 *
 * The points where it is more permissive than mainline 6.1, each an
 * instruction that computes on registers, memory and flags only, with
 * every ModRM form defined, nothing of it depending on where it runs:
 *
 * - the group 2 shifts and rotates (c0 c1 d0-d3), which mainline refuses
 *   with the software interrupts around them in its old opcode ranges
 *   (optprobe_test_x86_opt's "shift" case);
 * - group 3 (f6 f7: test, not, neg, mul, imul, div, idiv) and inc, dec
 *   and push of groups 4 and 5, which mainline refuses whole for the
 *   indirect calls and jumps sharing group 5 (its "group3" case);
 * - the hint nops and prefetches (0f 18-1f) and group 8 (0f ba: bt, bts,
 *   btr, btc with an immediate), left out of mainline's bitmap; gcc pads
 *   inside functions with 0f 1f nops;
 * - a CS segment override (2e) on any of these: 64-bit mode ignores it
 *   there (it is a branch hint only on jcc, which is not OP_X86_OTHER),
 *   and gcc pads with "cs nopw".
 *
 * Mainline also refuses an address with an exception table entry (the
 * fixup would not match the copy's address): that is the caller's check.
 */
bool op_x86_insn_can_boost(const struct op_x86_insn *insn)
{
	unsigned int reg = insn->modrm >> 3 & 7;

	if (insn->cls != OP_X86_OTHER || insn->vex || insn->evex || insn->xop)
		return false;
	if ((insn->prefixes & OP_X86_PFX_ADSIZE) && insn->rip_relative)
		return false;
	if (insn->map == OP_X86_MAP_0F) {
		switch (insn->opcode) {
		case 0x0f:	/* 3DNow! */
			return false;
		case 0x18 ... 0x1f:	/* hint nops, prefetch */
		case 0xba:		/* group 8: bt, bts, btr, btc */
			return true;
		default:
			return op_x86_0f[insn->opcode] & A_BOOST;
		}
	}
	if (insn->map != OP_X86_MAP_ONE)
		return false;
	switch (insn->opcode) {
	case 0xd8 ... 0xdf:
		return false;
	case 0xfe:		/* inc, dec */
		return reg <= 1;
	case 0xff:		/* inc, dec, push; not the indirect calls and jumps */
		return reg <= 1 || reg == 6;
	}
	return true;
}

/**
 * op_x86_insn_falls_through() - may the next instruction run after this one?
 * @insn:	a decoded instruction
 *
 * No after a jmp, a ret or an iret of any form (far ones included, not a
 * far call): the bytes after them run, if ever, only when something jumps
 * there.  Everything else, conditional branches and calls included, may
 * go on to the next instruction.
 *
 * Return: false after an unconditional transfer of control, else true.
 */
bool op_x86_insn_falls_through(const struct op_x86_insn *insn)
{
	switch (insn->cls) {
	case OP_X86_JMP:
	case OP_X86_RET:
	case OP_X86_RET_IMM:
	case OP_X86_JMP_INDIRECT:
	case OP_X86_IRET:
		return false;
	case OP_X86_FAR:	/* ff /3 far call, ff /5 far jmp, ca/cb far ret */
		return insn->opcode == 0xff && (insn->modrm & 0x38) == 0x18;
	default:
		return true;
	}
}

/**
 * op_x86_insn_relocated_len() - the length of op_x86_insn_relocate()'s form
 * @insn:	a decoded instruction
 *
 * Return: the bytes it writes for @insn, or 0 if it cannot.
 */
unsigned int op_x86_insn_relocated_len(const struct op_x86_insn *insn)
{
	switch (insn->cls) {
	case OP_X86_JMP:
		return OP_X86_JMP32_LEN;
	case OP_X86_JCC:
		return OP_X86_JCC32_LEN;
	case OP_X86_CALL:
		return OP_X86_PUSH32_LEN + OP_X86_JMP32_LEN;
	case OP_X86_RET:
		return insn->len;
	default:
		return op_x86_insn_can_boost(insn) ? insn->len : 0;
	}
}

/* A rel32 that ends at @next and reaches @target, into @out; -ERANGE if none does. */
static int op_x86_put_rel32(u64 next, u64 target, u8 *out)
{
	s64 rel = (s64)(target - next);
	s32 rel32 = (s32)rel;

	if (rel != rel32)
		return -ERANGE;
	memcpy(out, &rel32, sizeof(rel32));
	return 0;
}

/**
 * op_x86_insn_relocate() - rewrite an instruction to run somewhere else
 * @insn:	the instruction at @from, decoded from @bytes
 * @bytes:	its @insn->len bytes
 * @from:	where it is
 * @to:		where its new form goes
 * @out:	its new form, op_x86_insn_relocated_len() bytes
 *
 * An instruction op_x86_insn_can_boost() allows is copied, a RIP-relative
 * operand re-targeted to what it reached from @from.  A ret is copied: it
 * runs the same anywhere.  A jmp or jcc, rel8 or rel32, becomes the rel32
 * form to the same target, its branch hint prefixes dropped (they do not
 * change what it does).  A call becomes "push $(@from + len); jmp target":
 * the callee returns to the original return address, never to @to, which
 * fits a push's sign-extended imm32 when @from is in the top 2 GB (kernel
 * and module text).
 *
 * Return: the length written, -ERANGE if a target or the return address
 * is out of reach, or -EINVAL if the instruction cannot run elsewhere (an
 * operand-size prefix on a branch too: AMD truncates its target).
 */
int op_x86_insn_relocate(const struct op_x86_insn *insn, const u8 *bytes, u64 from, u64 to,
			 u8 *out)
{
	u64 next = from + insn->len, target = next + (s64)insn->rel;
	unsigned int len = op_x86_insn_relocated_len(insn);
	s32 ret32;

	if (!len)
		return -EINVAL;
	if (insn->has_rel && (insn->prefixes & OP_X86_PFX_OPSIZE))
		return -EINVAL;
	switch (insn->cls) {
	case OP_X86_JMP:
		out[0] = 0xe9;
		break;
	case OP_X86_JCC:	/* 70+cc rel8 or 0f 80+cc rel32 */
		out[0] = 0x0f;
		out[1] = 0x80 | (insn->opcode & 0xf);
		break;
	case OP_X86_CALL:
		ret32 = (s32)next;
		if ((s64)next != ret32)
			return -ERANGE;
		out[0] = 0x68;	/* push imm32 */
		memcpy(out + 1, &ret32, sizeof(ret32));
		out[OP_X86_PUSH32_LEN] = 0xe9;
		break;
	default:
		memcpy(out, bytes, len);
		if (insn->rip_relative &&
		    op_x86_put_rel32(to + len, next + (s64)insn->disp, out + insn->disp_off))
			return -ERANGE;
		return len;
	}
	if (op_x86_put_rel32(to + len, target, out + len - sizeof(s32)))
		return -ERANGE;
	return len;
}
