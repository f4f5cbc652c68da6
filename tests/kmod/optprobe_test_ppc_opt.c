// SPDX-License-Identifier: GPL-2.0
/*
 * powerpc64le jump optimization (issue #5): which instructions become a
 * "b" to a detour, and that handlers there see what the trap path shows
 * them.
 *
 *  - Every class of instruction in optprobe_target_ppc.ko (loads and
 *    stores with update forms, arithmetic setting CR and XER, moves from
 *    and to LR, CTR, CR and XER, a stack frame's stdu) and, on a CPU with
 *    ISA 3.1, the prefixed and pc-relative ones of optprobe_target_p10.ko:
 *    probed once in trap mode (OPTPROBE_F_NOOPT) and once optimized, the
 *    function called the same way both times (optprobe_target_ppc_call(),
 *    on one CPU, from one place), the pre and post handlers see the same
 *    registers field by field, and the function computes what it does
 *    unprobed.
 *  - Branches (and addpcis) stay traps, with a reason.
 *  - A function no detour can reach (optprobe_target_ppc_far.ko) stays a
 *    trap, with a reason.
 *  - Kernel text is optimized, in slots of the kernel's own detour cache
 *    (more in optprobe_test_ppc_core.c).
 *  - Pre handlers redirect, change registers, post handlers run, change
 *    registers and move the instruction pointer, in optimized mode; a post
 *    handler arriving on an optimized site switches the detour's post call
 *    on, and off when it goes.
 *  - A prefixed instruction copied where it would cross 64 bytes is moved.
 *  - In trap mode, an instruction emulate_step() declines runs from the
 *    copy in its site's stub, which stands for a slot; without a stub, only
 *    an instruction it may decline gets a slot.
 *  - A module-text site is optimized as it is registered, with no trap.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gcd.h>
#include <linux/module.h>
#include <asm/cpu_has_feature.h>
#include <asm/cputable.h>
#include <asm/kup.h>

#include "exports.h"
#include "optprobe_target_ppc.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

/* what loads read, and where stores write */
static unsigned long data[4] = {
	0x8765432112345678UL, 0x1111222233334444UL, 0x5555666677778888UL, 0x99990000aaaabbbbUL,
};

static unsigned long buf[8];

#define DATA	((unsigned long)data)
#define BUF	((unsigned long)buf)

enum isa { ISA_ANY, ISA_300, ISA_310 };

struct ppc_case {
	const char *name;
	const char *symbol;
	unsigned int offset;
	unsigned long a, b;
	enum isa isa;
	optprobe_target_ppc_fn fn;	/* found by name (resolve()) */
};

#define CASE(n, off, x, y)	{ #n, "optprobe_target_ppc_" #n, off, x, y, ISA_ANY }
#define P10(n, x, y)		{ #n, "optprobe_target_p10_" #n, 0, x, y, ISA_310 }

static struct ppc_case classes[] = {
	CASE(ld, 0, DATA, 0),
	CASE(ldu, 0, DATA, 0),
	CASE(lwa, 0, DATA, 0),
	CASE(lbzu, 0, DATA, 0),
	CASE(ldx, 0, DATA, 16),
	CASE(std, 0, BUF, 0x5a5a),
	CASE(stdu, 0, BUF, 0x6b6b),
	CASE(stwux, 4, BUF, 0x7c7c),
	CASE(frame, 0, 0, 0x8d8d),
	CASE(add_dot, 0, 5, -5UL),
	CASE(addo_dot, 0, LONG_MAX, 1),
	CASE(addc, 0, ~0UL, 2),
	CASE(adde, 0, 10, 20),
	CASE(cmpd, 0, 3, 4),
	CASE(mulldo_dot, 0, 1UL << 40, 1UL << 30),
	CASE(mflr, 0, 0, 0),
	CASE(mtlr, 4, 0, 0x1234),
	CASE(mfctr, 0, 0, 0),
	CASE(mtctr, 0, 0, 0x4321),
	CASE(mfcr, 0, 0, 0),
	CASE(mtcrf, 0, 0, 0x12345678),
	CASE(mtxer, 0, 0, 0xc0000000UL),
	P10(pld, DATA, 0),
	P10(plwz, DATA, 0),
	P10(pstd, BUF, 0x9e9e),
	P10(paddi, 1, 0),
	P10(pnop, 1, 0),
	P10(pld_pcrel, 0, 3),
	P10(plwa_pcrel, 0, 3),
	P10(pla, 0, 0),
};

static optprobe_target_ppc_call_fn target_call;

/*
 * Where @c's function is: where a probe on its symbol + 0 lands, its first
 * instruction.  False if it is not there.
 */
