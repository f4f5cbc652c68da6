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
 * detour, within +-32 MB (OP_PPC_REACH).  A detour is split in three, so
 * that many fit in the little space there is near kernel text (slots of
 * the kernel's own detour cache, 436 bytes each):
 *
 *  - a stub per site, in a slot area in reach of the site, 16-byte aligned
 *    (so the copy, at +40, never makes a prefixed instruction cross 64
 *    bytes): 48 bytes, 64 with a prefixed instruction
 *
 *	+0   stdu  r1,-STACK_INT_FRAME_SIZE(r1)	below the red zone
 *	+4   std   r12,GPR12(r1)
 *	+8   mflr  r12
 *	+12  bl    veneer
 *	+16  .8byte site			the C half reads it at LR
 *	+24  ld    r12,_CTR(r1)			the body returns here
 *	+28  mtctr r12
 *	+32  ld    r12,GPR12(r1)
 *	+36  ld    r1,GPR1(r1)
 *	+40  <the instruction>			pc-relative operands re-targeted
 *	+44  b addr + len | trap		the post switch: trap for post handlers
 *
 *  - a veneer per slot area, at its start (10 words), shared by the stubs
 *    there, which reach it with a "bl":
 *
 *	std   r12,_LINK(r1);  mfctr r12;  std r12,_CTR(r1)
 *	<r12 = op_ppc_detour_entry, 2 to 5 words>;  mtctr r12;  bctr;  traps
 *
 *  - the body, op_ppc_detour_entry in tramp.S, in optprobe's module text,
 *    out of a branch's reach from kernel text: it saves the other
 *    registers into the struct pt_regs the frame holds, calls the pre
 *    handlers (trap.c), restores all registers but r1, r12 and CTR, and
 *    branches back to stub + 24 through CTR, where the stub restores
 *    those three.  Handlers may change any of them.
 *
 * Post handlers run from the trap at the post switch, as on the trap path
 * (the trap after a slot's copy): the same registers, one word to switch
 * them on and off, nothing more per stub.
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

/* The stub: where its site is, its copy, and how long it is for a @len-byte copy. */
#define OP_PPC_STUB_SITE	16
#define OP_PPC_STUB_COPY	40
#define OP_PPC_STUB_SIZE(len)	(OP_PPC_STUB_COPY + (len) + sizeof(u32))
#define OP_PPC_STUB_WORDS	(OP_PPC_STUB_SIZE(8) / sizeof(u32))

/* The veneer at the start of a slot area that holds stubs; slots follow it. */
#define OP_PPC_VENEER_WORDS	10
#define OP_PPC_VENEER_SIZE	(OP_PPC_VENEER_WORDS * sizeof(u32))

struct op_arch_site {
	/* the original: one word, or a prefix and its suffix (ppc_inst_len()) */
	ppc_inst_t insn;
	/* jump optimization */
	u16 post_switch;	/* its offset in the stub; 0 until the stub is written */
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
void op_ppc_kprobe_lock_init(void);
void op_ppc_text_lock(void);
void op_ppc_text_unlock(void);
void op_ppc_patch(unsigned long addr, ppc_inst_t insn);

/* tcg-rewrite.c */
void op_ppc_tcg_rewrite_later(unsigned long addr, ppc_inst_t insn);
bool op_ppc_set_tcg_rewrite(bool on);
unsigned long op_ppc_tcg_rewrites(void);

/* slot-area.c */
const char *op_ppc_no_area(const struct op_site *site);

/* core-cache.c */
int op_ppc_refs_in(const char *func, u64 callee, u64 *found, unsigned int max);
u64 op_ppc_same(const u64 *found, int n);
void op_ppc_core_cache_init(void);
void *op_ppc_core_slot_get(size_t *size);
void op_ppc_core_slot_put(void *slot);
const char *op_ppc_core_cache_why(void);
int op_ppc_core_cache_used(unsigned int *optprobe);
int op_ppc_core_set_share(int slots);
int op_ppc_core_set_test_fail(bool fail);

/* tramp.S and its C half in trap.c */
void op_ppc_detour_entry(void);
extern const u32 op_ppc_detour_redirect[];
int op_ppc_detour_pre(struct pt_regs *regs, struct op_site **stub_site);

#endif /* OPTPROBE_SITE_ARCH_H */
