/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe_target_marker.ko: static markers (include/optprobe-marker.h)
 * and the functions that reach them, for optprobe_test_marker.ko and
 * optprobe_test_marker_storm.ko.  Each marker's format is named here once,
 * for the marker and for the probes that must name it exactly.
 */
#ifndef OPTPROBE_TARGET_MARKER_H
#define OPTPROBE_TARGET_MARKER_H

#include <linux/types.h>

#define TM_MODULE		"optprobe_target_marker"

/* int, from a parameter register: sign-extended */
#define TM_INT_FMT		"%d"
/* char, short and their unsigned kinds, promoted to int; unsigned int */
#define TM_SMALL_FMT		"%hhd %hd %hu %hhu %u"
/* the low half of a register whose upper half is not zero */
#define TM_DIRTY_FMT		"%u %d"
/* local variables on the stack, whose address was taken */
#define TM_STACK_FMT		"%d %d"
/* long and unsigned long, 64 bits each */
#define TM_LONG_FMT		"%ld %lu"
/* a pointer and a string */
#define TM_PTR_FMT		"%p %s"
/* constants: immediates where they fit (x86: imm32, ppc64le: si16) */
#define TM_CONST_FMT		"%d %d %u %lu %s"
#define TM_CONST_1		(-7)
#define TM_CONST_2		1000000
#define TM_CONST_3		0xfffffff0u
#define TM_CONST_4		0x123456789abcdef0UL
#define TM_CONST_STR		"a constant string"
/* global variables (on x86_64 memory operands: rip-relative) */
#define TM_GLOBAL_FMT		"%d %lu %hhu"
/* a structure's fields through a parameter (x86_64: base + displacement) */
#define TM_FIELD_FMT		"%d %lu %s"
/* an array element (x86_64: base + index * scale) */
#define TM_INDEX_FMT		"%lu"
/* no argument */
#define TM_NOARG_FMT		""
/* in an inline function that two functions call: one marker, two sites */
#define TM_INLINE_FMT		"%d %lu"
/* flags, widths, a precision taken from an argument, %c and %x */
#define TM_FLAGS_FMT		"%-3d %08lx %.*s %c %x"
/* six arguments of every kind */
#define TM_SIX_FMT		"%d %u %ld %lu %p %s"
/* for the probes that come and go */
#define TM_MULTI_FMT		"%d"
#define TM_TOGGLE_FMT		"%d"
#define TM_STORM_FMT		"%lu"

struct optprobe_tm_fields {
	int i;
	unsigned long u;
	const char *name;
};

/* read by the marker tm_global, written by its callers */
extern int optprobe_tm_global_int;
extern unsigned long optprobe_tm_global_ulong;
extern unsigned char optprobe_tm_global_uchar;

void optprobe_target_marker_int(int v);
void optprobe_target_marker_small(signed char c, short s, unsigned short us, unsigned char uc,
				  unsigned int u);
void optprobe_target_marker_dirty(unsigned long x);
void optprobe_target_marker_touch(int *p);
void optprobe_target_marker_stack(int v, int w);
void optprobe_target_marker_long(long l, unsigned long u);
void optprobe_target_marker_ptr(const void *p, const char *s);
void optprobe_target_marker_const(void);
void optprobe_target_marker_global(void);
void optprobe_target_marker_field(const struct optprobe_tm_fields *f);
void optprobe_target_marker_index(const unsigned long *a, unsigned long i);
void optprobe_target_marker_noarg(void);
/* the marker tm_inline, with its first argument 1 (a) or 2 (b) */
void optprobe_target_marker_inline_a(unsigned long v);
void optprobe_target_marker_inline_b(unsigned long v);
void optprobe_target_marker_flags(int i, unsigned long u, int prec, const char *s, char c,
				  unsigned int x);
void optprobe_target_marker_six(int i, const struct optprobe_tm_fields *f, const void *p);
void optprobe_target_marker_multi(int v);
void optprobe_target_marker_toggle(int v);
void optprobe_target_marker_storm(unsigned long v);

#endif /* OPTPROBE_TARGET_MARKER_H */