static bool resolve(struct ppc_case *c)
{
	if (!c->fn)
		c->fn = (optprobe_target_ppc_fn)test_entry_of(c->symbol);
	return c->fn;
}

#define CLASS_CHECKS	4

static bool isa_has(enum isa isa)
{
	switch (isa) {
	case ISA_300:
		return cpu_has_feature(CPU_FTR_ARCH_300);
	case ISA_310:
		return cpu_has_feature(CPU_FTR_ARCH_31);
	default:
		return true;
	}
}

static const char *isa_skip(enum isa isa)
{
	if (isa == ISA_310)
		return "the CPU lacks ISA 3.1 (POWER10)";
	return "the CPU lacks ISA 3.0 (POWER9)";
}

/* What the handlers saw at the last hit. */
static struct {
	struct pt_regs pre, post;
	unsigned int pre_hits, post_hits;
} seen;

static int snap_pre(struct optprobe *p, struct pt_regs *regs)
{
	seen.pre = *regs;
	seen.pre_hits++;
	return 0;
}

static void snap_post(struct optprobe *p, struct pt_regs *regs)
{
	seen.post = *regs;
	seen.post_hits++;
}

/* The special registers compared, by name. */
static const struct {
	const char *name;
	size_t offset;
} sprs[] = {
	{ "nip", offsetof(struct pt_regs, nip) },
	{ "link", offsetof(struct pt_regs, link) },
	{ "ctr", offsetof(struct pt_regs, ctr) },
	{ "xer", offsetof(struct pt_regs, xer) },
	{ "ccr", offsetof(struct pt_regs, ccr) },
	{ "msr", offsetof(struct pt_regs, msr) },
};

static unsigned long spr(const struct pt_regs *regs, unsigned int i)
{
	return *(const unsigned long *)((const void *)regs + sprs[i].offset);
}

/* The first register in which @x differs from @trap, in @buf, or NULL. */
#define DIFF_LEN	96
static const char *regs_diff(const struct pt_regs *x, const struct pt_regs *trap, char *buf)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x->gpr); i++) {
		if (x->gpr[i] != trap->gpr[i]) {
			snprintf(buf, DIFF_LEN, "r%u %#lx, trap %#lx", i, x->gpr[i], trap->gpr[i]);
			return buf;
		}
	}
	for (i = 0; i < ARRAY_SIZE(sprs); i++) {
		if (spr(x, i) != spr(trap, i)) {
			snprintf(buf, DIFF_LEN, "%s %#lx, trap %#lx", sprs[i].name, spr(x, i),
				 spr(trap, i));
			return buf;
		}
	}
	return NULL;
}

/* Registered on the case being run, or not */
#define UNPROBED	(~0U)

/*
 * One run of @c with a probe (@flags) on it, or none (UNPROBED); the mode
 * it had, or -errno.  Every call of a target goes through here: the same
 * call chain each time, on one CPU (the test runs with migration
 * disabled), so that the registers at the probe are the same but for what
 * the probe changes; the stack pointer too.
 */
static noinline int run(const struct ppc_case *c, unsigned int flags, unsigned long *result,
			enum op_reason *reason)
{
	struct optprobe p;
	int ret, mode;

	memset(&seen, 0, sizeof(seen));
	if (flags == UNPROBED) {
		*result = target_call(c->fn, c->a, c->b);
		return 0;
	}
	test_probe_init(&p, c->symbol, 0, snap_pre, snap_post, flags);
	p.offset = c->offset;
	ret = optprobe_register(&p);
	if (ret)
		return ret;
	optprobe_sync();
	mode = optprobe_mode(&p);
	*reason = op_probe_reason(&p);
	*result = target_call(c->fn, c->a, c->b);
	optprobe_unregister(&p);
	return mode;
}

/* A call of @c, without a probe of this test's own. */
static unsigned long call(const struct ppc_case *c)
{
	enum op_reason reason;
	unsigned long result;

	run(c, UNPROBED, &result, &reason);
	return result;
}

