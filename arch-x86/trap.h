/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 detour's code (tramp.S) and its C halves (trap.c), for the
 * detour builder (optimize.c): the layout site-arch.h draws.
 */
#ifndef OPTPROBE_X86_TRAP_H
#define OPTPROBE_X86_TRAP_H

#include <linux/types.h>
#include <asm/text-patching.h>

struct op_site;
struct pt_regs;

/* A bound on a detour's size (op_x86_detour_size()), checked when one is written */
#define OP_X86_DETOUR_MAX	160

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

#endif /* OPTPROBE_X86_TRAP_H */
