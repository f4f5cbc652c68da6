// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe and the kernel's own kprobes on one optimized site (issue #13).
 *
 * API-NOTES.md promises that a kernel kprobe registered where optprobe has
 * patched the text corrupts neither: both keep firing (or the kernel
 * cleanly refuses), the function computes the right results, and
 * unregistering both in either order restores the original text.
 *
 * Each case has a target of its own (a + 2b in x86_opt_targets.S, a + b + 7
 * in optprobe_target_ppc.c), so that a case that fails leaves nothing
 * behind on the next one's.  It saves the original text of the target
 * (SITE_BYTES from its first instruction S: more than the jump's region on
 * x86_64, the word on ppc64le) before registering anything, and removes
 * everything it registered.  Where optprobe comes first, its probe on S
 * must be optimized after optprobe_sync() (the case fails, with
 * optprobe_reason(), if not).
 *
 *  - kprobe_at_optimized_site_optprobe_leaves_first: a kernel kprobe on S,
 *    which must register.  NR_CALLS calls: both see every one.
 *    optprobe_unregister(): NR_CALLS more, the kprobe sees them all.
 *    unregister_kprobe(), optprobe_sync(): the original text is back
 *    (polled up to 2 s, the kernel's kprobes may unoptimize late), and the
 *    function's results are right.
 *  - kprobe_at_optimized_site_kprobe_leaves_first: the same, the kprobe
 *    leaving first; optprobe then keeps firing exactly (its jump back, or
 *    at least exact: a "#" line tells which), and leaves the original text.
 *  - x86_64, kprobe_inside_optimized_region_{optprobe,kprobe}_leaves_first:
 *    the kernel's kprobe on the second instruction of the jump's region.
 *    The kernel may refuse it (register_kprobe() fails: optprobe keeps
 *    firing exactly and leaves the original text), or take it: then both
 *    fire exactly and either order restores the text.  A "#" line says
 *    which happened.
 *  - x86_64, kprobe_inside_then_optprobe: the kernel's kprobe first, on the
 *    second instruction, then optprobe on S: optprobe stays unoptimized
 *    with a reason while the kprobe is there, both fire exactly; after
 *    unregister_kprobe(), optprobe_sync() calls optimize the site within
 *    3 s (a refusal ends when its reason does); optprobe_unregister()
 *    restores the text.
 *  - x86_64, held_site_freed_when_a_probe_comes_inside: optprobe leaves
 *    first, the kernel's kprobe keeps optprobe's jump until it leaves too;
 *    a probe registered inside the jump's region right after that takes
 *    the jump out.  The site left without probes must then be freed (its
 *    first byte the original again), not kept as a breakpoint or jumped
 *    again.
 *  - x86_64, kprobe_in_jump_tail: the bytes of the region past optprobe's
 *    jmp (the tail of the region's last instruction) would read as an
 *    instruction boundary to the kernel's decoder, which starts at the jmp;
 *    a kernel kprobe there must be refused (-EILSEQ, as without optprobe:
 *    it is inside an instruction), or its jmp could cover the place
 *    optprobe's detour returns to.  optprobe keeps int3 there.  optprobe
 *    fires exactly, results stay right, and the text comes back.
 *  - x86_64, kprobe_boundary_after_int3: optprobe's breakpoint must not
 *    change where the kernel's kprobes may go later in the function, nor
 *    let the kernel jump-optimize one there (check_boundary()).
 *
 * Hit counts are exact: hits == calls.  Targets are called only from this
 * thread, on one CPU, between registrations, and never while the kernel's
 * optimizer may still be rewriting them: after register_kprobe() the test
 * waits until the kernel is done with its kprobe (QEMU TCG may run a stale
 * translation of text another CPU changes, see doc/testing.md).  "#" lines show
 * the text at S after each step.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "optprobe_test.h"
#ifdef CONFIG_X86_64
#include <asm/ibt.h>
#include <asm/text-patching.h>
#include "x86_opt_targets.h"
#endif

#ifdef CONFIG_X86_64
#define SITE_BYTES	16	/* more than the jump's region */
/* the targets' first instruction: after the ENDBR of a kernel with IBT */
#define CODE_START	ENDBR_INSN_SIZE
#define NR_TARGETS	OP_TX86_NR_COEXIST
#define SECOND_INSN	OP_TX86_COEXIST_SECOND
#define WANT(a, b)	((a) + 2 * (b))
#else
#define SITE_BYTES	4
#define CODE_START	0
#define NR_TARGETS	2
#define WANT(a, b)	((a) + (b) + 7)
#endif

#define NR_CALLS	10
#define NAME_LEN	128
#define POLL_MS		50
#define SETTLE_MS	2000	/* for the kernel's optimizer, and the text to come back */
#define REOPT_MS	3000	/* for a refusal to end */
#define REOPT_POLL_MS	100

typedef long (*coexist_fn)(long a, long b);

static coexist_fn targets[NR_TARGETS];

static atomic_t op_hits, kp_hits;

static int op_count(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&op_hits);
	return 0;
}

static int kp_count(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&kp_hits);
	return 0;
}

