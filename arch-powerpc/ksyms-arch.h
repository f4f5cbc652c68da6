/* SPDX-License-Identifier: GPL-2.0 */
/* powerpc64le symbols reached through kallsyms; see core/ksyms.h. */
#ifndef OPTPROBE_KSYMS_ARCH_H
#define OPTPROBE_KSYMS_ARCH_H

#include <linux/vmalloc.h>
#include <asm/code-patching.h>
#include <asm/set_memory.h>
#include <asm/sstep.h>

/*
 * text_mutex is a data symbol and this kernel lacks KALLSYMS_ALL, so it
 * cannot be resolved: optprobe serializes its own writes, and
 * patch_instruction() is safe against concurrent patchers by itself.
 */
struct op_arch_ksyms {
	/* every text write */
	typeof(op_ptr_to(patch_instruction)) patch_instruction;
	/* slot pages read-only and executable (set_memory_ro/x are inlines over it) */
	typeof(op_ptr_to(change_memory_attr)) change_memory_attr;
	/* trap-mode execution of the probed instruction */
	typeof(op_ptr_to(emulate_step)) emulate_step;
	/* slot pages within branch range of module text */
	typeof(op_ptr_to(__vmalloc_node_range)) __vmalloc_node_range;
	/* the kernel's own 64 KiB detour area near kernel text, and who owns it */
	typeof(op_ptr_to(optinsn_slot)) optinsn_slot;
	typeof(op_ptr_to(alloc_optinsn_page)) alloc_optinsn_page;
	typeof(op_ptr_to(free_optinsn_page)) free_optinsn_page;
};

#endif /* OPTPROBE_KSYMS_ARCH_H */
