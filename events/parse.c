// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe_events grammar.  See parse.h.
 *
 * The checks, their order and their columns are the kernel's:
 * __trace_kprobe_create() in kernel/trace/trace_kprobe.c and
 * traceprobe_parse_probe_arg() with its helpers in kernel/trace/
 * trace_probe.c, 6.1 and 6.12; where those two differ, a comment says
 * which one this follows.  The kernel splits the line into words as
 * argv_split() does and logs an error as (word, offset in the word); a
 * column here is that word's column in the line plus the same offset.
 */
#include "marker-format.h"
#include "parse.h"
#include "regs.h"

#ifndef NULL
#define NULL ((void *)0)
#endif

/* The kernel's limits (trace.h, trace_probe.h, trace_kprobe.c) */
#define MAX_ARG_NAME_LEN	32
#define MAX_ARGSTR_LEN		(OPEV_ARG_TEXT_MAX - 1)
#define MAX_PROBE_EVENT_SIZE	3072
#define KRETPROBE_MAXACTIVE_MAX	4096
#define FETCH_INSN_MAX		16	/* the last one is the end */
#define STRING_SIZE		4	/* a string field is its u32 data_loc */
/*
 * PARAM_MAX_STACK, THREAD_SIZE / sizeof(long), bounds $stackN and $argN:
 * 16 KiB stacks on x86_64 and on ppc64le 6.1 (Debian's configs).
 */
#define PARAM_MAX_STACK		2048

/*
 * The last fetch instruction the kernel builds before the store: it
 * decides which types and arrays the argument may have and whether the
 * store takes one more instruction.
 */
enum last_op {
	LAST_VALUE,		/* %REG, $stackN, $argN, $retval */
	LAST_STACKP,		/* $stack */
	LAST_ADDRESS,		/* \IMM, \"STR", $comm: the value is an address */
	LAST_DEREF,		/* @ADDR, @SYM, +OFFS(...) */
	LAST_UDEREF,		/* +uOFFS(...) */
};

struct parser {
	struct opev_def *def;
	enum opev_arch arch;
	const struct opev_kernel *kernel;
	struct opev_error *err;
	char *rest;		/* what of def->buf is not split into words yet */
	int fentry;		/* at a function's entry: $argN allowed */
	/* m: the marker's arguments, def->proto or any_marker; NULL for others */
	const struct opev_proto *marker;
	unsigned int size;	/* the event's fields so far */
	int proto_state;	/* 0: not looked up; 1: def->proto is the function's; -1: none */
	/* the BTF type of the argument's value so far (the kernel's last_type) */
	const struct opev_btf_type *last_btf;
	/* an argument rewritten as the kernel rewrites it, "NAME[:TYPE]" */
	char rewritten[OPEV_ARG_TEXT_MAX + OPEV_ARG_NAME_MAX];
};

struct type_name {
	const char *name;
	enum opev_type_kind kind;
	unsigned int size;
};

/* probe_fetch_types[] of 6.12 (6.1 lacks char) */
static const struct type_name type_names[] = {
	{ "string",	OPEV_TYPE_STRING,	STRING_SIZE },
	{ "ustring",	OPEV_TYPE_USTRING,	STRING_SIZE },
	{ "symstr",	OPEV_TYPE_SYMSTR,	STRING_SIZE },
	{ "u8",		OPEV_TYPE_U,		1 },
	{ "u16",	OPEV_TYPE_U,		2 },
	{ "u32",	OPEV_TYPE_U,		4 },
	{ "u64",	OPEV_TYPE_U,		8 },
	{ "s8",		OPEV_TYPE_S,		1 },
	{ "s16",	OPEV_TYPE_S,		2 },
	{ "s32",	OPEV_TYPE_S,		4 },
	{ "s64",	OPEV_TYPE_S,		8 },
	{ "x8",		OPEV_TYPE_X,		1 },
	{ "x16",	OPEV_TYPE_X,		2 },
	{ "x32",	OPEV_TYPE_X,		4 },
	{ "x64",	OPEV_TYPE_X,		8 },
	{ "char",	OPEV_TYPE_CHAR,		1 },
	{ "symbol",	OPEV_TYPE_SYMBOL,	8 },
};

/* DEFAULT_FETCH_TYPE: "x" __stringify(BITS_PER_LONG) */
#define DEFAULT_TYPE		"x64"

/* Field names trace_probe.c reserves besides the arguments' */
static const char *const reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func",
};

