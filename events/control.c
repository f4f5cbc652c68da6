// SPDX-License-Identifier: GPL-2.0
/*
 * The files users define events with, as misc devices: debugfs refuses
 * every writable file under lockdown=integrity (Secure Boot) and modules
 * cannot make tracefs files, and a device node works everywhere.
 *
 *   /dev/optprobe_events	kprobe_events lines; reading lists them
 *   /dev/optprobe_profile	per event: hits, misses, mode, and why not
 *				optimized
 *   /dev/optprobe_error_log	the refused lines (errlog.c); opening it
 *				with O_TRUNC clears it
 *
 * One write is one batch, whatever its length (batch.c).  As with the
 * kernel's file, each write stands alone (a line cut across two writes is
 * two lines), '#' starts a comment, and opening for writing with O_TRUNC
 * removes every event (-EBUSY, and nothing removed, while any is in use).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "arch.h"
#include "events.h"
#include "ksyms.h"
#include "mode-name.h"
#include "opev-init.h"

static ssize_t opev_events_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	return opev_batch_write(ubuf, count);
}

static void *opev_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&opev_mutex);
	return seq_list_start(&opev_events, *pos);
}

static void *opev_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &opev_events, pos);
}

static void opev_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&opev_mutex);
}

static int opev_events_show(struct seq_file *m, void *v)
{
	struct opev_event *ev = list_entry(v, struct opev_event, list);
	char *buf;
	int len;

	len = opev_format_def(&ev->def, NULL, 0);
	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	opev_format_def(&ev->def, buf, len + 1);
	seq_printf(m, "%s\n", buf);
	kfree(buf);
	return 0;
}

static const struct seq_operations opev_events_seq_ops = {
	.start = opev_seq_start,
	.next = opev_seq_next,
	.stop = opev_seq_stop,
	.show = opev_events_show,
};

static int opev_events_open(struct inode *inode, struct file *file)
{
	int ret;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = opev_remove_all();
		if (ret)
			return ret;
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	/* misc_open() left the device there: the seq_file's place */
	file->private_data = NULL;
	return seq_open(file, &opev_events_seq_ops);
}

static int opev_events_release(struct inode *inode, struct file *file)
{
	return (file->f_mode & FMODE_READ) ? seq_release(inode, file) : 0;
}

static const struct file_operations opev_events_fops = {
	.owner = THIS_MODULE,
	.open = opev_events_open,
	.read = seq_read,
	.write = opev_events_write,
	.llseek = seq_lseek,
	.release = opev_events_release,
};

/*
 * As the kernel's kprobe_profile, then the mode and why not optimized;
 * "pending" for an event waiting for its module (module.c).
 */
static int opev_profile_show(struct seq_file *m, void *v)
{
	struct opev_event *ev = list_entry(v, struct opev_event, list);
	enum optprobe_mode mode = opev_event_mode(ev);
	const char *name = op_mode_name(mode), *why = "";

	if (ev->pending) {
		name = "pending";
		why = "module not loaded";
	} else if (mode != OPTPROBE_MODE_OPTIMIZED) {
		why = opev_event_reason(ev);
	}
	seq_printf(m, "  %-44s %15lu %15lu  %-9s %s\n", ev->def.event, opev_event_hits(ev),
		   opev_event_missed(ev), name, why);
	return 0;
}

static const struct seq_operations opev_profile_seq_ops = {
	.start = opev_seq_start,
	.next = opev_seq_next,
	.stop = opev_seq_stop,
	.show = opev_profile_show,
};

static int opev_profile_open(struct inode *inode, struct file *file)
{
	file->private_data = NULL;
	return seq_open(file, &opev_profile_seq_ops);
}

static const struct file_operations opev_profile_fops = {
	.owner = THIS_MODULE,
	.open = opev_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static int opev_errlog_seq_show(struct seq_file *m, void *v)
{
	return opev_errlog_show(m);
}

static int opev_errlog_open(struct inode *inode, struct file *file)
{
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		opev_errlog_clear();
	if (!(file->f_mode & FMODE_READ))
		return 0;
	file->private_data = NULL;
	return single_open(file, opev_errlog_seq_show, NULL);
}

static ssize_t opev_errlog_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	/* as tracing/error_log: only opening with O_TRUNC does anything */
	return count;
}

static int opev_errlog_release(struct inode *inode, struct file *file)
{
	return (file->f_mode & FMODE_READ) ? single_release(inode, file) : 0;
}

static const struct file_operations opev_errlog_fops = {
	.owner = THIS_MODULE,
	.open = opev_errlog_open,
	.read = seq_read,
	.write = opev_errlog_write,
	.llseek = seq_lseek,
	.release = opev_errlog_release,
};

static struct miscdevice opev_devices[] = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "optprobe_events", .mode = 0600,
	  .fops = &opev_events_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "optprobe_profile", .mode = 0400,
	  .fops = &opev_profile_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "optprobe_error_log", .mode = 0600,
	  .fops = &opev_errlog_fops },
};

/*
 * The kernel's event_mutex, which adding and removing an event needs
 * held: a data symbol, in kallsyms with KALLSYMS_ALL (x86_64, and
 * ppc64le 6.12); the powerpc backend finds it without (6.1).
 */
struct mutex *opev_event_mutex;

int opev_init(void)
{
	unsigned int i;
	int ret;

	opev_event_mutex = (struct mutex *)op_kcall(kallsyms_lookup_name)("event_mutex") ?:
			   op_arch_event_mutex();
	if (!opev_event_mutex) {
		pr_warn("no trace events (/dev/optprobe_events): the kernel's event_mutex not found\n");
		return 0;
	}
	ret = opev_module_init();
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(opev_devices); i++) {
		ret = misc_register(&opev_devices[i]);
		if (ret) {
			while (i--)
				misc_deregister(&opev_devices[i]);
			opev_module_exit();
			return ret;
		}
	}
	return 0;
}

/* optprobe's unload: every event held it, so none is left. */
void opev_exit(void)
{
	unsigned int i;

	if (!opev_event_mutex)
		return;
	for (i = 0; i < ARRAY_SIZE(opev_devices); i++)
		misc_deregister(&opev_devices[i]);
	opev_events_flush();
	opev_module_exit();
	opev_errlog_clear();
}