static void check_class(struct ktap *t, struct ppc_case *c)
{
	unsigned long want, got_trap, got_opt;
	struct pt_regs trap_pre, trap_post;
	unsigned int trap_hits, opt_hits;
	enum op_reason reason = OP_R_NONE;
	char name[TEST_NAME_LEN], buf[DIFF_LEN];
	const char *diff;
	int trap_mode, opt_mode, i;

	if (!isa_has(c->isa)) {
		for (i = 0; i < CLASS_CHECKS; i++)
			ktap_skip(t, test_name(name, c->name, "optimized"), isa_skip(c->isa));
		return;
	}
	if (!resolve(c)) {
		for (i = 0; i < CLASS_CHECKS; i++)
			ktap_check(t, false, test_name(name, c->name, "optimized"), "%s not found",
				   c->symbol);
		return;
	}
	run(c, UNPROBED, &want, &reason);
	trap_mode = run(c, OPTPROBE_F_NOOPT, &got_trap, &reason);
	trap_pre = seen.pre;
	trap_post = seen.post;
	trap_hits = seen.pre_hits * 10 + seen.post_hits;
	opt_mode = run(c, 0, &got_opt, &reason);
	opt_hits = seen.pre_hits * 10 + seen.post_hits;

	ktap_check(t, trap_mode == OPTPROBE_MODE_TRAP && opt_mode == OPTPROBE_MODE_OPTIMIZED,
		   test_name(name, c->name, "optimized"), "modes %d and %d: %s", trap_mode,
		   opt_mode, op_reason_text(reason));
	ktap_check(t, got_trap == want && got_opt == want && trap_hits == 11 && opt_hits == 11,
		   test_name(name, c->name, "result_unchanged"),
		   "%#lx trap, %#lx optimized, want %#lx; hits pre*10+post %u trap, %u optimized",
		   got_trap, got_opt, want, trap_hits, opt_hits);
	diff = regs_diff(&seen.pre, &trap_pre, buf);
	ktap_check(t, !diff, test_name(name, c->name, "pre_regs_as_trap"), "%s", diff);
	diff = regs_diff(&seen.post, &trap_post, buf);
	ktap_check(t, !diff, test_name(name, c->name, "post_regs_as_trap"), "%s", diff);
}

/* Branches, and addpcis: a trap, saying why; computing the same. */
struct refused_case {
	struct ppc_case c;
	unsigned int hits;
	enum op_reason reason;
};

#define BRANCH_REASON	OP_R_BRANCH_TRAP_ONLY

#define REFUSED(n, off, x, y, h, r) { CASE(n, off, x, y), h, r }

static struct refused_case refused[] = {
	REFUSED(b, 0, 1, 0, 1, BRANCH_REASON),
	REFUSED(bl, 4, 1, 0, 1, BRANCH_REASON),
	REFUSED(beq, 4, 0, 0, 1, BRANCH_REASON),
	REFUSED(bdnz, 8, 1, 3, 3, BRANCH_REASON),
	REFUSED(blr, 4, 1, 0, 1, BRANCH_REASON),
	REFUSED(bctr, 4, 1, 0, 1, BRANCH_REASON),	/* bcl 20,31 */
	REFUSED(bctr, 24, 1, 0, 1, BRANCH_REASON),
	{ { "addpcis", "optprobe_target_ppc_addpcis", 0, 0, 0, ISA_300 }, 1,
	  OP_R_INSN_ADDPCIS },
};

static void check_refused(struct ktap *t, struct refused_case *r)
{
	struct ppc_case *c = &r->c;
	char name[TEST_NAME_LEN];
	unsigned long want, got;
	enum op_reason reason = OP_R_NONE;
	int mode;

	snprintf(name, sizeof(name), "%s_at_%u_stays_trap", c->name, c->offset);
	if (!isa_has(c->isa)) {
		ktap_skip(t, name, isa_skip(c->isa));
		return;
	}
	if (!resolve(c)) {
		ktap_check(t, false, name, "%s not found", c->symbol);
		return;
	}
	run(c, UNPROBED, &want, &reason);
	mode = run(c, 0, &got, &reason);
	ktap_check(t, mode == OPTPROBE_MODE_TRAP && reason == r->reason && got == want &&
		   seen.pre_hits == r->hits && seen.post_hits == r->hits, name,
		   "mode %d (%s), returned %#lx, want %#lx, %u pre and %u post hits, want %u",
		   mode, op_reason_text(reason), got, want, seen.pre_hits, seen.post_hits, r->hits);
}

/*
 * A load-reserve loop: a probe on the ldarx or between it and the stdcx.
 * (on the add, or on the stdcx.) is refused, since returning from its
 * trap or detour clears the reservation and the loop would never end;
 * one after the stdcx. (its bne) is taken.
 */
