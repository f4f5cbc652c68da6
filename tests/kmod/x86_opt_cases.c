// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 boosting and jump optimization, on targets whose bytes are known
 * (x86_opt_targets.S, module optprobe_target_x86).  For each instruction
 * class a jump may replace (RIP-relative load and store, push and pop,
 * flags set inside and read after, group 2 shifts, a call, a jcc rel8 or
 * rel32 taken and not, a jmp rel8 or rel32, a return thunk or ret ending
 * the region) and for functions with an indirect jump (a tail call through
 * a retpoline, a jump table read from rodata):
 *
 *  - the trap path (OPTPROBE_F_NOOPT) gives the reference: the registers
 *    the pre and post handlers see, and the function's result;
 *  - with optimization off, the probe is boosted and its pre handler sees
 *    the same registers;
 *  - after optprobe_sync(), the probe is optimized, its pre and post
 *    handlers see the same registers, and the result is the same;
 *
 * with hit counts equal to call counts throughout.  Functions where a jump
 * would be wrong (a jump into the bytes it replaces, a jump table entry
 * there, an indirect jump in a function that takes its own code's
 * addresses, bytes after an unconditional jmp that a .cold fragment jumps
 * to, a jump label's target) stay unoptimized with the reason why.  A pre
 * handler redirects from the detour; a probe registered inside an
 * optimized region sends its site back to the breakpoint until it leaves.
 * Probes on a jcc (both ways), a jmp and a call are optimized too, the
 * branch run from the detour, until a post handler joins them (registered,
 * or enabled later).  A task sleeping in the callee of a call run from a
 * detour returns correctly after the probe and its detour went.
 *
 * Handlers run with AC and DF clear in every mode, even where the probed
 * code runs inside stac ... clac or after std, which it finds again after.
 *
 * Registers compared: all general-purpose ones, ip, sp, cs and the flags
 * but RF.  The trap-only fields differ by design: ss holds what the int3
 * pushed (the detour saves __KERNEL_DS), and orig_ax is -1 on both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/irqflags.h>
#include <asm/ibt.h>

#include "wrap-unaligned.h"

#include "exports.h"
#include "optprobe_test.h"
#include "x86_opt_targets.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

/*
 * Where the probes go: the first instruction but in op_tx86_flags (after
 * xor).  Offsets count from after the ENDBR that SYM_FUNC_START puts first
 * on a kernel with IBT (6.12): a probe asked for on it would go after it
 * (indirect calls land on it), as the kernel's kprobes put theirs.
 */
#define OP_TX86_AFTER_ENDBR(off)	(ENDBR_INSN_SIZE + (off))
#define OP_TX86_FLAGS_PROBE	OP_TX86_AFTER_ENDBR(2)
/* and on the branch of op_tx86_jcc and op_tx86_jmp */
#define OP_TX86_BRANCH_PROBE	OP_TX86_AFTER_ENDBR(3)
#define OP_TX86_PUSHPOP_SECOND	OP_TX86_AFTER_ENDBR(1)
/* and on the add of op_tx86_static_key right before its jump label's target */
#define OP_TX86_KEY_PROBE	OP_TX86_AFTER_ENDBR(8)
/* and after the stac of op_tx86_uaccess, the std of op_tx86_df */
#define OP_TX86_UACCESS_PROBE	OP_TX86_AFTER_ENDBR(3)
#define OP_TX86_DF_PROBE	OP_TX86_AFTER_ENDBR(1)

/* and on the call of op_tx86_call_end, after push and mov */
#define OP_TX86_CALL_PROBE	OP_TX86_AFTER_ENDBR(4)
/* and on the instruction before the jcc or jmp ending the region of op_tx86_j*_end */
#define OP_TX86_END_PROBE	OP_TX86_AFTER_ENDBR(3)
/* and on op_tx86_table's first jump table target: mov 3, and 4, mov 8, jmp thunk 5 */
#define OP_TX86_TABLE_PROBE	OP_TX86_AFTER_ENDBR(20)

#define CALLS	3
#define ARG_A	3
#define ARG_B	4

struct opt_case {
	const char *name;
	target_fn fn;
	unsigned int offset;	/* of the probe in fn */
	enum op_reason refusal;	/* OP_R_NONE: optimizable; else why not */
	bool swap;		/* called with (ARG_B, ARG_A) */
};

static struct opt_case cases[] = {
	{ "riprel_load", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "riprel_store", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "pushpop", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "flags", NULL, OP_TX86_FLAGS_PROBE, OP_R_NONE },
	{ "shift", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "call_in_region", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "call_end", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "jcc8_end_taken", NULL, OP_TX86_END_PROBE, OP_R_NONE },
	{ "jcc8_end_not_taken", NULL, OP_TX86_END_PROBE, OP_R_NONE, true },
	{ "jcc32_end_taken", NULL, OP_TX86_END_PROBE, OP_R_NONE },
	{ "jcc32_end_not_taken", NULL, OP_TX86_END_PROBE, OP_R_NONE, true },
	{ "jmp8_end", NULL, OP_TX86_END_PROBE, OP_R_NONE },
	{ "jmp32_end", NULL, OP_TX86_END_PROBE, OP_R_NONE },
	{ "retpoline_tail_call", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "return_thunk", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "jump_table_read", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_NONE },
	{ "jump_table_entry_inside", NULL, OP_TX86_TABLE_PROBE, OP_R_TABLE_INTO_JUMP },
	{ "jump_into", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_JUMP_INTO_JUMP },
	{ "jump_table", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_INDIRECT_AND_ADDRESS },
	{ "jmp8_cold", NULL, OP_TX86_BRANCH_PROBE, OP_R_AFTER_JMP },
	{ "jmp_next", NULL, OP_TX86_AFTER_ENDBR(0), OP_R_AFTER_JMP },
};

static void cases_init(void)
{
	const struct op_tx86_targets *x = &op_tx86_targets;
	const target_fn fns[] = { x->riprel_load, x->riprel_store, x->pushpop, x->flags,
				  x->shift, x->call_in_region, x->call_end, x->jcc8_end,
				  x->jcc8_end, x->jcc32_end, x->jcc32_end, x->jmp8_end,
				  x->jmp32_end, x->tail_call, x->ret_end, x->table, x->table,
				  x->jump_into, x->jump_table, x->jmp8, x->jmp_next };
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(fns) != ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		cases[i].fn = fns[i];
}

static unsigned long probe_addr(const struct opt_case *c)
{
	return (unsigned long)c->fn + c->offset;
}

/*
 * What the handlers saw on their last hit, and how often they ran; sp
 * relative to the one op_tx86_call() calls from, as its callers' stack depth varies.
 */
static struct pt_regs seen_pre, seen_post;
static unsigned int pre_hits, post_hits;
static unsigned long redirect_to;

static int record_pre(struct optprobe *p, struct pt_regs *regs)
{
	pre_hits++;
	seen_pre = *regs;
	seen_pre.sp -= *op_tx86_targets.call_sp;
	if (redirect_to) {
		instruction_pointer_set(regs, redirect_to);
		return 1;
	}
	return 0;
}

static void record_post(struct optprobe *p, struct pt_regs *regs)
{
	post_hits++;
	seen_post = *regs;
	seen_post.sp -= *op_tx86_targets.call_sp;
}

static void reset_seen(void)
{
	memset(&seen_pre, 0, sizeof(seen_pre));
	memset(&seen_post, 0, sizeof(seen_post));
	pre_hits = 0;
	post_hits = 0;
}

/* The name of the first register where @a and @b differ, or NULL. */
static const char *regs_differ(const struct pt_regs *a, const struct pt_regs *b)
{
	static const struct {
		const char *name;
		size_t offset;
	} compared[] = {
		{ "r15", offsetof(struct pt_regs, r15) },
		{ "r14", offsetof(struct pt_regs, r14) },
		{ "r13", offsetof(struct pt_regs, r13) },
		{ "r12", offsetof(struct pt_regs, r12) },
		{ "bp", offsetof(struct pt_regs, bp) },
		{ "bx", offsetof(struct pt_regs, bx) },
		{ "r11", offsetof(struct pt_regs, r11) },
		{ "r10", offsetof(struct pt_regs, r10) },
		{ "r9", offsetof(struct pt_regs, r9) },
		{ "r8", offsetof(struct pt_regs, r8) },
		{ "ax", offsetof(struct pt_regs, ax) },
		{ "cx", offsetof(struct pt_regs, cx) },
		{ "dx", offsetof(struct pt_regs, dx) },
		{ "si", offsetof(struct pt_regs, si) },
		{ "di", offsetof(struct pt_regs, di) },
		{ "ip", offsetof(struct pt_regs, ip) },
		{ "cs", offsetof(struct pt_regs, cs) },
		{ "sp", offsetof(struct pt_regs, sp) },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(compared); i++)
		if (*(unsigned long *)((void *)a + compared[i].offset) !=
		    *(unsigned long *)((void *)b + compared[i].offset))
			return compared[i].name;
	if ((a->flags ^ b->flags) & ~X86_EFLAGS_RF)
		return "flags";
	return NULL;
}

/* Call @fn(@a, @b) CALLS times; the result, or LONG_MIN if they disagreed. */
static long call_args(target_fn fn, long a, long b)
{
	long ret = op_tx86_targets.call(fn, a, b);
	unsigned int i;

	for (i = 1; i < CALLS; i++)
		if (op_tx86_targets.call(fn, a, b) != ret)
			return LONG_MIN;
	return ret;
}

/* Call @c's target CALLS times with (ARG_A, ARG_B), always from the same stack depth. */
static noinline long call_target(const struct opt_case *c)
{
	return c->swap ? call_args(c->fn, ARG_B, ARG_A) : call_args(c->fn, ARG_A, ARG_B);
}

static int probe_at(struct optprobe *p, unsigned long addr, bool post, unsigned int flags)
{
	test_probe_init(p, NULL, addr, record_pre, post ? record_post : NULL, flags);
	return optprobe_register(p);
}

#define CASE_CHECKS_OPT		12
#define CASE_CHECKS_REFUSED	3

/* Trap path, boosted, optimized: same registers, results and counts. */
static void check_optimizable(struct ktap *t, const struct opt_case *c)
{
	struct pt_regs ref_pre, ref_post;
	char name[TEST_NAME_LEN];
	const char *diff;
	struct optprobe p;
	long want, got;
	int ret;

	/* the reference */
	reset_seen();
	ret = probe_at(&p, probe_addr(c), true, OPTPROBE_F_NOOPT);
	want = call_target(c);
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_TRAP &&
		   pre_hits == CALLS && post_hits == CALLS && op_probe_hits(&p) == CALLS,
		   test_name(name, c->name, "trap_reference"),
		   "register %d, mode %s, %u/%u/%lu hits", ret, test_mode_name(optprobe_mode(&p)),
		   pre_hits, post_hits, op_probe_hits(&p));
	ref_pre = seen_pre;
	ref_post = seen_post;
	if (!ret)
		optprobe_unregister(&p);
	ktap_check(t, ref_pre.ip == probe_addr(c) && ref_post.ip > ref_pre.ip,
		   test_name(name, c->name, "trap_ips"), "pre ip %pS, post ip %pS",
		   (void *)ref_pre.ip, (void *)ref_post.ip);

	/* boosted */
	op_set_optimize(false);
	reset_seen();
	ret = probe_at(&p, probe_addr(c), false, 0);
	got = call_target(c);
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_BOOSTED,
		   test_name(name, c->name, "boosted"), "register %d, mode %s: %s", ret,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	diff = regs_differ(&seen_pre, &ref_pre);
	ktap_check(t, !diff && got == want && pre_hits == CALLS && op_probe_hits(&p) == CALLS,
		   test_name(name, c->name, "boosted_regs_result_hits"),
		   "%s differs, result %ld not %ld, %u/%lu hits", diff ?: "no register",
		   got, want, pre_hits, op_probe_hits(&p));
	if (!ret)
		optprobe_unregister(&p);
	op_set_optimize(true);

	/* optimized, with a post handler */
	reset_seen();
	ret = probe_at(&p, probe_addr(c), true, 0);
	optprobe_sync();
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED,
		   test_name(name, c->name, "optimized"), "register %d, mode %s: %s", ret,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	got = call_target(c);
	diff = regs_differ(&seen_pre, &ref_pre);
	ktap_check(t, !diff, test_name(name, c->name, "optimized_pre_regs"),
		   "%s differs", diff);
	diff = regs_differ(&seen_post, &ref_post);
	ktap_check(t, !diff, test_name(name, c->name, "optimized_post_regs"),
		   "%s differs", diff);
	ktap_check(t, got == want, test_name(name, c->name, "optimized_result"),
		   "%ld, not %ld", got, want);
	ktap_check(t, pre_hits == CALLS && post_hits == CALLS && op_probe_hits(&p) == CALLS &&
		   !p.nmissed,
		   test_name(name, c->name, "optimized_hits"), "%u/%u/%lu hits, %lu missed",
		   pre_hits, post_hits, op_probe_hits(&p), p.nmissed);

	/* disabled, enabled again: optimized again, counting on */
	ret = ret ?: optprobe_disable(&p);
	got = call_target(c);
	ktap_check(t, !ret && op_probe_hits(&p) == CALLS && got == want,
		   test_name(name, c->name, "disabled_not_hit"), "disable %d, %lu hits, result %ld",
		   ret, op_probe_hits(&p), got);
	ret = ret ?: optprobe_enable(&p);
	optprobe_sync();
	got = call_target(c);
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED &&
		   op_probe_hits(&p) == 2 * CALLS && got == want,
		   test_name(name, c->name, "reenabled_optimized"), "enable %d, mode %s, %lu hits",
		   ret, test_mode_name(optprobe_mode(&p)), op_probe_hits(&p));
	optprobe_unregister(&p);
	got = call_target(c);
	ktap_check(t, got == want, test_name(name, c->name, "unregistered_result"),
		   "%ld, not %ld", got, want);
}

