/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols that optprobe reaches through kallsyms because they are
 * not exported.  All of them are listed here (core) or in the arch
 * backend's ksyms-arch.h, resolved once at load, and the load fails,
 * naming the symbol, if one is missing.  Nothing else in optprobe calls
 * kallsyms.
 *
 * Each entry is X(name); the pointer has the type of &name as the kernel
 * headers declare it, so a call through op_ksyms is type-checked exactly
 * like a direct call would be.
 */
#ifndef OPTPROBE_KSYMS_H
#define OPTPROBE_KSYMS_H

#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleloader.h>

#include "ksyms-arch.h"

#define OP_CORE_KSYMS(X)						\
	X(kallsyms_lookup_name)		/* found first, through a kprobe */ \
	X(kallsyms_on_each_symbol)	/* sweeps over kernel functions */ \
	X(core_kernel_text)		/* address validation */	\
	X(__module_text_address)					\
	X(within_kprobe_blacklist)	/* the kernel's kprobe blacklist */ \
	X(get_kprobe)			/* addresses owned by kprobes */ \
	X(jump_label_text_reserved)	/* ...by jump labels */		\
	X(ftrace_location)		/* ...by ftrace */		\
	X(search_exception_tables)	/* exception-fixup sites */	\
	X(module_alloc)			/* slots near text */		\
	X(module_memfree)

#define OP_KSYM_MEMBER(sym) typeof(&sym) sym;

struct op_ksyms {
	OP_CORE_KSYMS(OP_KSYM_MEMBER)
	OP_ARCH_KSYMS(OP_KSYM_MEMBER)
};

extern struct op_ksyms op_ksyms;

/* One resolvable symbol: its name and where its address goes. */
struct op_ksym {
	const char *name;
	void **slot;
};

int op_ksyms_init(void);
int op_ksyms_resolve(const struct op_ksym *table, unsigned int n);
const struct op_ksym *op_ksyms_table(unsigned int *n);

#endif /* OPTPROBE_KSYMS_H */
