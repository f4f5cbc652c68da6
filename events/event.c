// SPDX-License-Identifier: GPL-2.0
/*
 * One definition's trace event.  Each has a class of its own that names a
 * tracepoint it allocates (TRACE_EVENT_FL_TRACEPOINT, as synthetic events
 * do): tracefs, perf and BPF programs of type tracepoint then all take it
 * for what it is, an event with a format and an id.  It is a dynamic
 * event (TRACE_EVENT_FL_DYNAMIC): files of it held open keep it
 * (call->refcnt), and removing it is refused meanwhile.  It is not marked
 * a kprobe event: BPF would take its probe for a kernel kprobe.
 *
 * The probe is registered with the definition, disarmed; the event's
 * first user (a tracefs instance enabling it, or a perf event) arms it,
 * and a moment after the last one goes, a work item disarms it with the
 * others whose users went meanwhile, in one batch.  Users come and go
 * through the class's reg(), under the kernel's event_mutex: the hit
 * path walks the enabled instances' files under RCU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "events.h"
#include "ksyms.h"

/* Rebase a pointer into @from's copy of the line onto @to's. */
static const char *opev_rebase(const char *p, const char *from, char *to)
{
	return p ? to + (p - from) : NULL;
}

struct opev_event *opev_event_alloc(const struct opev_def *def, const char *line)
{
	size_t len = strlen(line) + 1;
	struct opev_event *ev;
	unsigned int i;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->files);
	ev->def = *def;
	/* the parser's copy, its NULs in: the definition's strings point there */
	ev->line = kmemdup(def->buf, len, GFP_KERNEL);
	ev->text = kstrdup(line, GFP_KERNEL);
	ev->args = kmemdup(def->args, sizeof(*def->args) * max(def->nr_args, 1U), GFP_KERNEL);
	ev->fields = kcalloc(max(def->nr_args, 1U), sizeof(*ev->fields), GFP_KERNEL);
	ev->nhit = alloc_percpu(unsigned long);
	if (!ev->line || !ev->text || !ev->args || !ev->fields || !ev->nhit) {
		opev_event_free(ev);
		return NULL;
	}
	ev->def.buf = ev->line;
	ev->def.args = ev->args;
	ev->def.proto = NULL;	/* the batch's, read while parsing only */
	ev->def.module = opev_rebase(def->module, def->buf, ev->line);
	ev->def.symbol = opev_rebase(def->symbol, def->buf, ev->line);
	for (i = 0; i < def->nr_args; i++)
		ev->args[i].symbol = opev_rebase(def->args[i].symbol, def->buf, ev->line);
	ev->is_return = def->cmd == OPEV_CMD_RETURN;
	ev->is_marker = def->cmd == OPEV_CMD_MARKER;
	return ev;
}

void opev_event_free(struct opev_event *ev)
{
	kfree(ev->marker_format);
	kfree(ev->call.print_fmt);
	kfree(ev->target);
	free_percpu(ev->nhit);
	kfree(ev->fields);
	kfree(ev->args);
	kfree(ev->line);
	kfree(ev->text);
	kfree(ev);
}

/* A record's head, then its arguments (@dsize bytes of strings after them). */
static void opev_fill(struct opev_event *ev, struct pt_regs *regs,
		      const unsigned long *args, void *rec, unsigned int dsize,
		      unsigned long ip, unsigned long ret_ip)
{
	/* no stale bytes between aligned fields (only entry heads have them) */
	if (ev->padded)
		memset(rec + sizeof(struct opev_entry_head), 0,
		       ev->fixed_size - sizeof(struct opev_entry_head));
	if (ev->is_return) {
		((struct opev_return_head *)rec)->func = ip;
		((struct opev_return_head *)rec)->ret_ip = ret_ip;
	} else {
		((struct opev_entry_head *)rec)->ip = ip;
	}
	opev_fetch_store(ev, regs, args, rec, dsize);
}

