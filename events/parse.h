/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobe_events grammar (Documentation/trace/kprobetrace.rst, 6.1 and
 * 6.12), parsed into a definition the event layer turns into a probe and
 * a trace event.
 *
 * Freestanding: no kernel or libc headers, so that the host unit tests
 * build exactly this code.  Nothing here resolves a symbol or touches a
 * register: a line is checked for its form only, and every error carries
 * the column of the token it is about, for the error log's caret.
 */
#ifndef OPTPROBE_EVENTS_PARSE_H
#define OPTPROBE_EVENTS_PARSE_H

#define OPEV_MAX_ARGS		128	/* as the kernel's MAX_TRACE_ARGS */
#define OPEV_MAX_DEREFS		14	/* nested +|-OFFS(...) around one base:
					 * the kernel's FETCH_INSN_MAX (16) less
					 * the base and the end
					 */
#define OPEV_NAME_MAX		64	/* group and event names, with the NUL */
#define OPEV_ARG_NAME_MAX	64	/* an argument's name, with the NUL */
#define OPEV_ARRAY_MAX		64	/* T[N]: N at most this */
#define OPEV_ARG_TEXT_MAX	64	/* FETCHARG as written (the kernel's
					 * MAX_ARGSTR_LEN), with the NUL
					 */
#define OPEV_DEFAULT_GROUP	"optprobes"
#define OPEV_MARKER_ARGS_MAX	6	/* optprobe-marker.h's OPTPROBE_MARKER_ARGS_MAX */
#define OPEV_MODULE_NAME_MAX	56	/* the kernel's MODULE_NAME_LEN, with the NUL */

/* The register names an arch has: the same table the fetch code indexes. */
enum opev_arch {
	OPEV_ARCH_X86_64,
	OPEV_ARCH_PPC64,
};

enum opev_cmd {
	OPEV_CMD_ENTRY,		/* p: */
	OPEV_CMD_RETURN,	/* r: and SYM%return */
	OPEV_CMD_REMOVE,	/* -: */
	OPEV_CMD_MARKER,	/* m: a static marker's */
};

/* Where an argument's value comes from, before any dereference. */
enum opev_base {
	OPEV_BASE_REG,		/* %REG: ->index into the arch's table */
	OPEV_BASE_STACK,	/* $stackN: ->index = N */
	OPEV_BASE_STACKP,	/* $stack */
	OPEV_BASE_ARG,		/* $argN: ->index = N (1-based, as written);
				 * of an m: line, the marker's argument N
				 */
	OPEV_BASE_RETVAL,	/* $retval */
	OPEV_BASE_COMM,		/* $comm */
	OPEV_BASE_ADDR,		/* @ADDR: ->value */
	OPEV_BASE_SYMBOL,	/* @SYM[+|-offs]: ->symbol, ->value = offs */
	OPEV_BASE_IMM,		/* \IMM: ->value */
	OPEV_BASE_IMM_STRING,	/* \"STR": ->symbol is the string */
};

enum opev_type_kind {
	OPEV_TYPE_U,		/* u8..u64 */
	OPEV_TYPE_S,		/* s8..s64 */
	OPEV_TYPE_X,		/* x8..x64; the default, x64 */
	OPEV_TYPE_CHAR,		/* char */
	OPEV_TYPE_STRING,	/* string (the default of $comm and \"STR") */
	OPEV_TYPE_USTRING,	/* ustring */
	OPEV_TYPE_SYMBOL,	/* symbol: a u64 printed %pS */
	OPEV_TYPE_SYMSTR,	/* symstr: the symbol as a string */
	OPEV_TYPE_BITFIELD,	/* b<width>@<offset>/<container bits> */
};

struct opev_type {
	enum opev_type_kind kind;
	unsigned int size;	/* bytes of the value (of the container for a bitfield) */
	unsigned int bf_width;	/* bitfield: bits */
	unsigned int bf_offset;	/* bitfield: lowest bit */
	unsigned int array;	/* T[N]: N; 0 when not an array */
	int explicit_type;	/* the line wrote :TYPE */
};

struct opev_deref {
	long offset;
	int user;		/* +u/-u: from user memory */
};