#define REG_NAME(name, field)	name,
static const char *const regs_x86_64[] = OPEV_REGS_X86_64(REG_NAME);
static const char *const regs_ppc64[] = OPEV_REGS_PPC64(REG_NAME);
#undef REG_NAME

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const error_texts[OPEV_ERR_MAX] = {
	[OPEV_ERR_NONE]			= "Success",
	[OPEV_ERR_BAD_CMD]		= "Invalid command: p, r, m or -: expected",
	[OPEV_ERR_BAD_MAXACT]		= "Invalid maxactive number",
	[OPEV_ERR_MAXACT_NO_KPROBE]	= "Maxactive is not for kprobe",
	[OPEV_ERR_MAXACT_TOO_BIG]	= "Maxactive is too big",
	[OPEV_ERR_NO_GROUP_NAME]	= "Group name is not specified",
	[OPEV_ERR_GROUP_TOO_LONG]	= "Group name is too long",
	[OPEV_ERR_BAD_GROUP_NAME]	= "Group name must follow the same rules as C identifiers",
	[OPEV_ERR_NO_EVENT_NAME]	= "Event name is not specified",
	[OPEV_ERR_EVENT_TOO_LONG]	= "Event name is too long",
	[OPEV_ERR_BAD_EVENT_NAME]	= "Event name must follow the same rules as C identifiers",
	[OPEV_ERR_NO_LOCATION]		= "Probe point is not specified",
	[OPEV_ERR_BAD_PROBE_ADDR]	= "Invalid probed address or symbol",
	[OPEV_ERR_BAD_RETPROBE]		= "Retprobe address must be an function entry",
	[OPEV_ERR_RETVAL_ON_PROBE]	= "$retval is not available on probe",
	[OPEV_ERR_BAD_FETCH_ARG]	= "Invalid fetch argument",
	[OPEV_ERR_BAD_REG_NAME]		= "Invalid register name",
	[OPEV_ERR_BAD_STACK_NUM]	= "Invalid stack number",
	[OPEV_ERR_BAD_ARG_NUM]		= "Invalid argument number",
	[OPEV_ERR_NOFENTRY_ARGS]	= "$arg* can be used only on function entry",
	[OPEV_ERR_BAD_MEM_ADDR]		= "Invalid memory address",
	[OPEV_ERR_BAD_IMM]		= "Invalid immediate value",
	[OPEV_ERR_IMMSTR_NO_CLOSE]	= "String is not closed with '\"'",
	[OPEV_ERR_BAD_DEREF_OFFS]	= "Invalid dereference offset",
	[OPEV_ERR_DEREF_NEED_BRACE]	= "Dereference needs a brace",
	[OPEV_ERR_DEREF_OPEN_BRACE]	= "Dereference brace is not closed",
	[OPEV_ERR_TOO_MANY_OPS]		= "Dereference is too much nested",
	[OPEV_ERR_COMM_CANT_DEREF]	= "$comm can not be dereferenced",
	[OPEV_ERR_BAD_TYPE]		= "Unknown type is specified",
	[OPEV_ERR_BAD_STRING]		= "String accepts only memory argument",
	[OPEV_ERR_BAD_BITFIELD]		= "Invalid bitfield",
	[OPEV_ERR_BAD_ARRAY_SUFFIX]	= "Array has wrong suffix",
	[OPEV_ERR_BAD_ARRAY_NUM]	= "Invalid array size",
	[OPEV_ERR_ARRAY_TOO_BIG]	= "Array number is too big",
	[OPEV_ERR_ARRAY_NO_CLOSE]	= "Array is not closed",
	[OPEV_ERR_BAD_ARG_NAME]		=
		"Argument name must follow the same rules as C identifiers",
	[OPEV_ERR_ARG_NAME_TOO_LONG]	= "Argument name is too long",
	[OPEV_ERR_USED_ARG_NAME]	= "This argument name is already used",
	[OPEV_ERR_NO_ARG_BODY]		= "No argument expression",
	[OPEV_ERR_TOO_MANY_ARGS]	= "Event too big (too many fields?)",
	[OPEV_ERR_ARG_TOO_LONG]		= "Argument expression is too long",
	[OPEV_ERR_NO_EVENT_INFO]	= "Event to remove is not specified",
	[OPEV_ERR_BAD_INSN_BNDRY]	= "Probe point is not an instruction boundary",
	[OPEV_ERR_BAD_PROBE_SYM]	= "Invalid probed address or symbol",
	[OPEV_ERR_BAD_PROBE_TARGET]	= "Failed to register probe event",
	[OPEV_ERR_PROBE_BUSY]		= "Probe point is busy",
	[OPEV_ERR_SAME_EVENT]		= "Given group/event name is already used by another event",
	[OPEV_ERR_EVENT_NOT_FOUND]	= "Event is not found",
	[OPEV_ERR_EVENT_IN_USE]		= "Event is in use",
	[OPEV_ERR_NO_MEMORY]		= "Out of memory",
	[OPEV_ERR_NOSUP_BTFARG]		= "BTF is not available or not supported",
	[OPEV_ERR_NO_BTF_ENTRY]		= "No BTF entry for this probe point",
	[OPEV_ERR_NO_BTFARG]		= "This variable is not found at this probe point",
	[OPEV_ERR_NO_RETVAL]		= "This function returns 'void' type",
	[OPEV_ERR_BAD_TYPE4STR]		= "This type does not fit for string.",
	[OPEV_ERR_NOSUP_FIELD]		= "Structure members are not supported here",
	[OPEV_ERR_BAD_MARKER]		= "Invalid marker: MOD:MARKER expected",
	[OPEV_ERR_NO_MARKER]		= "No such marker in this module",
};

/*
 * The arguments an m: line is checked against while the marker's format
 * is not known: as many as a marker can have, of any type, %s perhaps.
 */
#define ANY_ARG		{ .fetch = NULL, .char_ptr = 1 }
static const struct opev_proto any_marker = {
	.nr_params = OPEV_MARKER_ARGS_MAX,
	.names = { "arg1", "arg2", "arg3", "arg4", "arg5", "arg6" },
	.params = { ANY_ARG, ANY_ARG, ANY_ARG, ANY_ARG, ANY_ARG, ANY_ARG },
	.ret_void = 1,
};

#undef ANY_ARG