/* Reserve, fill and commit one record in @file's ring buffer. */
static void opev_record_trace(struct opev_event *ev, struct trace_event_file *file,
			      struct pt_regs *regs, const unsigned long *args,
			      unsigned long ip, unsigned long ret_ip)
{
	struct trace_event_buffer fbuffer;
	unsigned int dsize;
	void *rec;

	if (trace_trigger_soft_disabled(file))
		return;
	dsize = ev->strings ? opev_fetch_dynamic_size(ev, regs, args) : 0;
	rec = trace_event_buffer_reserve(&fbuffer, file, ev->fixed_size + dsize);
	if (!rec)
		return;
	fbuffer.regs = regs;
	opev_fill(ev, regs, args, rec, dsize, ip, ret_ip);
	trace_event_buffer_commit(&fbuffer);
}

#ifdef CONFIG_PERF_EVENTS
/* The record for perf and for BPF programs attached to the event. */
static void opev_record_perf(struct opev_event *ev, struct pt_regs *regs,
			     const unsigned long *args, unsigned long ip,
			     unsigned long ret_ip)
{
	struct trace_event_call *call = &ev->call;
	struct hlist_head *head = this_cpu_ptr(call->perf_events);
	unsigned int dsize, size;
	void *rec;
	int rctx;

	if (!bpf_prog_array_valid(call) && hlist_empty(head))
		return;
	dsize = ev->strings ? opev_fetch_dynamic_size(ev, regs, args) : 0;
	/* the u32 perf puts before the record, then u64 alignment */
	size = ALIGN(ev->fixed_size + dsize + sizeof(u32), sizeof(u64)) - sizeof(u32);
	rec = perf_trace_buf_alloc(size, NULL, &rctx);
	if (!rec)
		return;
	/* the alignment's padding (opev_fill() clears what strings leave) */
	memset(rec + ev->fixed_size + dsize, 0, size - ev->fixed_size - dsize);
	opev_fill(ev, regs, args, rec, dsize, ip, ret_ip);
	perf_trace_run_bpf_submit(rec, size, rctx, call, 1, regs, head, NULL);
}
#else
static void opev_record_perf(struct opev_event *ev, struct pt_regs *regs,
			     const unsigned long *args, unsigned long ip,
			     unsigned long ret_ip)
{
}
#endif

/*
 * A hit of @ev: @args are a return probe's arguments saved at the entry
 * (NULL for an entry probe, which reads them from @regs).
 */
static void opev_hit(struct opev_event *ev, struct pt_regs *regs,
		     const unsigned long *args, unsigned long ip, unsigned long ret_ip)
{
	/*
	 * The ring buffer takes one level of preemption depth off for its
	 * caller's, a tracepoint's (tracing_gen_ctx_dec()).  A handler
	 * reached through ftrace has it; one reached through a breakpoint or
	 * a detour runs with interrupts off instead, and without this the
	 * record's preempt depth and flags would underflow.
	 */
	bool depth = !(preempt_count() & PREEMPT_MASK);
	struct opev_file *f;

	/* armed still, its last user gone (opev_disarm_fn()) */
	if (list_empty(&ev->files) && !READ_ONCE(ev->perf_users))
		return;
	if (depth)
		preempt_disable_notrace();
	this_cpu_inc(*ev->nhit);
	/* handlers run inside an RCU read-side section of optprobe's */
	list_for_each_entry_rcu(f, &ev->files, list)
		opev_record_trace(ev, f->file, regs, args, ip, ret_ip);
	if (READ_ONCE(ev->perf_users))
		opev_record_perf(ev, regs, args, ip, ret_ip);
	if (depth)
		preempt_enable_notrace();
}

static int opev_entry_hit(struct optprobe *p, struct pt_regs *regs)
{
	struct opev_event *ev = container_of(p, struct opev_event, probe);

	opev_hit(ev, regs, NULL, (unsigned long)p->addr, 0);
	return 0;
}

/* A marker's hit: its $argN are @args; the record's ip, the marker's site. */
static void opev_marker_hit(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			    const u64 *args)
{
	struct opev_event *ev = container_of(mp, struct opev_event, mprobe);

	BUILD_BUG_ON(sizeof(u64) != sizeof(unsigned long));
	opev_hit(ev, regs, (const unsigned long *)args, instruction_pointer(regs), 0);
}

