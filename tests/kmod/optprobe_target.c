// SPDX-License-Identifier: GPL-2.0
/*
 * Functions for optprobe's test modules to probe (see optprobe_target.h).
 * It loads before them: the modules load in name order.
 *
 * Every target is noinline and __noipa, so that it exists once, at its
 * symbol, and no caller assumes anything about its body (no inlining, no
 * cloning, no folding of identical functions); each computes something
 * different all the same.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/sched.h>

#include "optprobe_target.h"

unsigned long optprobe_target_add_ret;
EXPORT_SYMBOL_GPL(optprobe_target_add_ret);
unsigned long optprobe_target_add_sp;
EXPORT_SYMBOL_GPL(optprobe_target_add_sp);
unsigned long optprobe_target_redirect_runs;
EXPORT_SYMBOL_GPL(optprobe_target_redirect_runs);

noinline __noipa int optprobe_target_add(int a, int b, int c, int d, int e, int f)
{
	WRITE_ONCE(optprobe_target_add_ret, (unsigned long)__builtin_return_address(0));
	WRITE_ONCE(optprobe_target_add_sp, current_stack_pointer);
	return a + b + c + d + e + f;
}
EXPORT_SYMBOL_GPL(optprobe_target_add);

noinline __noipa int optprobe_target_count(int x)
{
	return x * 3 + 1;
}
EXPORT_SYMBOL_GPL(optprobe_target_count);

noinline __noipa int optprobe_target_idle(int x)
{
	return x * 11 + 4;
}
EXPORT_SYMBOL_GPL(optprobe_target_idle);

noinline __noipa int optprobe_target_aggr(int x)
{
	return x * 5 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_aggr);

noinline __noipa int optprobe_target_toggle(int x)
{
	return x * 7 + 3;
}
EXPORT_SYMBOL_GPL(optprobe_target_toggle);

noinline __noipa int optprobe_target_outer(int x)
{
	return x * 11 + 4;
}
EXPORT_SYMBOL_GPL(optprobe_target_outer);

noinline __noipa int optprobe_target_inner(int x)
{
	return x * 13 + 5;
}
EXPORT_SYMBOL_GPL(optprobe_target_inner);

noinline __noipa int optprobe_target_self(int x)
{
	return x * 17 + 6;
}
EXPORT_SYMBOL_GPL(optprobe_target_self);

noinline __noipa int optprobe_target_redirect(int a, int b)
{
	WRITE_ONCE(optprobe_target_redirect_runs, optprobe_target_redirect_runs + 1);
	return a + b;
}
EXPORT_SYMBOL_GPL(optprobe_target_redirect);

noinline __noipa int optprobe_target_errno(int x)
{
	return x * 19 + 7;
}
EXPORT_SYMBOL_GPL(optprobe_target_errno);

noinline __noipa int optprobe_target_busy(int x)
{
	return x * 23 + 8;
}
EXPORT_SYMBOL_GPL(optprobe_target_busy);

noinline __noipa int optprobe_target_textpoke(int x)
{
	return x * 31 + 4;
}
EXPORT_SYMBOL_GPL(optprobe_target_textpoke);

noinline __noipa unsigned long optprobe_target_stress_a(unsigned long seq)
{
	return seq * 29 + 9;
}
EXPORT_SYMBOL_GPL(optprobe_target_stress_a);

noinline __noipa unsigned long optprobe_target_stress_b(unsigned long seq)
{
	return seq * 31 + 10;
}
EXPORT_SYMBOL_GPL(optprobe_target_stress_b);

noinline __noipa int optprobe_target_many0(int x)
{
	return x * 37 + 0;
}
EXPORT_SYMBOL_GPL(optprobe_target_many0);

noinline __noipa int optprobe_target_many1(int x)
{
	return x * 38 + 1;
}
EXPORT_SYMBOL_GPL(optprobe_target_many1);

noinline __noipa int optprobe_target_many2(int x)
{
	return x * 39 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_many2);

noinline __noipa int optprobe_target_many3(int x)
{
	return x * 40 + 3;
}
EXPORT_SYMBOL_GPL(optprobe_target_many3);

noinline __noipa int optprobe_target_many4(int x)
{
	return x * 41 + 4;
}
EXPORT_SYMBOL_GPL(optprobe_target_many4);

noinline __noipa int optprobe_target_many5(int x)
{
	return x * 42 + 5;
}
EXPORT_SYMBOL_GPL(optprobe_target_many5);

noinline __noipa int optprobe_target_many6(int x)
{
	return x * 43 + 6;
}
EXPORT_SYMBOL_GPL(optprobe_target_many6);

noinline __noipa int optprobe_target_many7(int x)
{
	return x * 44 + 7;
}
EXPORT_SYMBOL_GPL(optprobe_target_many7);

#ifdef CONFIG_PPC64
/*
 * A function holding a prefixed instruction (POWER10's pnop, two words),
 * never called: probing its second word must fail with -EILSEQ on every
 * CPU, since the decoder reads the text, not the CPU.
 */
asm(".pushsection .text\n"
	".balign 16\n"
	".globl optprobe_target_prefixed\n"
	".type optprobe_target_prefixed, @function\n"
	"optprobe_target_prefixed:\n"
	"	.long 0x07000000\n"
	"	.long 0x00000000\n"
	"	blr\n"
	".size optprobe_target_prefixed, . - optprobe_target_prefixed\n"
	".popsection\n");
#endif

static int __init optprobe_target_init(void)
{
	return 0;
}

static void __exit optprobe_target_exit(void)
{
}

module_init(optprobe_target_init);
module_exit(optprobe_target_exit);

MODULE_DESCRIPTION("optprobe test: functions to probe");
MODULE_LICENSE("GPL");
