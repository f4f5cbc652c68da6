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

/* The x86_64 backend's symbols other than the functions in kcalls-arch.h. */
struct op_arch_ksyms {
	typeof(op_ptr_to(text_mutex)) text_mutex;
	/* static in kernel/kprobes.c, so declared in no header */
	struct mutex *kprobe_mutex;
	/* the kernel's jump labels, for where they jump (a module has its own) */
	typeof(op_ptr_to(__start___jump_table)) __start___jump_table;
	typeof(op_ptr_to(__stop___jump_table)) __stop___jump_table;
	/* the kernel's core text and its exception table, for foreign entries (entries.c) */
	typeof(op_ptr_to(_stext)) _stext;
	typeof(op_ptr_to(_etext)) _etext;
	const struct exception_table_entry *__start___ex_table;
	const struct exception_table_entry *__stop___ex_table;
	/* the rest of it, which depends on the kernel (wrap-rethook.h) */
	struct op_rethook_by_version by_version;
};

#endif /* OPTPROBE_KSYMS_ARCH_H */
