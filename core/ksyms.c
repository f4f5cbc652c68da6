// SPDX-License-Identifier: GPL-2.0
/*
 * Resolution of the unexported kernel symbols listed in ksyms.h.
 *
 * kallsyms_lookup_name() is itself unexported since 5.7.  A kprobe on it
 * reveals its address; the kprobe may sit past the start of the function
 * (on ppc64le ELFv2 it lands on the ftrace site after the global-entry TOC
 * setup), so the offset that sprint_symbol() reports is subtracted to get
 * the callable global entry point.  Everything else is then looked up
 * through it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>

#include "internal.h"
#include "ksyms.h"
#include "symoff.h"

struct op_ksyms op_ksyms __ro_after_init;

DEFINE_STATIC_CALL_NULL(op_k_kallsyms_lookup_name, kallsyms_lookup_name);
DEFINE_STATIC_CALL_NULL(op_k_kallsyms_on_each_symbol, kallsyms_on_each_symbol);
DEFINE_STATIC_CALL_NULL(op_k_kallsyms_lookup_size_offset, kallsyms_lookup_size_offset);
DEFINE_STATIC_CALL_NULL(op_k_core_kernel_text, core_kernel_text);
DEFINE_STATIC_CALL_NULL(op_k___module_text_address, __module_text_address);
DEFINE_STATIC_CALL_NULL(op_k_within_kprobe_blacklist, within_kprobe_blacklist);
DEFINE_STATIC_CALL_NULL(op_k_get_kprobe, get_kprobe);
DEFINE_STATIC_CALL_NULL(op_k_ftrace_location, ftrace_location);
DEFINE_STATIC_CALL_NULL(op_k_ftrace_location_range, ftrace_location_range);
DEFINE_STATIC_CALL_NULL(op_k_search_exception_tables, search_exception_tables);
DEFINE_STATIC_CALL_NULL(op_k_OP_EXECMEM_ALLOC, OP_EXECMEM_ALLOC);
DEFINE_STATIC_CALL_NULL(op_k_OP_EXECMEM_FREE, OP_EXECMEM_FREE);
DEFINE_STATIC_CALL_NULL(op_k_ct_nmi_enter, ct_nmi_enter);
DEFINE_STATIC_CALL_NULL(op_k_ct_nmi_exit, ct_nmi_exit);
DEFINE_STATIC_CALL_NULL(op_k_find_module, find_module);
DEFINE_STATIC_CALL_NULL(op_k_module_kallsyms_on_each_symbol, module_kallsyms_on_each_symbol);
DEFINE_STATIC_CALL_NULL(op_k___module_address, __module_address);
#if OP_BTF_ARGS
DEFINE_STATIC_CALL_NULL(op_k_btf_find_func_proto, btf_find_func_proto);
DEFINE_STATIC_CALL_NULL(op_k_btf_type_skip_modifiers, btf_type_skip_modifiers);
DEFINE_STATIC_CALL_NULL(op_k_btf_name_by_offset, btf_name_by_offset);
DEFINE_STATIC_CALL_NULL(op_k_btf_put, btf_put);
#endif

/*
 * Every static call of core/kcalls.h (each defined next to its backend's
 * table, or above); kallsyms_lookup_name first, as it finds the others.
 */
