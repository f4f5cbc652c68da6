// SPDX-License-Identifier: GPL-2.0
/*
 * What bench/events.sh, the benchmark of optprobe's trace events against
 * the kernel's kprobe events, needs from the kernel side.  The script
 * runs from the shell after the module's own rows, as users define
 * events; these files under /sys/kernel/debug/optprobe_bench/ give it:
 *
 *   sites	the scale rows' kernel-text sites (the largest n), one
 *		_text+N a line, as perf probe --definition writes them:
 *		unique where function names are not
 *   hit_site	the instruction after gcd()'s ftrace site, the kernel-core
 *		target of the hit rows, as _text+N
 *   sync	write "optprobe" or "kprobes": returns once that
 *		implementation's optimizer has nothing left to do
 *		(optprobe_sync(), wait_for_kprobe_optimizer())
 *   hit_ns	write anything: time gcd() as the hit rows do (bench_time():
 *		the median of runs loops of n calls); read: "CALLS N NS", the
 *		calls made, n, and the median loop's ns
 *   tcg_rewrite	ppc64le: optprobe's emulator workaround, 0 or 1, read and
 *		switched: off for the scale rows, as bench/scale.c has it
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/gcd.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <optprobe.h>

#include "bench.h"

static struct dentry *bench_events_dir;
static struct bench_sites bench_events_sites;
static struct bench_timing bench_events_timing;
static unsigned long bench_events_text;		/* _text */

void bench_events_keep_sites(struct bench_sites *s)
{
	bench_sites_free(&bench_events_sites);
	bench_events_sites = *s;
	memset(s, 0, sizeof(*s));
}

static int sites_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < bench_events_sites.nr; i++)
		seq_printf(m, "_text+%lu\n", bench_events_sites.addr[i] - bench_events_text);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sites);

static int hit_site_show(struct seq_file *m, void *v)
{
	seq_printf(m, "_text+%lu\n", bench_after_ftrace((unsigned long)gcd) - bench_events_text);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hit_site);

static ssize_t sync_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[16];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sysfs_streq(buf, "optprobe"))
		optprobe_sync();
	else if (sysfs_streq(buf, "kprobes"))
		bench_ksyms.wait_for_kprobe_optimizer();
	else
		return -EINVAL;
	return count;
}

static const struct file_operations sync_fops = {
	.write = sync_write,
};

static int hit_ns_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu %u %llu\n", bench_events_timing.calls, bench_events_timing.n,
		   bench_events_timing.ns);
	return 0;
}

static int hit_ns_open(struct inode *inode, struct file *file)
{
	return single_open(file, hit_ns_show, NULL);
}

static ssize_t hit_ns_write(struct file *file, const char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	bench_time(bench_gcd, &bench_events_timing);
	return count;
}

static const struct file_operations hit_ns_fops = {
	.open = hit_ns_open,
	.read = seq_read,
	.write = hit_ns_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int tcg_rewrite_show(struct seq_file *m, void *v)
{
	bool on = bench_tcg_rewrite(false);

	bench_tcg_rewrite(on);
	seq_printf(m, "%d\n", on);
	return 0;
}

static int tcg_rewrite_open(struct inode *inode, struct file *file)
{
	return single_open(file, tcg_rewrite_show, NULL);
}

static ssize_t tcg_rewrite_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	bool on;
	int ret = kstrtobool_from_user(ubuf, count, &on);

	if (ret)
		return ret;
	bench_tcg_rewrite(on);
	return count;
}

static const struct file_operations tcg_rewrite_fops = {
	.open = tcg_rewrite_open,
	.read = seq_read,
	.write = tcg_rewrite_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void bench_events_init(void)
{
	bench_events_text = (unsigned long)bench_ksyms._text;
	bench_events_dir = debugfs_create_dir("optprobe_bench", NULL);
	debugfs_create_file("sites", 0400, bench_events_dir, NULL, &sites_fops);
	debugfs_create_file("hit_site", 0400, bench_events_dir, NULL, &hit_site_fops);
	debugfs_create_file("sync", 0200, bench_events_dir, NULL, &sync_fops);
	debugfs_create_file("hit_ns", 0600, bench_events_dir, NULL, &hit_ns_fops);
	if (IS_ENABLED(CONFIG_PPC64))
		debugfs_create_file("tcg_rewrite", 0600, bench_events_dir, NULL,
				    &tcg_rewrite_fops);
}

void bench_events_exit(void)
{
	debugfs_remove(bench_events_dir);
	bench_sites_free(&bench_events_sites);
}
