// SPDX-License-Identifier: GPL-2.0
/*
 * An external probe module, built out of tree against <optprobe.h> and
 * optprobe.ko's Module.symvers, using nothing but the public API: it
 * registers a probe on an exported kernel function, fires it, and
 * unregisters it.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <optprobe.h>

static atomic_t hits;
static unsigned long seen_ip;

static int external_pre(struct optprobe *p, struct pt_regs *regs)
{
	seen_ip = instruction_pointer(regs);
	atomic_inc(&hits);
	return 0;
}

static struct optprobe probe = {
	.symbol = "sprint_symbol",
	.pre_handler = external_pre,
};

static int __init optprobe_external_init(void)
{
	char buf[KSYM_SYMBOL_LEN];
	int ret, i, n;

	pr_info("KTAP version 1\n1..3\n");
	ret = optprobe_register(&probe);
	pr_info("%sok 1 external_register # returned %d\n", ret ? "not " : "", ret);
	for (i = 0; i < 100; i++)
		sprint_symbol(buf, (unsigned long)optprobe_external_init);
	n = atomic_read(&hits);
	pr_info("%sok 2 external_probe_fires # %d hits for 100 calls, ip %lx at %p\n",
		n == 100 && seen_ip == (unsigned long)probe.addr ? "" : "not ",
		n, seen_ip, probe.addr);
	optprobe_unregister(&probe);
	sprint_symbol(buf, (unsigned long)optprobe_external_init);
	n = atomic_read(&hits);
	pr_info("%sok 3 external_unregister_stops_hits # %d hits\n", n == 100 ? "" : "not ", n);
	return 0;
}

static void __exit optprobe_external_exit(void)
{
}

module_init(optprobe_external_init);
module_exit(optprobe_external_exit);

MODULE_DESCRIPTION("optprobe test: an external probe module");
MODULE_LICENSE("GPL");