/*
 * A return probe's data for a call: the function's address, for the
 * record's func, then the arguments its $argN read, saved at the entry.
 */
struct opev_call_data {
	unsigned long func;
	unsigned long args[];
};

/* The highest $argN a return probe can save */
#define OPEV_MAX_ENTRY_ARGS \
	((OPTRETPROBE_DATA_MAX - sizeof(struct opev_call_data)) / sizeof(unsigned long))

static void opev_return_hit(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	struct opev_event *ev = container_of(rp, struct opev_event, rprobe);
	struct opev_call_data *call = data;

	opev_hit(ev, regs, call->args, call->func, instruction_pointer(regs));
}

static int opev_return_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	struct opev_event *ev = container_of(rp, struct opev_event, rprobe);
	struct opev_call_data *call = data;

	call->func = ev->func;
	opev_fetch_entry_args(ev, regs, call->args);
	return 0;
}

/*
 * _text+N, as perf probe --definition writes a kernel location: an
 * address in kernel text, in whatever function (kallsyms sizes _text as
 * the bytes up to the next symbol, too few for an offset into it).
 */
static bool opev_text_relative(const struct opev_def *def)
{
	return def->symbol && !def->module && !strcmp(def->symbol, "_text");
}

/* A return probe's function, for its records; 0 if kallsyms does not know it. */
static unsigned long opev_event_func(struct opev_event *ev)
{
	if (ev->target)
		return op_kcall(kallsyms_lookup_name)(ev->target);
	return (unsigned long)ev->rprobe.addr;
}

/*
 * The definition's probe, disarmed, ready to register.  -ENOMEM, or
 * -ENOENT for a return probe on a symbol kallsyms does not know (a
 * pending event's is looked up when its module comes).  A marker
 * probe's format is the one its marker was found with (marker.c).
 */
int opev_event_init_probe(struct opev_event *ev)
{
	unsigned int flags = OPTPROBE_F_DISABLED | OPTPROBE_F_QUIET;
	const struct opev_def *def = &ev->def;
	unsigned long addr = def->addr, offset = def->offset;

	if (ev->is_marker) {
		ev->mprobe.module = def->module;
		ev->mprobe.name = def->symbol;
		ev->mprobe.format = ev->marker_format;
		ev->mprobe.handler = opev_marker_hit;
		ev->mprobe.flags = flags;
		return 0;
	}
	if (opev_text_relative(def)) {
		addr = op_kcall(kallsyms_lookup_name)("_text") + offset;
		offset = 0;
	} else if (def->symbol) {
		/* what kallsyms takes: "mod:sym" for a module's symbol */
		if (def->module)
			ev->target = kasprintf(GFP_KERNEL, "%s:%s", def->module, def->symbol);
		else
			ev->target = kstrdup(def->symbol, GFP_KERNEL);
		if (!ev->target)
			return -ENOMEM;
	}
	if (!ev->is_return) {
		ev->probe.symbol = ev->target;
		ev->probe.addr = ev->target ? NULL : (void *)addr;
		ev->probe.offset = offset;
		ev->probe.pre_handler = opev_entry_hit;
		ev->probe.flags = flags;
		return 0;
	}
	ev->rprobe.symbol = ev->target;
	ev->rprobe.addr = ev->target ? NULL : (void *)addr;
	ev->rprobe.entry_handler = opev_return_entry;
	ev->rprobe.handler = opev_return_hit;
	ev->rprobe.data_size = sizeof(struct opev_call_data) +
			       ev->entry_args * sizeof(unsigned long);
	ev->rprobe.maxactive = def->maxactive;
	ev->rprobe.flags = flags;
	if (ev->pending)
		return 0;
	/* the records' func; registering checks it is a function's start */
	ev->func = opev_event_func(ev);
	return ev->func ? 0 : -ENOENT;
}

/*
 * A pending event's probe, registered disarmed as its module comes (a
 * marker probe's format found first: marker.c).
 */
