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
 * One write is one batch, whatever its length: every line of it is parsed,
 * then all its probes are registered together (optprobe_register_batch()),
 * then all its events are added; any failure undoes the whole write and
 * logs the line at fault.  As with the kernel's file, each write stands
 * alone (a line cut across two writes is two lines), '#' starts a comment,
 * and opening for writing with O_TRUNC removes every event (-EBUSY, and
 * nothing removed, while any is in use).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "events.h"
#include "ksyms.h"
#include "mode-name.h"
#include "opev-init.h"

/* The most one write may carry: 64 bytes for each of 256 Ki lines. */
#define OPEV_WRITE_MAX		(16 << 20)

/* guards opev_events, and makes each write one batch */
DEFINE_MUTEX(opev_mutex);
LIST_HEAD(opev_events);

/* One write's worth of definitions and removals. */
struct opev_batch {
	struct list_head adds;		/* new events, by their ->list */
	struct list_head removes;	/* events taken off opev_events */
	unsigned int nr_entries, nr_returns;
	struct opev_def def;		/* the parser's scratch */
	struct opev_arg *args;
	char *buf;
};

static enum opev_arch opev_this_arch(void)
{
	return IS_ENABLED(CONFIG_X86_64) ? OPEV_ARCH_X86_64 : OPEV_ARCH_PPC64;
}

static int opev_err_of_errno(int err)
{
	switch (err) {
	case -ENOENT:
		return OPEV_ERR_BAD_PROBE_SYM;
	case -EILSEQ:
		return OPEV_ERR_BAD_INSN_BNDRY;
	case -EBUSY:
		return OPEV_ERR_PROBE_BUSY;
	case -ENOMEM:
		return OPEV_ERR_NO_MEMORY;
	default:
		return OPEV_ERR_BAD_PROBE_TARGET;
	}
}

static struct opev_event *opev_find(struct list_head *head, const char *group,
				    const char *event)
{
	struct opev_event *ev;

	list_for_each_entry(ev, head, list)
		if ((!*group || !strcmp(ev->def.group, group)) && !strcmp(ev->def.event, event))
			return ev;
	return NULL;
}

/* A -: line: the event moves to the batch's removals, if it may go. */
static int opev_batch_remove(struct opev_batch *b, const char *line)
{
	struct opev_event *ev = opev_find(&opev_events, b->def.group, b->def.event);

	if (!ev) {
		opev_log_error(line, 0, opev_error_text(OPEV_ERR_EVENT_NOT_FOUND));
		return -ENOENT;
	}
	if (opev_event_busy(ev)) {
		opev_log_error(line, 0, opev_error_text(OPEV_ERR_EVENT_IN_USE));
		return -EBUSY;
	}
	list_move_tail(&ev->list, &b->removes);
	return 0;
}

/* A p: or r: line: a new event in the batch, its probe not registered yet. */
static int opev_batch_add(struct opev_batch *b, const char *line)
{
	struct opev_event *ev;
	unsigned int column;
	int code, ret;

	if (opev_find(&opev_events, b->def.group, b->def.event) ||
	    opev_find(&b->adds, b->def.group, b->def.event)) {
		opev_log_error(line, 0, opev_error_text(OPEV_ERR_SAME_EVENT));
		return -EEXIST;
	}
	ev = opev_event_alloc(&b->def, line);
	if (!ev)
		return -ENOMEM;
	list_add_tail(&ev->list, &b->adds);
	ret = opev_event_layout(ev, &code, &column);
	if (ret) {
		opev_log_error(line, column, opev_error_text(code));
		return ret;
	}
	ret = opev_event_init_probe(ev);
	if (ret) {
		opev_log_error(line, b->def.loc_column, opev_error_text(opev_err_of_errno(ret)));
		return ret;
	}
	if (ev->is_return)
		b->nr_returns++;
	else
		b->nr_entries++;
	return 0;
}

