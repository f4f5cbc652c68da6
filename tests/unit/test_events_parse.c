// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of events/parse.c, the kprobe_events grammar: every form
 * of Documentation/trace/kprobetrace.rst, every error with the column the
 * kernel's error log puts its caret at, the kernel's limits, and the
 * listing of what was parsed.
 */
#include <string.h>

#include "parse.h"
#include "unit.h"

#define X86	OPEV_ARCH_X86_64
#define PPC	OPEV_ARCH_PPC64
#define LINE_MAX_LEN	8192

static struct opev_arg args[OPEV_MAX_ARGS];
static char buf[LINE_MAX_LEN];
static struct opev_proto proto;

/* What the running kernel takes beyond 6.1's grammar: NULL, but in check_btf() */
static const struct opev_kernel *parse_kernel;

static int parse(const char *line, struct opev_def *def, enum opev_arch arch,
		 struct opev_error *err)
{
	def->args = args;
	def->buf = buf;
	def->proto = &proto;
	return opev_parse(line, def, arch, parse_kernel, err);
}

/* A line that parses, and how the kernel would list it */
struct ok_case {
	enum opev_arch arch;
	const char *line;
	const char *listed;
};

static const struct ok_case ok_cases[] = {
	/* kprobetrace.rst's examples */
	{ X86, "p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack)",
	  "p:optprobes/myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack)" },
	{ X86, "r:myretprobe do_sys_open $retval",
	  "r:optprobes/myretprobe do_sys_open arg1=$retval" },
	{ X86, "p:myprobe vfs_read+5", "p:optprobes/myprobe vfs_read+5" },
	{ X86, "-:myprobe", "-:myprobe" },
	{ X86, "-:kprobes/myprobe", "-:kprobes/myprobe" },
	/* automatic names: "%c_%s_%ld", ':' and '.' made '_' */
	{ X86, "p do_sys_open", "p:optprobes/p_do_sys_open_0 do_sys_open" },
	{ X86, "p vfs_read+0x10", "p:optprobes/p_vfs_read_16 vfs_read+16" },
	{ X86, "p ext4:ext4_file_open.isra.0+4",
	  "p:optprobes/p_ext4_ext4_file_open_isra_0_4 ext4:ext4_file_open.isra.0+4" },
	{ X86, "p _text+1234", "p:optprobes/p__text_1234 _text+1234" },
	{ X86, "p:grp/ vfs_read", "p:grp/p_vfs_read_0 vfs_read" },
	{ X86, "p vfs_read+0", "p:optprobes/p_vfs_read_0 vfs_read" },
	/* MEMADDR, printed as %p does under no_hash_pointers */
	{ X86, "p 0xffffffff81000000", "p:optprobes/p_0xffffffff81000000 0xffffffff81000000" },
	{ X86, "r 4096", "r:optprobes/r_0x0000000000001000 0x0000000000001000" },
	{ X86, "p:ev +4096", "p:optprobes/ev 0x0000000000001000" },
	/* return probes, maxactive */
	{ X86, "r10:ev vfs_read", "r10:optprobes/ev vfs_read" },
	{ X86, "r0x10:ev vfs_read", "r16:optprobes/ev vfs_read" },
	{ X86, "r4096 vfs_read", "r4096:optprobes/r_vfs_read_0 vfs_read" },
	{ X86, "p vfs_read%return $retval", "r:optprobes/r_vfs_read_0 vfs_read arg1=$retval" },
	{ X86, "p:ev vfs_read+0%return", "r:optprobes/ev vfs_read" },
	{ X86, "r vfs_read+0", "r:optprobes/r_vfs_read_0 vfs_read" },
	/* groups and events: GRP.EVENT, '-' in a group */
	{ X86, "p:grp.ev vfs_read", "p:grp/ev vfs_read" },
	{ X86, "p:my-grp/_ev1 vfs_read", "p:my-grp/_ev1 vfs_read" },
	/* names are arg<position>, and the text is listed as written */
	{ X86, "p:ev f %di a=%si %dx", "p:optprobes/ev f arg1=%di a=%si arg3=%dx" },
	{ X86, "r:ev f $retval +0($retval):string",
	  "r:optprobes/ev f arg1=$retval arg2=+0($retval):string" },
	/* the kernel ignores what follows a dereference's last ')' */
	{ X86, "p:ev f +0(%ax)junk", "p:optprobes/ev f arg1=+0(%ax)junk" },
	/* words are split at any of the kernel's isspace() */
	{ X86, "  p:ev\tf \v %ax \r", "p:optprobes/ev f arg1=%ax" },
	/* the longest argument name, the kernel's 32 */
	{ X86, "p:ev f aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=%ax",
	  "p:optprobes/ev f aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=%ax" },
};

/* One FETCHARG[:TYPE] of "p:ev f+0 ARG", listed as "arg1=ARG" */
struct arg_case {
	enum opev_arch arch;
	const char *arg;
};

static const struct arg_case arg_cases[] = {
	/* every register, in regoffset_table's order */
	{ X86, "%r15" }, { X86, "%r14" }, { X86, "%r13" }, { X86, "%r12" },
	{ X86, "%r11" }, { X86, "%r10" }, { X86, "%r9" }, { X86, "%r8" },
	{ X86, "%bx" }, { X86, "%cx" }, { X86, "%dx" }, { X86, "%si" },
	{ X86, "%di" }, { X86, "%bp" }, { X86, "%ax" }, { X86, "%orig_ax" },
	{ X86, "%ip" }, { X86, "%cs" }, { X86, "%flags" }, { X86, "%sp" },
	{ X86, "%ss" },
	{ PPC, "%r0" }, { PPC, "%gpr0" }, { PPC, "%r3" }, { PPC, "%gpr3" },
	{ PPC, "%r31" }, { PPC, "%gpr31" }, { PPC, "%nip" }, { PPC, "%msr" },
	{ PPC, "%ctr" }, { PPC, "%link" }, { PPC, "%xer" }, { PPC, "%ccr" },
	{ PPC, "%softe" }, { PPC, "%trap" }, { PPC, "%dar" }, { PPC, "%dsisr" },
	/* every other base */
	{ X86, "@0x1000" }, { X86, "@4096" }, { X86, "@jiffies" },
	{ X86, "@jiffies+8" }, { X86, "@jiffies-0x10" },
	{ X86, "$stack" }, { X86, "$stack0" }, { X86, "$stack2048" },
	{ X86, "$arg1" }, { X86, "$arg2048" }, { X86, "$comm" }, { X86, "$COMM" },
	{ X86, "\\123" }, { X86, "\\-1" }, { X86, "\\+0x10" },
	{ X86, "\\\"str\"" }, { X86, "\\\"\"" }, { X86, "\\\"a\"b\"" },
	/* dereferences */
	{ X86, "+8(-16(+u24(%di))):u32" }, { X86, "-0x8(@jiffies)" },
	{ X86, "+0(\\0x1000)" }, { X86, "-u4($stack)" }, { X86, "+0($arg1)" },
	/* every type */
	{ X86, "%ax:u8" }, { X86, "%ax:u16" }, { X86, "%ax:u32" }, { X86, "%ax:u64" },
	{ X86, "%ax:s8" }, { X86, "%ax:s16" }, { X86, "%ax:s32" }, { X86, "%ax:s64" },
	{ X86, "%ax:x8" }, { X86, "%ax:x16" }, { X86, "%ax:x32" }, { X86, "%ax:x64" },
	{ X86, "%ax:char" }, { X86, "%ax:symbol" },
	{ X86, "+0(%si):string" }, { X86, "+0(%si):ustring" }, { X86, "+u0(%si):string" },
	{ X86, "\\0x1000:string" }, { X86, "$comm:string" }, { X86, "\\\"s\":string" },
	{ X86, "%si:symstr" }, { X86, "+0(%si):symstr" }, { X86, "$stack1:symstr" },
	{ X86, "$arg2:symstr" },
	/* bitfields */
	{ X86, "%ax:b4@2/32" }, { X86, "+0(%ax):b1@7/8" }, { X86, "%ax:b64@0/64" },
	{ X86, "+0(%ax):b0x4@0x1c/0x20" }, { X86, "%ax:b16@0/16" },
	/* arrays */
	{ X86, "+0(%ax):x16[4]" }, { X86, "+0(%ax):u8[64]" }, { X86, "+0(%ax):string[2]" },
	{ X86, "+0(%ax):b4@0/32[2]" }, { X86, "\\1:string[2]" }, { X86, "+0(%ax):u8[0x3]" },
	/* the longest body, the kernel's 63 */
	{ X86, "+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%ax))))))))))))):u16[64]" },
};

