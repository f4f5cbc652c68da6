// SPDX-License-Identifier: GPL-2.0
/*
 * A sample return probe: how long the kernel's vfs_read() takes, from its
 * entry to its return, as a histogram of log2 buckets like bpftrace's
 * hist().  Load it, read some files, and read
 * /sys/kernel/debug/optprobe_latency/histogram; the histogram is printed
 * to the kernel log once more when the module is unloaded.
 *
 *   insmod optprobe_latency.ko [func=ksys_read] [comm=dd]
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <optprobe.h>

static char *func = "vfs_read";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the kernel function to measure (default vfs_read)");

static char *comm;
module_param(comm, charp, 0444);
MODULE_PARM_DESC(comm, "measure only the calls made by tasks of this name (default: every task)");

/*
 * Bucket i counts the calls whose latency in ns has its highest set bit at
 * position i (fls64()): bucket 0 holds 0 ns, bucket 1 holds 1 ns, bucket
 * i > 1 holds [2^(i-1), 2^i).  A u64 needs 65.
 */
#define HIST_BUCKETS	65

/*
 * Handlers run on every CPU at once, with preemption disabled, possibly in
 * NMI context: no lock can be taken there.  So each CPU counts in its own
 * buckets, and only the reader adds them up.  this_cpu_inc() is safe
 * against interrupts, and a probe hit while an optprobe handler runs on
 * the same CPU skips its handlers (it counts in nmissed), so not even an
 * NMI runs one of these handlers in the middle of another.
 */
struct latency_hist {
	unsigned long buckets[HIST_BUCKETS];
	unsigned long skipped;		/* calls of tasks other than @comm */
};

static DEFINE_PER_CPU(struct latency_hist, latency_hist);

/*
 * The clock must be readable in NMI context and comparable across CPUs:
 * the task may sleep in the function and return on another CPU.
 * ktime_get_mono_fast_ns() is both (local_clock() is NMI-safe but only
 * comparable on one CPU; ktime_get_ns() can deadlock in an NMI that
 * interrupted the timekeeping update).
 */
static int latency_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	u64 *start = data;	/* this call's rp->data_size bytes */

	/* non-zero: do not follow this call, its return runs no handler */
	if (comm && strncmp(current->comm, comm, TASK_COMM_LEN)) {
		this_cpu_inc(latency_hist.skipped);
		return 1;
	}
	*start = ktime_get_mono_fast_ns();
	return 0;
}

static void latency_return(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	u64 now = ktime_get_mono_fast_ns(), start = *(u64 *)data;

	/* the fast clock may step back by a little across an update */
	this_cpu_inc(latency_hist.buckets[fls64(now > start ? now - start : 0)]);
}

static struct optretprobe latency_probe = {
	.entry_handler = latency_entry,
	.handler = latency_return,
	.data_size = sizeof(u64),
	/* .maxactive = 0: the pool grows with the calls in flight, none missed */
};

static struct dentry *latency_dir;

/* One line to the debugfs file being read, or to the kernel log if @m is NULL. */
static __printf(2, 3) void emit(struct seq_file *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	if (m) {
		seq_vprintf(m, fmt, args);
	} else {
		vaf.fmt = fmt;
		vaf.va = &args;
		pr_info("%pV", &vaf);
	}
	va_end(args);
}

/* 2^@power as hist() writes it: 1, 2, ..., 512, 1K (1024), 2K, ..., 512K, 1M (2^20), ... */
static void pow2_label(char *buf, size_t len, unsigned int power)
{
	if (power < 10)
		scnprintf(buf, len, "%u", 1U << power);
	else
		scnprintf(buf, len, "%u%c", 1U << (power % 10), "KMGTPE"[power / 10 - 1]);
}

/*
 * The summary line, then one line per bucket from the lowest to the
 * highest one used: its range, its count and a bar scaled to the largest
 * count.  Once the calls have returned, the calls made = followed +
 * skipped + missed, exactly.  The sums are of counters other CPUs may be
 * adding to: each one is read whole, but the totals are only as of some
 * moment during the read.
 */
static void show_hist(struct seq_file *m)
{
	unsigned long counts[HIST_BUCKETS] = {}, skipped = 0, followed = 0, most = 0;
	char range[24], lo[8], hi[8], bar[53];
	int first = 0, last = 0, cpu, i;

	for_each_possible_cpu(cpu) {
		const struct latency_hist *h = per_cpu_ptr(&latency_hist, cpu);

		for (i = 0; i < HIST_BUCKETS; i++)
			counts[i] += READ_ONCE(h->buckets[i]);
		skipped += READ_ONCE(h->skipped);
	}
	for (i = HIST_BUCKETS - 1; i >= 0; i--) {
		if (!counts[i])
			continue;
		if (!followed)
			last = i;
		first = i;
		followed += counts[i];
		most = max(most, counts[i]);
	}

	emit(m, "%s latency in ns: %lu calls followed, %lu missed\n",
	     func, followed, READ_ONCE(latency_probe.nmissed));
	if (comm)
		emit(m, "%lu calls skipped: made by tasks not named %s\n", skipped, comm);
	for (i = first; followed && i <= last; i++) {
		if (i < 2) {
			scnprintf(range, sizeof(range), "[%d]", i);
		} else {
			pow2_label(lo, sizeof(lo), i - 1);
			pow2_label(hi, sizeof(hi), i);
			scnprintf(range, sizeof(range), "[%s, %s)", lo, hi);
		}
		memset(bar, '@', counts[i] * 52 / most);
		bar[counts[i] * 52 / most] = '\0';
		emit(m, "%-16s%8lu |%-52s|\n", range, counts[i], bar);
	}
}

static int histogram_show(struct seq_file *m, void *v)
{
	show_hist(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(histogram);

static const char * const mode_names[] = {
	"trap", "boosted", "optimized", "ftrace", "disabled", "gone",
};

static int __init optprobe_latency_init(void)
{
	int ret;

	/*
	 * A return probe attaches at a function's entry only: the symbol,
	 * or .addr of the function's start, never an offset inside it.
	 */
	latency_probe.symbol = func;
	ret = optretprobe_register(&latency_probe);
	if (ret)
		return ret;
	/* the entry side is an optprobe at the entry: through ftrace where there is a site */
	pr_info("measuring %s%s%s, entry mode %s\n", func, comm ? " in " : "", comm ?: "",
		mode_names[optretprobe_mode(&latency_probe)]);

	latency_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("histogram", 0400, latency_dir, NULL, &histogram_fops);
	return 0;
}

static void __exit optprobe_latency_exit(void)
{
	debugfs_remove_recursive(latency_dir);
	/*
	 * Calls still inside the function return to their callers without a
	 * handler: once this returns, the counts no longer change.
	 */
	optretprobe_unregister(&latency_probe);
	show_hist(NULL);
}

module_init(optprobe_latency_init);
module_exit(optprobe_latency_exit);

MODULE_DESCRIPTION("optprobe sample: a latency histogram from a return probe");
MODULE_LICENSE("GPL");
