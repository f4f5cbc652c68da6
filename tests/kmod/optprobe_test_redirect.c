// SPDX-License-Identifier: GPL-2.0
/*
 * A pre handler that sets the instruction pointer and returns 1 resumes
 * execution there: at a function's entry, or on the first instruction
 * inside it (where the arguments and the return address are still the
 * call's), pointing it at a function with the same prototype overrides
 * the function (error injection).  The probed instruction, the post
 * handlers and the later probes on the address are skipped for that hit;
 * earlier probes ran.  A post handler cannot redirect: what it does to the
 * instruction pointer is ignored, in every mode.
 *
 * A pre handler may also return from the function at once: instruction
 * pointer to the return address, the return value set and, on x86_64,
 * the stack pointer moved up past the return address, as the caller sees
 * it after the return.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

#define NR_CALLS	100
#define ARG_A		6
#define ARG_B		9

static struct {
	unsigned int runs, wrong_args;
} replacement;

static unsigned int redirect_posts;

static noinline __noipa int redirect_replacement(int a, int b)
{
	replacement.runs++;
	replacement.wrong_args += a != ARG_A || b != ARG_B;
	return a * b + 7;
}

static int redirect_pre(struct optprobe *p, struct pt_regs *regs)
{
	return test_redirect(regs, (unsigned long)redirect_replacement);
}

static void redirect_post(struct optprobe *p, struct pt_regs *regs)
{
	redirect_posts++;
}

static unsigned int post_ip_posts;

static void post_sets_ip(struct optprobe *p, struct pt_regs *regs)
{
	post_ip_posts++;
	instruction_pointer_set(regs, (unsigned long)redirect_replacement);
}

/* What NR_CALLS calls of the target did with probe @p registered. */
struct probed_calls {
	int ret;			/* optprobe_register()'s */
	enum optprobe_mode mode;
	unsigned int wrong;		/* results other than the expected one */
	unsigned int runs;		/* runs of the target's own body */
};

/* Register @p, call the target NR_CALLS times expecting @expect, unregister. */
static void run_probed(struct optprobe *p, int expect, struct probed_calls *r)
{
	unsigned int i;

	r->wrong = 0;
	r->ret = optprobe_register(p);
	optprobe_sync();
	r->mode = optprobe_mode(p);
	r->runs = READ_ONCE(optprobe_target_redirect_runs);
	for (i = 0; i < NR_CALLS && !r->ret; i++)
		r->wrong += optprobe_target_redirect(ARG_A, ARG_B) != expect;
	r->runs = READ_ONCE(optprobe_target_redirect_runs) - r->runs;
	if (!r->ret)
		optprobe_unregister(p);
}

/* A post handler's new instruction pointer is ignored: the function runs on. */
static void check_post_ip(struct ktap *t, const struct test_where *c, unsigned long addr)
{
	char name[TEST_NAME_LEN];
	struct probed_calls r;
	struct optprobe post;

	memset(&replacement, 0, sizeof(replacement));
	post_ip_posts = 0;
	test_probe_init(&post, NULL, addr, NULL, post_sets_ip, c->flags);
	run_probed(&post, ARG_A + ARG_B, &r);
	ktap_check(t, !r.ret && !r.wrong && r.runs == NR_CALLS && post_ip_posts == NR_CALLS &&
		   !replacement.runs, test_name(name, c->name, "post_handler_ip_change_ignored"),
		   "register %d, mode %s: %u wrong results, body ran %u, post %u, replacement %u, for %u calls",
		   r.ret, test_mode_name(r.mode), r.wrong, r.runs, post_ip_posts, replacement.runs,
		   NR_CALLS);
}

#define RETURN_NOW	77

static int return_now_pre(struct optprobe *p, struct pt_regs *regs)
{
#ifdef CONFIG_X86_64
	regs->ip = test_return_address(regs);
	regs->sp += sizeof(unsigned long);
	regs->ax = RETURN_NOW;
#else
	regs->nip = regs->link;
	regs->gpr[3] = RETURN_NOW;
#endif
	return 1;
}

/* A pre handler that returns from the function: the caller gets its value. */
static void check_return_now(struct ktap *t, const struct test_where *c, unsigned long addr)
{
	char name[TEST_NAME_LEN];
	struct probed_calls r;
	struct optprobe p;

	test_probe_init(&p, NULL, addr, return_now_pre, NULL, c->flags);
	run_probed(&p, RETURN_NOW, &r);
	ktap_check(t, !r.ret && test_mode_fits(c, r.mode) && !r.wrong && !r.runs,
		   test_name(name, c->name, "pre_handler_returns_from_function"),
		   "register %d, mode %s: %u of %u results wrong, body ran %u times",
		   r.ret, test_mode_name(r.mode), r.wrong, NR_CALLS, r.runs);
}