/*
 * A line that fails: the error, and its column as @mark's first place in
 * the line plus @delta ("" for the line's start).
 */
struct err_case {
	enum opev_arch arch;
	const char *line;
	int code;
	const char *mark;
	int delta;
};

static const struct err_case err_cases[] = {
	/* the command */
	{ X86, "", OPEV_ERR_BAD_CMD, "", 0 },
	{ X86, "x:ev f", OPEV_ERR_BAD_CMD, "", 0 },
	{ X86, "pfoo:ev f", OPEV_ERR_BAD_CMD, "f", 0 },
	{ X86, "p", OPEV_ERR_NO_LOCATION, "", 2 },
	{ X86, "  p:ev  ", OPEV_ERR_NO_LOCATION, "p", 5 },
	/* maxactive: column 1 of the command */
	{ X86, "p5:ev f", OPEV_ERR_MAXACT_NO_KPROBE, "5", 0 },
	{ X86, "r0 f", OPEV_ERR_BAD_MAXACT, "0", 0 },
	{ X86, "r5x:ev f", OPEV_ERR_BAD_MAXACT, "5", 0 },
	{ X86, "r4294967296 f", OPEV_ERR_BAD_MAXACT, "4", 0 },
	{ X86, "r4097 f", OPEV_ERR_MAXACT_TOO_BIG, "4", 0 },
	/* group and event: where the name starts, or the event after GRP/ */
	{ X86, "p:/ev f", OPEV_ERR_NO_GROUP_NAME, "/", 0 },
	{ X86, "p:gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg/e f",
	  OPEV_ERR_GROUP_TOO_LONG, "g", 0 },
	{ X86, "p:1grp/ev f", OPEV_ERR_BAD_GROUP_NAME, "1", 0 },
	{ X86, "p: f", OPEV_ERR_NO_EVENT_NAME, " ", 0 },
	{ X86, "p:grp/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee f",
	  OPEV_ERR_EVENT_TOO_LONG, "e", 0 },
	{ X86, "p:grp/e-v f", OPEV_ERR_BAD_EVENT_NAME, "e-", 0 },
	{ X86, "p:grp/e.v f", OPEV_ERR_BAD_EVENT_NAME, "e.", 0 },
	/* the location, before the name */
	{ X86, "p:1bad foo%ret", OPEV_ERR_BAD_PROBE_ADDR, "%", 0 },
	{ X86, "p:ev foo+bar", OPEV_ERR_BAD_PROBE_ADDR, "foo", 0 },
	{ X86, "p:ev foo-4", OPEV_ERR_BAD_PROBE_ADDR, "foo", 0 },
	{ X86, "p:ev foo+0x100000000", OPEV_ERR_BAD_PROBE_ADDR, "foo", 0 },
	{ X86, "p:ev /bin/sh:0x10", OPEV_ERR_BAD_PROBE_ADDR, "/", 0 },
	{ X86, "p:ev :foo", OPEV_ERR_BAD_PROBE_ADDR, ":foo", 0 },
	{ X86, "p:ev mod:", OPEV_ERR_BAD_PROBE_ADDR, "mod", 0 },
	{ X86, "p:ev %return", OPEV_ERR_BAD_PROBE_ADDR, "%", 0 },
	{ X86, "p:ev -5", OPEV_ERR_BAD_PROBE_ADDR, "-", 0 },
	{ X86, "r:ev foo+4", OPEV_ERR_BAD_RETPROBE, "foo", 0 },
	{ X86, "p:ev foo+4%return", OPEV_ERR_BAD_RETPROBE, "foo", 0 },
	/* $vars: the '$' */
	{ X86, "p:ev f $retval", OPEV_ERR_RETVAL_ON_PROBE, "$", 0 },
	{ X86, "p:ev f x=+0($retval)", OPEV_ERR_RETVAL_ON_PROBE, "$", 0 },
	{ X86, "p:ev f $foo", OPEV_ERR_BAD_FETCH_ARG, "$", 0 },
	{ X86, "p:ev f $stackx", OPEV_ERR_BAD_FETCH_ARG, "$", 0 },
	{ X86, "p:ev f $argx", OPEV_ERR_BAD_FETCH_ARG, "$", 0 },
	{ X86, "p:ev f $retval0", OPEV_ERR_BAD_FETCH_ARG, "$", 0 },
	{ X86, "p:ev f foo", OPEV_ERR_BAD_FETCH_ARG, "foo", 0 },
	{ X86, "p:ev f +0()", OPEV_ERR_BAD_FETCH_ARG, ")", 0 },
	{ X86, "p:ev f $stack2049", OPEV_ERR_BAD_STACK_NUM, "$", 0 },
	{ X86, "p:ev f $arg0", OPEV_ERR_BAD_ARG_NUM, "$", 0 },
	{ X86, "p:ev f $arg2049", OPEV_ERR_BAD_ARG_NUM, "$", 0 },
	{ X86, "p:ev f+4 $arg1", OPEV_ERR_NOFENTRY_ARGS, "$", 0 },
	{ X86, "r:ev f $arg1", OPEV_ERR_NOFENTRY_ARGS, "$", 0 },
	{ X86, "p:ev 0xffffffff81000000 a=+0($arg1)", OPEV_ERR_NOFENTRY_ARGS, "$", 0 },
	/* registers */
	{ X86, "p:ev f %zz", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ X86, "p:ev f %r3", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ X86, "p:ev f %eax", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ PPC, "p:ev f %ax", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ PPC, "p:ev f %r32", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ PPC, "p:ev f %mq", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	/* memory */
	{ X86, "p:ev f @0xzz", OPEV_ERR_BAD_MEM_ADDR, "@", 0 },
	{ X86, "p:ev f @+4", OPEV_ERR_BAD_MEM_ADDR, "@", 0 },
	{ X86, "p:ev f @jiffies+x", OPEV_ERR_BAD_MEM_ADDR, "@", 0 },
	{ X86, "p:ev f @", OPEV_ERR_BAD_MEM_ADDR, "@", 0 },
	{ X86, "p:ev f @-8", OPEV_ERR_BAD_MEM_ADDR, "@", 0 },
	/* immediates: the kernel's caret is after the '\' */
	{ X86, "p:ev f \\abc", OPEV_ERR_BAD_IMM, "a", 0 },
	{ X86, "p:ev f \\", OPEV_ERR_BAD_IMM, "\\", 1 },
	{ X86, "p:ev f \\0x", OPEV_ERR_BAD_IMM, "0", 0 },
	{ X86, "p:ev f \\\"abc", OPEV_ERR_IMMSTR_NO_CLOSE, "\\", 5 },
	{ X86, "p:ev f \\\"", OPEV_ERR_IMMSTR_NO_CLOSE, "\\", 2 },
	/* the kernel splits at spaces, quotes or not */
	{ X86, "p:ev f \\\"a b\"", OPEV_ERR_IMMSTR_NO_CLOSE, "\\", 3 },
	/* dereferences: the inner argument's column (one short after 'u') */
	{ X86, "p:ev f +8%ax", OPEV_ERR_DEREF_NEED_BRACE, "+", 0 },
	{ X86, "p:ev f +x(%ax)", OPEV_ERR_BAD_DEREF_OFFS, "+", 0 },
	{ X86, "p:ev f +(%ax)", OPEV_ERR_BAD_DEREF_OFFS, "+", 0 },
	{ X86, "p:ev f +8(%ax", OPEV_ERR_DEREF_OPEN_BRACE, "+", 6 },
	{ X86, "p:ev f +u8(%ax", OPEV_ERR_DEREF_OPEN_BRACE, "+", 6 },
	{ X86, "p:ev f -8(+4(%zz))", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ X86, "p:ev f -u8(%zz)", OPEV_ERR_BAD_REG_NAME, "%", -1 },
	{ X86, "p:ev f +0($comm)", OPEV_ERR_COMM_CANT_DEREF, "$", 0 },
	{ X86, "p:ev f +0(\\\"s\")", OPEV_ERR_COMM_CANT_DEREF, "\\", 0 },
	/* types: the type's column */
	{ X86, "p:ev f %ax:u128", OPEV_ERR_BAD_TYPE, "u", 0 },
	{ X86, "p:ev f %ax:", OPEV_ERR_BAD_TYPE, "%", 4 },
	{ X86, "p:ev f %ax:b4@0/33", OPEV_ERR_BAD_TYPE, "b", 0 },
	{ X86, "p:ev f %ax:bits", OPEV_ERR_BAD_TYPE, "b", 0 },
	{ X86, "p:ev f $comm:u8", OPEV_ERR_BAD_TYPE, "u8", 0 },
	{ X86, "p:ev f $comm:string[2]", OPEV_ERR_BAD_TYPE, "str", 0 },
	{ X86, "p:ev f \\\"s\":x8", OPEV_ERR_BAD_TYPE, "x8", 0 },
	{ X86, "p:ev f %ax:string", OPEV_ERR_BAD_STRING, "str", 0 },
	{ X86, "p:ev f $stack:string", OPEV_ERR_BAD_STRING, "str", 0 },
	{ X86, "p:ev f %ax:u32[2]", OPEV_ERR_BAD_STRING, "u32", 0 },
	{ X86, "p:ev f +u0(%ax):u32[2]", OPEV_ERR_BAD_STRING, "u32", 0 },
	{ X86, "p:ev f +0(%ax):symstr[2]", OPEV_ERR_BAD_STRING, "sym", 0 },
	{ X86, "p:ev f \\1:symstr", OPEV_ERR_BAD_STRING, "sym", 0 },
	{ X86, "p:ev f +u0(%ax):symstr", OPEV_ERR_BAD_STRING, "sym", 0 },
	{ X86, "p:ev f %ax:bx@0/32", OPEV_ERR_BAD_BITFIELD, "bx", 0 },
	{ X86, "p:ev f %ax:b0@0/32", OPEV_ERR_BAD_BITFIELD, "b0", 0 },
	{ X86, "p:ev f %ax:b4@/32", OPEV_ERR_BAD_BITFIELD, "b4", 0 },
	{ X86, "p:ev f %ax:b4-0/32", OPEV_ERR_BAD_BITFIELD, "b4", 0 },
	{ X86, "p:ev f %ax:b30@3/32", OPEV_ERR_BAD_BITFIELD, "b30", 0 },
	{ X86, "p:ev f %ax:b9@0/8", OPEV_ERR_BAD_BITFIELD, "b9", 0 },
	/* arrays */
	{ X86, "p:ev f +0(%ax):u8[2", OPEV_ERR_ARRAY_NO_CLOSE, "2", 1 },
	{ X86, "p:ev f +0(%ax):u8[2]x", OPEV_ERR_BAD_ARRAY_SUFFIX, "]x", 1 },
	{ X86, "p:ev f +0(%ax):u8[]", OPEV_ERR_BAD_ARRAY_NUM, "]", 0 },
	{ X86, "p:ev f +0(%ax):u8[0]", OPEV_ERR_BAD_ARRAY_NUM, "0]", 0 },
	{ X86, "p:ev f +0(%ax):u8[-1]", OPEV_ERR_BAD_ARRAY_NUM, "-1", 0 },
	{ X86, "p:ev f +0(%ax):u8[65]", OPEV_ERR_ARRAY_TOO_BIG, "65", 0 },
	/* names: the argument's column */
	{ X86, "p:ev f 1x=%ax", OPEV_ERR_BAD_ARG_NAME, "1x", 0 },
	{ X86, "p:ev f =%ax", OPEV_ERR_BAD_ARG_NAME, "=", 0 },
	{ X86, "p:ev f a-b=%ax", OPEV_ERR_BAD_ARG_NAME, "a-b", 0 },
	{ X86, "p:ev f aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=%ax", OPEV_ERR_ARG_NAME_TOO_LONG, "a", 0 },
	{ X86, "p:ev f a=%ax a=%bx", OPEV_ERR_USED_ARG_NAME, "a=%b", 0 },
	{ X86, "p:ev f arg2=%ax %bx", OPEV_ERR_USED_ARG_NAME, "%b", 0 },
	{ X86, "p:ev f common_pid=%ax", OPEV_ERR_USED_ARG_NAME, "c", 0 },
	{ X86, "p:ev f __probe_ip=%ax", OPEV_ERR_USED_ARG_NAME, "_", 0 },
	{ X86, "p:ev f a=", OPEV_ERR_NO_ARG_BODY, "a", 2 },
	{ X86, "p:ev f a=+10(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%ax))))))))))))):u16[64]",
	  OPEV_ERR_ARG_TOO_LONG, "+", 0 },
	/* removal */
	{ X86, "-", OPEV_ERR_BAD_CMD, "", 1 },
	{ X86, "-ev", OPEV_ERR_BAD_CMD, "e", 0 },
	{ X86, "-:", OPEV_ERR_NO_EVENT_INFO, "", 2 },
	{ X86, "-:grp/", OPEV_ERR_NO_EVENT_INFO, "g", 0 },
	{ X86, "-:/ev", OPEV_ERR_NO_GROUP_NAME, "/", 0 },
	{ X86, "-:1ev", OPEV_ERR_BAD_EVENT_NAME, "1", 0 },
	{ X86, "-:ev vfs_read", OPEV_ERR_BAD_CMD, "vfs", 0 },
	/* the column is the line's, whatever the spacing */
	{ X86, "   p:ev   f    %zz", OPEV_ERR_BAD_REG_NAME, "%", 0 },
};

static void check_ok(const struct ok_case *c)
{
	static char listed[LINE_MAX_LEN], again[LINE_MAX_LEN];
	struct opev_error err;
	struct opev_def def;
	int ret, len;

	ret = parse(c->line, &def, c->arch, &err);
	len = ret ? 0 : opev_format_def(&def, listed, sizeof(listed));
	unit_check(!ret && !strcmp(listed, c->listed) && len == (int)strlen(listed),
		   c->line, "ret %d (%s at %u), listed \"%s\"", ret,
		   opev_error_text(err.code), err.column, ret ? "" : listed);
	if (ret)
		return;
	/* what is listed parses back to itself */
	ret = parse(listed, &def, c->arch, &err);
	if (!ret)
		opev_format_def(&def, again, sizeof(again));
	unit_check(!ret && !strcmp(again, listed), listed, "round trip: ret %d \"%s\"",
		   ret, ret ? "" : again);
}

static void check_arg(const struct arg_case *c)
{
	char line[128], listed[128];
	struct ok_case ok = { c->arch, line, listed };

	snprintf(line, sizeof(line), "p:ev f+0 %s", c->arg);
	snprintf(listed, sizeof(listed), "p:optprobes/ev f arg1=%s", c->arg);
	check_ok(&ok);
}

static void check_err(const struct err_case *c)
{
	const char *mark = strstr(c->line, c->mark);
	unsigned int column = mark - c->line + c->delta;
	struct opev_error err;
	struct opev_def def;
	char name[256];
	int ret;

	ret = parse(c->line, &def, c->arch, &err);
	snprintf(name, sizeof(name), "\"%s\" refused", c->line);
	unit_check(ret == -1 && err.code == c->code && err.column == column, name,
		   "ret %d: \"%s\" at %u; want \"%s\" at %u", ret,
		   opev_error_text(err.code), err.column, opev_error_text(c->code),
		   column);
}

/* Join @words into @line, a space between each two */
static void join(char *line, size_t size, const char *const *words, unsigned int n)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		len += snprintf(line + len, size - len, "%s%s", i ? " " : "", words[i]);
}