static void check_reserve(struct ktap *t)
{
	static const struct {
		unsigned int offset;
		int ret;
	} at[] = { { 0, -EINVAL }, { 4, -EINVAL }, { 8, -EINVAL }, { 12, 0 } };
	char name[TEST_NAME_LEN];
	struct optprobe p;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(at); i++) {
		test_probe_init(&p, "optprobe_target_ppc_reserve", 0, test_nop_pre, NULL, 0);
		p.offset = at[i].offset;
		ret = optprobe_register(&p);
		snprintf(name, sizeof(name), "reserve_loop_at_%u_%s", at[i].offset,
			 at[i].ret ? "refused" : "taken");
		ktap_check(t, ret == at[i].ret, name, "register %d, want %d", ret, at[i].ret);
		if (!ret)
			optprobe_unregister(&p);
	}
}

#define FAR_REASON	OP_R_NO_MODULE_AREA

/* The function 33 MB from either end of its module's text stays a trap. */
static void check_far(struct ktap *t)
{
	struct ppc_case far = {
		"far", "optprobe_target_ppc_far_fn", 0, 1, 2, ISA_ANY, optprobe_target_ppc_far.fn
	};
	unsigned long fn = (unsigned long)far.fn, got;
	unsigned long below = fn - (unsigned long)optprobe_target_ppc_far.text_start;
	unsigned long above = (unsigned long)optprobe_target_ppc_far.text_end - fn;
	enum op_reason reason = OP_R_NONE;
	int mode;

	ktap_check(t, below > SZ_32M && above > SZ_32M, "far_function_is_out_of_any_reach",
		   "%#lx bytes of module text below it, %#lx above", below, above);
	mode = run(&far, 0, &got, &reason);
	ktap_check(t, mode == OPTPROBE_MODE_TRAP && reason == FAR_REASON,
		   "far_function_stays_trap", "mode %d: %s", mode, op_reason_text(reason));
	ktap_check(t, got == 1 + 2 + 9 && seen.pre_hits == 1 && seen.post_hits == 1,
		   "far_function_result_unchanged", "returned %lu, %u pre and %u post hits", got,
		   seen.pre_hits, seen.post_hits);
}

#define NR_CALLS		10

static unsigned int counted;

static int count_pre(struct optprobe *p, struct pt_regs *regs)
{
	counted++;
	return 0;
}

/*
 * Kernel text: gcd(), a leaf, probed on its first instruction after the
 * entry.  Its registers are compared as the classes' are, when optimized.
 */
static void check_kernel_text(struct ktap *t)
{
	struct ppc_case c = { "kernel_gcd", "gcd", 0, 12 * 7, 18 * 7, ISA_ANY, gcd };
	unsigned long addr, wrong = 0;
	const char *reason;
	struct optprobe p;
	int err, ret = -ENOENT, mode = -1, i;

	addr = test_inside_of("gcd", &err);
	test_probe_init(&p, NULL, addr, count_pre, NULL, 0);
	if (addr)
		ret = optprobe_register(&p);
	optprobe_sync();
	reason = ret ? "not registered" : optprobe_reason(&p);
	counted = 0;
	for (i = 0; i < NR_CALLS; i++)
		wrong += gcd(12 * i + 12, 18 * i + 18) != 6 * i + 6;
	if (!ret) {
		mode = optprobe_mode(&p);
		optprobe_unregister(&p);
	}
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED, "kernel_text_optimized",
		   "register %d at %pS, mode %d: %s", ret, (void *)addr, mode, reason);
	ktap_check(t, !wrong && counted == NR_CALLS, "kernel_text_hits_exact",
		   "%lu wrong results, %u hits for %u calls", wrong, counted, NR_CALLS);
	c.offset = addr - (unsigned long)gcd;
	check_class(t, &c);
}

/* Handlers that change things, on optprobe_target_ppc_sum (a + b, then blr). */
static struct ppc_case sum = CASE(sum, 0, 40, 2);
static struct ppc_case diff = CASE(diff, 0, 0, 0);	/* a - b */

static int redirect_pre(struct optprobe *p, struct pt_regs *regs)
{
	counted++;
	regs->gpr[12] = (unsigned long)diff.fn;
	instruction_pointer_set(regs, (unsigned long)diff.fn);
	return 1;
}

static int set_r4_pre(struct optprobe *p, struct pt_regs *regs)
{
	counted++;
	regs->gpr[4] = 100;
	return 0;
}

static void add_r3_post(struct optprobe *p, struct pt_regs *regs)
{
	counted += instruction_pointer(regs) == (unsigned long)sum.fn + 4;
	regs->gpr[3] += 1000;
}

static void to_diff_post(struct optprobe *p, struct pt_regs *regs)
{
	counted++;
	instruction_pointer_set(regs, (unsigned long)diff.fn);
}

struct change_case {
	const char *name;
	optprobe_pre_handler_t pre;
	optprobe_post_handler_t post;
	unsigned long want;
};

