/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe static markers: named probe points compiled into code.
 *
 *	OPTPROBE_MARKER(subsystem_event, "%d %s", someint, somestring);
 *
 * A marker costs one nop at its site when no probe is on it: a 5-byte nop
 * on x86_64 (a rel32 jump replaces it whole), a "nop" on ppc64le (a "b"
 * replaces it).  Its arguments are asm inputs, so the compiler keeps them
 * where the nop can see them, in a register, in memory or as a constant,
 * and nothing else runs.  The assembler writes where each one is into a
 * record beside the site, in the section __optprobe_markers: one
 * instruction per argument that is never run, whose operand is the asm
 * operand itself (x86_64: "movq ARG, %rax"; ppc64le: "add[i] 3,3,ARG"),
 * the way sys/sdt.h records USDT arguments with the assembler's help.
 * optprobe decodes those instructions when the module comes and reads the
 * arguments from the registers and memory of a hit.
 *
 * The format is printf's, checked by the compiler against the arguments;
 * a probe names the format it expects (optprobe_marker_register() in
 * optprobe.h).  A marker takes up to OPTPROBE_MARKER_ARGS_MAX integer or
 * pointer arguments (%s: a pointer to a string), whose types the format
 * gives; several sites may share a name (a marker in an inline
 * function), and share its probes then.
 *
 * This header needs nothing from optprobe: a module with markers loads
 * and runs without it, and optprobe finds its markers when either loads.
 */
#ifndef _OPTPROBE_MARKER_H
#define _OPTPROBE_MARKER_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/objtool.h>
#include <linux/stringify.h>
#include <linux/types.h>

#define OPTPROBE_MARKER_ARGS_MAX	6
#define OPTPROBE_MARKER_MAGIC		0x6b6d706f
/* The bytes of the instruction that says where an argument is. */
#define OPTPROBE_MARKER_LOC_SIZE	16
/* Every record is labelled with a symbol of this prefix, local to its object. */
#define OPTPROBE_MARKER_SYM		"__optprobe_marker_"

/**
 * struct optprobe_marker_arg - where one argument of a marker is
 * @loc:	an instruction, never run, whose operand is the argument's
 *		asm operand; zeroes after it
 *
 * The argument's type is the format's: the compiler checked it.
 */
struct optprobe_marker_arg {
	u8 loc[OPTPROBE_MARKER_LOC_SIZE];
};

/**
 * struct optprobe_marker_record - one marker site, as the assembler wrote it
 * @site:	the address of the nop
 * @name:	the marker's name
 * @format:	its printf format
 * @magic:	OPTPROBE_MARKER_MAGIC
 * @nargs:	how many of @args are the marker's (the others are zeroes'
 *		locations)
 * @site_len:	the nop's length in bytes
 * @reserved:	zero
 * @args:	the arguments
 */
struct optprobe_marker_record {
	unsigned long site;
	const char *name;
	const char *format;
	u32 magic;
	u8 nargs;
	u8 site_len;
	u8 reserved[2];
	struct optprobe_marker_arg args[OPTPROBE_MARKER_ARGS_MAX];
};

static_assert(sizeof(struct optprobe_marker_record) == 128);

/*
 * Compile-time checking of a marker's format against its arguments: the
 * format with a space first, as a marker without arguments has "".
 */
static inline __printf(1, 2) void __optprobe_marker_check(const char *format, ...)
{
}

/* How many arguments: 0 to 6, 7 for more (refused). */
#define __OPM_NARGS(...)	__OPM_NARGS_(_, ##__VA_ARGS__, 7, 6, 5, 4, 3, 2, 1, 0)
#define __OPM_NARGS_(_, a1, a2, a3, a4, a5, a6, a7, n, ...) n

/* Argument i, or 0 past the last: a record always has six locations. */
#define __OPM_A0(...)	__OPM_A0_(_, ##__VA_ARGS__, 0)
#define __OPM_A0_(_, a, ...) a
#define __OPM_A1(...)	__OPM_A1_(_, ##__VA_ARGS__, 0, 0)
#define __OPM_A1_(_, a, b, ...) b
#define __OPM_A2(...)	__OPM_A2_(_, ##__VA_ARGS__, 0, 0, 0)
#define __OPM_A2_(_, a, b, c, ...) c
#define __OPM_A3(...)	__OPM_A3_(_, ##__VA_ARGS__, 0, 0, 0, 0)
#define __OPM_A3_(_, a, b, c, d, ...) d
#define __OPM_A4(...)	__OPM_A4_(_, ##__VA_ARGS__, 0, 0, 0, 0, 0)
#define __OPM_A4_(_, a, b, c, d, e, ...) e
#define __OPM_A5(...)	__OPM_A5_(_, ##__VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define __OPM_A5_(_, a, b, c, d, e, f, ...) f

