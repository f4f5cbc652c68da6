// SPDX-License-Identifier: GPL-2.0
/*
 * A sample optprobe client: counts calls of the kernel's vfs_read() with a
 * probe at its entry, and runs a pre and a post handler on an instruction
 * inside it.  Load it, read some files, and see the probes in
 * /sys/kernel/debug/optprobe/list.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/ptrace.h>
#include <optprobe.h>

static char *func = "vfs_read";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the kernel function to probe (default vfs_read)");

static atomic_long_t entries, insides, afters;

static int entry_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&entries);
	return 0;
}

static int inside_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&insides);
	return 0;
}

static void inside_post(struct optprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&afters);
}

static struct optprobe entry = { .pre_handler = entry_pre };
static struct optprobe inside = { .pre_handler = inside_pre, .post_handler = inside_post };

static const char * const mode_names[] = {
	"trap", "boosted", "optimized", "ftrace", "disabled", "gone",
};

static void show(const char *what, struct optprobe *p)
{
	pr_info("%s probe at %pS: mode %s%s%s\n", what, p->addr,
		mode_names[optprobe_mode(p)], *optprobe_reason(p) ? ": " : "",
		optprobe_reason(p));
}

static int __init optprobe_sample_init(void)
{
	int ret;

	entry.symbol = func;
	ret = optprobe_register(&entry);
	if (ret)
		return ret;

	/*
	 * The first instruction after the entry (which is past the global
	 * entry's TOC setup on ppc64le), decoded by optprobe
	 */
	ret = optprobe_next_insn(entry.addr, &inside.addr);
	if (!ret)
		ret = optprobe_register(&inside);
	if (ret) {
		optprobe_unregister(&entry);
		return ret;
	}
	show("entry", &entry);
	show("inside", &inside);
	/* optimization happens in the background, in batches: wait for it */
	optprobe_sync();
	show("inside, after optprobe_sync(),", &inside);
	return 0;
}

static void __exit optprobe_sample_exit(void)
{
	struct optprobe *probes[] = { &entry, &inside };

	optprobe_unregister_many(probes, ARRAY_SIZE(probes));
	pr_info("%s: %ld entries, %ld hits inside (%ld after the instruction)\n", func,
		atomic_long_read(&entries), atomic_long_read(&insides), atomic_long_read(&afters));
}

module_init(optprobe_sample_init);
module_exit(optprobe_sample_exit);

MODULE_DESCRIPTION("optprobe sample: probes on a kernel function");
MODULE_LICENSE("GPL");