static const struct change_case changes[] = {
	{ "pre_redirect", redirect_pre, NULL, 40 - 2 },
	{ "pre_sets_register", set_r4_pre, NULL, 40 + 100 },
	{ "post_sets_register", NULL, add_r3_post, 40 + 2 + 1000 },
	{ "post_ip_change_ignored", NULL, to_diff_post, 40 + 2 },
};

static void check_change(struct ktap *t, const struct change_case *c)
{
	char name[TEST_NAME_LEN];
	unsigned long wrong = 0;
	struct optprobe p;
	int ret, mode = -1, i;

	test_probe_init(&p, sum.symbol, 0, c->pre, c->post, 0);
	ret = optprobe_register(&p);
	optprobe_sync();
	counted = 0;
	for (i = 0; i < NR_CALLS; i++)
		wrong += call(&sum) != c->want;
	if (!ret) {
		mode = optprobe_mode(&p);
		optprobe_unregister(&p);
	}
	ktap_check(t, !ret && mode == OPTPROBE_MODE_OPTIMIZED && !wrong && counted == NR_CALLS,
		   test_name(name, c->name, "optimized"),
		   "register %d, mode %d, %lu wrong results, %u handler runs for %u calls", ret,
		   mode, wrong, counted, NR_CALLS);
}

/*
 * A post handler joins an optimized site and leaves: the detour's post
 * call goes on and off, the site stays optimized, each probe sees each call.
 */
static unsigned int post_counted;

static void count_post(struct optprobe *p, struct pt_regs *regs)
{
	post_counted++;
}

static void check_post_switch(struct ktap *t)
{
	int r0, r1 = -EINVAL, mode0, mode1, i;
	struct optprobe pre_only, post_only;
	unsigned int posts;

	test_probe_init(&pre_only, sum.symbol, 0, count_pre, NULL, 0);
	test_probe_init(&post_only, sum.symbol, 0, NULL, count_post, 0);
	r0 = optprobe_register(&pre_only);
	optprobe_sync();
	if (!r0)
		r1 = optprobe_register(&post_only);
	optprobe_sync();
	mode0 = optprobe_mode(&pre_only);
	counted = 0;
	post_counted = 0;
	for (i = 0; i < NR_CALLS; i++)
		call(&sum);
	posts = post_counted;
	if (!r1)
		optprobe_unregister(&post_only);
	optprobe_sync();
	for (i = 0; i < NR_CALLS; i++)
		call(&sum);
	mode1 = optprobe_mode(&pre_only);
	if (!r0)
		optprobe_unregister(&pre_only);
	ktap_check(t, !r0 && !r1 && mode0 == OPTPROBE_MODE_OPTIMIZED &&
		   mode1 == OPTPROBE_MODE_OPTIMIZED && posts == NR_CALLS &&
		   post_counted == NR_CALLS && counted == 2 * NR_CALLS,
		   "post_handler_switched_on_and_off_optimized",
		   "register %d %d, modes %d %d, %u post hits with it, %u in all, %u pre hits",
		   r0, r1, mode0, mode1, posts, post_counted, counted);
}

/*
 * Where the "b" at @addr goes, or 0: the text at an optimized probe is
 * the jump to its detour.
 */
static unsigned long jump_target(unsigned long addr)
{
	u32 word = *(u32 *)addr;

	if ((word & 0xfc000003) != 0x48000000)
		return 0;
	return addr + sign_extend64(word & 0x03fffffc, 25);
}

/*
 * A prefixed instruction copied to a detour must not cross 64 bytes.  The
 * copy's place in a detour is fixed, so which detours need it moved
 * depends on where they start: trap-mode probes (each with a stub of its
 * own, 48 bytes, three slots) shift the next detour until one needs it.
 * The copy of pld (not pc-relative) is the instruction itself; find it in
 * the detour.
 */
#define MAX_FILLERS	16
#define DETOUR_SCAN	48	/* words: more than a detour */

static struct ppc_case pld = P10(pld, DATA, 0);

/* Optimize a probe on pld, call it; where its detour is, or 0. */
/*
 * Optimize a probe on pld: where its detour is, where in it the copy of
 * the prefixed instruction is (looked for while the detour is there), and
 * what pld returned through it.
 */