static void reset_hits(void)
{
	atomic_set(&op_hits, 0);
	atomic_set(&kp_hits, 0);
}

/* Call @fn NR_CALLS times; how many results were wrong. */
static unsigned int calls_wrong(coexist_fn fn)
{
	unsigned int wrong = 0;
	long i;

	for (i = 0; i < NR_CALLS; i++)
		wrong += fn(i, 3 * i + 1) != WANT(i, 3 * i + 1);
	return wrong;
}

static const char *check_name(char *buf, const char *name, const char *what)
{
	snprintf(buf, NAME_LEN, "%s_%s", name, what);
	return buf;
}

static void show_text(const char *name, const char *when, unsigned long addr)
{
	pr_info("# %s: text at S %s: %*ph\n", name, when, SITE_BYTES, (void *)addr);
}

/*
 * Poll, with optprobe_sync() each time, until @addr holds @want, for up
 * to @ms.  Whether it does.
 */
static bool wait_text(unsigned long addr, const u8 *want, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	for (;;) {
		optprobe_sync();
		if (!memcmp((void *)addr, want, SITE_BYTES))
			return true;
		if (time_after(jiffies, end))
			return false;
		msleep(POLL_MS);
	}
}

/*
 * Wait, up to SETTLE_MS, until the kernel's optimizer is done with @kp,
 * which register_kprobe() may have queued for optimizing: then an
 * aggregate optimized_kprobe heads @kp's list, and sits on the optimizer's
 * list until its jump is written.  What the kernel made of @kp.
 */
static const char *kprobe_settle(struct kprobe *kp)
{
	unsigned long end = jiffies + msecs_to_jiffies(SETTLE_MS);
	struct optimized_kprobe *op;
	struct kprobe *ap;

	if (list_empty(&kp->list))
		return "a breakpoint (the kernel cannot optimize it)";
	ap = list_entry(kp->list.next, struct kprobe, list);
	op = container_of(ap, struct optimized_kprobe, kp);
	while (!list_empty(&op->list) && time_before(jiffies, end))
		msleep(POLL_MS);
	if (!list_empty(&op->list))
		return "still queued by the kernel's optimizer";
	msleep(POLL_MS);	/* its jump is written as it leaves the list */
	if (ap->flags & KPROBE_FLAG_OPTIMIZED)
		return "optimized by the kernel";
	return "a breakpoint (the kernel did not optimize it)";
}

/*
 * Save the original text at @addr into @orig, then put @p there and let the
 * optimizer run: the mode it reached, or -1 if it did not register.
 */
static int optprobe_first(struct optprobe *p, unsigned long addr, u8 *orig)
{
	memcpy(orig, (void *)addr, SITE_BYTES);
	reset_hits();
	test_probe_init(p, NULL, addr, op_count, NULL, 0);
	if (optprobe_register(p))
		return -1;
	optprobe_sync();
	return optprobe_mode(p);
}

