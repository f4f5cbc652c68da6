// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers for optprobe_test_marker.ko and
 * optprobe_test_marker_storm.ko, one to a function (but tm_inline, in an
 * inline function two of them call).  Each function reaches its marker
 * once per call; the tests call them with the values they expect their
 * handlers to see.  The arguments come from where the compiler keeps
 * them: the functions' parameters (registers), global variables and
 * structure fields (on x86_64 memory operands, rip-relative and based on a
 * register), an array element (base and index), and constants
 * (immediates where they fit).
 *
 * Markers need nothing from optprobe: this module does not link to it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include <optprobe-marker.h>

#include "optprobe_target_marker.h"

int optprobe_tm_global_int;
EXPORT_SYMBOL_GPL(optprobe_tm_global_int);
unsigned long optprobe_tm_global_ulong;
EXPORT_SYMBOL_GPL(optprobe_tm_global_ulong);
unsigned char optprobe_tm_global_uchar;
EXPORT_SYMBOL_GPL(optprobe_tm_global_uchar);

noinline __noipa void optprobe_target_marker_int(int v)
{
	OPTPROBE_MARKER(tm_int, TM_INT_FMT, v);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_int);

noinline __noipa void optprobe_target_marker_small(signed char c, short s, unsigned short us,
						   unsigned char uc, unsigned int u)
{
	OPTPROBE_MARKER(tm_small, TM_SMALL_FMT, c, s, us, uc, u);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_small);

/*
 * The low half of @x, as unsigned int and as int: the register holding
 * them holds all of @x, its upper half what it was (no instruction
 * truncates it).
 */
noinline __noipa void optprobe_target_marker_dirty(unsigned long x)
{
	OPTPROBE_MARKER(tm_dirty, TM_DIRTY_FMT, (unsigned int)x, (int)x);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_dirty);

/* Something the compiler cannot see into, that may write *@p. */
noinline __noipa void optprobe_target_marker_touch(int *p)
{
	barrier();
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_touch);

/* A local variable on the stack (x86_64: a memory operand based on %rsp). */
noinline __noipa void optprobe_target_marker_stack(int v, int w)
{
	int local[2] = { v, w };

	optprobe_target_marker_touch(local);
	OPTPROBE_MARKER(tm_stack, TM_STACK_FMT, local[0], local[1]);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_stack);

noinline __noipa void optprobe_target_marker_long(long l, unsigned long u)
{
	OPTPROBE_MARKER(tm_long, TM_LONG_FMT, l, u);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_long);

noinline __noipa void optprobe_target_marker_ptr(const void *p, const char *s)
{
	OPTPROBE_MARKER(tm_ptr, TM_PTR_FMT, p, s);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_ptr);

noinline __noipa void optprobe_target_marker_const(void)
{
	OPTPROBE_MARKER(tm_const, TM_CONST_FMT, TM_CONST_1, TM_CONST_2, TM_CONST_3, TM_CONST_4,
			TM_CONST_STR);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_const);

noinline __noipa void optprobe_target_marker_global(void)
{
	OPTPROBE_MARKER(tm_global, TM_GLOBAL_FMT, optprobe_tm_global_int,
			optprobe_tm_global_ulong, optprobe_tm_global_uchar);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_global);

noinline __noipa void optprobe_target_marker_field(const struct optprobe_tm_fields *f)
{
	OPTPROBE_MARKER(tm_field, TM_FIELD_FMT, f->i, f->u, f->name);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_field);

noinline __noipa void optprobe_target_marker_index(const unsigned long *a, unsigned long i)
{
	OPTPROBE_MARKER(tm_index, TM_INDEX_FMT, a[i]);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_index);

noinline __noipa void optprobe_target_marker_noarg(void)
{
	OPTPROBE_MARKER(tm_noarg, TM_NOARG_FMT);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_noarg);

/* One marker, at a site in each function it is inlined into. */
static __always_inline void tm_inline(int which, unsigned long v)
{
	OPTPROBE_MARKER(tm_inline, TM_INLINE_FMT, which, v);
}

noinline __noipa void optprobe_target_marker_inline_a(unsigned long v)
{
	tm_inline(1, v);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_inline_a);

noinline __noipa void optprobe_target_marker_inline_b(unsigned long v)
{
	tm_inline(2, v);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_inline_b);

noinline __noipa void optprobe_target_marker_flags(int i, unsigned long u, int prec,
						   const char *s, char c, unsigned int x)
{
	OPTPROBE_MARKER(tm_flags, TM_FLAGS_FMT, i, u, prec, s, c, x);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_flags);

noinline __noipa void optprobe_target_marker_six(int i, const struct optprobe_tm_fields *f,
						 const void *p)
{
	OPTPROBE_MARKER(tm_six, TM_SIX_FMT, i, 7u, (long)optprobe_tm_global_ulong, f->u, p,
			f->name);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_six);

noinline __noipa void optprobe_target_marker_multi(int v)
{
	OPTPROBE_MARKER(tm_multi, TM_MULTI_FMT, v);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_multi);

noinline __noipa void optprobe_target_marker_toggle(int v)
{
	OPTPROBE_MARKER(tm_toggle, TM_TOGGLE_FMT, v);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_toggle);

noinline __noipa void optprobe_target_marker_storm(unsigned long v)
{
	OPTPROBE_MARKER(tm_storm, TM_STORM_FMT, v);
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_storm);

static int __init optprobe_target_marker_init(void)
{
	return 0;
}

static void __exit optprobe_target_marker_exit(void)
{
}

module_init(optprobe_target_marker_init);
module_exit(optprobe_target_marker_exit);

MODULE_DESCRIPTION("optprobe test: static markers and the functions that reach them");
MODULE_LICENSE("GPL");