static int opev_batch_line(struct opev_batch *b, char *line)
{
	struct opev_error err;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	line = strim(line);
	if (!*line)
		return 0;
	b->def.args = b->args;
	b->def.buf = b->buf;
	if (opev_parse(line, &b->def, opev_this_arch(), &err)) {
		opev_log_error(line, err.column, opev_error_text(err.code));
		return -EINVAL;
	}
	if (b->def.cmd == OPEV_CMD_REMOVE)
		return opev_batch_remove(b, line);
	return opev_batch_add(b, line);
}

/*
 * Register every new probe of @b, entry probes in one batch and return
 * probes in another.  On failure none stays registered and the line at
 * fault is logged.
 */
static int opev_batch_register(struct opev_batch *b)
{
	struct optretprobe **rps = NULL;
	struct opev_event *ev, *bad;
	struct optprobe **ps = NULL;
	unsigned int i = 0, j = 0, failed;
	int ret = -ENOMEM;

	ps = kvmalloc_array(max(b->nr_entries, 1U), sizeof(*ps), GFP_KERNEL);
	rps = kvmalloc_array(max(b->nr_returns, 1U), sizeof(*rps), GFP_KERNEL);
	if (!ps || !rps)
		goto out;
	list_for_each_entry(ev, &b->adds, list) {
		if (ev->is_return)
			rps[j++] = &ev->rprobe;
		else
			ps[i++] = &ev->probe;
	}
	ret = optprobe_register_batch(ps, i, &failed);
	if (ret) {
		bad = container_of(ps[failed], struct opev_event, probe);
		goto log;
	}
	ret = optretprobe_register_batch(rps, j, &failed);
	if (ret) {
		optprobe_unregister_many(ps, i);
		bad = container_of(rps[failed], struct opev_event, rprobe);
		goto log;
	}
	goto out;
log:
	opev_log_error(bad->text, bad->def.loc_column, opev_error_text(opev_err_of_errno(ret)));
out:
	kvfree(ps);
	kvfree(rps);
	return ret;
}

/* Unregister the probes of the events on @head, in two batches. */
static void opev_unregister(struct list_head *head)
{
	struct optretprobe **rps;
	struct opev_event *ev;
	struct optprobe **ps;
	unsigned int n = 0, i = 0, j = 0;

	list_for_each_entry(ev, head, list)
		n++;
	ps = kvmalloc_array(max(n, 1U), sizeof(*ps), GFP_KERNEL);
	rps = kvmalloc_array(max(n, 1U), sizeof(*rps), GFP_KERNEL);
	list_for_each_entry(ev, head, list) {
		if (!ps || !rps) {
			/* no memory for batches: one at a time */
			if (ev->is_return)
				optretprobe_unregister(&ev->rprobe);
			else
				optprobe_unregister(&ev->probe);
		} else if (ev->is_return) {
			rps[j++] = &ev->rprobe;
		} else {
			ps[i++] = &ev->probe;
		}
	}
	if (ps && rps) {
		optprobe_unregister_many(ps, i);
		optretprobe_unregister_many(rps, j);
	}
	kvfree(ps);
	kvfree(rps);
}

/* Take the events on @head out of the kernel's, unregister and free them. */
static void opev_destroy(struct list_head *head, bool registered)
{
	struct opev_event *ev, *tmp;

	list_for_each_entry(ev, head, list)
		opev_event_remove(ev);
	if (registered)
		opev_unregister(head);
	list_for_each_entry_safe(ev, tmp, head, list) {
		list_del(&ev->list);
		if (registered)
			module_put(THIS_MODULE);
		opev_event_free(ev);
	}
}

/* Add the batch's events to the kernel's; on failure none stays. */
static int opev_batch_add_events(struct opev_batch *b)
{
	struct opev_event *ev;
	int ret;

	list_for_each_entry(ev, &b->adds, list) {
		ret = opev_event_add(ev);
		if (ret) {
			opev_log_error(ev->text, 0, opev_error_text(OPEV_ERR_NO_MEMORY));
			return ret;
		}
	}
	return 0;
}