struct coexist_case {
	const char *name;
	unsigned int target;
	unsigned int kprobe_offset;	/* from S: 0, or the region's second instruction */
	bool optprobe_leaves_first;
};

static const struct coexist_case cases[] = {
	{ "kprobe_at_optimized_site_optprobe_leaves_first", 0, 0, true },
	{ "kprobe_at_optimized_site_kprobe_leaves_first", 1, 0, false },
#ifdef CONFIG_X86_64
	{ "kprobe_inside_optimized_region_optprobe_leaves_first", 2, SECOND_INSN, true },
	{ "kprobe_inside_optimized_region_kprobe_leaves_first", 3, SECOND_INSN, false },
#endif
};

#define CASE_CHECKS	5

/* optprobe on S first, optimized; then the kernel's kprobe; one leaves, then the other. */
static void check_case(struct ktap *t, const struct coexist_case *c)
{
	unsigned long addr = (unsigned long)targets[c->target] + CODE_START;
	struct kprobe kp = { .pre_handler = kp_count };
	int kret, mode, op_want, kp_want, i;
	u8 orig[SITE_BYTES], opt[SITE_BYTES];
	const char *kstate = "refused";
	char name[NAME_LEN];
	unsigned int wrong;
	struct optprobe p;
	bool back;

	mode = optprobe_first(&p, addr, orig);
	if (mode != OPTPROBE_MODE_OPTIMIZED) {
		ktap_check(t, false, check_name(name, c->name, "registered"),
			   "optprobe at %pS: mode %s: %s", (void *)addr, test_mode_name(mode),
			   mode < 0 ? "not registered" : optprobe_reason(&p));
		if (mode >= 0)
			optprobe_unregister(&p);
		for (i = 1; i < CASE_CHECKS; i++)
			ktap_check(t, false, check_name(name, c->name, "not_run"),
				   "optprobe not optimized: nothing to test");
		return;
	}
	memcpy(opt, (void *)addr, SITE_BYTES);

	kp.addr = (kprobe_opcode_t *)(addr + c->kprobe_offset);
	kret = register_kprobe(&kp);
	if (!kret)
		kstate = kprobe_settle(&kp);
	pr_info("# %s: register_kprobe at %pS: %d, the kernel's kprobe %s\n", c->name, kp.addr,
		kret, kstate);
	show_text(c->name, "with both registered", addr);
	ktap_check(t, !kret || c->kprobe_offset, check_name(name, c->name, "registered"),
		   "register_kprobe at %pS: %d", kp.addr, kret);

	/* both there (or the kernel refused) */
	kp_want = kret ? 0 : NR_CALLS;
	wrong = calls_wrong(targets[c->target]);
	ktap_check(t, !wrong && atomic_read(&op_hits) == NR_CALLS &&
		   atomic_read(&kp_hits) == kp_want, check_name(name, c->name, "both_hit_exactly"),
		   "%u wrong results; %d optprobe hits, %d kprobe hits, for %d calls", wrong,
		   atomic_read(&op_hits), atomic_read(&kp_hits), NR_CALLS);

	/* one leaves */
	if (c->optprobe_leaves_first) {
		optprobe_unregister(&p);
		optprobe_sync();
		op_want = NR_CALLS;
		kp_want = kret ? 0 : 2 * NR_CALLS;
		show_text(c->name, "after optprobe_unregister()", addr);
	} else {
		if (!kret)
			unregister_kprobe(&kp);
		/* the kernel may take its time to unoptimize its kprobe */
		back = wait_text(addr, opt, SETTLE_MS);
		mode = optprobe_mode(&p);
		op_want = 2 * NR_CALLS;
		kp_want = kret ? 0 : NR_CALLS;
		pr_info("# %s: after unregister_kprobe(): optprobe %s%s%s, its jump %s\n",
			c->name, test_mode_name(mode), *optprobe_reason(&p) ? ": " : "",
			optprobe_reason(&p), back ? "back" : "not back within 2 s");
		show_text(c->name, "after unregister_kprobe()", addr);
	}
	wrong = calls_wrong(targets[c->target]);
	ktap_check(t, !wrong && atomic_read(&op_hits) == op_want &&
		   atomic_read(&kp_hits) == kp_want,
		   check_name(name, c->name, "other_hits_exactly"),
		   "%u wrong results; %d optprobe hits (want %d), %d kprobe hits (want %d)", wrong,
		   atomic_read(&op_hits), op_want, atomic_read(&kp_hits), kp_want);

	/* the other leaves */
	if (c->optprobe_leaves_first) {
		if (!kret)
			unregister_kprobe(&kp);
	} else {
		optprobe_unregister(&p);
	}
	back = wait_text(addr, orig, SETTLE_MS);
	show_text(c->name, "with both gone", addr);
	ktap_check(t, back, check_name(name, c->name, "text_restored"),
		   "not within 2 s: %*ph, was %*ph", SITE_BYTES, (void *)addr, SITE_BYTES, orig);
	wrong = calls_wrong(targets[c->target]);
	ktap_check(t, !wrong && atomic_read(&op_hits) == op_want &&
		   atomic_read(&kp_hits) == kp_want, check_name(name, c->name, "results_right"),
		   "%u wrong results; %d optprobe hits (want %d), %d kprobe hits (want %d)", wrong,
		   atomic_read(&op_hits), op_want, atomic_read(&kp_hits), kp_want);
}