/* Build a line of @n arguments, each @arg */
static void build_args(char *line, size_t size, unsigned int n, const char *arg)
{
	size_t len = snprintf(line, size, "p:ev f");
	unsigned int i;

	for (i = 0; i < n; i++)
		len += snprintf(line + len, size - len, " %s", arg);
}

/* The parsed fields, for the forms whose listing does not show them */
static void check_fields(void)
{
	static const char *const words[] = {
		"r7:grp/ev", "mod:sym+0", "n=+8(-16(+u24(%di))):u32", "%ax:b4@2/16",
		"+0(%ax):x16[4]", "$comm", "\\\"st\"", "@jiffies-8", "\\-1", "$stack5",
		"$retval",
	};
	struct opev_error err;
	struct opev_def def;
	const struct opev_arg *a;
	char line[256];
	int ret;

	join(line, sizeof(line), words, ARRAY_SIZE(words));
	ret = parse(line, &def, X86, &err);
	unit_check(!ret && def.cmd == OPEV_CMD_RETURN && def.maxactive == 7 &&
		   !strcmp(def.group, "grp") && !strcmp(def.event, "ev") &&
		   !strcmp(def.module, "mod") && !strcmp(def.symbol, "sym") &&
		   def.offset == 0 && def.loc_column == 10 && def.nr_args == 9,
		   "fields: the probe", "ret %d (%s at %u)", ret,
		   opev_error_text(err.code), err.column);
	if (ret)
		return;
	a = &def.args[0];
	unit_check(!strcmp(a->name, "n") && a->base == OPEV_BASE_REG &&
		   !strcmp(opev_reg_name(X86, a->index), "di") && a->nr_derefs == 3 &&
		   a->derefs[0].offset == 24 && a->derefs[0].user &&
		   a->derefs[1].offset == -16 && !a->derefs[1].user &&
		   a->derefs[2].offset == 8 && !a->derefs[2].user &&
		   a->type.kind == OPEV_TYPE_U && a->type.size == 4 &&
		   a->type.explicit_type && a->column == 20,
		   "fields: derefs innermost first", "base %d nr %u", a->base, a->nr_derefs);
	a = &def.args[1];
	unit_check(!strcmp(a->name, "arg2") && a->type.kind == OPEV_TYPE_BITFIELD &&
		   a->type.size == 2 && a->type.bf_width == 4 && a->type.bf_offset == 2,
		   "fields: bitfield", "kind %d size %u", a->type.kind, a->type.size);
	a = &def.args[2];
	unit_check(a->type.kind == OPEV_TYPE_X && a->type.size == 2 && a->type.array == 4 &&
		   a->nr_derefs == 1 && !strcmp(a->text, "+0(%ax):x16[4]"),
		   "fields: array", "kind %d array %u", a->type.kind, a->type.array);
	a = &def.args[3];
	unit_check(a->base == OPEV_BASE_COMM && a->type.kind == OPEV_TYPE_STRING &&
		   !a->type.explicit_type, "fields: $comm is a string", "kind %d",
		   a->type.kind);
	a = &def.args[4];
	unit_check(a->base == OPEV_BASE_IMM_STRING && !strcmp(a->symbol, "st"),
		   "fields: immediate string", "base %d", a->base);
	a = &def.args[5];
	unit_check(a->base == OPEV_BASE_SYMBOL && !strcmp(a->symbol, "jiffies") &&
		   (long)a->value == -8 && !a->nr_derefs,
		   "fields: @SYM-offs", "base %d value %ld", a->base, (long)a->value);
	a = &def.args[6];
	unit_check(a->base == OPEV_BASE_IMM && a->value == ~0UL &&
		   a->type.kind == OPEV_TYPE_X && a->type.size == 8 && !a->type.explicit_type,
		   "fields: immediate, default x64", "value %#lx", a->value);
	a = &def.args[7];
	unit_check(a->base == OPEV_BASE_STACK && a->index == 5, "fields: $stackN",
		   "base %d index %u", a->base, a->index);
	a = &def.args[8];
	unit_check(a->base == OPEV_BASE_RETVAL, "fields: $retval", "base %d", a->base);
}

