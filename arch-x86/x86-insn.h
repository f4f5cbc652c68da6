/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe's own x86_64 instruction decoder: length, prefixes, ModRM/SIB,
 * displacement, immediate, relative branch target and a classification of
 * what the instruction does to control flow, for code running in 64-bit
 * mode.  Freestanding: the same source builds into the kernel module and
 * into the host unit test, which checks it against an independent decoder.
 *
 * Encodings that are invalid in 64-bit mode, undefined, or whose length
 * differs between vendors are reported as undecodable, never guessed.
 */
#ifndef OPTPROBE_X86_INSN_H
#define OPTPROBE_X86_INSN_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;
#endif

/* The architectural limit: longer instructions raise #GP. */
#define OP_X86_MAX_INSN_LEN	15

/* Opcode maps, as the VEX/EVEX map field numbers them (XOP: 8, 9, 10). */
enum op_x86_map {
	OP_X86_MAP_ONE = 0,	/* one-byte opcodes */
	OP_X86_MAP_0F = 1,	/* 0f xx (3DNow! is 0f 0f, its opcode the imm8) */
	OP_X86_MAP_0F38 = 2,	/* 0f 38 xx */
	OP_X86_MAP_0F3A = 3,	/* 0f 3a xx */
	OP_X86_MAP_XOP8 = 8,	/* AMD XOP maps */
	OP_X86_MAP_XOP9 = 9,
	OP_X86_MAP_XOPA = 10,
};

/* Legacy prefixes present, in struct op_x86_insn.prefixes. */
#define OP_X86_PFX_ES		0x0001	/* 26 */
#define OP_X86_PFX_CS		0x0002	/* 2e (also a "branch not taken" hint) */
#define OP_X86_PFX_SS		0x0004	/* 36 */
#define OP_X86_PFX_DS		0x0008	/* 3e (also "notrack", "branch taken") */
#define OP_X86_PFX_FS		0x0010	/* 64 */
#define OP_X86_PFX_GS		0x0020	/* 65 */
#define OP_X86_PFX_OPSIZE	0x0040	/* 66 */
#define OP_X86_PFX_ADSIZE	0x0080	/* 67 */
#define OP_X86_PFX_LOCK		0x0100	/* f0 */
#define OP_X86_PFX_REPNE	0x0200	/* f2 (also bnd, xacquire) */
#define OP_X86_PFX_REP		0x0400	/* f3 (also xrelease) */

/*
 * What an instruction does to control flow, or why it cannot simply run
 * somewhere else.  Every instruction not named here is OP_X86_OTHER.
 */
enum op_x86_class {
	OP_X86_OTHER,
	OP_X86_JMP,		/* eb rel8, e9 rel32 */
	OP_X86_JCC,		/* 70-7f rel8, 0f 80-8f rel32 */
	OP_X86_CALL,		/* e8 rel32 */
	OP_X86_RET,		/* c3 */
	OP_X86_RET_IMM,		/* c2 imm16 */
	OP_X86_JMP_INDIRECT,	/* ff /4 */
	OP_X86_CALL_INDIRECT,	/* ff /2 */
	OP_X86_FAR,		/* ff /3 far call, ff /5 far jmp, ca/cb far ret */
	OP_X86_INT3,		/* cc */
	OP_X86_INT,		/* cd int n, f1 int1 (icebp) */
	OP_X86_IRET,		/* cf */
	OP_X86_UD,		/* 0f 0b ud2, 0f b9 ud1, 0f ff ud0; Xen/KVM emulate prefix */
	OP_X86_SYSCALL,		/* 0f 05 syscall, 0f 07 sysret, 0f 34 sysenter, 0f 35 sysexit */
	OP_X86_LOOP,		/* e0-e2 loop(n)(e), e3 jrcxz: rel8 on a register condition */
	OP_X86_XBEGIN,		/* c7 f8: relative fallback address */
	OP_X86_IF_CHANGING,	/* fa cli, fb sti, 9d popf */
	OP_X86_SEG_MOV,		/* loads a segment register: 8e, 0f a1/a9 pop fs/gs, lss/lfs/lgs */
	OP_X86_PRIVILEGED,	/* hlt, in/out/ins/outs, and system ones: see op_x86_class_0f() */
};

struct op_x86_insn {
	u8 len;			/* total length in bytes */
	u8 nprefixes;		/* legacy prefix bytes, and REX bytes not right before the opcode */
	u16 prefixes;		/* OP_X86_PFX_* */
	u8 rex;			/* the REX byte in effect (right before the opcode), or 0 */
	u8 map;			/* enum op_x86_map */
	u8 opcode;		/* the opcode byte within its map */
	u8 opcode_off;		/* its offset */
	bool vex, evex, xop;	/* which of these encodings, if any */
	bool has_modrm;
	u8 modrm;
	bool has_sib;
	u8 sib;
	u8 disp_off, disp_size;	/* ModRM displacement: 0, 1 or 4 bytes */
	s32 disp;
	/*
	 * The first immediate (enter and extrq/insertq have a second one
	 * after it), sign-extended.  For a relative branch it is the
	 * displacement, for mov to/from moffs (a0-a3) the 8- or 4-byte
	 * absolute address.
	 */
	u8 imm_off, imm_size;
	s64 imm;
	/*
	 * ModRM mod=00 rm=101: the displacement at disp_off is relative to
	 * the next instruction (with a 67 prefix the address is truncated
	 * to 32 bits).
	 */
	bool rip_relative;
	bool has_rel;		/* relative branch or call: target = addr + len + rel */
	s32 rel;
	enum op_x86_class cls;
};

int op_x86_insn_decode(const u8 *buf, size_t avail, struct op_x86_insn *insn);
bool op_x86_insn_can_boost(const struct op_x86_insn *insn);
bool op_x86_insn_falls_through(const struct op_x86_insn *insn);

/* The forms op_x86_insn_relocate() writes: jmp rel32, jcc rel32, push imm32. */
#define OP_X86_JMP32_LEN	5
#define OP_X86_JCC32_LEN	6
#define OP_X86_PUSH32_LEN	5
/* The longest of them: a call's push and jmp, or a copy. */
#define OP_X86_RELOC_MAX	OP_X86_MAX_INSN_LEN

unsigned int op_x86_insn_relocated_len(const struct op_x86_insn *insn);
int op_x86_insn_relocate(const struct op_x86_insn *insn, const u8 *bytes, u64 from, u64 to,
			 u8 *out);

#endif /* OPTPROBE_X86_INSN_H */