#ifdef CONFIG_X86_64
#define FIRST_CHECKS	6
#define FIRST_NAME	"kprobe_inside_then_optprobe"

/*
 * The kernel's kprobe first, on the second instruction of the region a
 * jump from S would cover; then optprobe on S.
 */
static void check_kprobe_first(struct ktap *t)
{
	unsigned long addr = (unsigned long)targets[OP_TX86_NR_COEXIST - 1] + CODE_START;
	struct kprobe kp = { .pre_handler = kp_count };
	unsigned long start, waited;
	const char *kstate = "refused";
	int ret = -ENOENT, kret, mode;
	u8 orig[SITE_BYTES];
	unsigned int wrong;
	struct optprobe p;
	bool back;

	memcpy(orig, (void *)addr, SITE_BYTES);
	reset_hits();
	kp.addr = (kprobe_opcode_t *)(addr + SECOND_INSN);
	kret = register_kprobe(&kp);
	if (!kret)
		kstate = kprobe_settle(&kp);
	test_probe_init(&p, NULL, addr, op_count, NULL, 0);
	if (!kret)
		ret = optprobe_register(&p);
	optprobe_sync();
	mode = ret ? -1 : optprobe_mode(&p);
	pr_info("# %s: register_kprobe at %pS: %d, the kernel's kprobe %s\n", FIRST_NAME,
		kp.addr, kret, kstate);
	show_text(FIRST_NAME, "with both registered", addr);
	ktap_check(t, !kret && !ret && mode != OPTPROBE_MODE_OPTIMIZED && *optprobe_reason(&p),
		   FIRST_NAME "_optprobe_waits",
		   "register_kprobe %d, optprobe_register %d, mode %s: \"%s\"", kret, ret,
		   test_mode_name(mode), ret ? "" : optprobe_reason(&p));

	wrong = calls_wrong(targets[OP_TX86_NR_COEXIST - 1]);
	ktap_check(t, !wrong && !kret && !ret && atomic_read(&op_hits) == NR_CALLS &&
		   atomic_read(&kp_hits) == NR_CALLS, FIRST_NAME "_both_hit_exactly",
		   "%u wrong results; %d optprobe hits, %d kprobe hits, for %d calls", wrong,
		   atomic_read(&op_hits), atomic_read(&kp_hits), NR_CALLS);

	if (!kret)
		unregister_kprobe(&kp);
	start = jiffies;
	for (;;) {
		optprobe_sync();
		mode = ret ? -1 : optprobe_mode(&p);
		waited = jiffies_to_msecs(jiffies - start);
		if (mode == OPTPROBE_MODE_OPTIMIZED || waited > REOPT_MS)
			break;
		msleep(REOPT_POLL_MS);
	}
	pr_info("# %s: after unregister_kprobe(): optprobe %s after %lu ms%s%s\n", FIRST_NAME,
		test_mode_name(mode), waited, ret || !*optprobe_reason(&p) ? "" : ": ",
		ret ? "" : optprobe_reason(&p));
	show_text(FIRST_NAME, "after unregister_kprobe()", addr);
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED, FIRST_NAME "_optimized_once_kprobe_left",
		   "mode %s after %lu ms: \"%s\"", test_mode_name(mode), waited,
		   ret ? "" : optprobe_reason(&p));

	wrong = calls_wrong(targets[OP_TX86_NR_COEXIST - 1]);
	ktap_check(t, !wrong && !ret && atomic_read(&op_hits) == 2 * NR_CALLS &&
		   atomic_read(&kp_hits) == NR_CALLS, FIRST_NAME "_optprobe_hits_exactly",
		   "%u wrong results; %d optprobe hits (want %d), %d kprobe hits (want %d)", wrong,
		   atomic_read(&op_hits), 2 * NR_CALLS, atomic_read(&kp_hits), NR_CALLS);

	if (!ret)
		optprobe_unregister(&p);
	back = wait_text(addr, orig, SETTLE_MS);
	show_text(FIRST_NAME, "with both gone", addr);
	ktap_check(t, back, FIRST_NAME "_text_restored", "not within 2 s: %*ph, was %*ph",
		   SITE_BYTES, (void *)addr, SITE_BYTES, orig);
	wrong = calls_wrong(targets[OP_TX86_NR_COEXIST - 1]);
	ktap_check(t, !wrong && atomic_read(&op_hits) == 2 * NR_CALLS &&
		   atomic_read(&kp_hits) == NR_CALLS, FIRST_NAME "_results_right",
		   "%u wrong results; %d optprobe hits, %d kprobe hits", wrong,
		   atomic_read(&op_hits), atomic_read(&kp_hits));
}

