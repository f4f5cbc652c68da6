/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 backend's decoder (decode.c), for the backend's other files:
 * original instructions read through breakpoints and jumps.
 */
#ifndef OPTPROBE_X86_DECODE_H
#define OPTPROBE_X86_DECODE_H

#include <linux/types.h>
#include <asm/text-patching.h>

#include "x86-insn.h"

struct op_site;

int op_x86_decode(unsigned long addr, unsigned long end, struct op_x86_insn *insn, u8 *buf);
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
bool op_x86_symbol_prefixed(unsigned long addr, const char * const *prefixes);

/*
 * What the 4 bytes at a function's start are: ENDBR64, where indirect
 * branches land, or the nop (nopl -42(%rax)) the kernel seals one into at
 * boot where objtool found no address taken.
 */
#define OP_X86_ENDBR_LEN	4

enum op_x86_head {
	OP_X86_HEAD_OTHER,
	OP_X86_HEAD_ENDBR,
	OP_X86_HEAD_SEALED,
	OP_X86_HEAD_UNREADABLE,
};

enum op_x86_head op_x86_head(unsigned long func);

#endif /* OPTPROBE_X86_DECODE_H */