int opev_event_register(struct opev_event *ev)
{
	if (ev->is_marker)
		return optprobe_marker_register(&ev->mprobe);
	if (!ev->is_return)
		return optprobe_register(&ev->probe);
	ev->func = opev_event_func(ev);
	if (!ev->func)
		return -ENOENT;
	return optretprobe_register(&ev->rprobe);
}

void opev_event_unregister(struct opev_event *ev)
{
	if (ev->is_marker)
		optprobe_marker_unregister(&ev->mprobe);
	else if (ev->is_return)
		optretprobe_unregister(&ev->rprobe);
	else
		optprobe_unregister(&ev->probe);
}

/* Room for the probes of @n events.  Return: 0, or -ENOMEM. */
int opev_probes_alloc(struct opev_probes *pr, unsigned int n)
{
	pr->ps = kvmalloc_array(max(n, 1U), sizeof(*pr->ps), GFP_KERNEL);
	pr->rps = kvmalloc_array(max(n, 1U), sizeof(*pr->rps), GFP_KERNEL);
	pr->mps = kvmalloc_array(max(n, 1U), sizeof(*pr->mps), GFP_KERNEL);
	pr->nr_ps = 0;
	pr->nr_rps = 0;
	pr->nr_mps = 0;
	if (pr->ps && pr->rps && pr->mps)
		return 0;
	opev_probes_free(pr);
	return -ENOMEM;
}

void opev_probes_add(struct opev_probes *pr, struct opev_event *ev)
{
	if (ev->is_marker)
		pr->mps[pr->nr_mps++] = &ev->mprobe;
	else if (ev->is_return)
		pr->rps[pr->nr_rps++] = &ev->rprobe;
	else
		pr->ps[pr->nr_ps++] = &ev->probe;
}

/* Unregister every probe of @pr: entry and return probes in a batch each. */
void opev_probes_unregister(struct opev_probes *pr)
{
	unsigned int i;

	optprobe_unregister_many(pr->ps, pr->nr_ps);
	optretprobe_unregister_many(pr->rps, pr->nr_rps);
	for (i = 0; i < pr->nr_mps; i++)
		optprobe_marker_unregister(pr->mps[i]);
}

/* Disarm every probe of @pr, as opev_probes_unregister() unregisters them. */
void opev_probes_disable(struct opev_probes *pr)
{
	unsigned int i;

	optprobe_disable_many(pr->ps, pr->nr_ps);
	optretprobe_disable_many(pr->rps, pr->nr_rps);
	for (i = 0; i < pr->nr_mps; i++)
		optprobe_marker_disable(pr->mps[i]);
}

void opev_probes_free(struct opev_probes *pr)
{
	kvfree(pr->ps);
	kvfree(pr->rps);
	kvfree(pr->mps);
	pr->ps = NULL;
	pr->rps = NULL;
	pr->mps = NULL;
}

static unsigned int opev_users(const struct opev_event *ev)
{
	return ev->nr_files + ev->perf_users;
}

/*
 * Under event_mutex: arm the probe of an event that has a user.  A
 * pending event's is armed when its module comes (module.c); one whose
 * last user went a moment ago is armed still (opev_disarm_fn()).
 */
static int opev_arm(struct opev_event *ev)
{
	int ret;

	if (ev->pending || ev->armed)
		return 0;
	if (ev->is_marker)
		ret = optprobe_marker_enable(&ev->mprobe);
	else if (ev->is_return)
		ret = optretprobe_enable(&ev->rprobe);
	else
		ret = optprobe_enable(&ev->probe);
	ev->armed = !ret;
	/* its module going, about to make it pending (module.c) */
	if (ret == -ENOENT && ev->def.module)
		return 0;
	return ret;
}

/*
 * The last user of an event goes at once, and its probe is disarmed a
 * moment later, together with every other event's whose users went
 * meanwhile (optprobe_disable_many()): disabling a group of thousands of
 * events would otherwise change text and wait for a grace period once
 * for each.  Until then its hits record nothing (opev_hit()).
 */