#define CASE_CHECKS	9

static void check_case(struct ktap *t, const struct test_where *c, unsigned long addr)
{
	struct test_log_probe before, after;
	struct optprobe redirect;
	unsigned int i, wrong = 0, runs;
	char name[TEST_NAME_LEN];
	static struct test_log log;
	enum optprobe_mode mode;
	int rb, rr, ra;

	memset(&replacement, 0, sizeof(replacement));
	redirect_posts = 0;
	rb = test_log_register(&before, &log, 'B', addr, true, c->flags);
	test_probe_init(&redirect, NULL, addr, redirect_pre, redirect_post, c->flags);
	rr = optprobe_register(&redirect);
	ra = test_log_register(&after, &log, 'A', addr, true, c->flags);
	optprobe_sync();
	mode = optprobe_mode(&redirect);
	ktap_check(t, !rb && !rr && !ra && test_mode_fits(c, mode),
		   test_name(name, c->name, "registers"),
		   "register %d %d %d, mode %s", rb, rr, ra, test_mode_name(mode));

	runs = READ_ONCE(optprobe_target_redirect_runs);
	for (i = 0; i < NR_CALLS; i++) {
		test_log_reset(&log);
		wrong += optprobe_target_redirect(ARG_A, ARG_B) != ARG_A * ARG_B + 7;
	}
	runs = READ_ONCE(optprobe_target_redirect_runs) - runs;
	ktap_check(t, !wrong, test_name(name, c->name, "call_returns_replacement_result"),
		   "%u of %u results wrong", wrong, NR_CALLS);
	ktap_check(t, replacement.runs == NR_CALLS && !replacement.wrong_args,
		   test_name(name, c->name, "replacement_gets_the_arguments"),
		   "replacement ran %u times for %u calls, %u times with wrong arguments",
		   replacement.runs, NR_CALLS, replacement.wrong_args);
	ktap_check(t, runs == 0, test_name(name, c->name, "original_body_skipped"),
		   "the original body ran %u times", runs);
	ktap_check(t, redirect_posts == 0 && log.npost == 0,
		   test_name(name, c->name, "no_post_handler_after_redirect"),
		   "post handlers ran %u (own) and %u (others) times", redirect_posts, log.npost);
	ktap_check(t, before.hits == NR_CALLS && after.hits == 0 && !strcmp(log.pre, "B"),
		   test_name(name, c->name, "earlier_probe_runs_later_probe_skipped"),
		   "earlier probe %u hits, later %u, for %u calls; last ran %s", before.hits,
		   after.hits, NR_CALLS, log.pre);

	if (!rb)
		optprobe_unregister(&before.p);
	if (!rr)
		optprobe_unregister(&redirect);
	if (!ra)
		optprobe_unregister(&after.p);
	runs = READ_ONCE(optprobe_target_redirect_runs);
	wrong = optprobe_target_redirect(ARG_A, ARG_B) != ARG_A + ARG_B;
	runs = READ_ONCE(optprobe_target_redirect_runs) - runs;
	ktap_check(t, !wrong && runs == 1, test_name(name, c->name, "unregistered_runs_original"),
		   "result %s, original body ran %u times", wrong ? "wrong" : "right", runs);
}

static int __init test_redirect_init(void)
{
	unsigned long entry = test_entry_of("optprobe_target_redirect"), first;
	struct ktap t;
	unsigned int i;
	int err;

	ktap_start(&t, ARRAY_SIZE(test_wheres) * CASE_CHECKS);
	first = test_next_boundary(entry, &err);
	for (i = 0; i < ARRAY_SIZE(test_wheres); i++) {
		unsigned long addr = test_wheres[i].inside ? first : entry;

		check_case(&t, &test_wheres[i], addr);
		check_post_ip(&t, &test_wheres[i], addr);
		check_return_now(&t, &test_wheres[i], addr);
	}
	return 0;
}

static void __exit test_redirect_exit(void)
{
}

module_init(test_redirect_init);
module_exit(test_redirect_exit);

MODULE_DESCRIPTION("optprobe test: handlers that redirect execution");
MODULE_LICENSE("GPL");
