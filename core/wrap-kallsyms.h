/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking every symbol, for tests and the benchmark.  Up to 6.3 the
 * callbacks of kallsyms_on_each_symbol() and
 * module_kallsyms_on_each_symbol() get the symbol's module; since 6.4
 * they do not (the first walks only the kernel's own symbols; the
 * second takes a module name, NULL for all), and a module's text is
 * mod->mem[MOD_TEXT] instead of mod->core_layout since 6.4.  The module
 * callback then finds the module of a text symbol with @text_module, a
 * pointer to __module_text_address() the caller resolved.
 */
#ifndef OPTPROBE_WRAP_KALLSYMS_H
#define OPTPROBE_WRAP_KALLSYMS_H

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
/* A walk callback; @mod is the symbol's module, NULL in the kernel. */
#define OP_KALLSYMS_CB(fn, data, name, mod, addr) \
	static int fn##_mod(void *data, const char *name, struct module *mod, unsigned long addr); \
	static int fn(void *data, const char *name, unsigned long addr) \
	{ \
		return fn##_mod(data, name, NULL, addr); \
	} \
	static int fn##_mod(void *data, const char *name, struct module *mod, unsigned long addr)
#define OP_MODULE_KALLSYMS_CB(fn, text_module, data, name, mod, addr) \
	static int fn##_mod(void *data, const char *name, struct module *mod, unsigned long addr); \
	static int fn(void *data, const char *name, unsigned long addr) \
	{ \
		struct module *mod; \
		preempt_disable(); \
		mod = (text_module)(addr); \
		preempt_enable(); \
		return fn##_mod(data, name, mod, addr); \
	} \
	static int fn##_mod(void *data, const char *name, struct module *mod, unsigned long addr)
#define op_module_kallsyms_walk(each, fn, data)	(each)(NULL, fn, data)
#define op_module_text_base(mod)	((unsigned long)(mod)->mem[MOD_TEXT].base)
#define op_module_text_size(mod)	((mod)->mem[MOD_TEXT].size)
#else
#define OP_KALLSYMS_CB(fn, data, name, mod, addr) \
	static int fn(void *data, const char *name, struct module *mod, unsigned long addr)
#define OP_MODULE_KALLSYMS_CB(fn, text_module, data, name, mod, addr) \
	OP_KALLSYMS_CB(fn, data, name, mod, addr)
#define op_module_kallsyms_walk(each, fn, data)	(each)(fn, data)
#define op_module_text_base(mod)	((unsigned long)(mod)->core_layout.base)
#define op_module_text_size(mod)	((mod)->core_layout.text_size)
#endif

#endif /* OPTPROBE_WRAP_KALLSYMS_H */
