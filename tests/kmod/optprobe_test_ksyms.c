// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's load, checked on every leg of the matrix: each kernel symbol
 * resolved through kallsyms is the one kallsyms names, calling a resolved
 * function works, a missing symbol is refused by name, every function
 * optprobe calls is called directly (its static call's sites call it) and
 * every other function the kernel may call through a pointer (x86 IBT:
 * starts with an unsealed ENDBR64), a sealed one would be refused, and
 * the debugfs directory is there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>

#include "exports.h"
#include "ktap.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static unsigned int count_ksyms(void)
{
	unsigned int n = 0;

	while (op_ksym_at(n))
		n++;
	return n;
}

/*
 * sprint_symbol() of the start of a symbol is "name+0x0/size".  The end
 * of a section (__stop_*) is where the next one starts, and the start of
 * kernel text (_stext) is that of its first function, which
 * sprint_symbol() may name instead: it must be the start of a symbol.
 */
static void check_names(struct ktap *t)
{
	char buf[KSYM_SYMBOL_LEN], want[KSYM_NAME_LEN + 8];
	const struct op_ksym *sym;
	bool named;
	unsigned int i;

	for (i = 0; (sym = op_ksym_at(i)); i++) {
		void *addr = (void *)op_ksym_addr(sym);

		sprint_symbol(buf, (unsigned long)addr);
		snprintf(want, sizeof(want), "%s+0x0/", sym->name);
		named = !strncmp(buf, want, strlen(want));
		if (!strncmp(sym->name, "__stop_", 7) || !strcmp(sym->name, "_stext"))
			named = !!strstr(buf, "+0x0/");
		ktap_check(t, addr && named, sym->name, "resolved to %s", addr ? buf : "NULL");
	}
}

/* Resolve an exported symbol: a call of the resolved kallsyms_lookup_name(). */
static void check_call(struct ktap *t)
{
	static void *got;
	static const struct op_ksym exported[] = {
		{ .name = "sprint_symbol", .slot = &got, .addr_only = true },
	};
	int ret = op_ksyms_resolve(exported, ARRAY_SIZE(exported));

	ktap_check(t, !ret && got == (void *)sprint_symbol, "call_kallsyms_lookup_name",
		   "kallsyms_lookup_name(\"sprint_symbol\") gave %pS (%d)", got, ret);
}

static void check_missing(struct ktap *t)
{
	static void *missing_addr;
	static const struct op_ksym missing[] = {
		{ .name = "optprobe_test_no_such_symbol", .slot = &missing_addr },
	};
	int ret = op_ksyms_resolve(missing, ARRAY_SIZE(missing));

	ktap_check(t, ret == -ENOENT && !missing_addr, "missing_symbol_refused",
		   "resolve returned %d", ret);
}

/*
 * The load-time IBT proof: every function optprobe calls, it calls
 * directly (op_arch_kcall_direct(): its static call's trampoline and
 * call sites reach it), and every function it hands the kernel to call
 * is callable through a pointer (x86 IBT: an unsealed ENDBR64; QEMU's
 * TCG has no IBT, so all pass here).  On x86 with IBT in the kernel,
 * what the guest reads of each function's ENDBR64 is printed ("# ibt
 * NAME endbr|sealed direct|pointer") for tests/ibt/endbr-proof.py to
 * hold against the image's seal list; a pointer to a sealed one would be
 * refused, and so must what a sealed ENDBR64 becomes, a 4-byte nop.
 */
static void check_callable(struct ktap *t)
{
	unsigned int i, bad = 0, direct = 0, calls = 0;
	const struct op_ksym *sym;
	unsigned long addr;
	const char *why;

	for (i = 0; (sym = op_ksym_at(i)); i++) {
		addr = op_ksym_addr(sym);
		if (sym->call) {
			why = op_arch_kcall_direct(sym, addr);
			calls++;
			direct += !why;
		} else {
			why = sym->addr_only ? NULL : op_arch_ksym_callable(addr);
		}
		if (why) {
			pr_info("# %s: %s\n", sym->name, why);
			bad++;
		}
	}
	ktap_check(t, calls && direct == calls, "every_resolved_function_called_directly",
		   "%u of %u are not", calls - direct, calls);
	/* and the proof fails where its calls go elsewhere */
	sym = op_ksym_at(0);
	ktap_check(t, sym->call && op_arch_kcall_direct(sym, op_ksym_addr(sym) + 1),
		   "kcall_proof_refuses_other_target", "%s + 1 passed", sym->name);
	ktap_check(t, !bad, "every_resolved_function_callable", "%u are not", bad);
#ifdef CONFIG_X86_KERNEL_IBT
	{
		static const u8 sealed[] = { 0x0f, 0x1f, 0x40, 0x00 };

		for (i = 0; (sym = op_ksym_at(i)); i++) {
			if (sym->addr_only)
				continue;
			why = op_x86_endbr_at(op_ksym_addr(sym));
			pr_info("# ibt %s %s %s\n", sym->name, why ? "sealed" : "endbr",
				sym->call ? "direct" : "pointer");
		}
		why = op_x86_endbr_at((unsigned long)sealed);
		ktap_check(t, why, "sealed_endbr_refused", "a sealed ENDBR64 (nop4) was accepted");
	}
#else
	ktap_skip(t, "sealed_endbr_refused", "no IBT in this kernel");
#endif
}

static void check_debugfs(struct ktap *t)
{
	struct dentry *dir = debugfs_lookup("optprobe", NULL);

	ktap_check(t, !IS_ERR_OR_NULL(dir), "debugfs_dir_exists",
		   "no /sys/kernel/debug/optprobe");
	dput(dir);
}

static int __init test_ksyms_init(void)
{
	struct ktap t;

	ktap_start(&t, count_ksyms() + 7);
	check_names(&t);
	check_call(&t);
	check_missing(&t);
	check_callable(&t);
	check_debugfs(&t);
	return 0;
}

static void __exit test_ksyms_exit(void)
{
}

module_init(test_ksyms_init);
module_exit(test_ksyms_exit);

MODULE_DESCRIPTION("optprobe test: kernel symbol resolution");
MODULE_LICENSE("GPL");