/* The immediate string's own fields: what \"STR" keeps */
static void check_string(void)
{
	struct opev_error err;
	struct opev_def def;
	int ret;

	ret = parse("p:ev f+0 \\\"a\"b\" $arg3 @0x1000", &def, X86, &err);
	unit_check(!ret && def.args[0].base == OPEV_BASE_IMM_STRING &&
		   !strcmp(def.args[0].symbol, "a\"b") &&
		   def.args[1].base == OPEV_BASE_ARG && def.args[1].index == 3 &&
		   def.args[2].base == OPEV_BASE_ADDR && def.args[2].value == 0x1000 &&
		   !def.module && def.addr == 0,
		   "fields: \\\"a\"b\", $argN, @ADDR", "ret %d (%s at %u)", ret,
		   opev_error_text(err.code), err.column);
	ret = parse("p 0xffffffff81000000", &def, X86, &err);
	unit_check(!ret && !def.symbol && def.addr == 0xffffffff81000000UL &&
		   !strcmp(def.group, OPEV_DEFAULT_GROUP),
		   "fields: MEMADDR", "ret %d", ret);
	ret = parse("-:ev", &def, X86, &err);
	unit_check(!ret && def.cmd == OPEV_CMD_REMOVE && !def.group[0] &&
		   !strcmp(def.event, "ev"), "fields: -: any group", "ret %d", ret);
}

/* The automatic name is cut as the kernel's snprintf() into 64 bytes cuts it. */
static void check_long_auto_name(void)
{
	static const char sym[] =
		"a_very_long_symbol_name_that_does_not_fit_in_an_event_name_at_all";
	char line[128];
	struct opev_error err;
	struct opev_def def;
	int ret;

	snprintf(line, sizeof(line), "p %s+8", sym);
	ret = parse(line, &def, X86, &err);
	unit_check(!ret && strlen(def.event) == OPEV_NAME_MAX - 1 &&
		   !strncmp(def.event, "p_a_very_long", 13),
		   "automatic name cut to 63", "\"%s\"", def.event);
}