static const struct op_ksym op_kcall_table[] = {
#define OP_KCALL(function) \
	{ .name = __stringify(function), .call = &STATIC_CALL_KEY(op_k_##function), \
	  .tramp = STATIC_CALL_TRAMP_ADDR(op_k_##function) },
#include "kcalls.h"
#undef OP_KCALL
};

static const struct op_ksym op_core_ksym_table[] = {
	OP_KSYM_ADDR(do_task_dead),
};

/* Every member of struct op_ksyms before .arch is a pointer with an entry above. */
static_assert(ARRAY_SIZE(op_core_ksym_table) * sizeof(void *) ==
	      offsetof(struct op_ksyms, arch));

static unsigned long find_kallsyms_lookup_name(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	char buf[KSYM_SYMBOL_LEN];
	unsigned long addr, off, size;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_warn("cannot find kallsyms_lookup_name: register_kprobe: %d\n", ret);
		return 0;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	sprint_symbol(buf, addr);
	if (op_symoff_parse(buf, "kallsyms_lookup_name", &off, &size)) {
		pr_warn("cannot find kallsyms_lookup_name: kprobe at %s\n", buf);
		return 0;
	}
	return addr - off;
}

/*
 * Point @sym at @addr: its slot, or its static call, which must then call
 * @addr directly wherever the arch backend can make it so.
 */
static int op_ksym_set(const struct op_ksym *sym, unsigned long addr)
{
	const char *why;

	if (sym->call) {
		__static_call_update(sym->call, sym->tramp, (void *)addr);
		why = op_arch_kcall_direct(sym, addr);
		if (why) {
			pr_warn("kernel function '%s' is not called directly: %s\n",
				sym->name, why);
			return -ENOEXEC;
		}
		return 0;
	}
	*sym->slot = (void *)addr;
	why = sym->addr_only ? NULL : op_arch_ksym_callable(addr);
	if (why) {
		pr_warn("kernel function '%s' cannot be called through a pointer: %s\n",
			sym->name, why);
		return -ENOEXEC;
	}
	return 0;
}

/**
 * op_ksyms_resolve() - look up a table of symbols through kallsyms
 * @table:	the symbols
 * @n:		how many
 *
 * Every symbol is looked up, and each missing one is named, so that one
 * load reports everything a kernel lacks.  A static call is set to call
 * its function (op_ksym_set()); a function another module calls through
 * its pointer must be callable so (op_arch_ksym_callable(): an unsealed
 * ENDBR64 under x86 IBT), or it is named too.
 *
 * Return: 0, -ENOENT if any symbol is missing, else -ENOEXEC if a
 * function cannot be called as it would be.
 */
int op_ksyms_resolve(const struct op_ksym *table, unsigned int n)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		unsigned long addr = op_kcall(kallsyms_lookup_name)(table[i].name);
		int err;

		if (!addr) {
			pr_warn("kernel symbol '%s' not found\n", table[i].name);
			if (table[i].slot)
				*table[i].slot = NULL;
			ret = -ENOENT;
			continue;
		}
		err = op_ksym_set(&table[i], addr);
		ret = ret ?: err;
	}
	return ret;
}
EXPORT_SYMBOL_NS_GPL(op_ksyms_resolve, OPTPROBE_INTERNAL);

/**
 * op_ksym_addr() - where a symbol optprobe resolved is
 * @sym:	its entry (op_ksym_at())
 *
 * Return: its address, or 0 if it was not found.
 */
unsigned long op_ksym_addr(const struct op_ksym *sym)
{
	return sym->call ? (unsigned long)READ_ONCE(sym->call->func) :
			   (unsigned long)*sym->slot;
}
EXPORT_SYMBOL_NS_GPL(op_ksym_addr, OPTPROBE_INTERNAL);

/**
 * op_ksym_at() - one of the symbols optprobe resolves at load
 * @i:	its index, counting the static calls, the core's other symbols,
 *	then the arch backend's
 *
 * For debugfs, and the test that checks each address against kallsyms.
 *
 * Return: the entry, or NULL past the last one.
 */
const struct op_ksym *op_ksym_at(unsigned int i)
{
	if (i < ARRAY_SIZE(op_kcall_table))
		return &op_kcall_table[i];
	i -= ARRAY_SIZE(op_kcall_table);
	if (i < ARRAY_SIZE(op_core_ksym_table))
		return &op_core_ksym_table[i];
	i -= ARRAY_SIZE(op_core_ksym_table);
	return i < op_arch_ksym_count ? &op_arch_ksym_table[i] : NULL;
}
EXPORT_SYMBOL_NS_GPL(op_ksym_at, OPTPROBE_INTERNAL);

int __init op_ksyms_init(void)
{
	unsigned long addr = find_kallsyms_lookup_name();
	int ret;

	if (!addr) {
		pr_warn("kernel symbol 'kallsyms_lookup_name' not found\n");
		return -ENOENT;
	}
	ret = op_ksym_set(&op_kcall_table[0], addr);
	if (ret)
		return ret;
	/* All tables, so that one load names every missing symbol. */
	ret = op_ksyms_resolve(op_kcall_table + 1, ARRAY_SIZE(op_kcall_table) - 1);
	ret = op_ksyms_resolve(op_core_ksym_table, ARRAY_SIZE(op_core_ksym_table)) ?: ret;
	return op_ksyms_resolve(op_arch_ksym_table, op_arch_ksym_count) ?: ret;
}