/**
 * struct opev_arg - one FETCHARG
 * @name:	NAME= as written, or the kernel's automatic name (arg1, arg2...)
 * @base:	where the value comes from
 * @index:	register index (OPEV_BASE_REG), N of $stackN and $argN
 * @value:	the address, the symbol's offset, or the immediate
 * @symbol:	OPEV_BASE_SYMBOL's symbol, OPEV_BASE_IMM_STRING's string:
 *		points into the definition's copy of the line
 * @derefs:	innermost first: @derefs[0] is applied to the base value
 * @nr_derefs:	how many
 * @type:	the type, the default filled in
 * @column:	where the argument starts in the line
 * @text:	FETCHARG[:TYPE] as written, without NAME=: what the kernel
 *		lists (its probe_arg's comm)
 */
struct opev_arg {
	char name[OPEV_ARG_NAME_MAX];
	enum opev_base base;
	unsigned int index;
	unsigned long value;
	const char *symbol;
	struct opev_deref derefs[OPEV_MAX_DEREFS];
	unsigned int nr_derefs;
	struct opev_type type;
	unsigned int column;
	char text[OPEV_ARG_TEXT_MAX];
};

/**
 * struct opev_def - one parsed line
 * @cmd:	add an entry, return or marker probe, or remove an event
 * @group:	the group, OPEV_DEFAULT_GROUP when not written (for -: empty
 *		when not written: any group)
 * @event:	the event name, the kernel's automatic one when not written
 *		(for -: never empty)
 * @module:	MOD of MOD:SYM or MOD:MARKER, or NULL; points into @buf
 * @symbol:	SYM, or the marker's name; NULL for a MEMADDR; points into
 *		@buf
 * @offset:	+offs
 * @addr:	MEMADDR
 * @maxactive:	r<N>: N, 0 when not written
 * @loc_column:	where the location starts in the line
 * @args:	the arguments, an array of OPEV_MAX_ARGS the caller gives
 * @nr_args:	how many
 * @args_column: where the first argument starts in the line (its end
 *		when there is none)
 * @format_unknown: m: the marker's format was not known (its module is not
 *		loaded): the arguments were checked against any marker's
 *		(OPEV_MARKER_ARGS_MAX of them, any type)
 * @format_typed: m: the fields depend on the marker's format: an argument
 *		takes its type from it, or the arguments are all the marker's
 *		(no FETCHARGS, or $arg*)
 * @raw_args:	NULL, or the FETCHARGS as written, listed instead of @args
 *		(set by the caller: an m: line whose fields wait for the
 *		marker's format)
 * @buf:	the caller's writable copy of the line: names point into it
 * @proto:	the caller's room for the function's prototype, where the
 *		kernel reads it from BTF (struct opev_kernel), or for the
 *		marker's arguments (m:); NULL: not read
 */
struct opev_def {
	enum opev_cmd cmd;
	char group[OPEV_NAME_MAX];
	char event[OPEV_NAME_MAX];
	const char *module;
	const char *symbol;
	unsigned long offset;
	unsigned long addr;
	unsigned int maxactive;
	unsigned int loc_column;
	struct opev_arg *args;
	unsigned int nr_args;
	unsigned int args_column;
	int format_unknown;
	int format_typed;
	const char *raw_args;
	char *buf;
	struct opev_proto *proto;
};

/**
 * struct opev_error - why a line was refused
 * @code:	an OPEV_ERR_* value
 * @column:	the offending token's first column in the line
 */
struct opev_error {
	int code;
	unsigned int column;
};