/* Group and event names of 63 characters, the kernel's longest */
static void check_long_names(void)
{
	char line[160], listed[160], name[OPEV_NAME_MAX];
	struct ok_case ok = { X86, line, listed };

	memset(name, 'g', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(line, sizeof(line), "p:%s/_%s f", name, name + 1);
	snprintf(listed, sizeof(listed), "p:%s/_%s f", name, name + 1);
	check_ok(&ok);
}

static void check_max_args(void)
{
	static char line[LINE_MAX_LEN];
	struct opev_error err;
	struct opev_def def;
	char *last;
	int ret;

	build_args(line, sizeof(line), OPEV_MAX_ARGS, "%ax");
	ret = parse(line, &def, X86, &err);
	unit_check(!ret && def.nr_args == OPEV_MAX_ARGS &&
		   !strcmp(def.args[OPEV_MAX_ARGS - 1].name, "arg128"),
		   "128 arguments", "ret %d nr %u", ret, def.nr_args);
	build_args(line, sizeof(line), OPEV_MAX_ARGS + 1, "%ax");
	last = strrchr(line, ' ') + 1;
	ret = parse(line, &def, X86, &err);
	unit_check(ret && err.code == OPEV_ERR_TOO_MANY_ARGS &&
		   err.column == (unsigned int)(last - line),
		   "129 arguments refused at the 129th", "ret %d %s at %u", ret,
		   opev_error_text(err.code), err.column);

	/* MAX_PROBE_EVENT_SIZE: 6 fields of 512 bytes fit in 3072, not 7 */
	build_args(line, sizeof(line), 6, "+0(%ax):u64[64]");
	ret = parse(line, &def, X86, &err);
	unit_check(!ret, "3072 bytes of fields", "ret %d", ret);
	build_args(line, sizeof(line), 7, "+0(%ax):u64[64]");
	last = strrchr(line, ' ') + 1;
	ret = parse(line, &def, X86, &err);
	unit_check(ret && err.code == OPEV_ERR_TOO_MANY_ARGS &&
		   err.column == (unsigned int)(last - line),
		   "3584 bytes of fields refused", "ret %d %s at %u", ret,
		   opev_error_text(err.code), err.column);
}

/*
 * Nesting: the kernel has FETCH_INSN_MAX (16) instructions, the last one
 * the end; the base takes one (@ADDR two, @SYM three), each dereference
 * one, a store of a register or an immediate one, a bitfield or an array
 * one more.
 */
struct nest_case {
	const char *base;
	unsigned int depth;
	const char *type;
	int code;
	unsigned int caret_depth;	/* the dereference whose inner argument has it */
};

static const struct nest_case nest_cases[] = {
	{ "%ax", OPEV_MAX_DEREFS, "", OPEV_ERR_NONE, 0 },
	{ "%ax", OPEV_MAX_DEREFS, ":u8", OPEV_ERR_NONE, 0 },
	{ "%ax", OPEV_MAX_DEREFS + 1, "", OPEV_ERR_TOO_MANY_OPS, 1 },
	{ "$stack", OPEV_MAX_DEREFS, "", OPEV_ERR_NONE, 0 },
	{ "@1", 13, "", OPEV_ERR_NONE, 0 },
	{ "@1", 14, "", OPEV_ERR_TOO_MANY_OPS, 1 },
	{ "@s", 12, "", OPEV_ERR_NONE, 0 },
	{ "@s", 13, "", OPEV_ERR_TOO_MANY_OPS, 1 },
	{ "@s", 14, "", OPEV_ERR_TOO_MANY_OPS, 2 },
	{ "@s", 11, ":b1@0/8", OPEV_ERR_NONE, 0 },
	{ "@s", 12, ":b1@0/8", OPEV_ERR_BAD_BITFIELD, 0 },
	{ "@s", 11, ":u8[2]", OPEV_ERR_NONE, 0 },
	{ "@s", 12, ":u8[2]", OPEV_ERR_TOO_MANY_OPS, 0 },
	{ "@s", 11, ":symstr", OPEV_ERR_NONE, 0 },
	{ "@s", 12, ":symstr", OPEV_ERR_TOO_MANY_OPS, 0 },
	{ "%ax", 0, ":symstr", OPEV_ERR_NONE, 0 },
};

static void check_nesting(const struct nest_case *c)
{
	char body[128], line[160], name[200];
	struct opev_error err;
	struct opev_def def;
	unsigned int i, len = 0, want = 0, base_col = 7;
	int ret;

	for (i = 0; i < c->depth; i++)
		len += snprintf(body + len, sizeof(body) - len, "+0(");
	len += snprintf(body + len, sizeof(body) - len, "%s", c->base);
	for (i = 0; i < c->depth; i++)
		len += snprintf(body + len, sizeof(body) - len, ")");
	snprintf(body + len, sizeof(body) - len, "%s", c->type);
	snprintf(line, sizeof(line), "p:ev f x=%s", body);
	base_col += 2;
	if (c->code == OPEV_ERR_BAD_BITFIELD)
		want = base_col + len + 1;
	else if (c->code != OPEV_ERR_NONE)
		want = base_col + 3 * c->caret_depth;
	ret = parse(line, &def, X86, &err);
	snprintf(name, sizeof(name), "%u derefs of %s%s", c->depth, c->base, c->type);
	unit_check(c->code == OPEV_ERR_NONE ?
		   !ret && def.args[0].nr_derefs == c->depth :
		   ret && err.code == c->code && err.column == want,
		   name, "ret %d: %s at %u", ret, opev_error_text(err.code), err.column);
}

static void check_tables(void)
{
	unsigned int i, n86 = 0, nppc = 0;
	int texts = 1;

	while (opev_reg_name(X86, n86))
		n86++;
	while (opev_reg_name(PPC, nppc))
		nppc++;
	unit_check(n86 == 21 && !strcmp(opev_reg_name(X86, 0), "r15") &&
		   !strcmp(opev_reg_name(X86, 20), "ss"),
		   "x86_64 registers: regoffset_table's 21", "%u", n86);
	unit_check(nppc == 74 && !strcmp(opev_reg_name(PPC, 1), "gpr0") &&
		   !strcmp(opev_reg_name(PPC, 64), "nip") &&
		   !strcmp(opev_reg_name(PPC, 73), "dsisr"),
		   "ppc64 registers: regoffset_table's 74", "%u", nppc);
	for (i = 0; i < OPEV_ERR_MAX; i++)
		texts &= strcmp(opev_error_text(i), "Unknown error") != 0;
	unit_check(texts && !strcmp(opev_error_text(OPEV_ERR_MAX), "Unknown error") &&
		   !strcmp(opev_error_text(-1), "Unknown error") &&
		   !strcmp(opev_error_text(OPEV_ERR_BAD_MAXACT), "Invalid maxactive number"),
		   "every error has its text", "");
}

/* opev_format_def() cuts as snprintf() does and says how long it is. */
static void check_format_cut(void)
{
	struct opev_error err;
	struct opev_def def;
	char small[8] = "xxxxxxx";
	int ret, len = -1;

	ret = parse("p:ev vfs_read+5 %ax", &def, X86, &err);
	if (!ret)
		len = opev_format_def(&def, small, sizeof(small));
	unit_check(!ret && len == (int)strlen("p:optprobes/ev vfs_read+5 arg1=%ax") &&
		   !strcmp(small, "p:optpr") && opev_format_def(&def, NULL, 0) == len,
		   "listing cut to fit", "len %d \"%s\"", len, small);
}

/*
 * 6.12's BTF arguments, against prototypes as Debian's 6.12 BTF gives
 * them (a size_t's char_ptr as the kernel's btf_type_is_char_ptr() finds
 * it: true).  Listings and errors as its kprobe_events shows them.
 */
struct btf_func {
	const char *name;
	struct opev_proto proto;
};

#define BT(f, c) { .fetch = f, .char_ptr = c }

static const struct btf_func btf_funcs[] = {
	{ "vfs_read", { 4, { "file", "buf", "count", "pos" },
	  { BT("x64", 0), BT("x64", 1), BT("u64", 1), BT("x64", 0) }, BT("s64", 0), 0 } },
	{ "do_sys_openat2", { 3, { "dfd", "filename", "how" },
	  { BT("s32", 0), BT("x64", 1), BT("x64", 0) }, BT("s64", 0), 0 } },
	{ "kfree", { 1, { "objp" }, { BT("x64", 0) }, BT(NULL, 0), 1 } },
	{ "down_read_trylock", { 1, { "sem" }, { BT("x64", 0) }, BT("s32", 0), 0 } },
	{ "cpu_relax", { 0, { "" }, { BT(NULL, 0) }, BT(NULL, 0), 1 } },
};

static int btf_find(const char *symbol, struct opev_proto *proto)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(btf_funcs); i++) {
		if (!strcmp(symbol, btf_funcs[i].name)) {
			*proto = btf_funcs[i].proto;
			return 0;
		}
	}
	return -1;
}

static const struct opev_kernel kernel_6_12 = { 1, btf_find, NULL };

static const struct ok_case btf_ok_cases[] = {
	{ X86, "p:a vfs_read $arg1 $arg2 $arg3 $arg4",
	  "p:optprobes/a vfs_read file=file buf=buf count=count pos=pos" },
	{ X86, "p:a vfs_read $arg1:x32 $arg2", "p:optprobes/a vfs_read file=file:x32 buf=buf" },
	{ X86, "p:a vfs_read n=$arg3 m=$arg1 $arg2:u64",
	  "p:optprobes/a vfs_read n=$arg3 m=$arg1 buf=buf:u64" },
	{ X86, "p:a vfs_read count", "p:optprobes/a vfs_read count=count" },
	{ X86, "p:a vfs_read n=count", "p:optprobes/a vfs_read n=count" },
	{ X86, "p:a vfs_read $stack0 $arg*",
	  "p:optprobes/a vfs_read arg1=$stack0 file=file buf=buf count=count pos=pos" },
	{ X86, "p:a do_sys_openat2 $arg2:string",
	  "p:optprobes/a do_sys_openat2 filename=filename:string" },
	{ X86, "p:a vfs_read $arg3:string", "p:optprobes/a vfs_read count=count:string" },
	{ X86, "p:a vfs_read +0($arg1) +8(file)",
	  "p:optprobes/a vfs_read arg1=+0($arg1) arg2=+8(file)" },
	{ X86, "r:a vfs_read $retval", "r:optprobes/a vfs_read arg1=$retval" },
	{ X86, "r:a vfs_read r=$retval:x32", "r:optprobes/a vfs_read r=$retval:x32" },
	{ X86, "r:a vfs_read $arg3 $retval", "r:optprobes/a vfs_read count=count arg2=$retval" },
	{ X86, "r:a vfs_read buf:string", "r:optprobes/a vfs_read buf=buf:string" },
	/* no BTF: a module's function, an address */
	{ X86, "p:a ext4:ext4_fn $arg1", "p:optprobes/a ext4:ext4_fn arg1=$arg1" },
	{ X86, "r:a ext4:ext4_fn $arg2 $retval",
	  "r:optprobes/a ext4:ext4_fn arg1=$arg2 arg2=$retval" },
	{ X86, "r:a 0x1000 $arg1", "r:optprobes/a 0x0000000000001000 arg1=$arg1" },
	/* BTF knows it without parameters: $argN as is */
	{ X86, "p:a cpu_relax $arg1", "p:optprobes/a cpu_relax arg1=$arg1" },
};