static unsigned long pld_detour(unsigned long *got, unsigned long *copy)
{
	u32 prefix = *(u32 *)pld.fn, suffix = *((u32 *)pld.fn + 1);
	unsigned long detour = 0;
	struct optprobe p;
	unsigned int i;

	*copy = 0;
	test_probe_init(&p, pld.symbol, 0, test_nop_pre, NULL, 0);
	if (optprobe_register(&p))
		return 0;
	optprobe_sync();
	detour = jump_target((unsigned long)pld.fn);
	*got = call(&pld);
	for (i = 0; detour && i + 1 < DETOUR_SCAN; i++) {
		if (((u32 *)detour)[i] == prefix && ((u32 *)detour)[i + 1] == suffix)
			*copy = detour + i * sizeof(u32);
	}
	optprobe_unregister(&p);
	return detour;
}

static void check_prefixed_boundary(struct ktap *t)
{
	unsigned long detour, copy = 0, got = 0;
	struct optprobe fillers[MAX_FILLERS];
	unsigned int n, i;
	int ret = 0;

	if (!isa_has(ISA_310)) {
		ktap_skip(t, "prefixed_copy_never_crosses_64_bytes", isa_skip(ISA_310));
		return;
	}
	if (!resolve(&pld)) {
		ktap_check(t, false, "prefixed_copy_never_crosses_64_bytes", "pld not found");
		return;
	}
	for (n = 0, detour = pld_detour(&got, &copy); detour && (detour & 63) != 48 &&
	     n < MAX_FILLERS; n++, detour = pld_detour(&got, &copy)) {
		/* an instruction of another target: one more slot taken before the detour */
		test_probe_init(&fillers[n], NULL, (unsigned long)classes[n].fn, test_nop_pre, NULL,
				OPTPROBE_F_NOOPT);
		ret = optprobe_register(&fillers[n]);
		if (ret)
			break;
	}
	for (i = 0; i < n; i++)
		optprobe_unregister(&fillers[i]);
	ktap_check(t, !ret && (detour & 63) == 48 && copy && (copy & 63) != 60 &&
		   got == data[1], "prefixed_copy_never_crosses_64_bytes",
		   "register %d, detour %#lx after %u fillers, copy at %#lx, returned %#lx", ret,
		   detour, n, copy, got);
}

#define KUAP_CALLS	10

static unsigned long kuap_seen[KUAP_CALLS];
static unsigned int kuap_hits;

static int kuap_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (kuap_hits < KUAP_CALLS)
		kuap_seen[kuap_hits] = mfspr(SPRN_AMR);
	kuap_hits++;
	return 0;
}

/*
 * A probe in a function that runs in a user-access window: its handler
 * runs with user access locked (the AMR as outside the window), as from a
 * trap, and the function goes on with its window open (the AMR it had).
 * Jump-optimized (on an add).  Skipped where KUAP is not in force (the window leaves the
 * AMR as it was).
 */
static void check_kuap(struct ktap *t)
{
	unsigned long closed = mfspr(SPRN_AMR), open, amr, got, bad = 0;
	const char *reason = "not registered";
	struct optprobe p;
	unsigned int i;
	int ret, mode = -1;

	optprobe_target_ppc_kuap(1, 2, &open);
	if (open == closed) {
		ktap_skip(t, "handler_runs_with_user_access_locked", "KUAP is not in force");
		return;
	}
	test_probe_init(&p, "optprobe_target_ppc_kuap_inner", 0, kuap_pre, NULL, 0);
	kuap_hits = 0;
	ret = optprobe_register(&p);
	if (!ret) {
		optprobe_sync();
		mode = optprobe_mode(&p);
		reason = optprobe_reason(&p);
		for (i = 0; i < KUAP_CALLS; i++) {
			got = optprobe_target_ppc_kuap(i, 2 * i, &amr);
			bad += got != 3 * i || amr != open;
		}
		optprobe_unregister(&p);
	}
	for (i = 0; i < min(kuap_hits, KUAP_CALLS); i++)
		bad += kuap_seen[i] != closed;
	ktap_check(t, !ret && mode == OPTPROBE_MODE_OPTIMIZED && kuap_hits == KUAP_CALLS && !bad,
		   "handler_runs_with_user_access_locked",
		   "register %d, %s (%s), %u hits of %u, %lu wrong (AMR %#lx, in the window %#lx, in the first handler %#lx)",
		   ret, test_mode_name(mode), reason, kuap_hits, KUAP_CALLS, bad, closed, open,
		   kuap_seen[0]);
}

#define COPY_CALLS	10

static unsigned int copy_pre_hits, copy_post_hits;

static int copy_pre(struct optprobe *p, struct pt_regs *regs)
{
	copy_pre_hits++;
	return 0;
}

static void copy_post(struct optprobe *p, struct pt_regs *regs)
{
	copy_post_hits++;
}