/*
 * Refused with the reason, still hit exactly, results unchanged.  Not
 * called if optimized after all: its jump may have replaced bytes that
 * the function jumps into.
 */
static void check_refused(struct ktap *t, const struct opt_case *c)
{
	char name[TEST_NAME_LEN];
	struct optprobe p;
	long want, got;
	bool optimized;
	int ret;

	want = call_target(c);
	reset_seen();
	ret = probe_at(&p, probe_addr(c), false, 0);
	optprobe_sync();
	optimized = !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED;
	ktap_check(t, !ret && !optimized && op_probe_reason(&p) == c->refusal,
		   test_name(name, c->name, "refused"), "register %d, mode %s, reason \"%s\"", ret,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	got = optimized ? LONG_MIN : call_target(c);
	ktap_check(t, got == want, test_name(name, c->name, "result"), "%ld, not %ld", got, want);
	ktap_check(t, pre_hits == CALLS && op_probe_hits(&p) == CALLS,
		   test_name(name, c->name, "hits"),
		   "%u/%lu hits", pre_hits, op_probe_hits(&p));
	if (!ret)
		optprobe_unregister(&p);
}

#define STATIC_KEY_CHECKS	4

/*
 * A probe right before the target of a jump label whose key is off: a
 * jump there would replace the bytes the label jumps to once the key is
 * on, so it stays a breakpoint, hit only while the key is off.  Not run
 * with the key on if optimized after all (it would jump into the jmp).
 */
static void check_static_key(struct ktap *t)
{
	const struct op_tx86_targets *x = &op_tx86_targets;
	unsigned long addr = (unsigned long)x->static_key + OP_TX86_KEY_PROBE;
	long off = ARG_A + 2 * ARG_B, on = ARG_A + ARG_B, got;
	bool optimized;
	struct optprobe p;
	int ret;

	reset_seen();
	ret = probe_at(&p, addr, false, 0);
	optprobe_sync();
	optimized = !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED;
	ktap_check(t, !ret && !optimized && op_probe_reason(&p) == OP_R_JUMP_LABEL_INTO_JUMP,
		   "static_key_target_refused", "register %d, mode %s, reason \"%s\"", ret,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	got = call_args(x->static_key, ARG_A, ARG_B);
	ktap_check(t, !ret && got == off && pre_hits == CALLS && op_probe_hits(&p) == CALLS,
		   "static_key_off_result_hits", "register %d, result %ld not %ld, %u/%lu hits",
		   ret, got, off, pre_hits, op_probe_hits(&p));
	if (optimized) {
		ktap_check(t, false, "static_key_on_result_hits",
			   "not run: optimized over the jump label's target");
	} else {
		x->static_key_set(true);
		got = call_args(x->static_key, ARG_A, ARG_B);
		x->static_key_set(false);
		ktap_check(t, !ret && got == on && pre_hits == CALLS &&
			   op_probe_hits(&p) == CALLS, "static_key_on_result_hits",
			   "register %d, result %ld not %ld, %u/%lu hits", ret, got, on, pre_hits,
			   op_probe_hits(&p));
	}
	got = call_args(x->static_key, ARG_A, ARG_B);
	ktap_check(t, !ret && got == off && pre_hits == 2 * CALLS &&
		   op_probe_hits(&p) == 2 * CALLS, "static_key_off_again_result_hits",
		   "register %d, result %ld not %ld, %u/%lu hits", ret, got, off, pre_hits,
		   op_probe_hits(&p));
	if (!ret)
		optprobe_unregister(&p);
}

#define FLAGS_CHECKS	(3 * 2)
#define FLAGS_WATCHED	(X86_EFLAGS_AC | X86_EFLAGS_DF)

/* The flags handlers ran with, ORed over their hits. */
static unsigned long pre_flags, post_flags;

static int flags_pre(struct optprobe *p, struct pt_regs *regs)
{
	pre_hits++;
	pre_flags |= native_save_fl();
	return 0;
}

static void flags_post(struct optprobe *p, struct pt_regs *regs)
{
	post_hits++;
	post_flags |= native_save_fl();
}

/*
 * A probe where the probed code runs with @set (AC inside stac ... clac,
 * or DF after std), trapped, boosted and optimized: its handlers run with
 * AC and DF clear, as from the int3 entry, and the function finds @set
 * again after the probed instructions (its result: (a + b) << 32 | flags).
 */
static void check_flags(struct ktap *t, const char *case_name, target_fn fn,
			unsigned int offset, unsigned long set)
{
	static const struct {
		const char *name;
		unsigned int flags;
		bool post;
		enum optprobe_mode mode;
	} modes[] = {
		{ "trap", OPTPROBE_F_NOOPT, true, OPTPROBE_MODE_TRAP },
		{ "boosted", 0, false, OPTPROBE_MODE_BOOSTED },
		{ "optimized", 0, true, OPTPROBE_MODE_OPTIMIZED },
	};
	unsigned long addr = (unsigned long)fn + offset;
	char name[TEST_NAME_LEN], where[TEST_NAME_LEN];
	unsigned int i, want_post;
	struct optprobe p;
	long got;
	int ret;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		reset_seen();
		pre_flags = 0;
		post_flags = 0;
		want_post = modes[i].post ? CALLS : 0;
		op_set_optimize(modes[i].mode == OPTPROBE_MODE_OPTIMIZED);
		test_probe_init(&p, NULL, addr, flags_pre, modes[i].post ? flags_post : NULL,
				modes[i].flags);
		ret = optprobe_register(&p);
		optprobe_sync();
		got = call_args(fn, ARG_A, ARG_B);
		test_name(where, case_name, modes[i].name);
		ktap_check(t, !ret && optprobe_mode(&p) == modes[i].mode &&
			   got >> 32 == ARG_A + ARG_B && (got & FLAGS_WATCHED) == set &&
			   pre_hits == CALLS && post_hits == want_post, where,
			   "register %d, mode %s, result %ld, flags after %#lx not %#lx, %u/%u hits",
			   ret, test_mode_name(optprobe_mode(&p)), got >> 32,
			   got & FLAGS_WATCHED, set, pre_hits, post_hits);
		ktap_check(t, !((pre_flags | post_flags) & FLAGS_WATCHED),
			   test_name(name, where, "handler_flags"),
			   "pre handler ran with %#lx, post handler with %#lx",
			   pre_flags & FLAGS_WATCHED, post_flags & FLAGS_WATCHED);
		if (!ret)
			optprobe_unregister(&p);
	}
	op_set_optimize(true);
}

static void check_handler_flags(struct ktap *t)
{
	const struct op_tx86_targets *x = &op_tx86_targets;
	unsigned int i;

	if (boot_cpu_has(X86_FEATURE_SMAP)) {
		check_flags(t, "uaccess", x->uaccess, OP_TX86_UACCESS_PROBE, X86_EFLAGS_AC);
	} else {
		for (i = 0; i < FLAGS_CHECKS; i++)
			ktap_skip(t, "uaccess", "the CPU has no SMAP");
	}
	check_flags(t, "direction", x->df, OP_TX86_DF_PROBE, X86_EFLAGS_DF);
}

#define REDIRECT_CHECKS	2

/* A pre handler sends op_tx86_pushpop to op_tx86_ret42, in both modes. */
static void check_redirect(struct ktap *t)
{
	struct optprobe p;
	long got[2];
	int ret, i;

	redirect_to = (unsigned long)op_tx86_targets.ret42;
	for (i = 0; i < 2; i++) {
		reset_seen();
		ret = probe_at(&p, (unsigned long)op_tx86_targets.pushpop, false,
			       i ? 0 : OPTPROBE_F_NOOPT);
		optprobe_sync();
		got[i] = op_tx86_targets.call(op_tx86_targets.pushpop, ARG_A, ARG_B);
		ktap_check(t, !ret && got[i] == 42 && pre_hits == 1 &&
			   optprobe_mode(&p) == (i ? OPTPROBE_MODE_OPTIMIZED : OPTPROBE_MODE_TRAP),
			   i ? "redirect_optimized" : "redirect_trap",
			   "register %d, result %ld, %u hits, mode %s", ret, got[i], pre_hits,
			   test_mode_name(optprobe_mode(&p)));
		if (!ret)
			optprobe_unregister(&p);
	}
	redirect_to = 0;
}

#define INSIDE_CHECKS	3

/* A probe inside an optimized region: the site goes back, then returns. */
static void check_probe_inside(struct ktap *t)
{
	struct optprobe outer, inner;
	long want = ARG_A + ARG_B, got;
	int ret, ret2;

	reset_seen();
	ret = probe_at(&outer, (unsigned long)op_tx86_targets.pushpop + OP_TX86_AFTER_ENDBR(0),
		       false, 0);
	optprobe_sync();
	ret2 = probe_at(&inner, (unsigned long)op_tx86_targets.pushpop + OP_TX86_PUSHPOP_SECOND,
			false, 0);
	optprobe_sync();
	got = call_target(&cases[2]);
	ktap_check(t, !ret && !ret2 && optprobe_mode(&outer) != OPTPROBE_MODE_OPTIMIZED &&
		   op_probe_reason(&outer) == OP_R_PROBE_IN_JUMP,
		   "inside_sends_outer_back", "register %d/%d, outer %s: %s", ret, ret2,
		   test_mode_name(optprobe_mode(&outer)), ret ? "" : optprobe_reason(&outer));
	ktap_check(t, got == want && !ret && !ret2 && op_probe_hits(&outer) == CALLS &&
		   op_probe_hits(&inner) == CALLS, "inside_both_hit",
		   "result %ld, %lu and %lu hits", got, op_probe_hits(&outer),
		   op_probe_hits(&inner));
	if (!ret2)
		optprobe_unregister(&inner);
	optprobe_sync();
	ktap_check(t, !ret && optprobe_mode(&outer) == OPTPROBE_MODE_OPTIMIZED,
		   "inside_gone_outer_optimized", "mode %s: %s",
		   test_mode_name(optprobe_mode(&outer)), ret ? "" : optprobe_reason(&outer));
	if (!ret)
		optprobe_unregister(&outer);
}

#define BRANCH_CHECKS	5

/*
 * A probe on a jmp or jcc: optimized with the branch in its detour, pre
 * handler registers as from the trap; a post handler joining sends the
 * site back to the breakpoint (a detour has no place for it on the taken
 * way), and its leaving brings the detour back.
 */
static void check_branch(struct ktap *t, const char *case_name, target_fn fn,
			 unsigned int offset, long a, long b, long want)
{
	unsigned long addr = (unsigned long)fn + offset;
	struct pt_regs ref_pre, ref_post;
	char name[TEST_NAME_LEN];
	const char *diff, *reason;
	struct optprobe p, q;
	int ret, ret2;
	long got;

	reset_seen();
	ret = probe_at(&p, addr, true, OPTPROBE_F_NOOPT);
	got = call_args(fn, a, b);
	ref_pre = seen_pre;
	ref_post = seen_post;
	if (!ret)
		optprobe_unregister(&p);
	ktap_check(t, !ret && got == want && pre_hits == CALLS && post_hits == CALLS &&
		   ref_pre.ip == addr,
		   test_name(name, case_name, "trap_reference"),
		   "register %d, result %ld not %ld, %u/%u hits, ip %pS", ret, got, want,
		   pre_hits, post_hits, (void *)ref_pre.ip);

	reset_seen();
	ret = probe_at(&p, addr, false, 0);
	optprobe_sync();
	got = call_args(fn, a, b);
	diff = regs_differ(&seen_pre, &ref_pre);
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED && !diff &&
		   got == want && pre_hits == CALLS && op_probe_hits(&p) == CALLS,
		   test_name(name, case_name, "optimized"),
		   "register %d, %s differs, result %ld, %u/%lu hits, mode %s: %s", ret,
		   diff ?: "no register", got, pre_hits, op_probe_hits(&p),
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));

	reset_seen();
	test_probe_init(&q, NULL, addr, NULL, record_post, 0);
	ret2 = optprobe_register(&q);
	optprobe_sync();
	reason = ret ? "" : optprobe_reason(&p);
	ktap_check(t, !ret && !ret2 && optprobe_mode(&p) != OPTPROBE_MODE_OPTIMIZED &&
		   op_probe_reason(&p) == OP_R_POST_ON_BRANCH,
		   test_name(name, case_name, "post_sends_back"), "register %d/%d, mode %s: %s",
		   ret, ret2, test_mode_name(optprobe_mode(&p)), reason);
	got = call_args(fn, a, b);
	diff = regs_differ(&seen_post, &ref_post);
	ktap_check(t, !diff && got == want && pre_hits == CALLS && post_hits == CALLS,
		   test_name(name, case_name, "post_regs_result_hits"),
		   "post %s differs, result %ld, %u/%u hits", diff ?: "no register", got,
		   pre_hits, post_hits);
	if (!ret2)
		optprobe_unregister(&q);

	reset_seen();
	optprobe_sync();
	got = call_args(fn, a, b);
	reason = ret ? "" : optprobe_reason(&p);
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED && got == want &&
		   pre_hits == CALLS,
		   test_name(name, case_name, "post_gone_optimized"),
		   "result %ld, %u hits, mode %s: %s", got, pre_hits,
		   test_mode_name(optprobe_mode(&p)), reason);
	if (!ret)
		optprobe_unregister(&p);
}