#define HELD_CHECKS	3
#define HELD_NAME	"held_site_freed_when_a_probe_comes_inside"

static void check_held_then_inside(struct ktap *t)
{
	unsigned long addr = (unsigned long)targets[OP_TX86_NR_COEXIST - 2] + CODE_START;
	struct kprobe kp = { .pre_handler = kp_count };
	int kret = -ENOENT, qret = -ENOENT, mode;
	struct optprobe p, q;
	u8 orig[SITE_BYTES];
	unsigned int wrong;
	bool back;
	u8 first;

	mode = optprobe_first(&p, addr, orig);
	if (mode == OPTPROBE_MODE_OPTIMIZED) {
		kp.addr = (kprobe_opcode_t *)addr;
		kret = register_kprobe(&kp);
		if (!kret)
			kprobe_settle(&kp);
	}
	if (mode >= 0)
		optprobe_unregister(&p);
	show_text(HELD_NAME, "held for the kernel's kprobe", addr);
	if (!kret)
		unregister_kprobe(&kp);
	/* at once, before optprobe's next look at the site it holds */
	test_probe_init(&q, NULL, addr + SECOND_INSN, op_count, NULL, OPTPROBE_F_NOOPT);
	if (!kret)
		qret = optprobe_register(&q);
	optprobe_sync();
	first = *(u8 *)addr;
	show_text(HELD_NAME, "with a probe inside", addr);
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED && !kret && !qret && first == orig[0],
		   HELD_NAME "_first_byte_original",
		   "mode %s, register_kprobe %d, register inside %d: first byte %02x, was %02x",
		   test_mode_name(mode), kret, qret, first, orig[0]);
	reset_hits();
	wrong = calls_wrong(targets[OP_TX86_NR_COEXIST - 2]);
	ktap_check(t, !wrong && !qret && atomic_read(&op_hits) == NR_CALLS,
		   HELD_NAME "_inside_hits_exactly", "%u wrong results, %d hits for %d calls",
		   wrong, atomic_read(&op_hits), NR_CALLS);
	if (!qret)
		optprobe_unregister(&q);
	back = wait_text(addr, orig, SETTLE_MS);
	ktap_check(t, back, HELD_NAME "_text_restored", "not within 2 s: %*ph, was %*ph",
		   SITE_BYTES, (void *)addr, SITE_BYTES, orig);
}