static const struct err_case btf_err_cases[] = {
	{ X86, "p:a vfs_read $arg5", OPEV_ERR_NO_BTFARG, "$arg5", 0 },
	{ X86, "p:a vfs_read $arg1 $arg1", OPEV_ERR_USED_ARG_NAME, "$arg1 $arg1", 6 },
	{ X86, "p:a vfs_read $arg* $arg1", OPEV_ERR_USED_ARG_NAME, "$arg1", 0 },
	{ X86, "p:a vfs_read nosuch", OPEV_ERR_NO_BTFARG, "nosuch", 0 },
	{ X86, "p:a down_read_trylock $arg1 $arg2", OPEV_ERR_NO_BTFARG, "$arg2", 0 },
	{ X86, "r:a kfree $retval", OPEV_ERR_NO_RETVAL, "$retval", 0 },
	{ X86, "r:a kfree x=$retval:x64", OPEV_ERR_NO_RETVAL, "$retval", 0 },
	{ X86, "p:a vfs_read $arg1:string", OPEV_ERR_BAD_TYPE4STR, "$arg1", 0 },
	{ X86, "p:a vfs_read+8 count", OPEV_ERR_NOSUP_BTFARG, "count", 0 },
	{ X86, "p:a vfs_read+8 $arg*", OPEV_ERR_NOFENTRY_ARGS, "$arg*", 0 },
	{ X86, "p:a vfs_read file->f_flags", OPEV_ERR_NOSUP_FIELD, "->", 0 },
	{ X86, "p:a ext4:ext4_fn count", OPEV_ERR_NO_BTF_ENTRY, "count", 0 },
	{ X86, "p:a ext4:ext4_fn $arg*", OPEV_ERR_NOSUP_BTFARG, "$arg*", 0 },
	{ X86, "p:a cpu_relax $arg*", OPEV_ERR_NOSUP_BTFARG, "$arg*", 0 },
	{ X86, "p:a vfs_read file.f_pos", OPEV_ERR_NOSUP_FIELD, "f_pos", 0 },
	{ X86, "p:a vfs_read aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", OPEV_ERR_ARG_NAME_TOO_LONG,
	  "aaa", 0 },
	/* 6.1's grammar: no names, no $argN on a return probe */
	{ PPC, "p:a vfs_read count", OPEV_ERR_BAD_FETCH_ARG, "count", 0 },
	{ PPC, "r:a vfs_read $arg1", OPEV_ERR_NOFENTRY_ARGS, "$arg1", 0 },
};

/* One argument's type and fetch as BTF makes them */
struct btf_type_case {
	const char *line;
	unsigned int arg;
	enum opev_type_kind kind;
	unsigned int size;
	enum opev_base base;
	unsigned int index;
	unsigned int nr_derefs;
};

static const struct btf_type_case btf_type_cases[] = {
	{ "p:a vfs_read $arg3", 0, OPEV_TYPE_U, 8, OPEV_BASE_ARG, 3, 0 },
	{ "p:a vfs_read $arg1", 0, OPEV_TYPE_X, 8, OPEV_BASE_ARG, 1, 0 },
	{ "p:a vfs_read n=$arg3", 0, OPEV_TYPE_X, 8, OPEV_BASE_ARG, 3, 0 },
	{ "p:a vfs_read n=count", 0, OPEV_TYPE_U, 8, OPEV_BASE_ARG, 3, 0 },
	{ "p:a vfs_read $arg3:x32", 0, OPEV_TYPE_X, 4, OPEV_BASE_ARG, 3, 0 },
	{ "p:a do_sys_openat2 $arg*", 0, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 1, 0 },
	{ "p:a do_sys_openat2 $arg2:ustring", 0, OPEV_TYPE_USTRING, 4, OPEV_BASE_ARG, 2, 1 },
	{ "p:a vfs_read +0(count)", 0, OPEV_TYPE_X, 8, OPEV_BASE_ARG, 3, 1 },
	{ "r:a vfs_read $retval", 0, OPEV_TYPE_S, 8, OPEV_BASE_RETVAL, 0, 0 },
	{ "r:a down_read_trylock $retval", 0, OPEV_TYPE_S, 4, OPEV_BASE_RETVAL, 0, 0 },
	{ "r:a vfs_read $arg3", 0, OPEV_TYPE_U, 8, OPEV_BASE_ARG, 3, 0 },
	{ "r:a ext4:fn $retval", 0, OPEV_TYPE_X, 8, OPEV_BASE_RETVAL, 0, 0 },
};

static void check_btf(void)
{
	const struct opev_kernel *saved = parse_kernel;
	struct opev_error err;
	struct opev_def def;
	unsigned int i;
	char name[256];

	parse_kernel = &kernel_6_12;
	for (i = 0; i < ARRAY_SIZE(btf_ok_cases); i++)
		check_ok(&btf_ok_cases[i]);
	for (i = 0; i < ARRAY_SIZE(btf_err_cases); i++) {
		parse_kernel = btf_err_cases[i].arch == PPC ? NULL : &kernel_6_12;
		check_err(&btf_err_cases[i]);
	}
	parse_kernel = &kernel_6_12;
	for (i = 0; i < ARRAY_SIZE(btf_type_cases); i++) {
		const struct btf_type_case *c = &btf_type_cases[i];
		const struct opev_arg *a = &args[c->arg];
		int ret = parse(c->line, &def, X86, &err);

		snprintf(name, sizeof(name), "\"%s\" typed", c->line);
		unit_check(!ret && a->type.kind == c->kind && a->type.size == c->size &&
			   a->base == c->base && a->index == c->index &&
			   a->nr_derefs == c->nr_derefs, name,
			   "ret %d: kind %d size %u base %d index %u derefs %u", ret,
			   a->type.kind, a->type.size, a->base, a->index, a->nr_derefs);
	}
	parse_kernel = saved;
}

/*
 * m: lines.  The kernel finds markers of module "mod"; module "gone" is
 * not loaded (format unknown); the parse_kernel of the other tests
 * (NULL) knows no module loaded at all.
 */
struct marker {
	const char *module, *name, *format;
};

static const struct marker markers[] = {
	{ "mod", "mk", "%d %lu %s %p" },
	{ "mod", "none", "no arguments, 100%%" },
	{ "mod", "more", "%*d|%-08.3hhx %c %.*s" },
};