static void check_branches(struct ktap *t)
{
	const struct op_tx86_targets *x = &op_tx86_targets;

	check_branch(t, "jcc_fall_through", x->jcc, OP_TX86_BRANCH_PROBE, ARG_A, ARG_B,
		     ARG_B - ARG_A);
	check_branch(t, "jcc_taken", x->jcc, OP_TX86_BRANCH_PROBE, ARG_B, ARG_A,
		     8 * ARG_B + ARG_A);
	check_branch(t, "jmp", x->jmp, OP_TX86_BRANCH_PROBE, ARG_A, ARG_B, 2 * ARG_A + ARG_B);
	check_branch(t, "call", x->call_end, OP_TX86_CALL_PROBE, ARG_A, ARG_B,
		     3 * ARG_A + ARG_B);
}

#define SLEEP_CHECKS	2

static DECLARE_COMPLETION(callee_entered);
static DECLARE_COMPLETION(callee_release);
static DECLARE_COMPLETION(caller_done);
static long caller_result;

static void callee_sleeps(void)
{
	complete(&callee_entered);
	wait_for_completion(&callee_release);
}

static int caller_fn(void *data)
{
	caller_result = op_tx86_targets.call_end(ARG_A, ARG_B);
	complete(&caller_done);
	return 0;
}