static void opev_disarm_fn(struct work_struct *work)
{
	struct opev_probes pr;
	struct opev_event *ev;
	unsigned int n = 0;
	bool batch;

	mutex_lock(&opev_mutex);
	mutex_lock(opev_event_mutex);
	list_for_each_entry(ev, &opev_events, list)
		n += ev->armed && !opev_users(ev);
	batch = !opev_probes_alloc(&pr, n);
	list_for_each_entry(ev, &opev_events, list) {
		if (!ev->armed || opev_users(ev))
			continue;
		if (batch)
			opev_probes_add(&pr, ev);
		else if (ev->is_marker)	/* no memory for batches: one at a time */
			optprobe_marker_disable(&ev->mprobe);
		else if (ev->is_return)
			optretprobe_disable(&ev->rprobe);
		else
			optprobe_disable(&ev->probe);
	}
	if (batch) {
		opev_probes_disable(&pr);
		opev_probes_free(&pr);
	}
	/* armed still where disabling failed: the next user to go tries again */
	list_for_each_entry(ev, &opev_events, list)
		if (ev->armed && !opev_users(ev))
			ev->armed = opev_event_mode(ev) != OPTPROBE_MODE_DISABLED &&
				    opev_event_mode(ev) != OPTPROBE_MODE_GONE;
	mutex_unlock(opev_event_mutex);
	mutex_unlock(&opev_mutex);
}

static DECLARE_WORK(opev_disarm_work, opev_disarm_fn);

/* optprobe's unload: no disarming left to do, nor running. */
void opev_events_flush(void)
{
	flush_work(&opev_disarm_work);
}

/* Under event_mutex: the users of the event change. */
static int opev_users_changed(struct opev_event *ev, int delta)
{
	if (delta > 0)
		return opev_arm(ev);	/* nothing to do if armed */
	if (delta < 0 && !opev_users(ev))
		schedule_work(&opev_disarm_work);
	return 0;
}

/*
 * Under event_mutex: a pending event's probe is registered now, its
 * module having come; armed if the event has users already.
 */
int opev_event_unpend_locked(struct opev_event *ev)
{
	ev->pending = false;
	return opev_users(ev) ? opev_arm(ev) : 0;
}

static int opev_file_add(struct opev_event *ev, struct trace_event_file *file)
{
	struct opev_file *f = kzalloc(sizeof(*f), GFP_KERNEL);
	int ret;

	if (!f)
		return -ENOMEM;
	f->file = file;
	ev->nr_files++;
	ret = opev_users_changed(ev, 1);
	if (ret) {
		ev->nr_files--;
		kfree(f);
		return ret;
	}
	list_add_tail_rcu(&f->list, &ev->files);
	return 0;
}

static int opev_file_del(struct opev_event *ev, struct trace_event_file *file)
{
	struct opev_file *f;

	list_for_each_entry(f, &ev->files, list) {
		if (f->file != file)
			continue;
		list_del_rcu(&f->list);
		ev->nr_files--;
		opev_users_changed(ev, -1);
		kfree_rcu(f, rcu);
		return 0;
	}
	return -ENOENT;
}

static int opev_reg(struct trace_event_call *call, enum trace_reg type, void *data)
{
	struct opev_event *ev = call->data;
	int ret;

	switch (type) {
	case TRACE_REG_REGISTER:
		return opev_file_add(ev, data);
	case TRACE_REG_UNREGISTER:
		return opev_file_del(ev, data);
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		WRITE_ONCE(ev->perf_users, ev->perf_users + 1);
		ret = opev_users_changed(ev, 1);
		if (ret)
			WRITE_ONCE(ev->perf_users, ev->perf_users - 1);
		return ret;
	case TRACE_REG_PERF_UNREGISTER:
		WRITE_ONCE(ev->perf_users, ev->perf_users - 1);
		return opev_users_changed(ev, -1);
#endif
	default:
		return 0;
	}
}

static struct trace_event_fields opev_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = opev_output_define_fields },
	{}
};

