/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the powerpc64le backend keeps per site (struct op_site.arch).
 *
 * A hit first offers the original instruction to the kernel's
 * emulate_step(); what it declines (some loads and stores, moves from and
 * to special registers, ...) runs out of line from the site's slot, which
 * every site has.
 */
#ifndef OPTPROBE_SITE_ARCH_H
#define OPTPROBE_SITE_ARCH_H

#include <linux/types.h>
#include <asm/reg.h>

/*
 * A slot: the copied instruction (4 or 8 bytes) and the trap after it.
 * Slots are 16-byte aligned, so a prefixed copy never crosses a 64-byte
 * boundary, which the ISA forbids.
 */
#define OP_ARCH_SLOT_SIZE	16

/* A branch replaces the probed instruction only. */
#define OP_ARCH_OPT_SPAN	1

struct op_arch_site {
	/* the original: one word, or a prefix and its suffix (ppc_inst_len()) */
	ppc_inst_t insn;
};

#endif /* OPTPROBE_SITE_ARCH_H */