#define TAIL_CHECKS	3
#define TAIL_NAME	"kprobe_in_jump_tail"
/* push (1), mov (3), add (3): the jmp's 5 bytes end 2 bytes into the add */
#define TAIL_OFFSET	JMP32_INSN_SIZE

static void check_jump_tail(struct ktap *t)
{
	unsigned long addr = (unsigned long)targets[0] + CODE_START;
	struct kprobe kp = { .pre_handler = kp_count };
	const char *kstate = "refused";
	int kret = -ENOENT, mode;
	u8 orig[SITE_BYTES], tail;
	unsigned int wrong;
	struct optprobe p;
	bool back;

	mode = optprobe_first(&p, addr, orig);
	tail = *(u8 *)(addr + TAIL_OFFSET);
	if (mode == OPTPROBE_MODE_OPTIMIZED) {
		kp.addr = (kprobe_opcode_t *)(addr + TAIL_OFFSET);
		kret = register_kprobe(&kp);
		if (!kret)
			kstate = kprobe_settle(&kp);
	}
	pr_info("# %s: register_kprobe at %pS: %d, the kernel's kprobe %s\n", TAIL_NAME,
		kp.addr, kret, kstate);
	show_text(TAIL_NAME, "with both registered", addr);
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED && tail == INT3_INSN_OPCODE &&
		   kret == -EILSEQ, TAIL_NAME "_refused",
		   "mode %s, tail byte %02x, register_kprobe %d: %s", test_mode_name(mode), tail,
		   kret, kstate);
	wrong = calls_wrong(targets[0]);
	ktap_check(t, !wrong && atomic_read(&op_hits) == NR_CALLS && !atomic_read(&kp_hits),
		   TAIL_NAME "_hits_exactly", "%u wrong results; %d optprobe, %d kprobe hits",
		   wrong, atomic_read(&op_hits), atomic_read(&kp_hits));
	if (!kret)
		unregister_kprobe(&kp);
	if (mode >= 0)
		optprobe_unregister(&p);
	back = wait_text(addr, orig, SETTLE_MS);
	ktap_check(t, back && !calls_wrong(targets[0]), TAIL_NAME "_text_restored",
		   "not within 2 s: %*ph, was %*ph", SITE_BYTES, (void *)addr, SITE_BYTES, orig);
}

#define BOUNDARY_CHECKS	6
#define HELD_JUMP_CHECKS	1
#define BOUNDARY_NAME	"kprobe_boundary_after_int3"
#define BOUNDARY_WANT(a)	(0xb848 + 3 * (a) + 1)

/* register_kprobe() at @addr with a fresh @kp: its return value. */
static int kprobe_at(struct kprobe *kp, unsigned long addr)
{
	memset(kp, 0, sizeof(*kp));
	kp->addr = (kprobe_opcode_t *)addr;
	kp->pre_handler = kp_count;
	return register_kprobe(kp);
}