/*
 * Run the trap-mode probe @p on kuap_inner's mfspr of the AMR, which
 * emulate_step() declines (it emulates moves from LR, CTR and XER only),
 * COPY_CALLS times; the breakpoint traps taken, or -1 if a call went
 * wrong or a handler missed a hit.
 */
static long copy_run(struct optprobe *p)
{
	unsigned long open, amr, traps;
	unsigned int i;

	optprobe_target_ppc_kuap(1, 2, &open);
	copy_pre_hits = 0;
	copy_post_hits = 0;
	if (optprobe_register(p))
		return -1;
	traps = op_bp_traps();
	for (i = 0; i < COPY_CALLS; i++)
		if (optprobe_target_ppc_kuap(i, 2 * i, &amr) != 3 * i || amr != open)
			break;
	traps = op_bp_traps() - traps;
	if (optprobe_mode(p) != OPTPROBE_MODE_TRAP)
		i = 0;
	optprobe_unregister(p);
	if (i != COPY_CALLS || copy_pre_hits != COPY_CALLS ||
	    copy_post_hits != (p->post_handler ? COPY_CALLS : 0))
		return -1;
	return traps;
}

/*
 * In module text, a trap-mode site whose instruction could run from a
 * detour runs it out of line from its stub's copy, written when the site
 * is created, instead of a slot: the stub's post switch then works as
 * the trap after a slot's copy, a trap while there are post handlers (two
 * traps a hit) and a branch back without (one trap a hit, where a slot
 * would take two).  The instruction reads the AMR inside a user-access
 * window: the copy ran with the window's registers (where KUAP is in
 * force; the trap counts are the check either way).
 */
static void check_copy_in_stub(struct ktap *t)
{
	struct optprobe p;
	long with_post, pre_only;

	test_probe_init(&p, "optprobe_target_ppc_kuap_inner", 0, copy_pre, copy_post,
			OPTPROBE_F_NOOPT);
	p.offset = 4;
	with_post = copy_run(&p);
	test_probe_init(&p, "optprobe_target_ppc_kuap_inner", 0, copy_pre, NULL,
			OPTPROBE_F_NOOPT);
	p.offset = 4;
	pre_only = copy_run(&p);
	ktap_check(t, with_post == 2 * COPY_CALLS && pre_only == COPY_CALLS,
		   "trap_copy_runs_from_the_stub",
		   "%d calls: %ld traps with a post handler (2 a hit: out of line), %ld without (1 a hit: no trap after the copy)",
		   COPY_CALLS, with_post, pre_only);
}

/*
 * A module-text site gets its stub when it is created, and then its branch
 * at once instead of a trap (op_opt_jump_ready()): it is optimized when
 * optprobe_register() returns, before the optimizer has run, and its hits
 * take no trap.
 */
static void check_branch_at_registration(struct ktap *t)
{
	unsigned long traps = 0, wrong = 0;
	struct optprobe p;
	int ret, mode = -1, i;

	test_probe_init(&p, sum.symbol, 0, count_pre, NULL, 0);
	counted = 0;
	ret = optprobe_register(&p);
	if (!ret) {
		mode = optprobe_mode(&p);
		traps = op_bp_traps();
		for (i = 0; i < NR_CALLS; i++)
			wrong += target_call(sum.fn, i, 2 * i) != 3 * i;
		traps = op_bp_traps() - traps;
		optprobe_unregister(&p);
	}
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED && !traps && !wrong && counted == NR_CALLS,
		   "module_text_branch_at_registration",
		   "register %d, mode %d before the optimizer ran; %lu traps, %lu wrong results, %u hits for %u calls",
		   ret, mode, traps, wrong, counted, NR_CALLS);
}

/*
 * A register batch decides between a site's branch and its trap at its
 * end (op_opt_arm_end()), with what all its probes ask: a second probe
 * with OPTPROBE_F_NOOPT on the same module-text address leaves it a trap
 * when optprobe_register_many() returns, and both probes count every
 * call.
 */
static void check_noopt_in_batch(struct ktap *t)
{
	struct optprobe a, b, *ps[] = { &a, &b };
	unsigned long traps = 0, wrong = 0;
	int ret, mode = -1, i;

	test_probe_init(&a, sum.symbol, 0, count_pre, NULL, 0);
	test_probe_init(&b, sum.symbol, 0, count_pre, NULL, OPTPROBE_F_NOOPT);
	counted = 0;
	ret = optprobe_register_many(ps, ARRAY_SIZE(ps));
	if (!ret) {
		mode = optprobe_mode(&a);
		traps = op_bp_traps();
		for (i = 0; i < NR_CALLS; i++)
			wrong += target_call(sum.fn, i, 2 * i) != 3 * i;
		traps = op_bp_traps() - traps;
		optprobe_unregister_many(ps, ARRAY_SIZE(ps));
	}
	ktap_check(t, mode == OPTPROBE_MODE_TRAP && traps >= NR_CALLS && !wrong &&
		   counted == 2 * NR_CALLS, "module_text_noopt_in_batch_stays_trap",
		   "register %d, mode %d; %lu traps, %lu wrong results, %u hits for 2 x %u calls",
		   ret, mode, traps, wrong, counted, NR_CALLS);
}