static int marker_find(const char *module, const char *name, struct opev_proto *proto)
{
	unsigned int i;

	if (strcmp(module, "mod"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(markers); i++)
		if (!strcmp(name, markers[i].name))
			return opev_marker_proto(markers[i].format, proto) ? -1 : 0;
	return -1;
}

static const struct opev_kernel kernel_markers = { 0, NULL, marker_find };

static const struct ok_case marker_ok_cases[] = {
	/* no FETCHARGS: all the marker's, named and typed from its format */
	{ X86, "m:ev mod:mk",
	  "m:optprobes/ev mod:mk arg1=arg1 arg2=arg2 arg3=arg3 arg4=arg4" },
	{ X86, "m:grp/ev mod:none", "m:grp/ev mod:none" },
	{ X86, "m mod:mk $arg1", "m:optprobes/m_mod_mk mod:mk arg1=arg1" },
	{ X86, "m:grp/ mod:mk arg4", "m:grp/m_mod_mk mod:mk arg4=arg4" },
	/* $argN is argN; NAME= names it otherwise */
	{ X86, "m:ev mod:mk $arg3 n=$arg1 p=arg4:u64 $comm:string",
	  "m:optprobes/ev mod:mk arg3=arg3 n=$arg1 p=arg4:u64 arg4=$comm:string" },
	{ X86, "m:ev mod:mk c=$comm $arg*",
	  "m:optprobes/ev mod:mk c=$comm arg1=arg1 arg2=arg2 arg3=arg3 arg4=arg4" },
	{ X86, "m:ev mod:mk s=+0(arg3):x8 r=%ax $stack0",
	  "m:optprobes/ev mod:mk s=+0(arg3):x8 r=%ax arg3=$stack0" },
	{ X86, "m:ev mod:mk $arg3:string", "m:optprobes/ev mod:mk arg3=arg3:string" },
	{ X86, "m:ev mod:none $arg*", "m:optprobes/ev mod:none" },
	/* a module not loaded: any marker's arguments, up to six */
	{ X86, "m:ev gone:mk $arg6 x=arg5:s16", "m:optprobes/ev gone:mk arg6=arg6 x=arg5:s16" },
	{ X86, "m:ev gone:mk",
	  "m:optprobes/ev gone:mk arg1=arg1 arg2=arg2 arg3=arg3 arg4=arg4 arg5=arg5 arg6=arg6" },
	{ X86, "m:ev 8021q:x_1 $arg1", "m:optprobes/ev 8021q:x_1 arg1=arg1" },
	{ X86, "m:ev my-mod:mk $arg1", "m:optprobes/ev my-mod:mk arg1=arg1" },
};

static const struct err_case marker_err_cases[] = {
	{ X86, "m", OPEV_ERR_NO_LOCATION, "", 2 },
	{ X86, "m5:ev mod:mk", OPEV_ERR_BAD_CMD, "5", 0 },
	{ X86, "mx mod:mk", OPEV_ERR_BAD_CMD, "x", 0 },
	{ X86, "m:ev mod", OPEV_ERR_BAD_MARKER, "mod", 0 },
	{ X86, "m:ev :mk", OPEV_ERR_BAD_MARKER, ":mk", 0 },
	{ X86, "m:ev mod:", OPEV_ERR_BAD_MARKER, "mod:", 4 },
	{ X86, "m:ev mod:1mk", OPEV_ERR_BAD_MARKER, "1mk", 0 },
	{ X86, "m:ev mod:mk+4", OPEV_ERR_BAD_MARKER, "mk+", 0 },
	{ X86, "m:ev mod:mk%return", OPEV_ERR_BAD_MARKER, "mk%", 0 },
	{ X86, "m:ev mo.d:mk", OPEV_ERR_BAD_MARKER, "mo.d", 0 },
	{ X86, "m:ev mod:a:b", OPEV_ERR_BAD_MARKER, "a:b", 0 },
	/* a module's name: MODULE_NAME_LEN - 1 at most */
	{ X86, "m:ev mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm:mk",
	  OPEV_ERR_BAD_MARKER, "mmm", 0 },
	{ X86, "m:ev mod:nosuch", OPEV_ERR_NO_MARKER, "nosuch", 0 },
	{ X86, "m:1ev mod:mk", OPEV_ERR_BAD_EVENT_NAME, "1", 0 },
	/* the marker's arguments: as many as its format takes */
	{ X86, "m:ev mod:mk $arg5", OPEV_ERR_BAD_ARG_NUM, "$arg5", 0 },
	{ X86, "m:ev mod:mk x=$arg5", OPEV_ERR_BAD_ARG_NUM, "$arg5", 0 },
	{ X86, "m:ev mod:mk x=+0($arg5)", OPEV_ERR_BAD_ARG_NUM, "$arg5", 0 },
	{ X86, "m:ev mod:mk $arg0", OPEV_ERR_BAD_ARG_NUM, "$arg0", 0 },
	{ X86, "m:ev mod:none $arg1", OPEV_ERR_BAD_ARG_NUM, "$arg1", 0 },
	{ X86, "m:ev mod:mk arg5", OPEV_ERR_NO_BTFARG, "arg5", 0 },
	{ X86, "m:ev mod:none arg1", OPEV_ERR_NO_BTFARG, "arg1", 0 },
	{ X86, "m:ev mod:mk count", OPEV_ERR_NO_BTFARG, "count", 0 },
	{ X86, "m:ev gone:mk $arg7", OPEV_ERR_BAD_ARG_NUM, "$arg7", 0 },
	{ X86, "m:ev gone:mk arg7", OPEV_ERR_NO_BTFARG, "arg7", 0 },
	/* strings: of a %s only */
	{ X86, "m:ev mod:mk $arg1:string", OPEV_ERR_BAD_TYPE4STR, "$arg1", 0 },
	{ X86, "m:ev mod:mk arg4:ustring", OPEV_ERR_BAD_TYPE4STR, "arg4", 0 },
	/* the caret as for BTF's names: in the argument as rewritten, "arg3:u8[4]" */
	{ X86, "m:ev mod:mk $arg3:u8[4]", OPEV_ERR_BAD_STRING, "$arg3", 5 },
	/* what the line's own FETCHARGS refuse */
	{ X86, "m:ev mod:mk $retval", OPEV_ERR_RETVAL_ON_PROBE, "$retval", 0 },
	{ X86, "m:ev mod:mk $arg1 $arg1", OPEV_ERR_USED_ARG_NAME, "$arg1 $arg1", 6 },
	{ X86, "m:ev mod:mk $arg* $arg2", OPEV_ERR_USED_ARG_NAME, "$arg2", 0 },
	{ X86, "m:ev mod:mk %zz", OPEV_ERR_BAD_REG_NAME, "%", 0 },
	{ X86, "m:ev mod:mk arg1->x", OPEV_ERR_NOSUP_FIELD, "->", 0 },
};

/* One argument's type and fetch, from the marker's format */
static const struct btf_type_case marker_type_cases[] = {
	{ "m:a mod:mk", 0, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 1, 0 },
	{ "m:a mod:mk", 1, OPEV_TYPE_U, 8, OPEV_BASE_ARG, 2, 0 },
	{ "m:a mod:mk", 2, OPEV_TYPE_STRING, 4, OPEV_BASE_ARG, 3, 1 },
	{ "m:a mod:mk", 3, OPEV_TYPE_X, 8, OPEV_BASE_ARG, 4, 0 },
	{ "m:a mod:mk x=$arg1", 0, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 1, 0 },
	{ "m:a mod:mk x=arg2", 0, OPEV_TYPE_U, 8, OPEV_BASE_ARG, 2, 0 },
	{ "m:a mod:mk $arg2:x16", 0, OPEV_TYPE_X, 2, OPEV_BASE_ARG, 2, 0 },
	{ "m:a mod:mk x=+4($arg4):u32", 0, OPEV_TYPE_U, 4, OPEV_BASE_ARG, 4, 1 },
	{ "m:a mod:mk $arg3:ustring", 0, OPEV_TYPE_USTRING, 4, OPEV_BASE_ARG, 3, 1 },
	/* "%*d|%-08.3hhx %c %.*s": a '*' takes an int */
	{ "m:a mod:more", 0, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 1, 0 },
	{ "m:a mod:more", 1, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 2, 0 },
	{ "m:a mod:more", 2, OPEV_TYPE_X, 4, OPEV_BASE_ARG, 3, 0 },
	{ "m:a mod:more", 3, OPEV_TYPE_CHAR, 1, OPEV_BASE_ARG, 4, 0 },
	{ "m:a mod:more", 4, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 5, 0 },
	{ "m:a mod:more", 5, OPEV_TYPE_STRING, 4, OPEV_BASE_ARG, 6, 1 },
	{ "m:a mod:more $arg*", 0, OPEV_TYPE_S, 4, OPEV_BASE_ARG, 1, 0 },
	/* not known: the default, x64, until it is */
	{ "m:a gone:mk", 0, OPEV_TYPE_X, 8, OPEV_BASE_ARG, 1, 0 },
	{ "m:a gone:mk x=$arg2:string", 0, OPEV_TYPE_STRING, 4, OPEV_BASE_ARG, 2, 1 },
};

/* A format's arguments: each one's type as the fetch types name it */
struct format_case {
	const char *format;
	int ret;
	const char *types;	/* space-separated; '*' after a string's */
};

static const struct format_case format_cases[] = {
	{ "", 0, "" },
	{ "100%% %%d", 0, "" },
	{ "%d %i %u %x %X %o", 0, "s32 s32 u32 x32 x32 u32" },
	/* as promoted: h and hh are an int's */
	{ "%hd %hhu %hx %hhd %ld %lu", 0, "s32 u32 x32 s32 s64 u64" },
	{ "%lx %lld %llu %llx %li %lo", 0, "x64 s64 u64 x64 s64 u64" },
	{ "%zu %zd %td %jd %lc", 0, "u64 s64 s64 s64 char" },
	{ "%s %c %p %pS %px %ps", 0, "string* char x64 x64 x64 x64" },
	{ "%-+ #05d %.3s %10.4lx", 0, "s32 string* x64" },
	{ "%*d %.*s", 0, "s32 s32 s32 string*" },
	{ "%d %d %d %d %d %d", 0, "s32 s32 s32 s32 s32 s32" },
	{ "%d %d %d %d %d %d %d", -1, "" },
	{ "%d %d %d %d %d %*d", -1, "" },
	/* what the core refuses: no integer or pointer */
	{ "%d %f", -1, "" },
	{ "%n", -1, "" },
};

static void check_format(const struct format_case *c)
{
	struct opev_proto proto;
	char types[256], name[128];
	unsigned int i, len = 0;
	int ret, names = 1;

	ret = opev_marker_proto(c->format, &proto);
	types[0] = '\0';
	for (i = 0; !ret && i < proto.nr_params; i++) {
		char want[8];

		len += snprintf(types + len, sizeof(types) - len, "%s%s%s", i ? " " : "",
				proto.params[i].fetch, proto.params[i].char_ptr ? "*" : "");
		snprintf(want, sizeof(want), "arg%u", i + 1);
		names &= !strcmp(proto.names[i], want);
	}
	snprintf(name, sizeof(name), "format \"%s\"", c->format);
	unit_check(ret == c->ret && (ret || (!strcmp(types, c->types) && names)), name,
		   "ret %d types \"%s\"", ret, types);
}

/* What the caller learns: the format known or not, the fields its or not */
struct marker_flags_case {
	const char *line;
	const char *module, *marker;
	int unknown, typed;
	unsigned int args_column;
};

static const struct marker_flags_case marker_flags_cases[] = {
	{ "m:a mod:mk", "mod", "mk", 0, 1, 10 },
	{ "m:a mod:mk $arg1:s32 x=$comm", "mod", "mk", 0, 0, 11 },
	{ "m:a mod:mk   $arg1", "mod", "mk", 0, 1, 13 },
	{ "m:a mod:none", "mod", "none", 0, 1, 12 },
	{ "m:a gone:mk", "gone", "mk", 1, 1, 11 },
	{ "m:a gone:mk $arg1:u32 s=$arg2:string +0(arg3):u8", "gone", "mk", 1, 0, 12 },
	{ "m:a gone:mk $arg1:u32 $arg2", "gone", "mk", 1, 1, 12 },
	{ "m:a gone:mk c=$comm $arg*", "gone", "mk", 1, 1, 12 },
};

static void check_marker_flags(const struct marker_flags_case *c)
{
	struct opev_error err;
	struct opev_def def;
	char name[128];
	int ret;

	ret = parse(c->line, &def, X86, &err);
	snprintf(name, sizeof(name), "\"%s\": format %sknown, fields %s", c->line,
		 c->unknown ? "not " : "", c->typed ? "its" : "the line's");
	unit_check(!ret && def.format_unknown == c->unknown && def.format_typed == c->typed &&
		   def.args_column == c->args_column && !strcmp(def.module, c->module) &&
		   !strcmp(def.symbol, c->marker),
		   name, "ret %d (%s) unknown %d typed %d column %u", ret,
		   opev_error_text(err.code), def.format_unknown, def.format_typed,
		   def.args_column);
}

/* Listed with the FETCHARGS as written, when the caller says so */
static void check_marker_raw(void)
{
	struct opev_error err;
	struct opev_def def;
	char listed[128];
	int ret;

	ret = parse("m:ev gone:mk  $arg1 x=$comm", &def, X86, &err);
	if (!ret) {
		def.raw_args = "$arg1 x=$comm";
		opev_format_def(&def, listed, sizeof(listed));
	}
	unit_check(!ret && !strcmp(listed, "m:optprobes/ev gone:mk $arg1 x=$comm"),
		   "m: listed with its arguments as written", "ret %d \"%s\"", ret,
		   ret ? "" : listed);
	ret = parse("m:ev gone:mk", &def, X86, &err);
	if (!ret) {
		def.raw_args = "";
		opev_format_def(&def, listed, sizeof(listed));
	}
	unit_check(!ret && !strcmp(listed, "m:optprobes/ev gone:mk"),
		   "m: listed without arguments as written", "ret %d \"%s\"", ret,
		   ret ? "" : listed);
}

static void check_markers(void)
{
	const struct opev_kernel *saved = parse_kernel;
	struct opev_error err;
	struct opev_def def;
	unsigned int i;
	char name[256];
	int ret;

	for (i = 0; i < ARRAY_SIZE(format_cases); i++)
		check_format(&format_cases[i]);
	parse_kernel = &kernel_markers;
	for (i = 0; i < ARRAY_SIZE(marker_ok_cases); i++)
		check_ok(&marker_ok_cases[i]);
	for (i = 0; i < ARRAY_SIZE(marker_err_cases); i++)
		check_err(&marker_err_cases[i]);
	for (i = 0; i < ARRAY_SIZE(marker_type_cases); i++) {
		const struct btf_type_case *c = &marker_type_cases[i];
		const struct opev_arg *a = &args[c->arg];

		ret = parse(c->line, &def, X86, &err);
		snprintf(name, sizeof(name), "\"%s\" argument %u typed", c->line, c->arg + 1);
		unit_check(!ret && c->arg < def.nr_args && a->type.kind == c->kind &&
			   a->type.size == c->size && a->base == c->base &&
			   a->index == c->index && a->nr_derefs == c->nr_derefs, name,
			   "ret %d: kind %d size %u base %d index %u derefs %u", ret,
			   a->type.kind, a->type.size, a->base, a->index, a->nr_derefs);
	}
	for (i = 0; i < ARRAY_SIZE(marker_flags_cases); i++)
		check_marker_flags(&marker_flags_cases[i]);
	check_marker_raw();
	/* the same with no module loaded at all (no find_marker) */
	parse_kernel = NULL;
	ret = parse("m:ev mod:mk $arg6", &def, X86, &err);
	unit_check(!ret && def.format_unknown && def.nr_args == 1,
		   "m: without find_marker: its format unknown", "ret %d", ret);
	/* and 6.12's BTF does not name a marker's arguments */
	parse_kernel = &kernel_6_12;
	ret = parse("m:ev vfs_read:mk $arg3", &def, X86, &err);
	unit_check(!ret && def.format_unknown && !strcmp(args[0].name, "arg3") &&
		   args[0].type.kind == OPEV_TYPE_X,
		   "m: of a function's name: not BTF's", "ret %d %s", ret, args[0].name);
	parse_kernel = saved;
}

int main(void)
{
	unsigned int i;

	/* two checks for a line that parses, ten fields, ... */
	unit_plan(2 * (ARRAY_SIZE(ok_cases) + ARRAY_SIZE(arg_cases) + 1) +
		  ARRAY_SIZE(err_cases) + ARRAY_SIZE(nest_cases) +
		  10 + 3 + 1 + 4 + 3 + 1 +
		  2 * ARRAY_SIZE(btf_ok_cases) + ARRAY_SIZE(btf_err_cases) +
		  ARRAY_SIZE(btf_type_cases) +
		  ARRAY_SIZE(format_cases) + 2 * ARRAY_SIZE(marker_ok_cases) +
		  ARRAY_SIZE(marker_err_cases) + ARRAY_SIZE(marker_type_cases) +
		  ARRAY_SIZE(marker_flags_cases) + 2 + 2);
	for (i = 0; i < ARRAY_SIZE(ok_cases); i++)
		check_ok(&ok_cases[i]);
	for (i = 0; i < ARRAY_SIZE(arg_cases); i++)
		check_arg(&arg_cases[i]);
	check_long_names();
	for (i = 0; i < ARRAY_SIZE(err_cases); i++)
		check_err(&err_cases[i]);
	for (i = 0; i < ARRAY_SIZE(nest_cases); i++)
		check_nesting(&nest_cases[i]);
	check_fields();
	check_string();
	check_long_auto_name();
	check_max_args();
	check_tables();
	check_format_cut();
	check_btf();
	check_markers();
	return unit_status();
}
