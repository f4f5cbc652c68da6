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

static const struct op_ksym op_core_ksym_table[] = {
	OP_KSYM(kallsyms_lookup_name),
	OP_KSYM(kallsyms_on_each_symbol),
	OP_KSYM(kallsyms_lookup_size_offset),
	OP_KSYM(core_kernel_text),
	OP_KSYM(__module_text_address),
	OP_KSYM(within_kprobe_blacklist),
	OP_KSYM(get_kprobe),
	OP_KSYM(ftrace_location),
	OP_KSYM(search_exception_tables),
	OP_KSYM_AS(execmem_alloc, OP_EXECMEM_ALLOC),
	OP_KSYM_AS(execmem_free, OP_EXECMEM_FREE),
	OP_KSYM_ADDR(do_task_dead),
	OP_KSYM(ct_nmi_enter),
	OP_KSYM(ct_nmi_exit),
	OP_KSYM(find_module),
#if OP_BTF_ARGS
	OP_KSYM(btf_find_func_proto),
	OP_KSYM(btf_type_skip_modifiers),
	OP_KSYM(btf_name_by_offset),
	OP_KSYM(btf_put),
#endif
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

/**
 * op_ksyms_resolve() - look up a table of symbols through kallsyms
 * @table:	the symbols
 * @n:		how many
 *
 * Every symbol is looked up, and each missing one is named, so that one
 * load reports everything a kernel lacks.  Each function (not addr_only)
 * must be callable through a pointer (op_arch_ksym_callable(): an ENDBR
 * under x86 IBT), or it is named too.
 *
 * Return: 0, -ENOENT if any symbol is missing, else -ENOEXEC if a
 * function cannot be called through a pointer.
 */
int op_ksyms_resolve(const struct op_ksym *table, unsigned int n)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		unsigned long addr = op_ksyms.kallsyms_lookup_name(table[i].name);

		const char *why;

		*table[i].slot = (void *)addr;
		if (!addr) {
			pr_warn("kernel symbol '%s' not found\n", table[i].name);
			ret = -ENOENT;
			continue;
		}
		why = table[i].addr_only ? NULL : op_arch_ksym_callable(addr);
		if (why) {
			pr_warn("kernel function '%s' cannot be called through a pointer: %s\n",
				table[i].name, why);
			ret = ret ?: -ENOEXEC;
		}
		*table[i].slot = (void *)addr;
	}
	return ret;
}
EXPORT_SYMBOL_NS_GPL(op_ksyms_resolve, OPTPROBE_INTERNAL);

/**
 * op_ksym_at() - one of the symbols optprobe resolves at load
 * @i:	its index, counting the core's symbols, then the arch backend's
 *
 * For debugfs, and the test that checks each address against kallsyms.
 *
 * Return: the entry, or NULL past the last one.
 */
const struct op_ksym *op_ksym_at(unsigned int i)
{
	if (i < ARRAY_SIZE(op_core_ksym_table))
		return &op_core_ksym_table[i];
	i -= ARRAY_SIZE(op_core_ksym_table);
	return i < op_arch_ksym_count ? &op_arch_ksym_table[i] : NULL;
}
EXPORT_SYMBOL_NS_GPL(op_ksym_at, OPTPROBE_INTERNAL);

int __init op_ksyms_init(void)
{
	unsigned long addr = find_kallsyms_lookup_name();
	const char *why;
	int ret;

	if (!addr) {
		pr_warn("kernel symbol 'kallsyms_lookup_name' not found\n");
		return -ENOENT;
	}
	why = op_arch_ksym_callable(addr);
	if (why) {
		pr_warn("kernel function 'kallsyms_lookup_name' cannot be called through a pointer: %s\n",
			why);
		return -ENOEXEC;
	}
	op_ksyms.kallsyms_lookup_name = (typeof(op_ksyms.kallsyms_lookup_name))addr;
	/* Both tables, so that one load names every missing symbol. */
	ret = op_ksyms_resolve(op_core_ksym_table, ARRAY_SIZE(op_core_ksym_table));
	return op_ksyms_resolve(op_arch_ksym_table, op_arch_ksym_count) ?: ret;
}
