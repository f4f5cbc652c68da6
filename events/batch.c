// SPDX-License-Identifier: GPL-2.0
/*
 * One write to /dev/optprobe_events: all or nothing, whatever its length.
 *
 *  1. Every line is parsed; a new event gets its layout and its probe
 *     (unregistered), a removal takes its event off the list of names.
 *  2. The new events' probes are registered, entry probes in one batch
 *     and return probes in another (optprobe_register_batch()), marker
 *     probes one by one; those of modules not loaded wait for them
 *     (module.c).
 *  3. Under the kernel's event_mutex, held throughout so that nothing
 *     can enable, record or open an event in between: the removed events
 *     must be unused, they leave the kernel's events, and the new ones
 *     join (removals first: a write may remove a name and define it
 *     again).  A failure there puts everything back as it was.
 *
 * The line at fault in any step is logged (errlog.c).  Names are found
 * through a hash table, so that a write of many thousand lines does not
 * compare each with all the others.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/uaccess.h>

#include "events.h"

/* The most one write may carry: 64 bytes for each of 256 Ki lines. */
#define OPEV_WRITE_MAX		(16 << 20)

/* At most this many events: the kernel's event type ids are 16 bits. */
#define OPEV_EVENTS_MAX		32768

/* guards opev_events and opev_names, and makes each write one batch */
DEFINE_MUTEX(opev_mutex);
LIST_HEAD(opev_events);
static DEFINE_HASHTABLE(opev_names, 12);	/* every event's name, by event name */
static unsigned int opev_nr_events;

struct opev_batch {
	struct list_head adds;		/* new events, by their ->list */
	struct list_head removes;	/* events taken off opev_events */
	unsigned int nr_entries, nr_returns, nr_markers;
	struct opev_def def;		/* the parser's scratch */
	struct opev_arg *args;
	char *buf;
	struct opev_proto *proto;
};

static enum opev_arch opev_this_arch(void)
{
	return IS_ENABLED(CONFIG_X86_64) ? OPEV_ARCH_X86_64 : OPEV_ARCH_PPC64;
}