/* An argument after the usual promotions: arrays become pointers. */
#define __OPM_VAL(a)		((a) + 0)

#if defined(CONFIG_X86_64)
/*
 * One instruction, so a jump replaces it with nothing to relocate.  The
 * record's address of it is no indirect branch's target: objtool is told
 * (IBT kernels check that code addresses in data are ENDBR64's).
 */
# define __OPM_NOP		ANNOTATE_NOENDBR ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"
# define OPTPROBE_MARKER_NOP_LEN	5
# define __OPM_FLAGS		"\"a\""
# define __OPM_WHERE		"rme"
# define __OPM_LOC(n)							\
	"771:\tmovq %q[opm_a" #n "], %%rax\n\t"				\
	".skip " __stringify(OPTPROBE_MARKER_LOC_SIZE) " - (. - 771b)\n\t"
#elif defined(CONFIG_PPC64) && defined(CONFIG_CPU_LITTLE_ENDIAN)
# define __OPM_NOP		"nop"
# define OPTPROBE_MARKER_NOP_LEN	4
/*
 * Executable only so that its symbols stay in a module's kallsyms where
 * the kernel keeps text symbols alone (no CONFIG_KALLSYMS_ALL): optprobe
 * finds the records of modules loaded before it by them.  Never run.
 */
# define __OPM_FLAGS		"\"ax\""
# define __OPM_WHERE		"rI"
# define __OPM_LOC(n)							\
	"add%I[opm_a" #n "] 3,3,%[opm_a" #n "]\n\t"			\
	".skip " __stringify(OPTPROBE_MARKER_LOC_SIZE) " - 4\n\t"
#endif

#ifdef __OPM_NOP
# define __OPM_SITE(name, format, ...)					\
({									\
	asm volatile("1:\t" __OPM_NOP "\n\t"				\
		     ".pushsection __optprobe_markers, " __OPM_FLAGS "\n\t" \
		     ".balign 8\n"					\
		     OPTPROBE_MARKER_SYM "%=:\n\t"			\
		     ".quad 1b, %c[opm_name], %c[opm_format]\n\t"	\
		     ".long " __stringify(OPTPROBE_MARKER_MAGIC) "\n\t"	\
		     ".byte %c[opm_n], " __stringify(OPTPROBE_MARKER_NOP_LEN) ", 0, 0\n\t" \
		     __OPM_LOC(0) __OPM_LOC(1) __OPM_LOC(2)		\
		     __OPM_LOC(3) __OPM_LOC(4) __OPM_LOC(5)		\
		     ".popsection"					\
		     : : [opm_name] "i" (name), [opm_format] "i" (format), \
		       [opm_n] "i" (__OPM_NARGS(__VA_ARGS__)),		\
		       [opm_a0] __OPM_WHERE(__OPM_VAL(__OPM_A0(__VA_ARGS__))), \
		       [opm_a1] __OPM_WHERE(__OPM_VAL(__OPM_A1(__VA_ARGS__))), \
		       [opm_a2] __OPM_WHERE(__OPM_VAL(__OPM_A2(__VA_ARGS__))), \
		       [opm_a3] __OPM_WHERE(__OPM_VAL(__OPM_A3(__VA_ARGS__))), \
		       [opm_a4] __OPM_WHERE(__OPM_VAL(__OPM_A4(__VA_ARGS__))), \
		       [opm_a5] __OPM_WHERE(__OPM_VAL(__OPM_A5(__VA_ARGS__))));	\
})
#else
/* Elsewhere a marker checks its format and compiles to nothing. */
# define __OPM_SITE(name, format, ...)	((void)(name), (void)(format))
#endif

/**
 * OPTPROBE_MARKER() - a named probe point
 * @name:	an identifier: the marker's name, unique to what it marks
 * @format:	a string literal, printf's format of the arguments, which
 *		gives their types to the probes
 * @...:	up to OPTPROBE_MARKER_ARGS_MAX integer or pointer arguments
 *
 * One nop when no probe is on it; with probes, a jump to optprobe's
 * detour, which runs their handlers with the arguments and returns right
 * after the nop.
 */
#define OPTPROBE_MARKER(name, format, ...)					\
do {										\
	static const char __opm_name[] = #name;					\
	static const char __opm_format[] = " " format;				\
										\
	BUILD_BUG_ON_MSG(__OPM_NARGS(__VA_ARGS__) > OPTPROBE_MARKER_ARGS_MAX,	\
			 "a marker takes at most six arguments");		\
	if (0)									\
		__optprobe_marker_check(__opm_format, ##__VA_ARGS__);		\
	__OPM_SITE(__opm_name, __opm_format + 1, ##__VA_ARGS__);		\
} while (0)

#endif /* _OPTPROBE_MARKER_H */
