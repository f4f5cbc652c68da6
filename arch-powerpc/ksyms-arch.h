/* SPDX-License-Identifier: GPL-2.0 */
/* powerpc64le symbols reached through kallsyms; see core/ksyms.h. */
#ifndef OPTPROBE_KSYMS_ARCH_H
#define OPTPROBE_KSYMS_ARCH_H

#include <linux/vmalloc.h>
#include <asm/code-patching.h>
#include <asm/set_memory.h>
#include <asm/sstep.h>

#include "wrap-vmalloc.h"

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
	typeof(op_ptr_to(OP_VMALLOC_RANGE)) vmalloc_node_range;
	/* the kernel's own 64 KiB detour area near kernel text */
	typeof(op_ptr_to(optinsn_slot)) optinsn_slot;
	/* slots of it, through the kernel's cache (core-cache.c) */
	typeof(op_ptr_to(__get_insn_slot)) __get_insn_slot;
	typeof(op_ptr_to(__free_insn_slot)) __free_insn_slot;
	/* to check the cache found: its page functions, the kernel's detour size */
	typeof(op_ptr_to(alloc_optinsn_page)) alloc_optinsn_page;
	typeof(op_ptr_to(free_optinsn_page)) free_optinsn_page;
	typeof(op_ptr_to(optprobe_template_entry)) optprobe_template_entry;
	typeof(op_ptr_to(optprobe_template_end)) optprobe_template_end;
	/* called with the cache in r3 by the functions it is found in */
	typeof(op_ptr_to(kprobe_cache_get_kallsym)) kprobe_cache_get_kallsym;
	/* op_arch_jump_label_in() */
	typeof(op_ptr_to(jump_label_text_reserved)) jump_label_text_reserved;
};

#endif /* OPTPROBE_KSYMS_ARCH_H */
