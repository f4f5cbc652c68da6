/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the powerpc64le backend keeps per site (struct op_site.arch).
 *
 * A hit first offers the original instruction to the kernel's
 * emulate_step(); what it declines (some loads and stores, moves from and
 * to special registers, ...) runs out of line from the site's slot, which
 * every site has.
 *
 * A jump-optimized site replaces its one instruction with a "b" to its
 * detour, within +-32 MB (OP_PPC_REACH).  The detour, written per site,
 * calls the trampolines of tramp.S, which save and restore a struct
 * pt_regs below the red zone, and runs the instruction in place:
 *
 *	call(op_ppc_detour_pre_entry)	the pre handlers
 *	[nop]				so a prefixed copy does not cross 64 bytes
 *	<the instruction>		pc-relative operands re-targeted
 *	b addr + len | nop		the post switch: nop while post handlers run
 *	call(op_ppc_detour_post_entry)	the post handlers
 *	b addr + len
 *
 * where call(entry) is 19 words that touch nothing but r1, r12, LR and CTR,
 * and leave them as they were:
 *
 *	stdu  r1,-STACK_INT_FRAME_SIZE(r1)	the red zone stays below the old r1
 *	std   r12,GPR12(r1)
 *	mflr  r12;  std r12,_LINK(r1)
 *	mfctr r12;  std r12,_CTR(r1)
 *	<r12 = entry, 5 words>;  mtctr r12;  bctrl
 *	ld    r12,_LINK(r1);  mtlr r12
 *	ld    r12,_CTR(r1);  mtctr r12
 *	ld    r12,GPR12(r1)
 *	ld    r1,GPR1(r1)
 *
 * The trampolines are in optprobe's module text, out of a branch's reach
 * from the kernel-text detour area: the detour calls them through CTR,
 * with r12 holding the entry as ELFv2 wants.  The return address into the
 * detour names the site (op_slot_owner()).
 */
#ifndef OPTPROBE_SITE_ARCH_H
#define OPTPROBE_SITE_ARCH_H

#include <linux/sizes.h>
#include <linux/types.h>
#include <asm/inst.h>
#include <asm/reg.h>

/*
 * A slot: the copied instruction (4 or 8 bytes) and the trap after it.
 * Slots are 16-byte aligned, so a prefixed copy never crosses a 64-byte
 * boundary, which the ISA forbids.
 */
#define OP_ARCH_SLOT_SIZE	16

/* A branch replaces the probed instruction only. */
#define OP_ARCH_OPT_SPAN	1

/*
 * How far a slot page may start from a probed address: then every word of
 * the page and the instruction after the probed one (at most 8 bytes on)
 * reach each other with a "b" (-32 MB .. 32 MB - 4), both ways.
 */
#define OP_PPC_REACH		((long)(SZ_32M - PAGE_SIZE))

#define OP_PPC_CALL_WORDS	19
/* two calls, a nop, a prefixed instruction, the post switch, the branch back */
#define OP_PPC_DETOUR_WORDS	(2 * OP_PPC_CALL_WORDS + 1 + 2 + 1 + 1)
#define OP_PPC_DETOUR_SIZE	(OP_PPC_DETOUR_WORDS * sizeof(u32))

struct op_arch_site {
	/* the original: one word, or a prefix and its suffix (ppc_inst_len()) */
	ppc_inst_t insn;
	/* jump optimization */
	u16 post_switch;	/* its offset in the detour; 0 until the detour is written */
	bool to_detour;		/* trap hits go to the detour */
};

struct op_site;
struct pt_regs;

/* decode.c */
bool op_ppc_pcrel(ppc_inst_t insn);
s64 op_ppc_disp34(ppc_inst_t insn);
int op_ppc_relocate(ppc_inst_t insn, unsigned long from, unsigned long to, ppc_inst_t *copy);

/* patch.c */
bool op_ppc_kprobe_at(unsigned long addr);
void op_ppc_patch(unsigned long addr, ppc_inst_t insn);
bool op_ppc_set_tcg_rewrite(bool on);
unsigned long op_ppc_tcg_rewrites(void);
const char *op_ppc_no_area(const struct op_site *site);

/* core-cache.c */
void op_ppc_core_cache_init(void);
void *op_ppc_core_slot_get(size_t *size);
void op_ppc_core_slot_put(void *slot);
const char *op_ppc_core_cache_why(void);
int op_ppc_core_cache_used(unsigned int *optprobe);
int op_ppc_core_set_share(int slots);
int op_ppc_core_set_test_fail(bool fail);

/* tramp.S and its C halves in trap.c */
void op_ppc_detour_pre_entry(void);
void op_ppc_detour_post_entry(void);
extern const u32 op_ppc_detour_redirect[];
int op_ppc_detour_pre(struct pt_regs *regs, unsigned long from);
int op_ppc_detour_post(struct pt_regs *regs, unsigned long from);

#endif /* OPTPROBE_SITE_ARCH_H */
