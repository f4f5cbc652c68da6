// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on vfs_read(), at its entry (ftrace mode) and on the first
 * instruction inside it (trap mode), under a real workload:
 * optprobe_test_workload.sh runs dd, which reads NR_READS blocks of
 * READ_SIZE bytes, then writes this module's "check" parameter, which
 * prints the KTAP block.  The handlers count the reads of READ_SIZE bytes,
 * which nothing else in the guest makes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "optprobe_test.h"

/* as optprobe_test_workload.sh reads */
#define READ_SIZE	3001
#define NR_READS	50

static struct optprobe entry, inside;
static int entry_ret, inside_ret = -ENOENT, boundary_err;
static atomic_t hits[2];
static bool ready;

static int read_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (test_arg(regs, 2) == READ_SIZE)
		atomic_inc(&hits[p == &inside]);
	return 0;
}

static void check(void)
{
	enum optprobe_mode me = optprobe_mode(&entry), mi = optprobe_mode(&inside);
	int e = atomic_read(&hits[0]), n = atomic_read(&hits[1]);
	struct ktap t;

	ktap_start(&t, 4);
	ktap_check(&t, !entry_ret && me == OPTPROBE_MODE_FTRACE, "entry_probe_is_ftrace",
		   "register %d, mode %s", entry_ret, test_mode_name(me));
	ktap_check(&t, !inside_ret && mi == OPTPROBE_MODE_TRAP, "inside_probe_is_trap",
		   "register %d (boundary %d), mode %s, at %pS", inside_ret, boundary_err,
		   test_mode_name(mi), inside.addr);
	ktap_check(&t, e == NR_READS && n == NR_READS, "hits_equal_reads",
		   "%d and %d hits for %d reads of %d bytes", e, n, NR_READS, READ_SIZE);
	ktap_check(&t, !entry.nmissed && !inside.nmissed, "no_miss", "nmissed %lu and %lu",
		   entry.nmissed, inside.nmissed);
}

static int check_set(const char *val, const struct kernel_param *kp)
{
	if (!ready)
		return -EAGAIN;
	check();
	return 0;
}

static const struct kernel_param_ops check_ops = {
	.set = check_set,
};
module_param_cb(check, &check_ops, NULL, 0200);
MODULE_PARM_DESC(check, "write anything: check the counts and print the results");

static int __init test_workload_init(void)
{
	test_probe_init(&entry, "vfs_read", 0, read_pre, NULL, 0);
	entry_ret = optprobe_register(&entry);
	test_probe_init(&inside, NULL, test_inside_of("vfs_read", &boundary_err), read_pre, NULL,
			OPTPROBE_F_NOOPT);
	if (inside.addr)
		inside_ret = optprobe_register(&inside);
	ready = true;
	return 0;
}

static void __exit test_workload_exit(void)
{
	if (!entry_ret)
		optprobe_unregister(&entry);
	if (!inside_ret)
		optprobe_unregister(&inside);
}

module_init(test_workload_init);
module_exit(test_workload_exit);

MODULE_DESCRIPTION("optprobe test: probes on vfs_read() under a workload");
MODULE_LICENSE("GPL");
