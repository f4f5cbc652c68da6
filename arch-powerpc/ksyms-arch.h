/* SPDX-License-Identifier: GPL-2.0 */
/* powerpc64le symbols reached through kallsyms; see core/ksyms.h. */
#ifndef OPTPROBE_KSYMS_ARCH_H
#define OPTPROBE_KSYMS_ARCH_H

#include <linux/vmalloc.h>
#include <asm/code-patching.h>
#include <asm/set_memory.h>
#include <asm/sstep.h>

#include "wrap-patch.h"
#include "wrap-vmalloc.h"

/*
 * text_mutex is a data symbol and this kernel lacks KALLSYMS_ALL, so it
 * cannot be resolved: optprobe serializes its own writes, and
 * patch_instruction() is safe against concurrent patchers by itself.
 */
struct op_arch_ksyms {
	/* the kernel's own 64 KiB detour area near kernel text */
	typeof(op_ptr_to(optinsn_slot)) optinsn_slot;
	/* to check the cache found (core-cache.c): compared, never called */
	typeof(op_ptr_to(alloc_optinsn_page)) alloc_optinsn_page;
	typeof(op_ptr_to(free_optinsn_page)) free_optinsn_page;
	typeof(op_ptr_to(optprobe_template_entry)) optprobe_template_entry;
	typeof(op_ptr_to(optprobe_template_end)) optprobe_template_end;
	/* called with the cache in r3 by the functions it is found in */
	typeof(op_ptr_to(kprobe_cache_get_kallsym)) kprobe_cache_get_kallsym;
};

#endif /* OPTPROBE_KSYMS_ARCH_H */
