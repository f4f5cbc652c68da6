// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on vfs_read(), at its entry (ftrace mode) and on the first
 * instruction inside it (trap mode), under a real workload:
 * optprobe_test_workload.sh runs dd, which reads NR_READS blocks of
 * READ_SIZE bytes, then writes this module's "check" parameter, which
 * prints the KTAP block.  The handlers count the reads of READ_SIZE bytes,
 * which nothing else in the guest makes.
 *
 * The same workload runs through probes that may be jump-optimized, on the
 * first instruction inside ksys_read() and read_zero() (/dev/zero's read),
 * whose count argument is still in its register there.  The optimizer is
 * done before the workload starts.  ksys_read() must be optimized where
 * the backend can optimize kernel text: on x86_64 always; on ppc64le only
 * while optprobe owns the kernel's detour area, which Debian's kernel
 * keeps from boot (its own kprobe on the kretprobe trampoline), so there
 * it stays a breakpoint and must say so.  read_zero() is optimized or
 * says why not (on x86_64 its jump would replace an instruction that
 * cannot run from a detour); each prints its mode and reason.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "exports.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

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

/* The optimized probes: a function, and its argument that holds the count. */
struct opt_probe {
	const char *symbol;
	unsigned int count_arg;
	bool must_optimize;
	struct optprobe p;
	int ret, boundary_err;
	atomic_t hits;
};

static struct opt_probe opt_probes[] = {
	{ "ksys_read", 2, true },
	{ "read_zero", 2, false },
};

#define OPT_CHECKS	3

static int opt_pre(struct optprobe *p, struct pt_regs *regs)
{
	struct opt_probe *op = container_of(p, struct opt_probe, p);

	if (test_arg(regs, op->count_arg) == READ_SIZE)
		atomic_inc(&op->hits);
	return 0;
}

/* What excuses a probe that must be optimized: powerpc's detour area out of reach. */
#ifdef CONFIG_PPC
#define FAR_AREA	OP_R_CORE_AREA_FAR
#else
#define FAR_AREA	OP_R_COUNT	/* nothing */
#endif

/*
 * Optimized, or a breakpoint (boosted or not) that says why not: only the
 * kernel's detour area held by the kernel if it must be optimized.
 */
static bool mode_as_expected(const struct opt_probe *op)
{
	enum optprobe_mode mode = optprobe_mode(&op->p);
	enum op_reason reason = op_probe_reason(&op->p);

	if (mode == OPTPROBE_MODE_OPTIMIZED)
		return true;
	if (mode != OPTPROBE_MODE_TRAP && mode != OPTPROBE_MODE_BOOSTED)
		return false;
	if (op->must_optimize)
		return reason == FAR_AREA;
	return reason != OP_R_NONE && reason != OP_R_WAITING;
}

static void check_optimized(struct ktap *t, struct opt_probe *op)
{
	char name[TEST_NAME_LEN];
	int n = atomic_read(&op->hits);

	ktap_check(t, !op->ret, test_name(name, op->symbol, "registered"),
		   "register %d (boundary %d) at %pS", op->ret, op->boundary_err, op->p.addr);
	ktap_check(t, !op->ret && mode_as_expected(op), test_name(name, op->symbol, "mode"),
		   "mode %s: %s", test_mode_name(optprobe_mode(&op->p)),
		   op->ret ? "" : optprobe_reason(&op->p));
	if (!op->ret)
		pr_info("# %s: %s at %pS%s%s\n", op->symbol, test_mode_name(optprobe_mode(&op->p)),
			op->p.addr, *optprobe_reason(&op->p) ? ": " : "", optprobe_reason(&op->p));
	ktap_check(t, n == NR_READS && !op->p.nmissed,
		   test_name(name, op->symbol, "hits_equal_reads"),
		   "%d hits for %d reads, nmissed %lu", n, NR_READS, op->p.nmissed);
}

static void check(void)
{
	enum optprobe_mode me = optprobe_mode(&entry), mi = optprobe_mode(&inside);
	int e = atomic_read(&hits[0]), n = atomic_read(&hits[1]);
	struct ktap t;
	unsigned int i;

	ktap_start(&t, 4 + ARRAY_SIZE(opt_probes) * OPT_CHECKS);
	ktap_check(&t, !entry_ret && me == OPTPROBE_MODE_FTRACE, "entry_probe_is_ftrace",
		   "register %d, mode %s", entry_ret, test_mode_name(me));
	ktap_check(&t, !inside_ret && mi == OPTPROBE_MODE_TRAP, "inside_probe_is_trap",
		   "register %d (boundary %d), mode %s, at %pS", inside_ret, boundary_err,
		   test_mode_name(mi), inside.addr);
	ktap_check(&t, e == NR_READS && n == NR_READS, "hits_equal_reads",
		   "%d and %d hits for %d reads of %d bytes", e, n, NR_READS, READ_SIZE);
	ktap_check(&t, !entry.nmissed && !inside.nmissed, "no_miss", "nmissed %lu and %lu",
		   entry.nmissed, inside.nmissed);
	for (i = 0; i < ARRAY_SIZE(opt_probes); i++)
		check_optimized(&t, &opt_probes[i]);
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
	struct opt_probe *op;
	unsigned int i;

	test_probe_init(&entry, "vfs_read", 0, read_pre, NULL, 0);
	entry_ret = optprobe_register(&entry);
	test_probe_init(&inside, NULL, test_inside_of("vfs_read", &boundary_err), read_pre, NULL,
			OPTPROBE_F_NOOPT);
	if (inside.addr)
		inside_ret = optprobe_register(&inside);
	for (i = 0; i < ARRAY_SIZE(opt_probes); i++) {
		op = &opt_probes[i];
		op->ret = -ENOENT;
		test_probe_init(&op->p, NULL, test_inside_of(op->symbol, &op->boundary_err),
				opt_pre, NULL, 0);
		if (op->p.addr)
			op->ret = optprobe_register(&op->p);
	}
	/* optimized before the workload runs */
	optprobe_sync();
	ready = true;
	return 0;
}

static void __exit test_workload_exit(void)
{
	unsigned int i;

	if (!entry_ret)
		optprobe_unregister(&entry);
	if (!inside_ret)
		optprobe_unregister(&inside);
	for (i = 0; i < ARRAY_SIZE(opt_probes); i++)
		if (!opt_probes[i].ret)
			optprobe_unregister(&opt_probes[i].p);
}

module_init(test_workload_init);
module_exit(test_workload_exit);

MODULE_DESCRIPTION("optprobe test: probes on kernel read paths under a workload");
MODULE_LICENSE("GPL");