/* The error log's reason for @ev's probe refused with @err */
static int opev_err_of_errno(const struct opev_event *ev, int err)
{
	switch (err) {
	case -ENOENT:
		return ev->is_marker ? OPEV_ERR_NO_MARKER : OPEV_ERR_BAD_PROBE_SYM;
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

static u32 opev_name_hash(const char *event)
{
	return full_name_hash(NULL, event, strlen(event));
}

/* The event named @group/@event (any group if @group is ""), or NULL. */
static struct opev_event *opev_find(const char *group, const char *event)
{
	struct opev_event *ev;

	hash_for_each_possible(opev_names, ev, hash, opev_name_hash(event))
		if ((!*group || !strcmp(ev->def.group, group)) && !strcmp(ev->def.event, event))
			return ev;
	return NULL;
}

static void opev_name_add(struct opev_event *ev)
{
	hash_add(opev_names, &ev->hash, opev_name_hash(ev->def.event));
	opev_nr_events++;
}

static void opev_name_del(struct opev_event *ev)
{
	hash_del(&ev->hash);
	opev_nr_events--;
}

/* The batch's count of probes to register, of @ev's kind. */
static unsigned int *opev_batch_count(struct opev_batch *b, struct opev_event *ev)
{
	if (ev->is_marker)
		return &b->nr_markers;
	return ev->is_return ? &b->nr_returns : &b->nr_entries;
}

/*
 * A -: line: the event moves to the batch's removals; one this write
 * defined (not registered yet, no reference of its own) just goes.
 */
static int opev_batch_remove(struct opev_batch *b, const char *line)
{
	struct opev_event *ev = opev_find(b->def.group, b->def.event);

	if (!ev) {
		opev_log_error(line, 0, opev_error_text(OPEV_ERR_EVENT_NOT_FOUND));
		return -ENOENT;
	}
	opev_name_del(ev);
	if (!ev->in_batch) {
		list_move_tail(&ev->list, &b->removes);
		return 0;
	}
	list_del(&ev->list);
	if (!ev->pending)
		(*opev_batch_count(b, ev))--;
	opev_event_free(ev);
	return 0;
}

/* @group/@event is among this write's removals. */
static bool opev_batch_removes(struct opev_batch *b, const char *group, const char *event)
{
	struct opev_event *ev;

	list_for_each_entry(ev, &b->removes, list)
		if (!strcmp(ev->def.group, group) && !strcmp(ev->def.event, event))
			return true;
	return false;
}

/*
 * A name taken by an event that is not optprobe's: the kernel's own and
 * kprobe events do not use optprobe's default group.
 */
static bool opev_name_taken_elsewhere(const char *group, const char *event)
{
	struct trace_event_file *file;

	if (!strcmp(group, OPEV_DEFAULT_GROUP))
		return false;
	file = trace_get_event_file(NULL, group, event);
	if (IS_ERR(file))
		return false;
	trace_put_event_file(file);
	return true;
}

/*
 * An m: line's event waits for its marker's format, unless the line
 * decides its fields alone (events.h).
 */
static bool opev_batch_deferred(const struct opev_def *def)
{
	return def->cmd == OPEV_CMD_MARKER && def->format_unknown && def->format_typed;
}

/* A p:, r: or m: line: a new event in the batch, its probe not registered yet. */
static int opev_batch_add(struct opev_batch *b, const char *line)
{
	bool deferred = opev_batch_deferred(&b->def);
	struct opev_event *ev;
	unsigned int column;
	int code, ret;

	if (opev_find(b->def.group, b->def.event) ||
	    (!opev_batch_removes(b, b->def.group, b->def.event) &&
	     opev_name_taken_elsewhere(b->def.group, b->def.event))) {
		opev_log_error(line, 0, opev_error_text(OPEV_ERR_SAME_EVENT));
		return -EEXIST;
	}
	if (opev_nr_events >= OPEV_EVENTS_MAX) {
		opev_log_error(line, 0, opev_error_text(OPEV_ERR_NO_MEMORY));
		return -ENOSPC;
	}
	/* its fields not known: listed as written until they are */
	if (deferred)
		b->def.nr_args = 0;
	ev = opev_event_alloc(&b->def, line);
	if (!ev)
		return -ENOMEM;
	ev->in_batch = true;
	list_add_tail(&ev->list, &b->adds);
	opev_name_add(ev);
	if (deferred) {
		ev->deferred = true;
		ev->def.raw_args = ev->text + ev->def.args_column;
	} else {
		ret = opev_event_layout(ev, &code, &column);
		if (ret) {
			opev_log_error(line, column, opev_error_text(code));
			return ret;
		}
	}
	/* as the kernel's: a module not loaded yet is waited for */
	if (ev->is_marker) {
		ret = opev_marker_init(ev);
		if (ret)
			return ret;
	} else {
		ev->pending = b->def.module && opev_module_absent(b->def.module);
	}
	ret = opev_event_init_probe(ev);
	if (ret) {
		opev_log_error(line, b->def.loc_column,
			       opev_error_text(opev_err_of_errno(ev, ret)));
		return ret;
	}
	if (!ev->pending)
		(*opev_batch_count(b, ev))++;
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
	b->def.proto = b->proto;
	if (opev_parse(line, &b->def, opev_this_arch(), opev_kernel(), &err)) {
		opev_log_error(line, err.column, opev_error_text(err.code));
		/* as for a symbol the kernel does not know */
		return err.code == OPEV_ERR_NO_MARKER ? -ENOENT : -EINVAL;
	}
	if (b->def.cmd == OPEV_CMD_REMOVE)
		return opev_batch_remove(b, line);
	return opev_batch_add(b, line);
}

/*
 * Register every new probe of @b, entry probes in one batch, return
 * probes in another, then marker probes.  On failure none stays
 * registered and the line at fault is logged.
 */
static int opev_batch_register(struct opev_batch *b)
{
	struct opev_event *ev, *bad;
	struct opev_probes pr;
	unsigned int failed;
	int ret;

	ret = opev_probes_alloc(&pr, b->nr_entries + b->nr_returns + b->nr_markers);
	if (ret)
		return ret;
	list_for_each_entry(ev, &b->adds, list)
		if (!ev->pending)
			opev_probes_add(&pr, ev);
	ret = optprobe_register_batch(pr.ps, pr.nr_ps, &failed);
	if (ret) {
		bad = container_of(pr.ps[failed], struct opev_event, probe);
		goto log;
	}
	ret = optretprobe_register_batch(pr.rps, pr.nr_rps, &failed);
	if (ret) {
		optprobe_unregister_many(pr.ps, pr.nr_ps);
		bad = container_of(pr.rps[failed], struct opev_event, rprobe);
		goto log;
	}
	for (failed = 0; failed < pr.nr_mps; failed++) {
		ret = optprobe_marker_register(pr.mps[failed]);
		if (ret)
			break;
	}
	if (ret) {
		bad = container_of(pr.mps[failed], struct opev_event, mprobe);
		/* the ones before it, and every entry and return probe */
		pr.nr_mps = failed;
		opev_probes_unregister(&pr);
		goto log;
	}
	goto out;
log:
	opev_log_error(bad->text, bad->def.loc_column,
		       opev_error_text(opev_err_of_errno(bad, ret)));
out:
	opev_probes_free(&pr);
	return ret;
}

/* Unregister the probes of the events on @head, in two batches. */
static void opev_unregister(struct list_head *head)
{
	struct opev_probes pr;
	struct opev_event *ev;
	unsigned int n = 0;
	bool batch;

	list_for_each_entry(ev, head, list)
		n++;
	batch = !opev_probes_alloc(&pr, n);
	list_for_each_entry(ev, head, list) {
		if (ev->pending)
			continue;
		if (batch)
			opev_probes_add(&pr, ev);
		else
			opev_event_unregister(ev);	/* no memory for batches */
	}
	if (batch) {
		opev_probes_unregister(&pr);
		opev_probes_free(&pr);
	}
}

/*
 * Free the events on @head, which are not among the kernel's events;
 * @registered: their probes are registered, and each holds optprobe.
 */
static void opev_destroy(struct list_head *head, bool registered)
{
	struct opev_event *ev, *tmp;

	if (registered)
		opev_unregister(head);
	list_for_each_entry_safe(ev, tmp, head, list) {
		list_del(&ev->list);
		if (registered)
			module_put(THIS_MODULE);
		opev_event_free(ev);
	}
}

/*
 * Under event_mutex: the removals leave the kernel's events, the new
 * events join.  On failure, as before, and the line at fault logged.
 */
static int opev_batch_commit_locked(struct opev_batch *b)
{
	struct opev_event *ev;
	int ret = 0;

	list_for_each_entry(ev, &b->removes, list) {
		if (opev_event_busy(ev)) {
			opev_log_error(ev->text, 0, opev_error_text(OPEV_ERR_EVENT_IN_USE));
			return -EBUSY;
		}
	}
	list_for_each_entry(ev, &b->removes, list)
		opev_event_remove_locked(ev);
	list_for_each_entry(ev, &b->adds, list) {
		ret = opev_event_add_locked(ev);
		if (ret) {
			opev_log_error(ev->text, 0, ret == -ENOMEM ?
				       opev_error_text(OPEV_ERR_NO_MEMORY) :
				       "Cannot add the trace event");
			break;
		}
	}
	if (!ret)
		return 0;
	list_for_each_entry(ev, &b->adds, list)
		opev_event_remove_locked(ev);
	list_for_each_entry(ev, &b->removes, list)
		if (opev_event_add_locked(ev))
			pr_warn("event %s/%s lost while undoing a write\n", ev->def.group,
				ev->def.event);
	return ret;
}

/* Put the removals back where they were: the write is undone. */
static void opev_batch_unremove(struct opev_batch *b)
{
	struct opev_event *ev;

	list_for_each_entry(ev, &b->removes, list)
		opev_name_add(ev);
	list_splice_tail_init(&b->removes, &opev_events);
}

static void opev_batch_unadd(struct opev_batch *b, bool registered)
{
	struct opev_event *ev;

	list_for_each_entry(ev, &b->adds, list)
		opev_name_del(ev);
	opev_destroy(&b->adds, registered);
}

static int opev_batch_run(struct opev_batch *b, char *text)
{
	struct opev_event *ev;
	char *line;
	int ret = 0;

	while (!ret && (line = strsep(&text, "\n"))) {
		ret = opev_batch_line(b, line);
		cond_resched();
	}
	if (!ret)
		ret = opev_batch_register(b);
	if (ret) {
		opev_batch_unadd(b, false);
		opev_batch_unremove(b);
		return ret;
	}
	/* each registered event holds optprobe: no rmmod under it */
	list_for_each_entry(ev, &b->adds, list)
		__module_get(THIS_MODULE);
	mutex_lock(opev_event_mutex);
	ret = opev_batch_commit_locked(b);
	mutex_unlock(opev_event_mutex);
	if (ret) {
		opev_batch_unadd(b, true);
		opev_batch_unremove(b);
		return ret;
	}
	opev_destroy(&b->removes, true);
	list_for_each_entry(ev, &b->adds, list)
		ev->in_batch = false;
	list_splice_tail_init(&b->adds, &opev_events);
	return 0;
}

ssize_t opev_batch_write(const char __user *ubuf, size_t count)
{
	struct opev_batch b = {};
	char *text;
	int ret;

	/* as the kernel's kprobe events: they can read any kernel memory */
	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret)
		return ret;
	if (count > OPEV_WRITE_MAX)
		return -E2BIG;
	text = kvmalloc(count + 1, GFP_KERNEL);
	b.args = kvmalloc_array(OPEV_MAX_ARGS, sizeof(*b.args), GFP_KERNEL);
	b.buf = kvmalloc(count + 1, GFP_KERNEL);
	b.proto = kmalloc(sizeof(*b.proto), GFP_KERNEL);
	ret = -ENOMEM;
	if (!text || !b.args || !b.buf || !b.proto)
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
	kfree(b.proto);
	kvfree(b.buf);
	kvfree(b.args);
	kvfree(text);
	return ret ?: count;
}

/* Every event goes, or none if any is in use. */
int opev_remove_all(void)
{
	struct opev_batch b = {};
	struct opev_event *ev, *tmp;
	int ret;

	INIT_LIST_HEAD(&b.adds);
	INIT_LIST_HEAD(&b.removes);
	mutex_lock(&opev_mutex);
	list_for_each_entry_safe(ev, tmp, &opev_events, list) {
		opev_name_del(ev);
		list_move_tail(&ev->list, &b.removes);
	}
	mutex_lock(opev_event_mutex);
	ret = opev_batch_commit_locked(&b);
	mutex_unlock(opev_event_mutex);
	if (ret)
		opev_batch_unremove(&b);
	else
		opev_destroy(&b.removes, true);
	mutex_unlock(&opev_mutex);
	return ret;
}