static int opev_batch_run(struct opev_batch *b, char *text)
{
	struct opev_event *ev;
	char *line;
	int ret = 0;

	while (!ret && (line = strsep(&text, "\n")))
		ret = opev_batch_line(b, line);
	if (!ret)
		ret = opev_batch_register(b);
	if (!ret) {
		/* each registered event holds optprobe: no rmmod under it */
		list_for_each_entry(ev, &b->adds, list)
			__module_get(THIS_MODULE);
	}
	if (ret) {
		/* nothing of this write stays: the removed go back */
		list_splice_tail_init(&b->removes, &opev_events);
		opev_destroy(&b->adds, false);
		return ret;
	}
	ret = opev_batch_add_events(b);
	if (ret) {
		list_splice_tail_init(&b->removes, &opev_events);
		opev_destroy(&b->adds, true);
		return ret;
	}
	opev_destroy(&b->removes, true);
	list_splice_tail_init(&b->adds, &opev_events);
	return 0;
}

static ssize_t opev_events_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	struct opev_batch b = {};
	char *text;
	int ret;

	if (count > OPEV_WRITE_MAX)
		return -E2BIG;
	text = kvmalloc(count + 1, GFP_KERNEL);
	b.args = kvmalloc_array(OPEV_MAX_ARGS, sizeof(*b.args), GFP_KERNEL);
	b.buf = kvmalloc(count + 1, GFP_KERNEL);
	ret = -ENOMEM;
	if (!text || !b.args || !b.buf)
		goto out;
	ret = -EFAULT;
	if (copy_from_user(text, ubuf, count))
		goto out;
	text[count] = '\0';
	INIT_LIST_HEAD(&b.adds);
	INIT_LIST_HEAD(&b.removes);
	mutex_lock(&opev_mutex);
	ret = opev_batch_run(&b, text);
	mutex_unlock(&opev_mutex);
out:
	kvfree(b.buf);
	kvfree(b.args);
	kvfree(text);
	return ret ?: count;
}

/* Under opev_mutex: every event goes, or none if any is in use. */
static int opev_remove_all(void)
{
	struct opev_event *ev;
	LIST_HEAD(all);

	list_for_each_entry(ev, &opev_events, list)
		if (opev_event_busy(ev))
			return -EBUSY;
	list_splice_init(&opev_events, &all);
	opev_destroy(&all, true);
	return 0;
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
		mutex_lock(&opev_mutex);
		ret = opev_remove_all();
		mutex_unlock(&opev_mutex);
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

/* As the kernel's kprobe_profile, then the mode and why not optimized. */
static int opev_profile_show(struct seq_file *m, void *v)
{
	struct opev_event *ev = list_entry(v, struct opev_event, list);
	enum optprobe_mode mode = opev_event_mode(ev);

	seq_printf(m, "  %-44s %15lu %15lu  %-9s %s\n", ev->def.event, opev_event_hits(ev),
		   opev_event_missed(ev), op_mode_name(mode),
		   mode == OPTPROBE_MODE_OPTIMIZED ? "" : opev_event_reason(ev));
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

/* The kernel's event_mutex, which adding and removing an event needs held. */
struct mutex *opev_event_mutex;

static const struct op_ksym opev_ksyms[] = {
	{ .name = "event_mutex", .slot = (void **)&opev_event_mutex, .addr_only = true },
};

int opev_init(void)
{
	unsigned int i;
	int ret;

	ret = op_ksyms_resolve(opev_ksyms, ARRAY_SIZE(opev_ksyms));
	if (ret) {
		pr_warn("no trace events (/dev/optprobe_events): the kernel's event_mutex not found\n");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(opev_devices); i++) {
		ret = misc_register(&opev_devices[i]);
		if (ret) {
			while (i--)
				misc_deregister(&opev_devices[i]);
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
	opev_errlog_clear();
}
