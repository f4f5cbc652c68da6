/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe's trace events: kprobe_events lines made into events of the
 * kernel's tracefs, on optprobe's public API only (include/optprobe.h).
 *
 *   batch.c	one write of definitions: all or nothing
 *   btf.c	functions' prototypes from BTF, as 6.12 types arguments
 *   control.c	the files under /dev: the definitions, the profile, the
 *		error log
 *   errlog.c	the error log, in the shape of tracing/error_log
 *   event.c	one definition's trace event: its class, its fields, its
 *		enable (the probe armed) and its hit handlers
 *   fetch.c	the arguments' values at a hit, into a record
 *   marker.c	m: lines' static markers: their formats, and the fields
 *		of an event whose marker's format was not known
 *   module.c	events of modules not loaded: registered when one comes
 *   output.c	a record as `trace` prints it, and the event's print fmt
 *   parse.c	the grammar, pure C (host unit tests)
 *
 * An m: line's event is a probe on a static marker
 * (optprobe_marker_register()), its $argN and arg1..argN the marker's
 * arguments, typed from the marker's format (parse.h).  Its module not
 * loaded, the format is not known, and the event waits for it as a
 * MOD:SYM one does (module.c); but where its fields depend on the
 * format (an argument without a type, $arg*, or no FETCHARGS), it is
 * not among the kernel's events until the format is known: it is
 * "deferred", listed as written, and its module's coming lays it out
 * and adds it (marker.c).  Its fields stay as that first load of the
 * module made them: a later load whose marker's format would change
 * them leaves the event pending, with one line in the kernel log.  Its
 * fields are aligned to their size, where a kprobe event's are packed
 * (event.c's opev_event_layout()).
 */
#ifndef OPTPROBE_EVENTS_H
#define OPTPROBE_EVENTS_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include <optprobe.h>

#include "parse.h"

/* Longest string an argument records, as the kernel's MAX_STRING_SIZE. */
#define OPEV_MAX_STRING		PATH_MAX

/**
 * struct opev_field - where one argument's value goes in a record
 * @arg:	the parsed argument (in the event's @args)
 * @offset:	from the start of the record
 * @size:	bytes of one element (4 for a string's __data_loc word)
 * @count:	elements: the array's length, or 1
 * @string:	a __data_loc string (string, ustring, symstr, $comm)
 * @user:	a string read from user memory
 * @is_signed:	for the filter
 * @type:	the field's type as format shows it (u32, __data_loc char[]...)
 * @symbol_addr: OPEV_BASE_SYMBOL's address, resolved when defined
 */
struct opev_field {
	const struct opev_arg *arg;
	unsigned int offset;
	unsigned int size;
	unsigned int count;
	bool string;
	bool user;
	bool is_signed;
	char type[24];
	unsigned long symbol_addr;
};

/**
 * struct opev_file - one tracefs instance's file of an enabled event
 * @file:	what TRACE_REG_REGISTER gave
 * @list:	in the event's @files, an RCU list the hit path walks
 * @rcu:	freed after a grace period
 */
struct opev_file {
	struct trace_event_file *file;
	struct list_head list;
	struct rcu_head rcu;
};

/**
 * struct opev_event - one definition
 * @list:	in opev_events, under opev_mutex
 * @hash:	in batch.c's table of names, by @def.event
 * @def:	the parsed line; its strings point into @line
 * @text:	the line as written, for the error log
 * @line:	the parser's copy of it, @def's buffer
 * @args:	@def's arguments
 * @fields:	where each goes in a record
 * @fixed_size:	bytes of a record before its strings
 * @strings:	it has string fields, measured at each hit
 * @padded:	its fields are aligned with room between them (an m:
 *		event's: event.c's opev_event_layout()), zeroed at each hit
 * @is_return:	a return probe
 * @is_marker:	a probe on a static marker (m:)
 * @deferred:	an m: event whose fields wait for the marker's format: no
 *		layout, not among the kernel's events (marker.c)
 * @marker_format: the marker's format the fields were checked against,
 *		the probe's; NULL until the marker was found
 * @target:	what the probe's symbol is: "SYM", or "MOD:SYM"; NULL for an
 *		address
 * @func:	a return probe's function, for its records
 * @entry_args:	a return probe's arguments saved at the entry for its $argN:
 *		the highest N
 * @probe:	the entry probe (neither @is_return nor @is_marker)
 * @rprobe:	the return probe (@is_return)
 * @mprobe:	the marker probe (@is_marker)
 * @nhit:	hits, per CPU, for the profile
 * @files:	the tracefs files that enabled it
 * @nr_files:	how many
 * @perf_users:	perf events on it (TRACE_REG_PERF_REGISTER)
 * @class:	its own event class
 * @call:	the trace event
 * @tp:		the tracepoint the class names (only its name is used)
 * @added:	@call is in the kernel's events
 * @in_batch:	defined by the write being done, not yet on opev_events
 * @pending:	its module (MOD:SYM, MOD:MARKER) is not loaded: the probe
 *		is not registered, and module.c registers it when the
 *		module comes; changed under opev_mutex and event_mutex both
 * @armed:	the probe is enabled: from its first user on, until a moment
 *		after its last (event.c's opev_disarm_fn()); under event_mutex
 */
struct opev_event {
	struct list_head list;
	struct hlist_node hash;
	struct opev_def def;
	char *text;
	char *line;
	struct opev_arg *args;
	struct opev_field *fields;
	unsigned int fixed_size;
	bool strings;
	bool padded;
	bool is_return;
	bool is_marker;
	bool deferred;
	char *marker_format;
	char *target;
	unsigned long func;
	unsigned int entry_args;
	union {
		struct optprobe probe;
		struct optretprobe rprobe;
		struct optprobe_marker_probe mprobe;
	};
	unsigned long __percpu *nhit;
	struct list_head files;
	unsigned int nr_files;
	unsigned int perf_users;
	struct trace_event_class class;
	struct trace_event_call call;
	struct tracepoint tp;
	bool added;
	bool in_batch;
	bool pending;
	bool armed;
};

/* The record's head: the kernel's kprobe and kretprobe events' own. */
struct opev_entry_head {
	struct trace_entry ent;
	unsigned long ip;
};

struct opev_return_head {
	struct trace_entry ent;
	unsigned long func;
	unsigned long ret_ip;
};

/**
 * struct opev_probes - the probes of many events, by kind, for the batch calls
 * @ps:		entry probes
 * @rps:	return probes
 * @mps:	marker probes (no batch calls: one at a time)
 * @nr_ps:	how many in @ps
 * @nr_rps:	how many in @rps
 * @nr_mps:	how many in @mps
 */
struct opev_probes {
	struct optprobe **ps;
	struct optretprobe **rps;
	struct optprobe_marker_probe **mps;
	unsigned int nr_ps, nr_rps, nr_mps;
};

extern struct mutex opev_mutex;
extern struct mutex *opev_event_mutex;
extern struct list_head opev_events;

/* batch.c */
ssize_t opev_batch_write(const char __user *ubuf, size_t count);
int opev_remove_all(void);

/* btf.c */
const struct opev_kernel *opev_kernel(void);

/* errlog.c */
void opev_log_error(const char *cmd, unsigned int column, const char *reason);
void opev_errlog_clear(void);
int opev_errlog_show(struct seq_file *m);

/* event.c */
struct opev_event *opev_event_alloc(const struct opev_def *def, const char *line);
void opev_event_free(struct opev_event *ev);
int opev_event_layout(struct opev_event *ev, int *err_code, unsigned int *column);
int opev_event_init_probe(struct opev_event *ev);
int opev_event_register(struct opev_event *ev);
void opev_event_unregister(struct opev_event *ev);
int opev_probes_alloc(struct opev_probes *pr, unsigned int n);
void opev_probes_add(struct opev_probes *pr, struct opev_event *ev);
void opev_probes_unregister(struct opev_probes *pr);
void opev_probes_disable(struct opev_probes *pr);
void opev_probes_free(struct opev_probes *pr);
int opev_event_take_layout(struct opev_event *ev, struct opev_event *from);
bool opev_event_same_layout(const struct opev_event *a, const struct opev_event *b);
int opev_event_unpend_locked(struct opev_event *ev);
int opev_event_add_locked(struct opev_event *ev);
int opev_event_busy(struct opev_event *ev);
void opev_event_remove_locked(struct opev_event *ev);
unsigned long opev_event_hits(struct opev_event *ev);
enum optprobe_mode opev_event_mode(struct opev_event *ev);
unsigned long opev_event_missed(struct opev_event *ev);
const char *opev_event_reason(struct opev_event *ev);
int opev_events_init(void);
void opev_events_flush(void);

/* marker.c */
int opev_marker_find(const char *module, const char *name, struct opev_proto *proto);
int opev_marker_init(struct opev_event *ev);
int opev_marker_resolve(struct opev_event *ev);

/* module.c */
bool opev_module_absent(const char *name);
int opev_module_init(void);
void opev_module_exit(void);

/* fetch.c */
unsigned int opev_fetch_dynamic_size(struct opev_event *ev, struct pt_regs *regs,
				     const unsigned long *args);
void opev_fetch_store(struct opev_event *ev, struct pt_regs *regs,
		      const unsigned long *args, void *rec, unsigned int dyn_size);
void opev_fetch_entry_args(struct opev_event *ev, struct pt_regs *regs, unsigned long *args);

/* output.c */
extern struct trace_event_functions opev_entry_funcs, opev_return_funcs;
int opev_output_set_print_fmt(struct opev_event *ev);
int opev_output_define_fields(struct trace_event_call *call);

#endif /* OPTPROBE_EVENTS_H */
