/* SPDX-License-Identifier: GPL-2.0 */
/* x86_64 symbols reached through kallsyms; see core/ksyms.h. */
#ifndef OPTPROBE_KSYMS_ARCH_H
#define OPTPROBE_KSYMS_ARCH_H

#include <linux/jump_label.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/rethook.h>
#include <linux/static_call.h>
#include <linux/vmalloc.h>
#include <asm/alternative.h>
#include <asm/sections.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>

#include "wrap-rethook.h"

struct op_arch_ksyms {
	/* text patching, single and batched (int3-protected) */
	typeof(op_ptr_to(text_poke)) text_poke;
	typeof(op_ptr_to(text_poke_bp)) text_poke_bp;
	typeof(op_ptr_to(text_poke_sync)) text_poke_sync;
	typeof(op_ptr_to(text_poke_queue)) text_poke_queue;
	typeof(op_ptr_to(text_poke_finish)) text_poke_finish;
	typeof(op_ptr_to(text_mutex)) text_mutex;
	/* static in kernel/kprobes.c, so declared in no header */
	struct mutex *kprobe_mutex;
	/* tell perf of text that changed, as the kernel's kprobes do */
	typeof(op_ptr_to(perf_event_text_poke)) perf_event_text_poke;
	/* addresses that alternatives and static calls own */
	typeof(op_ptr_to(alternatives_text_reserved)) alternatives_text_reserved;
	typeof(op_ptr_to(static_call_text_reserved)) static_call_text_reserved;
	/* the kernel's jump labels, for where they jump (a module has its own) */
	typeof(op_ptr_to(__start___jump_table)) __start___jump_table;
	typeof(op_ptr_to(__stop___jump_table)) __stop___jump_table;
	/* the kernel's core text and its exception table, for foreign entries (entries.c) */
	typeof(op_ptr_to(_stext)) _stext;
	typeof(op_ptr_to(_etext)) _etext;
	const struct exception_table_entry *__start___ex_table;
	const struct exception_table_entry *__stop___ex_table;
	/* slot pages: RW while filled, then read-only and executable */
	typeof(op_ptr_to(set_memory_ro)) set_memory_ro;
	typeof(op_ptr_to(set_memory_x)) set_memory_x;
	/* to have vfree() reset a slot page's permissions */
	typeof(op_ptr_to(find_vm_area)) find_vm_area;
	/* the kernel's return hook, for return probes (retprobe.c) */
	typeof(op_ptr_to(rethook_alloc)) rethook_alloc;
	typeof(op_ptr_to(rethook_free)) rethook_free;
	typeof(op_ptr_to(rethook_try_get)) rethook_try_get;
	typeof(op_ptr_to(rethook_recycle)) rethook_recycle;
	typeof(op_ptr_to(rethook_hook)) rethook_hook;

	/* the rest of it, which depends on the kernel (wrap-rethook.h) */
	struct op_rethook_by_version by_version;
};

const char *op_x86_endbr_at(unsigned long addr);

#endif /* OPTPROBE_KSYMS_ARCH_H */
