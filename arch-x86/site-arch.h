/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86_64 backend keeps per site (struct op_site.arch).
 *
 * A probed instruction is either emulated in the int3 handler (relative
 * jumps, calls and returns, whose effect depends on where they run) or
 * copied into a slot and run out of line.  The copy is followed by a jmp
 * back when it is boosted, else by an int3 (written over that jmp's first
 * byte) that brings the CPU back to the handler for the post handlers.
 *
 * A jump-optimized site replaces the bytes of one or more whole
 * instructions (the region) with a jmp to its detour:
 *
 *	detour:	push a struct pt_regs		op_x86_detour_head
 *		(ip: pushq $addr, an imm32: x86_64 kernel and module text
 *		lie in the top 2 GB)
 *		cld; clac (or a nop3)
 *		movabs $site, %rdi
 *		call op_x86_detour_pre		the pre handlers
 *		jnz op_x86_detour_redirect	if they moved ip
 *		pop them, sp last		op_x86_detour_tail
 *		<first instruction>		the body
 *		call op_x86_detour_post_entry	the post handlers, or a nop5
 *		<rest of the region>
 *		jmp  addr + region length	unless the region ends with a jmp,
 *						ret or call (op_x86_insn_relocate())
 */
#ifndef OPTPROBE_SITE_ARCH_H
#define OPTPROBE_SITE_ARCH_H

#include <linux/types.h>
#include <asm/text-patching.h>

#include "x86-insn.h"

/* An instruction (at most 15 bytes) and the jmp or int3 after it. */
#define OP_ARCH_SLOT_SIZE	32

/* The region: whole instructions covering a rel32 jmp (5 bytes). */
#define OP_X86_REGION_MAX	(JMP32_INSN_SIZE - 1 + OP_X86_MAX_INSN_LEN)
#define OP_ARCH_OPT_SPAN	OP_X86_REGION_MAX

/* A bound on a detour's size (op_x86_detour_size()), checked when one is written */
#define OP_X86_DETOUR_MAX	160

enum op_x86_emulation {
	OP_X86_OUT_OF_LINE,
	OP_X86_EMU_JMP,		/* jmp rel8/rel32 */
	OP_X86_EMU_JCC,		/* jcc rel8/rel32 */
	OP_X86_EMU_CALL,	/* call rel32 */
	OP_X86_EMU_RET,		/* ret */
};

struct op_arch_site {
	u8 insn[OP_X86_MAX_INSN_LEN];	/* the original bytes */
	u8 len;
	u8 emulation;			/* enum op_x86_emulation */
	u8 cc;				/* condition code of a jcc */
	bool boostable;			/* the slot's copy may jmp back */
	unsigned long target;		/* of a jmp, jcc or call */
	/* jump optimization */
	u8 region[OP_X86_REGION_MAX];	/* the original bytes the jmp replaces */
	u8 rlen;			/* their length; 0 before the first detour */
	bool to_detour;			/* int3 hits go to the detour */
};

struct op_site;
struct pt_regs;

/* decode.c, for optimize.c and entries.c */
int op_x86_read_original(unsigned long addr, u8 *buf, size_t len);
int op_x86_decode(unsigned long addr, unsigned long end, struct op_x86_insn *insn, u8 *buf);
int op_x86_fixup_riprel(const struct op_x86_insn *insn, unsigned long addr,
			unsigned long copy_at, u8 *copy);
u8 op_x86_slot_exit(const struct op_site *site);
void op_x86_set_bp_mode(struct op_site *site);

/* A walk over original instructions up to @to, for op_x86_read_insn(). */
struct op_x86_reader {
	unsigned long to;
	unsigned long slow_until;	/* op_x86_decode() up to here */
	unsigned long kjmp;		/* a kernel kprobe's optimized jmp, ... */
	u8 kbytes[JMP32_INSN_SIZE];	/* ... and the bytes it replaced */
};

static inline void op_x86_reader_init(struct op_x86_reader *r, unsigned long to)
{
	*r = (struct op_x86_reader){ .to = to };
}

int op_x86_read_insn(struct op_x86_reader *r, unsigned long pos,
		     struct op_x86_insn *insn, u8 *buf);
#define OP_X86_SYM_PREFIX_MAX	32
bool op_x86_symbol_prefixed(unsigned long addr, const char * const *prefixes);

/* The kernel's optimized kprobes reach this far before their address. */
#define OP_X86_KPROBE_REACH	(OP_X86_MAX_INSN_LEN + JMP32_INSN_SIZE - 1)

/* patch.c, for decode.c and optimize.c */
bool op_x86_kprobe_in(unsigned long start, unsigned long end);
bool op_x86_near_kprobe(unsigned long addr, unsigned int len);
bool op_x86_may_arm(const struct op_site *site);
void op_x86_poke(void *addr, const void *bytes, size_t len);
void op_x86_poke_text(void *addr, const void *bytes, size_t len);
void op_x86_sync(void);
void op_x86_text_lock(void);
void op_x86_text_unlock(void);

/* optimize.c */
void op_x86_detour_set_post(struct op_site *site);

/* tramp.S and its C halves in trap.c */
extern const u8 op_x86_detour_head[], op_x86_detour_head_ip[], op_x86_detour_head_clac[];
extern const u8 op_x86_detour_head_end[];
extern const u8 op_x86_detour_tail[], op_x86_detour_tail_rel[], op_x86_detour_tail_end[];
void op_x86_detour_redirect(void);
void op_x86_detour_post_entry(void);
int op_x86_detour_pre(struct op_site *site, struct pt_regs *regs);
void op_x86_detour_leave(struct pt_regs *regs);
void op_x86_ftrace_ret(void);
void op_x86_detour_post(struct pt_regs *regs);

/* Where a detour's body (its first copied instruction) starts. */
static inline unsigned int op_x86_detour_body(void)
{
	return op_x86_detour_head_end - op_x86_detour_head + CALL_INSN_SIZE +
	       op_x86_detour_tail_end - op_x86_detour_tail;
}

/*
 * The bytes of a detour whose region's instructions take @relocated bytes
 * as op_x86_insn_relocate() rewrites them (a rel8 jcc grows to its rel32
 * form, a call to a push and a jmp).
 */
static inline unsigned int op_x86_detour_size(unsigned int relocated)
{
	return op_x86_detour_body() + relocated + CALL_INSN_SIZE + JMP32_INSN_SIZE;
}

#endif /* OPTPROBE_SITE_ARCH_H */