/* Error codes; opev_error_text() gives the kernel's wording. */
enum {
	OPEV_ERR_NONE,
	OPEV_ERR_BAD_CMD,		/* not p, r or - */
	OPEV_ERR_BAD_MAXACT,		/* r<N> not a number */
	OPEV_ERR_MAXACT_NO_KPROBE,	/* r<N> on a p: line */
	OPEV_ERR_MAXACT_TOO_BIG,
	OPEV_ERR_NO_GROUP_NAME,		/* "GRP/" with an empty GRP */
	OPEV_ERR_GROUP_TOO_LONG,
	OPEV_ERR_BAD_GROUP_NAME,
	OPEV_ERR_NO_EVENT_NAME,
	OPEV_ERR_EVENT_TOO_LONG,
	OPEV_ERR_BAD_EVENT_NAME,
	OPEV_ERR_NO_LOCATION,		/* nothing after the command */
	OPEV_ERR_BAD_PROBE_ADDR,	/* neither SYM[+offs] nor MEMADDR */
	OPEV_ERR_BAD_RETPROBE,		/* r: or %return at an offset other than 0 */
	OPEV_ERR_RETVAL_ON_PROBE,	/* $retval on a p: line */
	OPEV_ERR_BAD_FETCH_ARG,		/* an unknown $var or base */
	OPEV_ERR_BAD_REG_NAME,
	OPEV_ERR_BAD_STACK_NUM,
	OPEV_ERR_BAD_ARG_NUM,
	OPEV_ERR_NOFENTRY_ARGS,		/* $argN not at a function's entry */
	OPEV_ERR_BAD_MEM_ADDR,
	OPEV_ERR_BAD_IMM,
	OPEV_ERR_IMMSTR_NO_CLOSE,	/* \"STR without its closing quote */
	OPEV_ERR_BAD_DEREF_OFFS,
	OPEV_ERR_DEREF_NEED_BRACE,
	OPEV_ERR_DEREF_OPEN_BRACE,	/* +OFFS( without its ) */
	OPEV_ERR_TOO_MANY_OPS,		/* derefs nested deeper than OPEV_MAX_DEREFS */
	OPEV_ERR_COMM_CANT_DEREF,
	OPEV_ERR_BAD_TYPE,
	OPEV_ERR_BAD_STRING,		/* string from a base that has none */
	OPEV_ERR_BAD_BITFIELD,
	OPEV_ERR_BAD_ARRAY_SUFFIX,
	OPEV_ERR_BAD_ARRAY_NUM,
	OPEV_ERR_ARRAY_TOO_BIG,
	OPEV_ERR_ARRAY_NO_CLOSE,
	OPEV_ERR_BAD_ARG_NAME,
	OPEV_ERR_ARG_NAME_TOO_LONG,
	OPEV_ERR_USED_ARG_NAME,
	OPEV_ERR_NO_ARG_BODY,		/* NAME= and nothing */
	OPEV_ERR_TOO_MANY_ARGS,
	OPEV_ERR_ARG_TOO_LONG,
	OPEV_ERR_NO_EVENT_INFO,		/* -: with nothing to remove */
	OPEV_ERR_BAD_INSN_BNDRY,	/* from the API: -EILSEQ */
	OPEV_ERR_BAD_PROBE_SYM,		/* from the API: -ENOENT */
	OPEV_ERR_BAD_PROBE_TARGET,	/* from the API: -EINVAL */
	OPEV_ERR_PROBE_BUSY,		/* from the API: -EBUSY */
	OPEV_ERR_SAME_EVENT,		/* the event exists already */
	OPEV_ERR_EVENT_NOT_FOUND,	/* -: of an unknown event */
	OPEV_ERR_EVENT_IN_USE,		/* -: of an enabled event */
	OPEV_ERR_NO_MEMORY,
	OPEV_ERR_NOSUP_BTFARG,		/* a BTF name where it cannot be */
	OPEV_ERR_NO_BTF_ENTRY,		/* BTF does not know the function */
	OPEV_ERR_NO_BTFARG,		/* the function has no such parameter */
	OPEV_ERR_NO_RETVAL,		/* $retval of a function returning void */
	OPEV_ERR_BAD_TYPE4STR,		/* a string from what is not a char pointer */
	OPEV_ERR_NOSUP_FIELD,		/* NAME->FIELD, NAME.FIELD */
	OPEV_ERR_BAD_MARKER,		/* m: not at MOD:MARKER */
	OPEV_ERR_NO_MARKER,		/* the loaded module has no such marker */
	OPEV_ERR_MAX
};

#define OPEV_PROTO_MAX_PARAMS	16	/* more: taken as not in BTF */

/**
 * struct opev_btf_type - how the kernel fetches a value of one BTF type
 * @fetch:	the type it records when none is written ("s32", "x64"...),
 *		NULL where it has none (a struct): then the default
 * @char_ptr:	the kernel's btf_type_is_char_ptr(): a string type reads the
 *		string at the value; else a string type is refused
 */
struct opev_btf_type {
	const char *fetch;
	int char_ptr;
};

/**
 * struct opev_proto - a kernel function's prototype, from BTF, or a
 *		       marker's arguments, from its format
 * @nr_params:	its parameters, at most OPEV_PROTO_MAX_PARAMS
 * @names:	each one's name (copied: a module's BTF can go)
 * @params:	each one's type
 * @ret:	its return value's type
 * @ret_void:	it returns nothing
 */
