// SPDX-License-Identifier: GPL-2.0
/*
 * Which TOC-relative address a ppc64le function passes in r3 to a call;
 * see toc-ref.h.  Freestanding: the module and the host unit test build
 * the same source.
 */
#include "toc-ref.h"

#define OP_PPC_OP(w)		((w) >> 26)
#define OP_PPC_RT(w)		(((w) >> 21) & 31)
#define OP_PPC_RA(w)		(((w) >> 16) & 31)
#define OP_PPC_RB(w)		(((w) >> 11) & 31)
#define OP_PPC_SIMM(w)		((u64)(__INT64_TYPE__)(__INT16_TYPE__)((w) & 0xffff))

#define OP_PPC_ADDI		14
#define OP_PPC_ADDIS		15
#define OP_PPC_B		18
#define OP_PPC_X		31
#define OP_PPC_XO_OR		444

/* Steps from r3 back to r2: enough for addis, addi, mr and a spare. */
#define OP_PPC_MAX_CHAIN	8

/*
 * How word @w defines register @r from another register: 1 with *@src
 * and *@add set (r = src + add), 0 if @w does not write @r as addis, addi
 * or mr do.  li and lis (rA = 0) build constants, not TOC references.
 */
static int op_ppc_def(u32 w, unsigned int r, unsigned int *src, u64 *add)
{
	unsigned int op = OP_PPC_OP(w);

	if (OP_PPC_RT(w) != r && !(op == OP_PPC_X && OP_PPC_RA(w) == r))
		return 0;
	if ((op == OP_PPC_ADDI || op == OP_PPC_ADDIS) && OP_PPC_RT(w) == r && OP_PPC_RA(w)) {
		*src = OP_PPC_RA(w);
		*add = op == OP_PPC_ADDIS ? OP_PPC_SIMM(w) << 16 : OP_PPC_SIMM(w);
		return 1;
	}
	/* mr rA,rS is or rA,rS,rS, without Rc */
	if (op == OP_PPC_X && ((w >> 1) & 0x3ff) == OP_PPC_XO_OR && !(w & 1) &&
	    OP_PPC_RA(w) == r && OP_PPC_RT(w) == OP_PPC_RB(w)) {
		*src = OP_PPC_RT(w);
		*add = 0;
		return 1;
	}
	return 0;
}

/* Is @w a "bl" from @at to @callee's global or local entry? */
static int op_ppc_bl_to(u32 w, u64 at, u64 callee)
{
	u64 off = w & 0x03fffffc;

	if (OP_PPC_OP(w) != OP_PPC_B || (w & 3) != 1)
		return 0;
	if (off & 0x02000000)
		off |= ~(u64)0x03ffffff;
	return at + off == callee || at + off == callee + 8;
}

/* Registers a call may change (r0, r3-r12), by the ELFv2 ABI. */
static int op_ppc_volatile(unsigned int r)
{
	return r == 0 || (r >= 3 && r <= 12);
}

/*
 * The value register @r has at word @at, relative to r2, in *@off: 0, or
 * -1 if its definitions cannot be followed back to r2.
 */
static int op_ppc_reg_from_toc(const u32 *words, unsigned int at, unsigned int r, u64 *off)
{
	unsigned int src, steps = 0;
	u64 add, sum = 0;

	/* words 0 and 1 are the entry's TOC setup */
	while (at > 2 && r != 2) {
		at--;
		if (op_ppc_volatile(r) && OP_PPC_OP(words[at]) == OP_PPC_B && (words[at] & 1))
			return -1;
		if (!op_ppc_def(words[at], r, &src, &add))
			continue;
		if (++steps > OP_PPC_MAX_CHAIN)
			return -1;
		sum += add;
		r = src;
	}
	if (r != 2)
		return -1;
	*off = sum;
	return 0;
}

/* The TOC the function at @func sets r2 to at its global entry, in *@toc: 0, or -1 */
static int op_ppc_toc(const u32 *words, unsigned int n, u64 func, u64 *toc)
{
	/* addis r2,r12,hi; addi r2,r2,lo */
	if (n < 2 || (words[0] & 0xffff0000) != 0x3c4c0000 ||
	    (words[1] & 0xffff0000) != 0x38420000)
		return -1;
	*toc = func + (OP_PPC_SIMM(words[0]) << 16) + OP_PPC_SIMM(words[1]);
	return 0;
}

int op_ppc_toc_refs(const u32 *words, unsigned int n, u64 func, u64 callee,
		    u64 *found, unsigned int max)
{
	unsigned int i, nfound = 0;
	u64 toc, off;

	if (op_ppc_toc(words, n, func, &toc))
		return -1;
	for (i = 2; i < n && nfound < max; i++) {
		if (!op_ppc_bl_to(words[i], func + 4 * (u64)i, callee))
			continue;
		if (!op_ppc_reg_from_toc(words, i, 3, &off))
			found[nfound++] = toc + off;
	}
	return nfound;
}

int op_ppc_toc_addrs(const u32 *words, unsigned int n, u64 func, u64 *found, unsigned int max)
{
	unsigned int i, nfound = 0;
	u64 toc, off;

	if (op_ppc_toc(words, n, func, &toc))
		return -1;
	for (i = 2; i < n && nfound < max; i++) {
		/* addi rT,rA,lo with rA != 0 (li is a constant) */
		if (OP_PPC_OP(words[i]) != OP_PPC_ADDI || !OP_PPC_RA(words[i]))
			continue;
		if (!op_ppc_reg_from_toc(words, i, OP_PPC_RA(words[i]), &off))
			found[nfound++] = toc + off + OP_PPC_SIMM(words[i]);
	}
	return nfound;
}
