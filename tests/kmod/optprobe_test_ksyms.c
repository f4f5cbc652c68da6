// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's kallsyms resolution, checked on every leg of the matrix:
 * each resolved address is the one kallsyms names, calling a resolved
 * function works, and a missing symbol is refused by name.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>

#include "ksyms.h"
#include "ktap.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static void check_names(struct ktap *t, const struct op_ksym *table, unsigned int n)
{
	char buf[KSYM_SYMBOL_LEN], want[KSYM_NAME_LEN + 8];
	unsigned int i;

	for (i = 0; i < n; i++) {
		void *addr = *table[i].slot;

		/* sprint_symbol() of the start of a symbol is "name+0x0/size". */
		sprint_symbol(buf, (unsigned long)addr);
		snprintf(want, sizeof(want), "%s+0x0/", table[i].name);
		ktap_check(t, addr && !strncmp(buf, want, strlen(want)),
			   table[i].name, "resolved to %px, which is %s", addr, buf);
	}
}

/* Call the resolved kallsyms_lookup_name() on an exported symbol. */
static void check_call(struct ktap *t, const struct op_ksym *table, unsigned int n)
{
	typeof(&kallsyms_lookup_name) lookup = NULL;
	unsigned long got = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(table[i].name, "kallsyms_lookup_name"))
			lookup = *table[i].slot;
	if (lookup)
		got = lookup("sprint_symbol");
	ktap_check(t, got == (unsigned long)sprint_symbol, "call_kallsyms_lookup_name",
		   "kallsyms_lookup_name(\"sprint_symbol\") = %lx, want %px",
		   got, sprint_symbol);
}

static void check_missing(struct ktap *t)
{
	static void *missing_addr;
	static const struct op_ksym missing[] = {
		{ "optprobe_test_no_such_symbol", &missing_addr },
	};
	int ret = op_ksyms_resolve(missing, ARRAY_SIZE(missing));

	ktap_check(t, ret == -ENOENT && !missing_addr, "missing_symbol_refused",
		   "resolve returned %d, address %px", ret, missing_addr);
}

static int __init test_ksyms_init(void)
{
	const struct op_ksym *table;
	struct ktap t;
	unsigned int n;

	table = op_ksyms_table(&n);
	ktap_start(&t, n + 2);
	check_names(&t, table, n);
	check_call(&t, table, n);
	check_missing(&t);
	return 0;
}

static void __exit test_ksyms_exit(void)
{
}

module_init(test_ksyms_init);
module_exit(test_ksyms_exit);

MODULE_DESCRIPTION("optprobe test: kernel symbol resolution");
MODULE_LICENSE("GPL");
