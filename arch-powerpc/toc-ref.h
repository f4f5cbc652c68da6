/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back which data address a ppc64le ELFv2 function passes in r3
 * to a call: pure decoding of instruction words, with no kernel
 * dependency, so that it is checked on the host against the words of
 * Debian's vmlinux (tests/unit/test_ppc_toc_ref.c).
 *
 * A kernel function reaches its data TOC-relatively: the global entry
 * sets r2 to the TOC (addis r2,r12,hi; addi r2,r2,lo, r12 being the
 * function's own address), and an address is then built in a register
 * from r2 with addis/addi, copied with mr, and passed in r3.  The decoder
 * walks back from each "bl callee" to r3's definition, then to the
 * definition of the register that one was built from, and so on down to
 * r2.  It is a heuristic (it reads the words in address order, not along
 * the control flow): callers must have two independent call sites agree
 * and check what they find (arch-powerpc/core-cache.c).
 */
#ifndef OPTPROBE_PPC_TOC_REF_H
#define OPTPROBE_PPC_TOC_REF_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
#endif

/*
 * op_ppc_toc_refs() - what the function at @func, whose first @n words are
 * @words, passes in r3 to each call of @callee
 * @callee:	the callee's global entry; a "bl" to it or to its local
 *		entry (8 bytes on) counts
 * @found:	the addresses, one per call whose r3 could be decoded, in
 *		address order
 * @max:	room in @found
 *
 * Return: how many addresses were stored, or -1 if the function does not
 * start with the global-entry TOC setup.
 */
int op_ppc_toc_refs(const u32 *words, unsigned int n, u64 func, u64 callee,
		    u64 *found, unsigned int max);

/*
 * op_ppc_toc_addrs() - every data address the function at @func, whose
 * first @n words are @words, builds from r2 with addi (after addis or mr,
 * as above), whatever it does with it
 * @found:	the addresses, in address order of their addi
 * @max:	room in @found
 *
 * For data a function uses without passing it to a call (a loop over a
 * table between two linker symbols, inlined).  Even more a heuristic than
 * op_ppc_toc_refs(): a register written by an instruction other than
 * addis, addi or mr is followed past that write, so some addresses are
 * wrong; callers must check each candidate for what it must be
 * (arch-powerpc/jump-labels.c).
 *
 * Return: how many addresses were stored, or -1 if the function does not
 * start with the global-entry TOC setup.
 */
int op_ppc_toc_addrs(const u32 *words, unsigned int n, u64 func, u64 *found, unsigned int max);

#endif /* OPTPROBE_PPC_TOC_REF_H */
