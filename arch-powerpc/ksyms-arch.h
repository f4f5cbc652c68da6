/* SPDX-License-Identifier: GPL-2.0 */
/* powerpc64le symbols reached through kallsyms; see core/ksyms.h. */
#ifndef OPTPROBE_KSYMS_ARCH_H
#define OPTPROBE_KSYMS_ARCH_H

#include <linux/vmalloc.h>
#include <asm/code-patching.h>
#include <asm/sstep.h>

/*
 * text_mutex is a data symbol and this kernel lacks KALLSYMS_ALL, so it
 * cannot be resolved: optprobe serializes its own writes, and
 * patch_instruction() is safe against concurrent patchers by itself.
 */
#define OP_ARCH_KSYMS(X)						\
	X(patch_instruction)		/* every text write */		\
	X(emulate_step)			/* trap-mode execution */	\
	X(__vmalloc_node_range)		/* slot pages within branch range */ \
	X(alloc_optinsn_page)		/* the kernel's 64 KiB detour area */ \
	X(free_optinsn_page)

#endif /* OPTPROBE_KSYMS_ARCH_H */
