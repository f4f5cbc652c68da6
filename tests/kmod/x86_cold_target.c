// SPDX-License-Identifier: GPL-2.0
/*
 * A C function that gcc splits in two: the unlikely block goes to
 * op_tx86_cold_join.cold (in .text.unlikely), whose jmp back lands at the
 * join of both ways, in the middle of the hot part and right after an
 * instruction that runs on into it.  A jump region over that
 * instruction would have the cold part's jmp land inside it.
 *
 * The reference to the .cold symbol below is the build's check that gcc
 * did split the function: without it the symbol is undefined and modpost
 * fails the build, so the test cannot pass without its case.
 */
#include <linux/compiler.h>

#include "x86_opt_targets.h"

/* gcc's cold attribute (Kbuild: the kernel's __cold is empty on 6.12 with gcc 12) */
static noinline OP_TX86_COLD long op_tx86_cold_work(long a)
{
	/* not folded into the caller's arithmetic */
	asm volatile("" : "+r" (a));
	return a * 7 + 1;
}

static long op_tx86_cold_sink;

noinline long op_tx86_cold_join(long a, long b)
{
	long r;

	if (unlikely(a < 0))
		r = op_tx86_cold_work(a);
	else
		r = a * 3;
	/* the join: enough work that gcc does not copy it into the cold part */
	WRITE_ONCE(op_tx86_cold_sink, r);
	r ^= b << 3;
	WRITE_ONCE(op_tx86_cold_sink, r + a);
	r += b * 5;
	WRITE_ONCE(op_tx86_cold_sink, r - b);
	return r + (b >> 1);
}

asm(".pushsection .rodata\n"
	".balign 8\n"
	".globl op_tx86_cold_part\n"
	"op_tx86_cold_part: .quad op_tx86_cold_join.cold\n"
	".popsection\n");
