// SPDX-License-Identifier: GPL-2.0
/*
 * How an event reads: its fields as `format` lists them, its print fmt,
 * and its records as `trace` prints them, all as the kernel's kprobe
 * events do for the same line (trace_probe.c, trace_kprobe.c), so that
 * tools that read one read the other.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/trace_seq.h>

#include "events.h"

static struct opev_event *opev_of_call(struct trace_event_call *call)
{
	return container_of(call, struct opev_event, call);
}

/*
 * The kernel's kprobe events print 64-bit values with %Lu, %Ld and %Lx in
 * their print fmt (non-standard C, but what the tools that parse print
 * fmt read): put together here only for checkpatch.
 */
#define OPEV_FMT_L(conv)	"%L" #conv

/* printf format of one element, as the kernel's print type functions */
static const char *opev_fmt(const struct opev_field *f)
{
	const struct opev_type *t = &f->arg->type;
	bool wide = f->size == 8;

	if (f->string)
		return "\\\"%s\\\"";
	switch (t->kind) {
	case OPEV_TYPE_S:
		return wide ? OPEV_FMT_L(d) : "%d";
	case OPEV_TYPE_X:
		return wide ? "0x" OPEV_FMT_L(x) : "0x%x";
	case OPEV_TYPE_CHAR:
		return "'%c'";
	case OPEV_TYPE_SYMBOL:
		return "%pS";
	default:
		return wide ? OPEV_FMT_L(u) : "%u";
	}
}

static void opev_print_element(struct trace_seq *s, const struct opev_field *f,
			       const void *p, const void *rec, unsigned int size)
{
	const struct opev_type *t = &f->arg->type;
	u64 v;

	if (f->string) {
		u32 loc = *(const u32 *)p, len = loc >> 16, off = loc & 0xffff;

		/*
		 * A record of an event removed since, whose id another now has,
		 * is not read past its end (the kernel resets the buffers only
		 * when its own dynamic events go).
		 */
		if (!len || off + len > size || ((const char *)rec)[off + len - 1])
			trace_seq_puts(s, "(fault)");
		else
			trace_seq_printf(s, "\"%s\"", (const char *)rec + off);
		return;
	}
	switch (f->size) {
	case 1:
		v = *(const u8 *)p;
		break;
	case 2:
		v = *(const u16 *)p;
		break;
	case 4:
		v = *(const u32 *)p;
		break;
	default:
		v = *(const u64 *)p;
		break;
	}
	switch (t->kind) {
	case OPEV_TYPE_S:
		trace_seq_printf(s, "%lld", f->size == 8 ? (s64)v : f->size == 4 ? (s32)v :
				 f->size == 2 ? (s16)v : (s8)v);
		break;
	case OPEV_TYPE_X:
		trace_seq_printf(s, "0x%llx", v);
		break;
	case OPEV_TYPE_CHAR:
		trace_seq_printf(s, "'%c'", (char)v);
		break;
	case OPEV_TYPE_SYMBOL:
		trace_seq_printf(s, "%pS", (void *)(unsigned long)v);
		break;
	default:
		trace_seq_printf(s, "%llu", v);
		break;
	}
}

static void opev_print_args(struct trace_seq *s, struct opev_event *ev, const void *rec,
			    unsigned int size)
{
	unsigned int i, j;

	for (i = 0; i < ev->def.nr_args; i++) {
		const struct opev_field *f = &ev->fields[i];
		const void *p = rec + f->offset;

		if (f->offset + f->size * f->count > size)
			break;	/* not this event's record (see above) */
		trace_seq_printf(s, " %s=", f->arg->name);
		if (!f->arg->type.array) {
			opev_print_element(s, f, p, rec, size);
			continue;
		}
		trace_seq_putc(s, '{');
		for (j = 0; j < f->count; j++, p += f->size) {
			opev_print_element(s, f, p, rec, size);
			trace_seq_putc(s, j == f->count - 1 ? '}' : ',');
		}
	}
}