/* The string helpers the kernel's parser uses, on NUL-terminated words */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The kernel's isspace(): its ctype counts Latin-1 NBSP (0xa0) too. */
static int is_space(char c)
{
	unsigned char u = c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

static unsigned int str_len(const char *s)
{
	unsigned int n = 0;

	while (s[n])
		n++;
	return n;
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Return the length of @prefix when @s starts with it, else 0. */
static unsigned int str_prefix(const char *s, const char *prefix)
{
	unsigned int n = 0;

	for (; prefix[n]; n++)
		if (s[n] != prefix[n])
			return 0;
	return n;
}

static char *str_chr(char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return s;
	return NULL;
}

static char *str_rchr(char *s, char c)
{
	char *last = NULL;

	for (; *s; s++)
		if (*s == c)
			last = s;
	return last;
}

/* Copy @src into @dst of @size bytes, cut to fit. */
static void str_copy(char *dst, const char *src, unsigned int size)
{
	unsigned int n = 0;

	while (n + 1 < size && src[n]) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = '\0';
}

/* The kernel's number parsing (lib/kstrtox.c), without its headers */

static unsigned int digit_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 16;
}

/* _parse_integer_fixup_radix(): base 0 is 16 after "0x", 8 after "0", else 10. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (!*base) {
		if (s[0] == '0')
			*base = (s[1] | 0x20) == 'x' && digit_value(s[2]) < 16 ? 16 : 8;
		else
			*base = 10;
	}
	if (*base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	return s;
}

/* _kstrtoull(): all of @s is digits, at least one, and no overflow. */
static int parse_digits(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long v = 0;
	unsigned int d, n = 0;

	s = fixup_radix(s, &base);
	for (; (d = digit_value(*s)) < base; s++, n++) {
		if (v > (~0UL - d) / base)
			return -1;
		v = v * base + d;
	}
	if (!n || *s)
		return -1;
	*res = v;
	return 0;
}

/* kstrtoul() */
static int parse_ul(const char *s, unsigned int base, unsigned long *res)
{
	if (*s == '+')
		s++;
	return parse_digits(s, base, res);
}

/* kstrtouint() */
static int parse_uint(const char *s, unsigned int *res)
{
	unsigned long v;

	if (parse_ul(s, 0, &v) || v > ~0U)
		return -1;
	*res = v;
	return 0;
}

/* kstrtol() */
static int parse_l(const char *s, long *res)
{
	unsigned long v;

	if (*s == '-') {
		if (parse_digits(s + 1, 0, &v) || v > (~0UL >> 1) + 1)
			return -1;
		*res = (long)(0UL - v);
		return 0;
	}
	if (parse_ul(s, 0, &v) || v > ~0UL >> 1)
		return -1;
	*res = v;
	return 0;
}

/* simple_strtoul(): the digits there are, base 0, *end after them. */
static unsigned long parse_leading(const char *s, const char **end)
{
	unsigned int base = 0, d;
	unsigned long v = 0;

	for (s = fixup_radix(s, &base); (d = digit_value(*s)) < base; s++)
		v = v * base + d;
	*end = s;
	return v;
}

/* Append to a buffer as snprintf() does: cut to fit, counting all. */
struct out {
	char *buf;
	unsigned int size;
	unsigned int len;
};

static void out_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_str(struct out *o, const char *s)
{
	while (*s)
		out_char(o, *s++);
}

static void out_dec(struct out *o, unsigned long v)
{
	char digits[20];
	unsigned int n = 0;

	do {
		digits[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		out_char(o, digits[--n]);
}

static void out_hex16(struct out *o, unsigned long v)
{
	int shift;

	for (shift = 60; shift >= 0; shift -= 4)
		out_char(o, "0123456789abcdef"[(v >> shift) & 0xf]);
}

static int out_end(struct out *o)
{
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len;
}

static int fail(struct parser *p, int code, unsigned int column)
{
	p->err->code = code;
	p->err->column = column;
	return -1;
}

static unsigned int column_of(const struct parser *p, const char *s)
{
	return s - p->def->buf;
}

/* argv_split(): the next word, NUL-terminated in place, or NULL. */
static char *next_word(struct parser *p)
{
	char *s = p->rest, *word;

	while (is_space(*s))
		s++;
	if (!*s) {
		p->rest = s;
		return NULL;
	}
	word = s;
	while (*s && !is_space(*s))
		s++;
	if (*s)
		*s++ = '\0';
	p->rest = s;
	return word;
}

/* __is_good_name(): a C identifier; a group (system) may have '-' too. */
static int good_name(const char *s, int hyphen_ok)
{
	if (!is_alpha(*s) && *s != '_' && !(hyphen_ok && *s == '-'))
		return 0;
	while (*++s)
		if (!is_alpha(*s) && !is_digit(*s) && *s != '_' &&
		    !(hyphen_ok && *s == '-'))
			return 0;
	return 1;
}

/*
 * traceprobe_parse_event_name(): [GRP/][EVENT] or [GRP.][EVENT] at
 * @column.  "GRP/" leaves @def->event empty, for the automatic name.
 */
static int parse_event_name(struct parser *p, char *s, unsigned int column)
{
	struct opev_def *def = p->def;
	char *slash = str_chr(s, '/');

	if (!slash)
		slash = str_chr(s, '.');
	if (slash) {
		if (slash == s)
			return fail(p, OPEV_ERR_NO_GROUP_NAME, column);
		if (slash - s + 1 > OPEV_NAME_MAX)
			return fail(p, OPEV_ERR_GROUP_TOO_LONG, column);
		*slash = '\0';
		if (!good_name(s, 1))
			return fail(p, OPEV_ERR_BAD_GROUP_NAME, column);
		str_copy(def->group, s, sizeof(def->group));
		column += slash - s + 1;
		s = slash + 1;
		if (!*s)
			return 0;
	}
	if (!*s)
		return fail(p, OPEV_ERR_NO_EVENT_NAME, column);
	if (str_len(s) >= OPEV_NAME_MAX)
		return fail(p, OPEV_ERR_EVENT_TOO_LONG, column);
	if (!good_name(s, 0))
		return fail(p, OPEV_ERR_BAD_EVENT_NAME, column);
	str_copy(def->event, s, sizeof(def->event));
	return 0;
}

/* The command's letter, as a definition is listed */
static char cmd_letter(enum opev_cmd cmd)
{
	switch (cmd) {
	case OPEV_CMD_RETURN:
		return 'r';
	case OPEV_CMD_MARKER:
		return 'm';
	case OPEV_CMD_REMOVE:
		return '-';
	default:
		return 'p';
	}
}

/*
 * The kernel's automatic name: "%c_%s_%ld" of the symbol (MOD:SYM as
 * written) and offset, cut to fit, then sanitize_event_name() (':' and
 * '.', and in 6.12 '*', become '_').  For a MEMADDR it is "%c_0x%p",
 * which a kernel that hashes pointers prints as a hash: this prints the
 * address as %p does under no_hash_pointers.  A marker's is
 * "m_MOD_MARKER", made the same way.
 */
static void auto_event_name(struct opev_def *def)
{
	struct out o = { def->event, sizeof(def->event), 0 };
	char *s;

	out_char(&o, cmd_letter(def->cmd));
	out_char(&o, '_');
	if (def->cmd == OPEV_CMD_MARKER) {
		out_str(&o, def->module);
		out_char(&o, '_');
		out_str(&o, def->symbol);
	} else if (def->symbol) {
		if (def->module) {
			out_str(&o, def->module);
			out_char(&o, ':');
		}
		out_str(&o, def->symbol);
		out_char(&o, '_');
		out_dec(&o, def->offset);
	} else {
		out_str(&o, "0x");
		out_hex16(&o, def->addr);
	}
	out_end(&o);
	for (s = def->event; *s; s++)
		if (*s == ':' || *s == '.' || *s == '*')
			*s = '_';
}

/*
 * r<N>: the kernel takes digits after the command letter as maxactive
 * and ignores any other text there ("pfoo:ev" is "p:ev"); that text is
 * refused here.
 */
static int parse_maxactive(struct parser *p, const char *s, unsigned int column)
{
	struct opev_def *def = p->def;
	unsigned int n;

	if (!*s)
		return 0;
	if (!is_digit(*s))
		return fail(p, OPEV_ERR_BAD_CMD, column);
	if (def->cmd != OPEV_CMD_RETURN)
		return fail(p, OPEV_ERR_MAXACT_NO_KPROBE, column);
	if (str_len(s) > OPEV_NAME_MAX - 1 || parse_uint(s, &n) || !n)
		return fail(p, OPEV_ERR_BAD_MAXACT, column);
	if (n > KRETPROBE_MAXACTIVE_MAX)
		return fail(p, OPEV_ERR_MAXACT_TOO_BIG, column);
	def->maxactive = n;
	return 0;
}

/*
 * traceprobe_split_symbol_offset(): SYM[+|-offs], cut at the first '+' or
 * '-' and the offset read there, 0 when none.
 */
static int split_offset(char *s, long *offset)
{
	for (; *s && *s != '+' && *s != '-'; s++)
		;
	*offset = 0;
	if (*s && parse_l(s, offset))
		return -1;
	*s = '\0';
	return 0;
}

/* [MOD:]SYM[+offs][%return] or MEMADDR, split in place */
static int parse_location(struct parser *p, char *loc)
{
	struct opev_def *def = p->def;
	unsigned int column = column_of(p, loc);
	char *pct, *colon;
	long offset;

	def->loc_column = column;
	if (!parse_ul(loc, 0, &def->addr))
		return 0;
	/* A uprobe's PATH:OFFSET: the kernel leaves it to the uprobe parser. */
	if (str_chr(loc, '/') && str_chr(loc, ':'))
		return fail(p, OPEV_ERR_BAD_PROBE_ADDR, column);
	pct = str_chr(loc, '%');
	if (pct) {
		/* the kernel's BAD_ADDR_SUFFIX */
		if (!str_eq(pct, "%return"))
			return fail(p, OPEV_ERR_BAD_PROBE_ADDR, column + (pct - loc));
		*pct = '\0';
		def->cmd = OPEV_CMD_RETURN;
	}
	if (split_offset(loc, &offset) || offset < 0 || offset > (long)~0U)
		return fail(p, OPEV_ERR_BAD_PROBE_ADDR, column);
	colon = str_chr(loc, ':');
	if (colon) {
		*colon = '\0';
		def->module = loc;
		loc = colon + 1;
	}
	/* The kernel finds no such symbol (-ENOENT); form only here. */
	if (!*loc || (def->module && !*def->module))
		return fail(p, OPEV_ERR_BAD_PROBE_ADDR, column);
	def->symbol = loc;
	def->offset = offset;
	/*
	 * kprobe_on_func_entry() is the kernel's test; without the symbol's
	 * address (x86 IBT's ENDBR, ppc64's local entry) offset 0 is it.
	 */
	if (def->cmd == OPEV_CMD_RETURN && offset)
		return fail(p, OPEV_ERR_BAD_RETPROBE, column);
	return 0;
}

static void set_base(struct opev_arg *arg, enum opev_base base,
		     unsigned int index)
{
	arg->base = base;
	arg->index = index;
}

/*
 * The probed function's prototype from BTF, looked up once; NULL when
 * the kernel has no BTF arguments or BTF does not know the function.
 * A module's function is not looked up: the kernel looks "MOD:SYM" up
 * as one name, which BTF never has.
 */
static const struct opev_proto *find_proto(struct parser *p)
{
	const struct opev_def *def = p->def;

	if (p->marker)
		return p->marker;
	if (!p->proto_state) {
		p->proto_state = -1;
		if (p->kernel && p->kernel->find_proto && def->proto && def->symbol &&
		    !def->module && !p->kernel->find_proto(def->symbol, def->proto))
			p->proto_state = 1;
	}
	return p->proto_state > 0 ? def->proto : NULL;
}

/*
 * Whether arguments are fetched by their names: a function's C names
 * where the kernel reads them from BTF (6.12), a marker's always
 */
static int btf_args(const struct parser *p)
{
	return p->marker || (p->kernel && p->kernel->find_proto);
}

/* Where a $argN, or a parameter by its name, can be read */
static int args_here(const struct parser *p)
{
	return p->fentry || p->marker || (p->def->cmd == OPEV_CMD_RETURN &&
					  p->kernel && p->kernel->return_args);
}

/* parse_probe_vars(): @v follows the '$' at @column */
static int parse_var(struct parser *p, struct opev_arg *arg, const char *v,
		     unsigned int column)
{
	const struct opev_proto *proto;
	unsigned long n;
	unsigned int len;

	if (str_eq(v, "retval")) {
		if (p->def->cmd != OPEV_CMD_RETURN)
			return fail(p, OPEV_ERR_RETVAL_ON_PROBE, column);
		set_base(arg, OPEV_BASE_RETVAL, 0);
		/* parse_btf_arg(): typed by BTF where it knows the function */
		proto = btf_args(p) ? find_proto(p) : NULL;
		if (proto) {
			if (proto->ret_void)
				return fail(p, OPEV_ERR_NO_RETVAL, column);
			p->last_btf = &proto->ret;
		}
		return 0;
	}
	len = str_prefix(v, "stack");
	if (len) {
		if (!v[len]) {
			set_base(arg, OPEV_BASE_STACKP, 0);
			return 0;
		}
		if (!is_digit(v[len]) || parse_ul(v + len, 10, &n))
			return fail(p, OPEV_ERR_BAD_FETCH_ARG, column);
		if (n > PARAM_MAX_STACK)
			return fail(p, OPEV_ERR_BAD_STACK_NUM, column);
		set_base(arg, OPEV_BASE_STACK, n);
		return 0;
	}
	if (str_eq(v, "comm") || str_eq(v, "COMM")) {
		set_base(arg, OPEV_BASE_COMM, 0);
		return 0;
	}
	len = str_prefix(v, "arg");
	if (len) {
		if (parse_ul(v + len, 10, &n))
			return fail(p, OPEV_ERR_BAD_FETCH_ARG, column);
		if (!n || n > PARAM_MAX_STACK)
			return fail(p, OPEV_ERR_BAD_ARG_NUM, column);
		/* 6.12's error (6.1 says BAD_VAR) */
		if (!args_here(p))
			return fail(p, OPEV_ERR_NOFENTRY_ARGS, column);
		/* a marker's, NAME= or not, is typed from its format */
		if (p->marker) {
			if (n > p->marker->nr_params)
				return fail(p, OPEV_ERR_BAD_ARG_NUM, column);
			p->last_btf = &p->marker->params[n - 1];
		}
		set_base(arg, OPEV_BASE_ARG, n);
		return 0;
	}
	/* the kernel's BAD_VAR */
	return fail(p, OPEV_ERR_BAD_FETCH_ARG, column);
}

/*
 * parse_btf_arg(): a parameter by its C name @name at @column.
 * NAME->FIELD and NAME.FIELD, which 6.12 follows through BTF's structs,
 * are refused.
 */
static int parse_btf_var(struct parser *p, struct opev_arg *arg, const char *name,
			 unsigned int column)
{
	const struct opev_proto *proto;
	unsigned int i;

	/* 6.1 has no BTF variables: its BAD_FETCH_ARG */
	if (!btf_args(p))
		return fail(p, OPEV_ERR_BAD_FETCH_ARG, column);
	if (!args_here(p))
		return fail(p, OPEV_ERR_NOSUP_BTFARG, column);
	/* the kernel's caret: after a '.', at a "->" */
	for (i = 0; name[i]; i++)
		if (name[i] == '.' || (name[i] == '-' && name[i + 1] == '>'))
			return fail(p, OPEV_ERR_NOSUP_FIELD, column + i + (name[i] == '.'));
	proto = find_proto(p);
	/* a marker without arguments has none of the name */
	if (!proto || (!proto->nr_params && !p->marker))
		return fail(p, OPEV_ERR_NO_BTF_ENTRY, column);
	for (i = 0; i < proto->nr_params; i++) {
		if (str_eq(name, proto->names[i])) {
			set_base(arg, OPEV_BASE_ARG, i + 1);
			p->last_btf = &proto->params[i];
			return 0;
		}
	}
	return fail(p, OPEV_ERR_NO_BTFARG, column);
}

/* regs_query_register_offset() over regs.h's table */
static int parse_reg(struct parser *p, struct opev_arg *arg, const char *name,
		     unsigned int column)
{
	const char *reg;
	unsigned int i;

	for (i = 0; (reg = opev_reg_name(p->arch, i)); i++) {
		if (str_eq(reg, name)) {
			set_base(arg, OPEV_BASE_REG, i);
			return 0;
		}
	}
	return fail(p, OPEV_ERR_BAD_REG_NAME, column);
}

/*
 * @ADDR or @SYM[+|-offs].  The kernel keeps "SYM+offs" whole and splits
 * it when it resolves the symbol, failing then; here at once.
 */
static int parse_mem(struct parser *p, struct opev_arg *arg, char *s,
		     unsigned int column)
{
	char *sym = s + 1;
	long offset;

	if (is_digit(*sym)) {
		if (parse_ul(sym, 0, &arg->value))
			return fail(p, OPEV_ERR_BAD_MEM_ADDR, column);
		set_base(arg, OPEV_BASE_ADDR, 0);
		return 0;
	}
	/* @+OFFS, a file offset, is for uprobes: the kernel's FILE_ON_KPROBE */
	if (*sym == '+')
		return fail(p, OPEV_ERR_BAD_MEM_ADDR, column);
	if (split_offset(sym, &offset) || !*sym)
		return fail(p, OPEV_ERR_BAD_MEM_ADDR, column);
	set_base(arg, OPEV_BASE_SYMBOL, 0);
	arg->symbol = sym;
	arg->value = offset;
	return 0;
}

/* str_to_immediate(): a signed value is kept as its two's complement */
static int str_to_immediate(const char *s, unsigned long *imm)
{
	long v;

	if (is_digit(*s))
		return parse_ul(s, 0, imm);
	if (*s != '-' && *s != '+')
		return -1;
	/* kstrtol() of what follows a '+', so \+-1 is -1 */
	if (parse_l(*s == '+' ? s + 1 : s, &v))
		return -1;
	*imm = v;
	return 0;
}

/* \IMM or \"STR" */
static int parse_imm(struct parser *p, struct opev_arg *arg, char *s,
		     unsigned int column)
{
	char *str = s + 1;
	unsigned int len;

	if (*str == '"') {
		str++;
		len = str_len(str);
		if (!len || str[len - 1] != '"')
			return fail(p, OPEV_ERR_IMMSTR_NO_CLOSE, column + 2 + len);
		str[len - 1] = '\0';
		set_base(arg, OPEV_BASE_IMM_STRING, 0);
		arg->symbol = str;
		return 0;
	}
	if (str_to_immediate(str, &arg->value))
		return fail(p, OPEV_ERR_BAD_IMM, column + 1);
	set_base(arg, OPEV_BASE_IMM, 0);
	return 0;
}

/* How many fetch instructions the kernel needs for @arg's base */
static unsigned int base_insns(const struct opev_arg *arg)
{
	switch (arg->base) {
	case OPEV_BASE_ADDR:
		return 2;	/* IMM, DEREF */
	case OPEV_BASE_SYMBOL:
		return 3;	/* NOP_SYMBOL, IMM, DEREF */
	default:
		return 1;
	}
}

/* The index of the last fetch instruction the kernel builds so far */
static unsigned int last_insn(const struct opev_arg *arg)
{
	return base_insns(arg) - 1 + arg->nr_derefs;
}

static enum last_op last_op(const struct opev_arg *arg)
{
	if (arg->nr_derefs)
		return arg->derefs[arg->nr_derefs - 1].user ? LAST_UDEREF : LAST_DEREF;
	switch (arg->base) {
	case OPEV_BASE_STACKP:
		return LAST_STACKP;
	case OPEV_BASE_COMM:
	case OPEV_BASE_IMM:
	case OPEV_BASE_IMM_STRING:
		return LAST_ADDRESS;
	case OPEV_BASE_ADDR:
	case OPEV_BASE_SYMBOL:
		return LAST_DEREF;
	default:
		return LAST_VALUE;
	}
}

static int parse_fetch(struct parser *p, struct opev_arg *arg, char *s,
		       unsigned int column);

/*
 * +|-[u]OFFS(FETCHARG).  The kernel counts the inner argument's column
 * from the sign it moves over the 'u', so for +u/-u its caret is one
 * column short: kept, as the kernel's error log shows it.  Text after
 * the last ')' the kernel ignores, and so does this.  MAX_ARGSTR_LEN
 * bounds the recursion: 21 levels at most.
 */
static int parse_deref(struct parser *p, struct opev_arg *arg, char *s,
		       unsigned int column)
{
	struct opev_deref *deref;
	char *open, *close;
	unsigned int inner;
	int user = 0;
	long offset;

	if (s[1] == 'u') {
		user = 1;
		s[1] = s[0];
		s++;
	}
	if (*s == '+')
		s++;
	open = str_chr(s, '(');
	if (!open)
		return fail(p, OPEV_ERR_DEREF_NEED_BRACE, column);
	*open = '\0';
	if (parse_l(s, &offset))
		return fail(p, OPEV_ERR_BAD_DEREF_OFFS, column);
	inner = column + (open + 1 - s) + (*s != '-');
	s = open + 1;
	close = str_rchr(s, ')');
	if (!close)
		return fail(p, OPEV_ERR_DEREF_OPEN_BRACE, inner + str_len(s));
	*close = '\0';
	if (parse_fetch(p, arg, s, inner))
		return -1;
	/* what is read from memory BTF does not type */
	p->last_btf = NULL;
	if (!arg->nr_derefs && (arg->base == OPEV_BASE_COMM ||
				arg->base == OPEV_BASE_IMM_STRING))
		return fail(p, OPEV_ERR_COMM_CANT_DEREF, inner);
	if (last_insn(arg) + 1 >= FETCH_INSN_MAX - 1)
		return fail(p, OPEV_ERR_TOO_MANY_OPS, inner);
	deref = &arg->derefs[arg->nr_derefs++];
	deref->offset = offset;
	deref->user = user;
	return 0;
}

/* parse_probe_arg(): one FETCHARG, without its type, at @column */
static int parse_fetch(struct parser *p, struct opev_arg *arg, char *s,
		       unsigned int column)
{
	switch (*s) {
	case '$':
		return parse_var(p, arg, s + 1, column);
	case '%':
		return parse_reg(p, arg, s + 1, column);
	case '@':
		return parse_mem(p, arg, s, column);
	case '+':
	case '-':
		return parse_deref(p, arg, s, column);
	case '\\':
		return parse_imm(p, arg, s, column);
	}
	if (is_alpha(*s) || *s == '_')
		return parse_btf_var(p, arg, s, column);
	return fail(p, OPEV_ERR_BAD_FETCH_ARG, column);
}

/* find_fetch_type(); b<width>@<offset>/<container> is found by its container */
static int find_type(const char *t, struct opev_type *type)
{
	const char *slash;
	unsigned long bits;
	unsigned int i;

	if (!t)
		t = DEFAULT_TYPE;
	if (*t == 'b') {
		for (slash = t; *slash && *slash != '/'; slash++)
			;
		if (!*slash || parse_ul(slash + 1, 0, &bits) ||
		    (bits != 8 && bits != 16 && bits != 32 && bits != 64))
			return -1;
		type->kind = OPEV_TYPE_BITFIELD;
		type->size = bits / 8;
		return 0;
	}
	for (i = 0; i < N_ELEMS(type_names); i++) {
		if (str_eq(t, type_names[i].name)) {
			type->kind = type_names[i].kind;
			type->size = type_names[i].size;
			return 0;
		}
	}
	return -1;
}

/*
 * parse_probe_arg_type(): split ":TYPE[N]" off @body at @column and find
 * the type.  *@typep is TYPE, or NULL when not written.
 */
static int parse_type(struct parser *p, struct opev_arg *arg, char *body,
		      unsigned int column, char **typep)
{
	char *t = str_chr(body, ':'), *num, *close;
	unsigned int tcol = column;

	if (t) {
		*t++ = '\0';
		tcol += t - body;
		num = str_chr(t, '[');
		if (num) {
			*num++ = '\0';
			close = str_chr(num, ']');
			if (!close)
				return fail(p, OPEV_ERR_ARRAY_NO_CLOSE,
					    column + (num + str_len(num) - body));
			if (close[1])
				return fail(p, OPEV_ERR_BAD_ARRAY_SUFFIX,
					    column + (close + 1 - body));
			*close = '\0';
			if (parse_uint(num, &arg->type.array) || !arg->type.array)
				return fail(p, OPEV_ERR_BAD_ARRAY_NUM, column + (num - body));
			if (arg->type.array > OPEV_ARRAY_MAX)
				return fail(p, OPEV_ERR_ARRAY_TOO_BIG, column + (num - body));
		}
	}
	*typep = t;
	arg->type.explicit_type = !!t;
	/* $comm and \"STR" are strings only: 6.12's NEED_STRING_TYPE */
	if (str_eq(body, "$comm") || str_eq(body, "$COMM") ||
	    str_prefix(body, "\\\"")) {
		if (arg->type.array || (t && !str_eq(t, "string")))
			return fail(p, OPEV_ERR_BAD_TYPE, tcol);
		t = "string";
	}
	if (find_type(t, &arg->type))
		return fail(p, OPEV_ERR_BAD_TYPE, tcol);
	return 0;
}

static int is_string_type(enum opev_type_kind kind)
{
	return kind == OPEV_TYPE_STRING || kind == OPEV_TYPE_USTRING ||
	       kind == OPEV_TYPE_SYMSTR;
}

/*
 * __parse_bitfield_probe_arg(): b<width>@<offset>/..., read as
 * simple_strtoul() does, in a container of @arg's size.
 */
static int parse_bitfield(struct opev_arg *arg, const char *t)
{
	unsigned int bits = arg->type.size * 8;
	unsigned long width, offset;
	const char *end;

	width = parse_leading(t + 1, &end);
	if (!width || *end != '@')
		return -1;
	t = end + 1;
	offset = parse_leading(t, &end);
	if (end == t || *end != '/')
		return -1;
	if (width > bits || offset > bits - width)
		return -1;
	arg->type.bf_width = width;
	arg->type.bf_offset = offset;
	return 0;
}

/*
 * finalize_fetch_insn(): whether the type and array fit what was fetched,
 * and whether the store, bitfield and array instructions the kernel adds
 * still fit in FETCH_INSN_MAX.  Columns as 6.1 has them (6.12 counts
 * them from the outermost dereference's inner argument, not the body).
 */
static int finish_arg(struct parser *p, struct opev_arg *arg, const char *t,
		      unsigned int column, unsigned int tcol)
{
	enum opev_type_kind kind = arg->type.kind;
	enum last_op last = last_op(arg);
	unsigned int insn = last_insn(arg);
	int array_ok, store_insn;

	if (kind == OPEV_TYPE_SYMSTR) {
		/* the kernel's BAD_SYMSTRING */
		if (last != LAST_VALUE && last != LAST_DEREF)
			return fail(p, OPEV_ERR_BAD_STRING, tcol);
		store_insn = 1;
		array_ok = 0;
	} else if (is_string_type(kind)) {
		if (last == LAST_VALUE || last == LAST_STACKP)
			return fail(p, OPEV_ERR_BAD_STRING, tcol);
		store_insn = last == LAST_ADDRESS || arg->type.array;
		array_ok = 1;
	} else {
		store_insn = last != LAST_DEREF && last != LAST_UDEREF;
		array_ok = last == LAST_DEREF;
	}
	insn += store_insn;
	if (insn >= FETCH_INSN_MAX - 1)
		return fail(p, OPEV_ERR_TOO_MANY_OPS, column);
	if (kind == OPEV_TYPE_BITFIELD &&
	    (parse_bitfield(arg, t) || ++insn >= FETCH_INSN_MAX - 1))
		return fail(p, OPEV_ERR_BAD_BITFIELD, tcol);
	if (arg->type.array) {
		if (!array_ok)
			return fail(p, OPEV_ERR_BAD_STRING, tcol);
		if (++insn >= FETCH_INSN_MAX - 1)
			return fail(p, OPEV_ERR_TOO_MANY_OPS, column);
	}
	return 0;
}

/*
 * An argument whose value BTF types (the kernel's last_type): the type
 * BTF gives when none is written; a string type reads the string at a
 * char pointer (check_prepare_btf_string_fetch()).  A marker's argument
 * likewise, from its format.
 */
static int btf_type_arg(struct parser *p, struct opev_arg *arg, unsigned int column,
			unsigned int tcol)
{
	const struct opev_btf_type *bt = p->last_btf;
	struct opev_deref *deref;
	enum opev_type_kind kind;

	if (!arg->type.explicit_type) {
		if (bt->fetch && find_type(bt->fetch, &arg->type))
			return fail(p, OPEV_ERR_BAD_TYPE, tcol);
		p->def->format_typed |= !!p->marker;
	}
	/* BTF's types are numbers; a marker's %s is a string */
	kind = arg->type.kind;
	if (kind != OPEV_TYPE_STRING && kind != OPEV_TYPE_USTRING)
		return 0;
	if (!bt->char_ptr)
		return fail(p, OPEV_ERR_BAD_TYPE4STR, column);
	if (arg->nr_derefs == OPEV_MAX_DEREFS)
		return fail(p, OPEV_ERR_TOO_MANY_OPS, column);
	deref = &arg->derefs[arg->nr_derefs++];
	deref->offset = 0;
	deref->user = kind == OPEV_TYPE_USTRING;
	return 0;
}

/* traceprobe_parse_probe_arg_body(): FETCHARG[:TYPE] at @column */
static int parse_arg_body(struct parser *p, struct opev_arg *arg, char *body,
			  unsigned int column)
{
	unsigned int len = str_len(body), size;
	char *t;

	if (len > MAX_ARGSTR_LEN)
		return fail(p, OPEV_ERR_ARG_TOO_LONG, column);
	if (!len)
		return fail(p, OPEV_ERR_NO_ARG_BODY, column);
	str_copy(arg->text, body, sizeof(arg->text));
	p->last_btf = NULL;
	if (parse_type(p, arg, body, column, &t) ||
	    parse_fetch(p, arg, body, column))
		return -1;
	if (p->last_btf && btf_type_arg(p, arg, column, column + (t ? t - body : 0)))
		return -1;
	size = arg->type.size * (arg->type.array ? arg->type.array : 1);
	p->size += size;
	/* the kernel's EVENT_TOO_BIG */
	if (p->size > MAX_PROBE_EVENT_SIZE)
		return fail(p, OPEV_ERR_TOO_MANY_ARGS, column);
	return finish_arg(p, arg, t, column,
			  column + (t ? t - body : 0));
}

/* Whether @name is reserved or an earlier argument's */
static int name_used(const struct parser *p, const char *name, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < N_ELEMS(reserved_names); i++)
		if (str_eq(name, reserved_names[i]))
			return 1;
	for (i = 0; i < n; i++)
		if (str_eq(name, p->def->args[i].name))
			return 1;
	return 0;
}

static int parse_arg(struct parser *p, unsigned int i, char *word,
		     unsigned int column);

/*
 * 6.12's traceprobe_expand_meta_args(): $argN[:TYPE] without NAME= is the
 * parameter by its C name, "NAME[:TYPE]", where BTF knows the function.
 * Return: @word, or what it is rewritten to; NULL on an error.
 */
static char *rewrite_arg(struct parser *p, char *word, unsigned int column)
{
	const struct opev_proto *proto;
	char *type = str_chr(word, ':');
	unsigned long n;
	struct out o;
	int bad;

	if (!btf_args(p) || !args_here(p) || !str_prefix(word, "$arg") ||
	    !is_digit(word[4]))
		return word;
	/* as is where BTF has no parameters for it */
	proto = find_proto(p);
	if (!proto || !proto->nr_params)
		return word;
	if (type)
		*type = '\0';
	bad = parse_ul(word + 4, 10, &n);
	if (type)
		*type = ':';
	if (bad)
		return word;
	if (!n || n > proto->nr_params) {
		fail(p, p->marker ? OPEV_ERR_BAD_ARG_NUM : OPEV_ERR_NO_BTFARG, column);
		return NULL;
	}
	o = (struct out){ p->rewritten, sizeof(p->rewritten), 0 };
	out_str(&o, proto->names[n - 1]);
	if (type)
		out_str(&o, type);
	out_end(&o);
	return p->rewritten;
}

/*
 * $arg*, in 6.12: every parameter by its C name, from argument @i on;
 * of an m: line, every argument of the marker.
 * Return: how many, or -1 on an error.
 */
static int expand_args(struct parser *p, unsigned int i, unsigned int column)
{
	const struct opev_proto *proto;
	unsigned int j;

	if (!args_here(p))
		return fail(p, OPEV_ERR_NOFENTRY_ARGS, column);
	proto = find_proto(p);
	/* a marker's arguments, whatever their number: its format's fields */
	p->def->format_typed |= !!p->marker;
	if (!proto || (!proto->nr_params && !p->marker))
		return fail(p, OPEV_ERR_NOSUP_BTFARG, column);
	for (j = 0; j < proto->nr_params; j++) {
		if (i + j == OPEV_MAX_ARGS)
			return fail(p, OPEV_ERR_TOO_MANY_ARGS, column);
		str_copy(p->rewritten, proto->names[j], sizeof(p->rewritten));
		if (parse_arg(p, i + j, p->rewritten, column))
			return -1;
	}
	return proto->nr_params;
}

/* traceprobe_parse_probe_arg(): [NAME=]FETCHARG[:TYPE], argument @i */
static int parse_arg(struct parser *p, unsigned int i, char *word,
		     unsigned int column)
{
	struct opev_arg *arg = &p->def->args[i];
	char *body = str_chr(word, '=');
	unsigned int n;
	struct out o;

	*arg = (struct opev_arg){ .column = column };
	if (!body) {
		word = rewrite_arg(p, word, column);
		if (!word)
			return -1;
	}
	if (body) {
		if (body - word > MAX_ARG_NAME_LEN)
			return fail(p, OPEV_ERR_ARG_NAME_TOO_LONG, column);
		/* "=..." is the kernel's NO_ARG_NAME */
		if (body == word)
			return fail(p, OPEV_ERR_BAD_ARG_NAME, column);
		*body++ = '\0';
		str_copy(arg->name, word, sizeof(arg->name));
	} else if (btf_args(p) && (is_alpha(*word) || *word == '_')) {
		/* a parameter by its C name is named so */
		for (n = 0; is_alpha(word[n]) || is_digit(word[n]) || word[n] == '_'; n++)
			if (n == MAX_ARG_NAME_LEN)
				return fail(p, OPEV_ERR_ARG_NAME_TOO_LONG, column);
		str_copy(arg->name, word, n + 1);
		body = word;
	} else {
		o = (struct out){ arg->name, sizeof(arg->name), 0 };
		out_str(&o, "arg");
		out_dec(&o, i + 1);
		out_end(&o);
		body = word;
	}
	if (!good_name(arg->name, 0))
		return fail(p, OPEV_ERR_BAD_ARG_NAME, column);
	if (name_used(p, arg->name, i))
		return fail(p, OPEV_ERR_USED_ARG_NAME, column);
	return parse_arg_body(p, arg, body, column + (body - word));
}

/* A module's name: letters, digits, '_' and '-', as modules are named */
static int good_module_name(const char *s)
{
	if (!*s || str_len(s) >= OPEV_MODULE_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!is_alpha(*s) && !is_digit(*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

/*
 * m:'s MOD:MARKER, split in place, and the marker's arguments: from its
 * format where the kernel finds the marker, any marker's while its
 * module is not loaded.
 */
static int parse_marker(struct parser *p, char *loc)
{
	struct opev_def *def = p->def;
	unsigned int column = column_of(p, loc);
	char *colon = str_chr(loc, ':');
	int found = 1;

	def->loc_column = column;
	if (!colon)
		return fail(p, OPEV_ERR_BAD_MARKER, column);
	*colon = '\0';
	if (!good_module_name(loc))
		return fail(p, OPEV_ERR_BAD_MARKER, column);
	if (!good_name(colon + 1, 0))
		return fail(p, OPEV_ERR_BAD_MARKER, column + (colon + 1 - loc));
	def->module = loc;
	def->symbol = colon + 1;
	if (p->kernel && p->kernel->find_marker && def->proto)
		found = p->kernel->find_marker(def->module, def->symbol, def->proto);
	if (found < 0)
		return fail(p, OPEV_ERR_NO_MARKER, column + (colon + 1 - loc));
	def->format_unknown = found > 0;
	p->marker = found ? &any_marker : def->proto;
	return 0;
}

/*
 * p[:[GRP/][EVENT]], r[MAXACTIVE][:[GRP/][EVENT]] and m[:[GRP/][EVENT]],
 * then the rest
 */
static int parse_probe(struct parser *p, char *cmd)
{
	struct opev_def *def = p->def;
	unsigned int column = column_of(p, cmd);
	unsigned int cmd_end = column + str_len(cmd);
	char *event, *loc, *word, *s;
	unsigned int i;
	int n;

	def->cmd = *cmd == 'r' ? OPEV_CMD_RETURN :
		   *cmd == 'm' ? OPEV_CMD_MARKER : OPEV_CMD_ENTRY;
	event = str_chr(cmd, ':');
	if (event)
		*event++ = '\0';
	loc = next_word(p);
	/* The kernel refuses it unlogged; the caret goes past the end, as its log's would. */
	if (!loc)
		return fail(p, OPEV_ERR_NO_LOCATION, cmd_end + 1);
	if (def->cmd == OPEV_CMD_MARKER) {
		if (cmd[1])
			return fail(p, OPEV_ERR_BAD_CMD, column + 1);
		if (parse_marker(p, loc))
			return -1;
	} else if (parse_maxactive(p, cmd + 1, column + 1) || parse_location(p, loc)) {
		return -1;
	}
	if (event && parse_event_name(p, event, column + (event - cmd)))
		return -1;
	if (!def->group[0])
		str_copy(def->group, OPEV_DEFAULT_GROUP, sizeof(def->group));
	if (!def->event[0])
		auto_event_name(def);

	p->fentry = def->symbol && !def->offset && def->cmd == OPEV_CMD_ENTRY;
	for (s = p->rest; is_space(*s); s++)
		;
	def->args_column = column_of(p, s);
	for (i = 0; (word = next_word(p)); i += n) {
		/* 6.12 refuses it unlogged (-E2BIG); 6.1 drops the rest. */
		if (i == OPEV_MAX_ARGS)
			return fail(p, OPEV_ERR_TOO_MANY_ARGS, column_of(p, word));
		if (btf_args(p) && str_eq(word, "$arg*"))
			n = expand_args(p, i, column_of(p, word));
		else
			n = parse_arg(p, i, word, column_of(p, word)) ? -1 : 1;
		if (n < 0)
			return -1;
		def->nr_args = i + n;
	}
	/* a marker's line without arguments records all the marker's */
	if (def->cmd == OPEV_CMD_MARKER && !i) {
		n = expand_args(p, 0, def->args_column);
		if (n < 0)
			return -1;
		def->nr_args = n;
	}
	return 0;
}

/*
 * -:[GRP/]EVENT, as dyn_event_release() takes it.  The kernel also takes
 * -:GRP/ (all of a group) and a location and arguments to match after
 * the name; refused here.
 */
static int parse_remove(struct parser *p, char *cmd)
{
	unsigned int column = column_of(p, cmd);
	char *word;

	p->def->cmd = OPEV_CMD_REMOVE;
	if (cmd[1] != ':')
		return fail(p, OPEV_ERR_BAD_CMD, column + 1);
	if (!cmd[2])
		return fail(p, OPEV_ERR_NO_EVENT_INFO, column + 2);
	if (parse_event_name(p, cmd + 2, column + 2))
		return -1;
	if (!p->def->event[0])
		return fail(p, OPEV_ERR_NO_EVENT_INFO, column + 2);
	word = next_word(p);
	if (word)
		return fail(p, OPEV_ERR_BAD_CMD, column_of(p, word));
	return 0;
}

int opev_parse(const char *line, struct opev_def *def, enum opev_arch arch,
	       const struct opev_kernel *kernel, struct opev_error *err)
{
	struct parser p = { .def = def, .arch = arch, .kernel = kernel, .err = err };
	char *cmd;

	*def = (struct opev_def){ .args = def->args, .buf = def->buf, .proto = def->proto };
	*err = (struct opev_error){ .code = OPEV_ERR_NONE };
	str_copy(def->buf, line, str_len(line) + 1);
	p.rest = def->buf;
	cmd = next_word(&p);
	if (!cmd)
		return fail(&p, OPEV_ERR_BAD_CMD, 0);
	switch (*cmd) {
	case 'p':
	case 'r':
	case 'm':
		return parse_probe(&p, cmd);
	case '-':
		return parse_remove(&p, cmd);
	}
	return fail(&p, OPEV_ERR_BAD_CMD, column_of(&p, cmd));
}

const char *opev_error_text(int code)
{
	if (code < 0 || code >= OPEV_ERR_MAX || !error_texts[code])
		return "Unknown error";
	return error_texts[code];
}

const char *opev_reg_name(enum opev_arch arch, unsigned int index)
{
	switch (arch) {
	case OPEV_ARCH_X86_64:
		return index < N_ELEMS(regs_x86_64) ? regs_x86_64[index] : NULL;
	case OPEV_ARCH_PPC64:
		return index < N_ELEMS(regs_ppc64) ? regs_ppc64[index] : NULL;
	}
	return NULL;
}

/* The fetch type of a marker's argument of @t, as the core reads the format */
static const char *marker_fetch(const struct op_marker_type *t)
{
	int wide = t->size == 8;

	switch (t->conv) {
	case 'd':
		return wide ? "s64" : "s32";
	case 'x':
		return wide ? "x64" : "x32";
	case 'c':
		return "char";
	case 's':
		return "string";
	case 'p':
		return "x64";
	default:
		return wide ? "u64" : "u32";	/* u, o */
	}
}

int opev_marker_proto(const char *format, struct opev_proto *proto)
{
	struct op_marker_type types[OPEV_MARKER_ARGS_MAX];
	int i, n = op_marker_format_types(format, types, OPEV_MARKER_ARGS_MAX);
	struct out o;

	*proto = (struct opev_proto){ .ret_void = 1 };
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		proto->params[i].fetch = marker_fetch(&types[i]);
		proto->params[i].char_ptr = types[i].conv == 's';
		o = (struct out){ proto->names[i], sizeof(proto->names[i]), 0 };
		out_str(&o, "arg");
		out_dec(&o, i + 1);
		out_end(&o);
	}
	proto->nr_params = n;
	return 0;
}

/* trace_kprobe_show(), with a MEMADDR as auto_event_name() prints it */
int opev_format_def(const struct opev_def *def, char *out, unsigned int size)
{
	struct out o = { out, size, 0 };
	unsigned int i;

	if (def->cmd == OPEV_CMD_REMOVE) {
		out_str(&o, "-:");
		if (def->group[0]) {
			out_str(&o, def->group);
			out_char(&o, '/');
		}
		out_str(&o, def->event);
		return out_end(&o);
	}
	out_char(&o, cmd_letter(def->cmd));
	if (def->cmd == OPEV_CMD_RETURN && def->maxactive)
		out_dec(&o, def->maxactive);
	out_char(&o, ':');
	out_str(&o, def->group);
	out_char(&o, '/');
	out_str(&o, def->event);
	out_char(&o, ' ');
	if (def->cmd == OPEV_CMD_MARKER) {
		out_str(&o, def->module);
		out_char(&o, ':');
		out_str(&o, def->symbol);
		if (def->raw_args) {
			if (*def->raw_args)
				out_char(&o, ' ');
			out_str(&o, def->raw_args);
			return out_end(&o);
		}
	} else if (def->symbol) {
		if (def->module) {
			out_str(&o, def->module);
			out_char(&o, ':');
		}
		out_str(&o, def->symbol);
		if (def->offset) {
			out_char(&o, '+');
			out_dec(&o, def->offset);
		}
	} else {
		out_str(&o, "0x");
		out_hex16(&o, def->addr);
	}
	for (i = 0; i < def->nr_args; i++) {
		out_char(&o, ' ');
		out_str(&o, def->args[i].name);
		out_char(&o, '=');
		out_str(&o, def->args[i].text);
	}
	return out_end(&o);
}