/* The event's class and call, once its layout is known. */
static int opev_event_prepare(struct opev_event *ev)
{
	ev->tp.name = ev->def.event;
	ev->class.system = ev->def.group;
	ev->class.reg = opev_reg;
	ev->class.fields_array = opev_fields_array;
	ev->call.class = &ev->class;
	ev->call.event.funcs = ev->is_return ? &opev_return_funcs : &opev_entry_funcs;
	ev->call.flags = TRACE_EVENT_FL_TRACEPOINT | TRACE_EVENT_FL_DYNAMIC;
	ev->call.tp = &ev->tp;
	ev->call.data = ev;
	return opev_output_set_print_fmt(ev);
}

/* The type format shows for a number, as the kernel's fetch types name it. */
static void opev_number_type(struct opev_field *f)
{
	const struct opev_type *t = &f->arg->type;
	char base[8];

	/* char is the kernel's alias of u8 */
	snprintf(base, sizeof(base), "%c%u", t->kind == OPEV_TYPE_S ? 's' : 'u',
		 t->size * BITS_PER_BYTE);
	if (t->array)
		snprintf(f->type, sizeof(f->type), "%s[%u]", base, t->array);
	else
		strscpy(f->type, base, sizeof(f->type));
}

/*
 * Where each argument goes in a record, and the addresses of @SYM
 * arguments.  On failure, the error and its column for the error log.
 */
int opev_event_layout(struct opev_event *ev, int *code, unsigned int *column)
{
	unsigned int i, offset = ev->is_return ? sizeof(struct opev_return_head) :
						 sizeof(struct opev_entry_head);

	for (i = 0; i < ev->def.nr_args; i++) {
		struct opev_field *f = &ev->fields[i];
		const struct opev_arg *a = &ev->args[i];
		enum opev_type_kind k = a->type.kind;

		f->arg = a;
		f->count = a->type.array ?: 1;
		f->string = k == OPEV_TYPE_STRING || k == OPEV_TYPE_USTRING ||
			    k == OPEV_TYPE_SYMSTR;
		f->user = f->string && (k == OPEV_TYPE_USTRING ||
					(a->nr_derefs && a->derefs[a->nr_derefs - 1].user));
		if (f->string && a->type.array) {
			/* arrays of strings: not supported here */
			*code = OPEV_ERR_BAD_ARRAY_SUFFIX;
			*column = a->column;
			return -EINVAL;
		}
		if (f->string) {
			f->size = sizeof(u32);
			/* the kernel's string fetch types are signed */
			f->is_signed = true;
			strscpy(f->type, "__data_loc char[]", sizeof(f->type));
		} else {
			f->size = a->type.size;
			f->is_signed = k == OPEV_TYPE_S;
			opev_number_type(f);
		}
		/*
		 * A kprobe event's fields are packed, as the kernel's are; a
		 * marker's, which has no kernel counterpart, are aligned as a
		 * tracepoint's C struct is: BPF programs (bpftrace) read a
		 * tracepoint's record as one.
		 */
		if (ev->is_marker && !IS_ALIGNED(offset, f->size)) {
			offset = ALIGN(offset, f->size);
			ev->padded = true;
		}
		f->offset = offset;
		if (a->base == OPEV_BASE_SYMBOL) {
			f->symbol_addr = op_kcall(kallsyms_lookup_name)(a->symbol);
			if (!f->symbol_addr) {
				*code = OPEV_ERR_BAD_MEM_ADDR;
				*column = a->column;
				return -ENOENT;
			}
			f->symbol_addr += a->value;
		}
		if (ev->is_return && a->base == OPEV_BASE_ARG) {
			if (a->index > OPEV_MAX_ENTRY_ARGS) {
				*code = OPEV_ERR_TOO_MANY_ARGS;
				*column = a->column;
				return -E2BIG;
			}
			ev->entry_args = max(ev->entry_args, a->index);
		}
		offset += f->size * f->count;
		ev->strings |= f->string;
	}
	ev->fixed_size = offset;
	return opev_event_prepare(ev);
}