static enum print_line_t opev_print_entry(struct trace_iterator *iter, int flags,
					  struct trace_event *event)
{
	struct opev_event *ev = opev_of_call(container_of(event, struct trace_event_call, event));
	const struct opev_entry_head *head = (const void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (%pS)", ev->def.event, (void *)head->ip);
	opev_print_args(s, ev, head, iter->ent_size);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static enum print_line_t opev_print_return(struct trace_iterator *iter, int flags,
					   struct trace_event *event)
{
	struct opev_event *ev = opev_of_call(container_of(event, struct trace_event_call, event));
	const struct opev_return_head *head = (const void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	char func[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(func, head->func);
	/* the function's name alone, as the kernel's: no " [module]" */
	trace_seq_printf(s, "%s: (%pS <- %.*s)", ev->def.event, (void *)head->ret_ip,
			 (int)strcspn(func, " "), func);
	opev_print_args(s, ev, head, iter->ent_size);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

struct trace_event_functions opev_entry_funcs = {
	.trace = opev_print_entry,
};

struct trace_event_functions opev_return_funcs = {
	.trace = opev_print_return,
};

#define LEN_OR_ZERO	(len ? len - pos : 0)

/* The print fmt into @buf (NULL: measure), as the kernel's __set_print_fmt(). */
static int opev_print_fmt(struct opev_event *ev, char *buf, int len)
{
	unsigned int i, j;
	int pos = 0;

	pos += snprintf(buf + pos, LEN_OR_ZERO, "\"%s",
			ev->is_return ? "(%lx <- %lx)" : "(%lx)");
	for (i = 0; i < ev->def.nr_args; i++) {
		const struct opev_field *f = &ev->fields[i];

		pos += snprintf(buf + pos, LEN_OR_ZERO, " %s=", f->arg->name);
		if (!f->arg->type.array) {
			pos += snprintf(buf + pos, LEN_OR_ZERO, "%s", opev_fmt(f));
			continue;
		}
		pos += snprintf(buf + pos, LEN_OR_ZERO, "{%s", opev_fmt(f));
		for (j = 1; j < f->count; j++)
			pos += snprintf(buf + pos, LEN_OR_ZERO, ",%s", opev_fmt(f));
		pos += snprintf(buf + pos, LEN_OR_ZERO, "}");
	}
	pos += snprintf(buf + pos, LEN_OR_ZERO, "\"%s", ev->is_return ?
			", REC->__probe_func, REC->__probe_ret_ip" : ", REC->__probe_ip");
	for (i = 0; i < ev->def.nr_args; i++) {
		const struct opev_field *f = &ev->fields[i];
		const char *fmt = f->string ? ", __get_str(%s)" : ", REC->%s";

		if (!f->arg->type.array) {
			pos += snprintf(buf + pos, LEN_OR_ZERO, fmt, f->arg->name);
			continue;
		}
		fmt = f->string ? ", __get_str(%s[%u])" : ", REC->%s[%u]";
		for (j = 0; j < f->count; j++)
			pos += snprintf(buf + pos, LEN_OR_ZERO, fmt, f->arg->name, j);
	}
	return pos;
}

#undef LEN_OR_ZERO

int opev_output_set_print_fmt(struct opev_event *ev)
{
	int len = opev_print_fmt(ev, NULL, 0);
	char *fmt = kmalloc(len + 1, GFP_KERNEL);

	if (!fmt)
		return -ENOMEM;
	opev_print_fmt(ev, fmt, len + 1);
	ev->call.print_fmt = fmt;
	return 0;
}

#define OPEV_DEFINE_FIELD(call, head, member, name)			\
	trace_define_field(call, "unsigned long", name,			\
			   offsetof(head, member), sizeof(unsigned long), 0, FILTER_OTHER)

/* The class's define_fields: the head's fields, then one per argument. */
int opev_output_define_fields(struct trace_event_call *call)
{
	struct opev_event *ev = opev_of_call(call);
	unsigned int i;
	int ret;

	if (ev->is_return)
		ret = OPEV_DEFINE_FIELD(call, struct opev_return_head, func, "__probe_func") ?:
		      OPEV_DEFINE_FIELD(call, struct opev_return_head, ret_ip, "__probe_ret_ip");
	else
		ret = OPEV_DEFINE_FIELD(call, struct opev_entry_head, ip, "__probe_ip");
	for (i = 0; !ret && i < ev->def.nr_args; i++) {
		const struct opev_field *f = &ev->fields[i];

		ret = trace_define_field(call, f->type, f->arg->name, f->offset,
					 f->size * f->count, f->is_signed, FILTER_OTHER);
	}
	return ret;
}