/*
 * With optimization switched off (no stub for a copy), a trap-mode site
 * gets a slot for its copy only if emulate_step() may decline its
 * instruction: a load or store, not arithmetic, a move to or from LR,
 * CTR or CR, nor a branch (one slot less, 16 bytes and its owner, than
 * the kernel's kprobes take).  Either way one hit runs the pre and the
 * post handler once and the function computes what it does unprobed.
 */
static struct {
	struct ppc_case c;
	unsigned int slots;
} copies[] = {
	{ CASE(mflr, 0, 0, 0), 0 },
	{ CASE(mtctr, 0, 0, 0x4321), 0 },
	{ CASE(mfcr, 0, 0, 0), 0 },
	{ CASE(add_dot, 0, 5, -5UL), 0 },
	{ CASE(beq, 4, 0, 0), 0 },
	{ CASE(ld, 0, DATA, 0), 1 },
	{ CASE(stdu, 0, BUF, 0x6b6b), 1 },
};

static void check_slot_if_declinable(struct ktap *t, struct ppc_case *c, unsigned int slots)
{
	unsigned long want, got;
	char name[TEST_NAME_LEN];
	unsigned int used;
	struct optprobe p;
	int ret;

	test_name(name, c->name, "trap_slots");
	if (!resolve(c)) {
		ktap_check(t, false, name, "%s not found", c->symbol);
		return;
	}
	want = call(c);
	test_probe_init(&p, c->symbol, 0, snap_pre, snap_post, 0);
	p.offset = c->offset;
	op_set_optimize(false);
	optprobe_sync();
	used = op_slots_used();
	ret = optprobe_register(&p);
	used = op_slots_used() - used;
	memset(&seen, 0, sizeof(seen));
	got = target_call(c->fn, c->a, c->b);
	if (!ret)
		optprobe_unregister(&p);
	op_set_optimize(true);
	ktap_check(t, !ret && used == slots && got == want && seen.pre_hits == 1 &&
		   seen.post_hits == 1, name,
		   "register %d, %u slots taken (want %u), returned %#lx (want %#lx), %u pre and %u post hits",
		   ret, used, slots, got, want, seen.pre_hits, seen.post_hits);
}

#define PLAN	(ARRAY_SIZE(classes) * CLASS_CHECKS + ARRAY_SIZE(refused) + 3 + 2 + CLASS_CHECKS + \
		 ARRAY_SIZE(changes) + 1 + 1 + 4 + 1 + 1 + 1 + 1 + ARRAY_SIZE(copies))

static int __init test_ppc_opt_init(void)
{
	unsigned int i;
	struct ktap t;

	ktap_start(&t, PLAN);
	target_call = (optprobe_target_ppc_call_fn)test_entry_of("optprobe_target_ppc_call");
	if (!target_call || !resolve(&sum) || !resolve(&diff)) {
		for (i = 0; i < PLAN; i++)
			ktap_check(&t, false, "targets_found", "optprobe_target_ppc.ko not loaded");
		return 0;
	}
	migrate_disable();
	for (i = 0; i < ARRAY_SIZE(classes); i++)
		check_class(&t, &classes[i]);
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		check_refused(&t, &refused[i]);
	check_far(&t);
	check_kernel_text(&t);
	for (i = 0; i < ARRAY_SIZE(changes); i++)
		check_change(&t, &changes[i]);
	check_post_switch(&t);
	check_prefixed_boundary(&t);
	check_reserve(&t);
	check_kuap(&t);
	check_copy_in_stub(&t);
	check_branch_at_registration(&t);
	check_noopt_in_batch(&t);
	for (i = 0; i < ARRAY_SIZE(copies); i++)
		check_slot_if_declinable(&t, &copies[i].c, copies[i].slots);
	migrate_enable();
	return 0;
}

static void __exit test_ppc_opt_exit(void)
{
}

module_init(test_ppc_opt_init);
module_exit(test_ppc_opt_exit);

MODULE_DESCRIPTION("optprobe test: powerpc64le jump optimization");
MODULE_LICENSE("GPL");