/*
 * A task sleeps in the callee of a call that an optimized region ends,
 * called from the detour, while the probe goes and its detour is freed:
 * it returns to the original text after the call, never into the detour.
 */
static void check_callee_sleeps(struct ktap *t)
{
	const struct op_tx86_targets *x = &op_tx86_targets;
	unsigned long addr = (unsigned long)x->call_end + OP_TX86_AFTER_ENDBR(0), detour = 0;
	struct task_struct *task;
	struct optprobe p;
	bool unmapped;
	u8 jmp[5], byte;
	int ret;

	reset_seen();
	ret = probe_at(&p, addr, false, 0);
	optprobe_sync();
	if (!copy_from_kernel_nofault(jmp, (void *)addr, sizeof(jmp)) && jmp[0] == 0xe9)
		detour = addr + sizeof(jmp) + get_unaligned((s32 *)(jmp + 1));
	ktap_check(t, !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED && detour,
		   "callee_sleeps_optimized", "register %d, mode %s: %s", ret,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	*x->callee_hook = callee_sleeps;
	task = kthread_run(caller_fn, NULL, "optprobe_caller");
	if (IS_ERR(task)) {
		*x->callee_hook = NULL;
		ktap_check(t, false, "callee_sleeps_returns", "kthread_run %ld", PTR_ERR(task));
		if (!ret)
			optprobe_unregister(&p);
		return;
	}
	wait_for_completion(&callee_entered);
	if (!ret)
		optprobe_unregister(&p);
	optprobe_sync();
	/* the detour's page goes with its last slot; others may still hold it */
	unmapped = detour && copy_from_kernel_nofault(&byte, (void *)detour, 1);
	complete(&callee_release);
	wait_for_completion(&caller_done);
	*x->callee_hook = NULL;
	ktap_check(t, !ret && caller_result == 3 * ARG_A + ARG_B && pre_hits == 1,
		   "callee_sleeps_returns", "result %ld not %d, %u hits, detour page %s",
		   caller_result, 3 * ARG_A + ARG_B, pre_hits, unmapped ? "unmapped" : "mapped");
	pr_info("callee_sleeps: the detour's page was %s while the callee slept\n",
		unmapped ? "unmapped" : "still mapped");
}

#define ENABLE_POST_CHECKS	3

/*
 * A disabled probe with a post handler on an optimized jcc site (kept
 * optimized by an enabled probe without one), then enabled: its post
 * handler must run on every hit from then on, which takes the site back
 * to its breakpoint (a jcc's detour has no place for post handlers).
 */
static void check_enable_post(struct ktap *t)
{
	unsigned long addr = (unsigned long)op_tx86_targets.jcc + OP_TX86_BRANCH_PROBE;
	long want = ARG_B - ARG_A, got;
	struct optprobe p, q;
	int ret, ret2, ret3;

	reset_seen();
	ret = probe_at(&p, addr, false, 0);
	test_probe_init(&q, NULL, addr, NULL, record_post, OPTPROBE_F_DISABLED);
	ret2 = optprobe_register(&q);
	optprobe_sync();
	ktap_check(t, !ret && !ret2 && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED,
		   "enable_post_starts_optimized", "register %d/%d, mode %s: %s", ret, ret2,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	ret3 = ret2 ?: optprobe_enable(&q);
	optprobe_sync();
	ktap_check(t, !ret && !ret3 && optprobe_mode(&p) != OPTPROBE_MODE_OPTIMIZED &&
		   op_probe_reason(&p) == OP_R_POST_ON_BRANCH,
		   "enable_post_sends_back", "register %d, enable %d, mode %s: %s", ret, ret3,
		   test_mode_name(optprobe_mode(&p)), ret ? "" : optprobe_reason(&p));
	got = call_args(op_tx86_targets.jcc, ARG_A, ARG_B);
	ktap_check(t, !ret && !ret3 && got == want && pre_hits == CALLS && post_hits == CALLS,
		   "enable_post_runs", "result %ld not %ld, %u pre, %u post hits, not %u",
		   got, want, pre_hits, post_hits, CALLS);
	if (!ret2)
		optprobe_unregister(&q);
	if (!ret)
		optprobe_unregister(&p);
}

#define TRACE_DEPTH	32
#define TRACE_CHECKS	2

/* Stack traces taken in the handlers of the last hit. */
static unsigned long pre_trace[TRACE_DEPTH], post_trace[TRACE_DEPTH];
static unsigned int pre_depth, post_depth;

static int trace_pre(struct optprobe *p, struct pt_regs *regs)
{
	pre_hits++;
	pre_depth = stack_trace_save(pre_trace, TRACE_DEPTH, 0);
	return 0;
}

static void trace_post(struct optprobe *p, struct pt_regs *regs)
{
	post_hits++;
	post_depth = stack_trace_save(post_trace, TRACE_DEPTH, 0);
}

/* Does the trace go on through the probed function to its caller? */
static bool trace_has_caller(const unsigned long *trace, unsigned int depth)
{
	static const char caller[] = "op_tx86_call";
	char sym[KSYM_SYMBOL_LEN];
	unsigned int i;

	for (i = 0; i < depth; i++) {
		sprint_symbol_no_offset(sym, trace[i]);
		if (!strncmp(sym, caller, strlen(caller)) &&
		    (sym[strlen(caller)] == '\0' || sym[strlen(caller)] == ' '))
			return true;
	}
	return false;
}

/*
 * Stack traces taken in handlers: from the trap, both go on to the probed
 * function's caller; from an optimized probe's detour, the post handler's
 * does (the pre handler's ends at the detour, see arch-x86/tramp.S, but
 * must be taken without a splat).
 */
static void check_stack_traces(struct ktap *t)
{
	bool pre_caller, post_caller;
	enum optprobe_mode want;
	struct optprobe p;
	long got;
	int ret, i;

	for (i = 0; i < 2; i++) {
		reset_seen();
		pre_depth = 0;
		post_depth = 0;
		test_probe_init(&p, NULL, (unsigned long)op_tx86_targets.pushpop, trace_pre,
				trace_post, i ? 0 : OPTPROBE_F_NOOPT);
		ret = optprobe_register(&p);
		optprobe_sync();
		got = op_tx86_targets.call(op_tx86_targets.pushpop, ARG_A, ARG_B);
		pre_caller = trace_has_caller(pre_trace, pre_depth);
		post_caller = trace_has_caller(post_trace, post_depth);
		want = i ? OPTPROBE_MODE_OPTIMIZED : OPTPROBE_MODE_TRAP;
		ktap_check(t, !ret && got == ARG_A + ARG_B && pre_hits == 1 && post_hits == 1 &&
			   optprobe_mode(&p) == want && pre_depth && (pre_caller || i) &&
			   post_caller,
			   i ? "stack_trace_optimized" : "stack_trace_trap",
			   "register %d, mode %s, result %ld, %u/%u hits, traces %u/%u deep, caller in them %d/%d",
			   ret, test_mode_name(optprobe_mode(&p)), got, pre_hits, post_hits,
			   pre_depth, post_depth, pre_caller, post_caller);
		if (!ret)
			optprobe_unregister(&p);
	}
}

static int __init test_x86_opt_init(void)
{
	unsigned int i, plan = STATIC_KEY_CHECKS + 2 * FLAGS_CHECKS + REDIRECT_CHECKS +
			       INSIDE_CHECKS + TRACE_CHECKS + 4 * BRANCH_CHECKS +
			       ENABLE_POST_CHECKS + SLEEP_CHECKS;
	struct ktap t;

	cases_init();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (cases[i].refusal)
			plan += CASE_CHECKS_REFUSED;
		else
			plan += CASE_CHECKS_OPT;
	}
	ktap_start(&t, plan);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (cases[i].refusal)
			check_refused(&t, &cases[i]);
		else
			check_optimizable(&t, &cases[i]);
	}
	check_static_key(&t);
	check_handler_flags(&t);
	check_redirect(&t);
	check_probe_inside(&t);
	check_stack_traces(&t);
	check_branches(&t);
	check_enable_post(&t);
	check_callee_sleeps(&t);
	return 0;
}

static void __exit test_x86_opt_exit(void)
{
}

module_init(test_x86_opt_init);
module_exit(test_x86_opt_exit);

MODULE_DESCRIPTION("optprobe test: x86_64 boosting and jump optimization");
MODULE_LICENSE("GPL");