/*
 * A deferred event (an m: one whose fields waited for its marker's
 * format) takes the fields @from, the same line laid out since
 * (opev_event_layout()), was given; @from takes what @ev had, to be
 * freed with it.  Neither is registered or among the kernel's events.
 */
int opev_event_take_layout(struct opev_event *ev, struct opev_event *from)
{
	int ret;

	swap(ev->def, from->def);
	swap(ev->line, from->line);
	swap(ev->args, from->args);
	swap(ev->fields, from->fields);
	swap(ev->fixed_size, from->fixed_size);
	swap(ev->strings, from->strings);
	swap(ev->padded, from->padded);
	ret = opev_event_prepare(ev);
	if (ret) {
		swap(ev->def, from->def);
		swap(ev->line, from->line);
		swap(ev->args, from->args);
		swap(ev->fields, from->fields);
		swap(ev->fixed_size, from->fixed_size);
		swap(ev->strings, from->strings);
		swap(ev->padded, from->padded);
		return ret;
	}
	ev->deferred = false;
	return 0;
}

/* The two events' records have the same fields, where and as they are. */
bool opev_event_same_layout(const struct opev_event *a, const struct opev_event *b)
{
	unsigned int i;

	if (a->def.nr_args != b->def.nr_args || a->fixed_size != b->fixed_size ||
	    strcmp(a->call.print_fmt, b->call.print_fmt))
		return false;
	for (i = 0; i < a->def.nr_args; i++) {
		const struct opev_field *fa = &a->fields[i], *fb = &b->fields[i];

		if (strcmp(fa->arg->name, fb->arg->name) || strcmp(fa->type, fb->type) ||
		    fa->offset != fb->offset || fa->size != fb->size ||
		    fa->count != fb->count || fa->string != fb->string ||
		    fa->user != fb->user)
			return false;
	}
	return true;
}

/*
 * Under event_mutex: make the event known to tracefs, perf and BPF; a
 * deferred one waits for its fields.
 */
int opev_event_add_locked(struct opev_event *ev)
{
	int ret;

	if (ev->deferred)
		return 0;
	/* a type and fields of its own each time: it may have been removed */
	INIT_LIST_HEAD(&ev->class.fields);
	ev->call.event.type = 0;
	if (!register_trace_event(&ev->call.event))
		return -ENODEV;
	ret = trace_add_event_call(&ev->call);
	if (ret) {
		unregister_trace_event(&ev->call.event);
		return ret;
	}
	ev->added = true;
	return 0;
}

/* Under event_mutex: -EBUSY while anything uses the event. */
int opev_event_busy(struct opev_event *ev)
{
	if (!ev->added)
		return 0;
	if (ev->nr_files || READ_ONCE(ev->perf_users) || atomic_read(&ev->call.refcnt))
		return -EBUSY;
	return 0;
}

/*
 * Under event_mutex, the event not busy: take it out of the kernel's
 * events (its probe stays registered).
 */
void opev_event_remove_locked(struct opev_event *ev)
{
	if (!ev->added)
		return;
	/* unused, and nothing can start using it while event_mutex is held */
	WARN_ON_ONCE(trace_remove_event_call(&ev->call));
	ev->added = false;
}

unsigned long opev_event_hits(struct opev_event *ev)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(ev->nhit, cpu);
	return sum;
}

enum optprobe_mode opev_event_mode(struct opev_event *ev)
{
	if (ev->is_marker)
		return optprobe_marker_mode(&ev->mprobe);
	return ev->is_return ? optretprobe_mode(&ev->rprobe) : optprobe_mode(&ev->probe);
}

unsigned long opev_event_missed(struct opev_event *ev)
{
	if (ev->is_marker)
		return READ_ONCE(ev->mprobe.nmissed);
	return ev->is_return ? READ_ONCE(ev->rprobe.nmissed) : READ_ONCE(ev->probe.nmissed);
}

/* A marker's site needs no decision (optprobe_marker_register()): no reason. */
const char *opev_event_reason(struct opev_event *ev)
{
	if (ev->is_return || ev->is_marker)
		return "";
	return optprobe_reason(&ev->probe);
}