/*
 * The kernel's can_probe() decodes the function from its start: read
 * through optprobe's int3 at S as a one-byte instruction, S + 1 starts a
 * movabs ending at S + 11, which is then taken although it lies inside
 * the addq at S + 10, and S + 5 and S + 10 are refused.  With optprobe's
 * breakpoint at S (OPTPROBE_F_NOOPT), a kernel kprobe must be refused at
 * S + 1 and S + 11 (-EILSEQ) and taken at S + 5 and S + 10, as without
 * it.  At S + 10, where the kernel jump-optimizes a kprobe when nothing
 * else is in the function (checked first), it must stay a breakpoint:
 * its walk of the function for jumps into its region would go through
 * optprobe's int3 too.
 */
static void check_boundary(struct ktap *t)
{
	target_fn fn = op_tx86_targets.boundary;
	unsigned long s = (unsigned long)fn + CODE_START;
	int first, misread, next, add, ret, mode;
	const char *alone, *shared = "not registered";
	u8 orig[SITE_BYTES];
	unsigned int wrong = 0;
	struct optprobe p;
	struct kprobe kp;
	long i;
	bool back;

	memcpy(orig, (void *)s, SITE_BYTES);
	ret = kprobe_at(&kp, s + OP_TX86_BOUNDARY_ADD);
	alone = ret ? "refused" : kprobe_settle(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	ktap_check(t, !ret && strstr(alone, "optimized by"),
		   BOUNDARY_NAME "_kernel_optimizes_alone",
		   "register_kprobe at S + %d: %d, %s", OP_TX86_BOUNDARY_ADD, ret, alone);
	back = wait_text(s, orig, SETTLE_MS);

	reset_hits();
	test_probe_init(&p, NULL, s, op_count, NULL, OPTPROBE_F_NOOPT);
	ret = back ? optprobe_register(&p) : -EAGAIN;
	mode = ret ? -1 : optprobe_mode(&p);
	first = kprobe_at(&kp, s + 1);
	if (!first)
		unregister_kprobe(&kp);
	misread = kprobe_at(&kp, s + OP_TX86_BOUNDARY_MISREAD);
	if (!misread)
		unregister_kprobe(&kp);
	ktap_check(t, !ret && first == -EILSEQ && misread == -EILSEQ,
		   BOUNDARY_NAME "_inside_refused",
		   "optprobe_register %d; register_kprobe at S + 1: %d, at S + %d: %d (want %d)",
		   ret, first, OP_TX86_BOUNDARY_MISREAD, misread, -EILSEQ);
	next = kprobe_at(&kp, s + OP_TX86_BOUNDARY_NEXT);
	if (!next)
		unregister_kprobe(&kp);
	add = kprobe_at(&kp, s + OP_TX86_BOUNDARY_ADD);
	ktap_check(t, !ret && (mode == OPTPROBE_MODE_TRAP || mode == OPTPROBE_MODE_BOOSTED) &&
		   !next && !add, BOUNDARY_NAME "_boundaries_taken",
		   "optprobe %s; register_kprobe at S + %d: %d, at S + %d: %d",
		   test_mode_name(mode), OP_TX86_BOUNDARY_NEXT, next, OP_TX86_BOUNDARY_ADD, add);
	if (!add)
		shared = kprobe_settle(&kp);
	ktap_check(t, !add && !strstr(shared, "optimized by"),
		   BOUNDARY_NAME "_not_optimized_by_the_kernel",
		   "register_kprobe %d: %s", add, shared);
	show_text(BOUNDARY_NAME, "with both registered", s);
	for (i = 0; i < NR_CALLS; i++)
		wrong += fn(i, 0) != BOUNDARY_WANT(i);
	ktap_check(t, !wrong && !ret && !add && atomic_read(&op_hits) == NR_CALLS &&
		   atomic_read(&kp_hits) == NR_CALLS, BOUNDARY_NAME "_hits_exactly",
		   "%u wrong results; %d optprobe, %d kprobe hits of %d calls", wrong,
		   atomic_read(&op_hits), atomic_read(&kp_hits), NR_CALLS);
	if (!add)
		unregister_kprobe(&kp);
	if (!ret)
		optprobe_unregister(&p);
	back = wait_text(s, orig, SETTLE_MS);
	ktap_check(t, back && fn(1, 0) == BOUNDARY_WANT(1), BOUNDARY_NAME "_text_restored",
		   "not within 2 s: %*ph, was %*ph", SITE_BYTES, (void *)s, SITE_BYTES, orig);
}

#define HELD_JUMP_NAME	"second_kprobe_inside_held_jump"

/*
 * A kernel kprobe on S, where optprobe's jump is: the kprobe's int3
 * covers the jump's first byte and emulates the jump, whose displacement
 * stays in the text.  A second kernel kprobe at S + 1, an instruction
 * boundary of the original text inside the jump, must be refused
 * (-EILSEQ), or the kernel would write its int3 into the displacement.
 */
static void check_second_kprobe_in_held_jump(struct ktap *t)
{
	unsigned long addr = (unsigned long)targets[0] + CODE_START;
	int mode, kret, second = -ENOENT;
	struct kprobe kp, inside;
	u8 orig[SITE_BYTES];
	struct optprobe p;
	bool back;

	mode = optprobe_first(&p, addr, orig);
	kret = mode == OPTPROBE_MODE_OPTIMIZED ? kprobe_at(&kp, addr) : -EAGAIN;
	if (!kret) {
		kprobe_settle(&kp);
		second = kprobe_at(&inside, addr + SECOND_INSN);
		if (!second)
			unregister_kprobe(&inside);
	}
	show_text(HELD_JUMP_NAME, "with the kprobe on S", addr);
	if (!kret)
		unregister_kprobe(&kp);
	if (mode >= 0)
		optprobe_unregister(&p);
	back = wait_text(addr, orig, SETTLE_MS);
	ktap_check(t, mode == OPTPROBE_MODE_OPTIMIZED && !kret && second == -EILSEQ && back,
		   HELD_JUMP_NAME "_refused",
		   "mode %s, register_kprobe on S %d, at S + %d %d (want %d), text back %d",
		   test_mode_name(mode), kret, SECOND_INSN, second, -EILSEQ, back);
}
#else
#define FIRST_CHECKS	0
#define HELD_CHECKS	0
#define TAIL_CHECKS	0
#define BOUNDARY_CHECKS	0
#define HELD_JUMP_CHECKS	0
#endif

/* Each case's target; false if one is missing. */
static bool find_targets(void)
{
	unsigned int i;

	for (i = 0; i < NR_TARGETS; i++) {
#ifdef CONFIG_X86_64
		targets[i] = op_tx86_targets.coexist[i];
#else
		char symbol[64];

		snprintf(symbol, sizeof(symbol), "optprobe_target_ppc_coexist%u", i);
		targets[i] = (coexist_fn)test_entry_of(symbol);
#endif
		if (!targets[i])
			return false;
	}
	return true;
}

#define PLAN	(ARRAY_SIZE(cases) * CASE_CHECKS + FIRST_CHECKS + HELD_CHECKS + TAIL_CHECKS + \
		 BOUNDARY_CHECKS + HELD_JUMP_CHECKS)

static int __init test_coexist_init(void)
{
	unsigned int i;
	struct ktap t;

	ktap_start(&t, PLAN);
	if (!find_targets()) {
		for (i = 0; i < PLAN; i++)
			ktap_check(&t, false, "targets_found", "the target module is not loaded");
		return 0;
	}
	migrate_disable();
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_case(&t, &cases[i]);
#ifdef CONFIG_X86_64
	check_kprobe_first(&t);
	check_held_then_inside(&t);
	check_jump_tail(&t);
	check_boundary(&t);
	check_second_kprobe_in_held_jump(&t);
#endif
	migrate_enable();
	return 0;
}

static void __exit test_coexist_exit(void)
{
}

module_init(test_coexist_init);
module_exit(test_coexist_exit);

MODULE_DESCRIPTION("optprobe test: the kernel's kprobes on and inside optimized sites");
MODULE_LICENSE("GPL");