struct opev_proto {
	unsigned int nr_params;
	char names[OPEV_PROTO_MAX_PARAMS][OPEV_ARG_NAME_MAX];
	struct opev_btf_type params[OPEV_PROTO_MAX_PARAMS];
	struct opev_btf_type ret;
	int ret_void;
};

/**
 * struct opev_kernel - what the running kernel's grammar has beyond 6.1's
 * @return_args: $argN on a return probe, read at the function's entry
 *		(6.9 on)
 * @find_proto:	NULL, or the prototype of kernel function @symbol from
 *		BTF: 0, or -1 when BTF has none.  With it (6.12's
 *		CONFIG_PROBE_EVENTS_BTF_ARGS) a parameter is named as in C,
 *		$argN without NAME= takes its parameter's name, $arg* stands
 *		for all of them, and these and $retval take the type BTF
 *		gives when none is written.
 * @find_marker: NULL, or marker @name of module @module: 0 with @proto
 *		made from its format (opev_marker_proto()); 1 when the
 *		module is not loaded (the format is not known); -1 when the
 *		loaded module has no such marker.  NULL: no module is
 *		loaded.
 *
 * An m: line's arguments are the marker's as a function's are BTF's, on
 * every kernel: named arg1..argN, $argN the same one (NAME= or not),
 * $arg* (and no FETCHARGS at all) every one, typed from the format
 * unless a type is written; :string reads the string of a %s.
 */
struct opev_kernel {
	int return_args;
	int (*find_proto)(const char *symbol, struct opev_proto *proto);
	int (*find_marker)(const char *module, const char *name, struct opev_proto *proto);
};

/**
 * opev_parse() - parse one line of the kprobe_events grammar
 * @line:	the line, without its newline; comments and blank lines are the
 *		caller's to skip
 * @def:	out: the definition; @def->args, @def->buf and @def->proto set
 *		by the caller, @def->buf a writable copy of @line at least as
 *		long
 * @arch:	whose register names %REG may use
 * @kernel:	what the running kernel takes beyond 6.1's grammar; NULL: 6.1's
 * @err:	out: on failure, the error and its column
 *
 * Return: 0, or -1 with @err filled in.
 */
int opev_parse(const char *line, struct opev_def *def, enum opev_arch arch,
	       const struct opev_kernel *kernel, struct opev_error *err);

/**
 * opev_marker_proto() - a marker's arguments, from its printf format
 * @format:	the format, as the marker's record has it
 * @proto:	out: arg1..argN, each typed from its type as the core reads
 *		the format (core/marker-format.c, the promoted C type): %d,
 *		%i s32 (%ld, %lld, %zd... s64); %u, %o u32 (u64); %x, %X x32
 *		(x64); %c char (a u8 printed as a character); %s a string
 *		(char_ptr); %p and its kernel extensions (%px, %pS...) x64; a
 *		'*' width or precision an s32 of its own
 *
 * Return: 0, or -1 for a format the core refuses (a conversion that
 * takes no integer or pointer, more than OPEV_MARKER_ARGS_MAX arguments).
 */
int opev_marker_proto(const char *format, struct opev_proto *proto);

/**
 * opev_error_text() - the error log's reason for @code
 * @code:	an OPEV_ERR_* value
 *
 * Return: a static string, the kernel's wording where it has one.
 */
const char *opev_error_text(int code);

/**
 * opev_reg_name() - the name of register @index of @arch
 * @arch:	the arch
 * @index:	an index opev_parse() gave
 *
 * Return: the name as written after '%', or NULL past the table's end.
 */
const char *opev_reg_name(enum opev_arch arch, unsigned int index);

/**
 * opev_format_def() - the line as reading the control file lists it
 * @def:	a parsed definition
 * @out:	the buffer
 * @size:	its size
 *
 * As the kernel's kprobe_events lists it: "p:GRP/EVENT SYM+offs ARGS",
 * each argument as NAME=FETCHARG:TYPE; "m:GRP/EVENT MOD:MARKER ARGS", with
 * @def->raw_args as they are when set.
 *
 * Return: the length it needs, as snprintf().
 */
int opev_format_def(const struct opev_def *def, char *out, unsigned int size);

#endif /* OPTPROBE_EVENTS_PARSE_H */
