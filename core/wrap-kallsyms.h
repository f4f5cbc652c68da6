/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking every symbol, for tests and the benchmark.  Up to 6.3 the
 * callbacks of kallsyms_on_each_symbol() and
 * module_kallsyms_on_each_symbol() get the symbol's module; since 6.4
 * they do not (the first walks only the kernel's own symbols; the second
 * takes a module name, NULL for all), and a module's text is
 * mod->mem[MOD_TEXT] instead of mod->core_layout.  Callbacks here keep
 * the 6.1 form (op_kallsyms_fn); on 6.4+ the module walk finds a
 * symbol's module with the caller's resolved __module_text_address().
 * op_kallsyms_on_each() and op_module_kallsyms_on_each() are macros so
 * that @each may be a static call, op_kcall(kallsyms_on_each_symbol),
 * which is called, never taken.
 */
#ifndef OPTPROBE_WRAP_KALLSYMS_H
#define OPTPROBE_WRAP_KALLSYMS_H

#include <linux/kallsyms.h>
#include <linux/module.h>

#include "wrap-kver.h"

typedef int (*op_kallsyms_fn)(void *data, const char *name, struct module *mod,
			      unsigned long addr);

/* the kernel's walks, and __module_text_address(), as resolved */
typedef struct module *(*op_text_module_t)(unsigned long addr);

#if OP_KERNEL_AT_LEAST(6, 4)

struct op_kallsyms_walk {
	op_kallsyms_fn fn;
	void *data;
	op_text_module_t text_module;	/* NULL: kernel symbols */
};

static inline int op_kallsyms_walk_one(void *arg, const char *name, unsigned long addr)
{
	struct op_kallsyms_walk *w = arg;
	struct module *mod = NULL;

	if (w->text_module) {
		preempt_disable();
		mod = w->text_module(addr);
		preempt_enable();
	}
	return w->fn(w->data, name, mod, addr);
}

#define op_kallsyms_on_each(each, cb, arg) ({				\
	struct op_kallsyms_walk __w = { .fn = (cb), .data = (arg) };	\
									\
	(each)(op_kallsyms_walk_one, &__w);				\
})

#define op_module_kallsyms_on_each(each, text_mod, cb, arg) ({			\
	struct op_kallsyms_walk __w = {						\
		.fn = (cb), .data = (arg), .text_module = (text_mod)		\
	};									\
										\
	(each)(NULL, op_kallsyms_walk_one, &__w);				\
})

static inline unsigned long op_module_text_base(const struct module *mod)
{
	return (unsigned long)mod->mem[MOD_TEXT].base;
}

static inline unsigned long op_module_text_size(const struct module *mod)
{
	return mod->mem[MOD_TEXT].size;
}
#else

#define op_kallsyms_on_each(each, cb, arg) ((each)((op_kallsyms_fn)(cb), (arg)))

#define op_module_kallsyms_on_each(each, text_mod, cb, arg) ({			\
	(void)(text_mod);							\
	(each)((op_kallsyms_fn)(cb), (arg));					\
})

static inline unsigned long op_module_text_base(const struct module *mod)
{
	return (unsigned long)mod->core_layout.base;
}

static inline unsigned long op_module_text_size(const struct module *mod)
{
	return mod->core_layout.text_size;
}
#endif

#endif /* OPTPROBE_WRAP_KALLSYMS_H */
