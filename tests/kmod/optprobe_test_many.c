// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe_register_many() registers 64 probes (on 16 addresses: the entry
 * of 8 functions and the first instruction inside each, 4 probes on each
 * address) or none: whichever probe is bad, and wherever it is in the
 * array, it fails with that probe's errno and leaves none registered.
 * optprobe_unregister_many() takes them all off.  Ported from
 * lib/test_kprobes.c (test_kprobes), at scale.  Hit counters handed out
 * again start from zero.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>

#include "exports.h"
#include "optprobe_target.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define NR_FUNCS	OPTPROBE_TARGET_NR_MANY
#define PER_FUNC	8	/* 4 at the entry, then 4 inside */
#define NR_PROBES	(NR_FUNCS * PER_FUNC)

static const char * const names[NR_FUNCS] = {
	"optprobe_target_many0", "optprobe_target_many1", "optprobe_target_many2",
	"optprobe_target_many3", "optprobe_target_many4", "optprobe_target_many5",
	"optprobe_target_many6", "optprobe_target_many7",
};

static int (* const funcs[NR_FUNCS])(int) = {
	optprobe_target_many0, optprobe_target_many1, optprobe_target_many2,
	optprobe_target_many3, optprobe_target_many4, optprobe_target_many5,
	optprobe_target_many6, optprobe_target_many7,
};

static struct test_log_probe probes[NR_PROBES];
static struct optprobe *ps[NR_PROBES];
static unsigned long entries[NR_FUNCS], insides[NR_FUNCS];
static struct test_log logs[NR_FUNCS];

/* Probe @i: on its function's entry by symbol, or inside it by address. */
static void init_probes(void)
{
	unsigned int i, f, j;

	for (i = 0; i < NR_PROBES; i++) {
		f = i / PER_FUNC;
		j = i % PER_FUNC;
		test_probe_init(&probes[i].p, j < PER_FUNC / 2 ? names[f] : NULL,
				j < PER_FUNC / 2 ? 0 : insides[f], test_log_pre, test_log_post, 0);
		probes[i].log = &logs[f];
		probes[i].id = 'a' + j;
		probes[i].hits = 0;
		ps[i] = &probes[i].p;
	}
}

/*
 * Call each function once.  Returns the number of functions whose handlers
 * ran as @want says: "abcdefgh" (all, in array order) or "" (none).
 */
static unsigned int call_all(const char *want)
{
	unsigned int f, right = 0;

	for (f = 0; f < NR_FUNCS; f++) {
		test_log_reset(&logs[f]);
		if (funcs[f](f) != (int)(f * (37 + f) + f))
			continue;
		right += !strcmp(logs[f].pre, want) && !strcmp(logs[f].post, want);
	}
	return right;
}

/* How many of the probes are registered, as optprobe_mode() tells. */
static unsigned int nr_registered(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < NR_PROBES; i++)
		n += optprobe_mode(ps[i]) != OPTPROBE_MODE_DISABLED;
	return n;
}

static void check_boundaries(struct ktap *t)
{
	unsigned int f, found = 0;
	int err = 0;

	for (f = 0; f < NR_FUNCS; f++) {
		entries[f] = test_entry_of(names[f]);
		insides[f] = test_next_boundary(entries[f], &err);
		found += !!insides[f];
	}
	ktap_check(t, found == NR_FUNCS, "inside_boundaries_found", "%u of %u, error %d", found,
		   NR_FUNCS, err);
}

static void check_good(struct ktap *t, const char *where)
{
	char name[TEST_NAME_LEN];
	unsigned int right, n;
	int ret;

	init_probes();
	ret = optprobe_register_many(ps, NR_PROBES);
	n = nr_registered();
	ktap_check(t, !ret && n == NR_PROBES, test_name(name, where, "register_many_64"),
		   "returned %d, %u registered", ret, n);
	right = call_all("abcdefgh");
	ktap_check(t, right == NR_FUNCS,
		   test_name(name, where, "all_64_fire_in_array_order"),
		   "%u of %u functions ran their handlers in order; first ran %s/%s", right,
		   NR_FUNCS, logs[0].pre, logs[0].post);
	if (!ret)
		optprobe_unregister_many(ps, NR_PROBES);
	right = call_all("");
	n = nr_registered();
	ktap_check(t, right == NR_FUNCS && !n,
		   test_name(name, where, "unregister_many_stops_all"),
		   "%u of %u functions ran no handler, %u still registered", right, NR_FUNCS, n);
}

/* The set with probe @bad spoiled by @spoil fails with @want, leaving none. */
static void check_bad(struct ktap *t, const char *name, unsigned int bad,
		      void (*spoil)(unsigned int i), int want)
{
	unsigned int right, n;
	int ret;

	init_probes();
	spoil(bad);
	ret = optprobe_register_many(ps, NR_PROBES);
	n = nr_registered();
	right = call_all("");
	ktap_check(t, ret == want && !n && right == NR_FUNCS, name,
		   "returned %d (want %d), %u registered, %u of %u functions ran no handler",
		   ret, want, n, right, NR_FUNCS);
	if (!ret)
		optprobe_unregister_many(ps, NR_PROBES);
}

static void spoil_handlers(unsigned int i)
{
	probes[i].p.pre_handler = NULL;
	probes[i].p.post_handler = NULL;
}

static void spoil_boundary(unsigned int i)
{
	probes[i].p.symbol = NULL;
	probes[i].p.addr = (void *)(entries[i / PER_FUNC] + 1);
}

static void spoil_symbol(unsigned int i)
{
	probes[i].p.symbol = "optprobe_test_no_such_function";
	probes[i].p.addr = NULL;
}

/*
 * NOKPROBE_SYMBOL() in kernel/notifier.c, on both arches: after probes
 * in other functions, whose answers optprobe keeps for the batch
 * (validate.c)
 */
static void spoil_blacklisted(unsigned int i)
{
	probes[i].p.symbol = "atomic_notifier_call_chain";
	probes[i].p.addr = NULL;
}

static void spoil_duplicate(unsigned int i)
{
	ps[i] = ps[i - 30];
}

/*
 * Every other probe unregistered and registered again: the counters they
 * get back are ones just freed, in chunks that stay (core/counters.c),
 * and must count from zero.
 */
static void check_counters_again(struct ktap *t)
{
	static struct optprobe *odd[NR_PROBES / 2];
	unsigned int i, exact = 0;
	int ret, again = -1;

	init_probes();
	for (i = 0; i < NR_PROBES / 2; i++)
		odd[i] = ps[2 * i + 1];
	ret = optprobe_register_many(ps, NR_PROBES);
	call_all("abcdefgh");
	if (!ret) {
		/* each given back its address as it was: registered again as is */
		optprobe_unregister_many(odd, NR_PROBES / 2);
		again = optprobe_register_many(odd, NR_PROBES / 2);
		/* the order of handlers changed: only the counts matter here */
		call_all("");
		for (i = 0; i < NR_PROBES; i++)
			exact += op_probe_hits(ps[i]) == (i % 2 ? 1 : 2);
		if (!again)
			optprobe_unregister_many(ps, NR_PROBES);
		else
			for (i = 0; i < NR_PROBES; i += 2)
				optprobe_unregister(ps[i]);
	}
	ktap_check(t, !ret && !again && exact == NR_PROBES, "counters_again_count_from_zero",
		   "register %d, again %d, %u of %u probes counted exactly", ret, again, exact,
		   NR_PROBES);
}

/* A member registered before the call is refused, and stays registered. */
static void check_already_registered(struct ktap *t)
{
	struct test_log_probe *kept = &probes[20];
	unsigned int f = 20 / PER_FUNC, right, n;
	int ret1, ret;
	bool alone;

	init_probes();
	ret1 = optprobe_register(&kept->p);
	ret = optprobe_register_many(ps, NR_PROBES);
	n = nr_registered();
	test_log_reset(&logs[f]);
	funcs[f](1);
	alone = kept->hits == 1 && !strcmp(logs[f].pre, "e") && !strcmp(logs[f].post, "e");
	if (!ret1)
		optprobe_unregister(&kept->p);
	right = call_all("");
	ktap_check(t, !ret1 && ret == -EEXIST && alone && n == 1 && right == NR_FUNCS,
		   "already_registered_member_is_eexist_and_kept",
		   "register %d, register_many %d; %u registered; kept probe: %u hits, ran %s/%s",
		   ret1, ret, n, kept->hits, logs[f].pre, logs[f].post);
}

/* A kernel kprobe over a batch's site, with a post handler: never optimized. */
static unsigned long kp_hits;

static int kp_pre(struct kprobe *kp, struct pt_regs *regs)
{
	kp_hits++;
	return 0;
}

static void kp_post(struct kprobe *kp, struct pt_regs *regs, unsigned long flags)
{
}

static struct kprobe arriving_kp = {
	.pre_handler = kp_pre,
	.post_handler = kp_post,
};

static int arriving_ret = -EINVAL;

/* op_set_arm_hook()'s: called once, by the next register batch */
static void kprobe_arrives(void)
{
	arriving_ret = register_kprobe(&arriving_kp);
}

/*
 * A kernel kprobe arrives over one of a batch's sites after the site was
 * checked, before the batch's breakpoints are written (op_set_arm_hook():
 * the kprobe comes from another task at any time in production): the
 * batch fails with -EBUSY, the first probe on that address is named, none
 * is left registered, and the kernel's kprobe alone fires there.  Inside
 * the function: an ftrace site at the entry is armed at once, and refuses
 * the kprobe.  Every probe with OPTPROBE_F_NOOPT: a breakpoint to write
 * on both arches (on ppc64le, a module-text site's jump is written
 * straight away instead).
 */
static void check_kprobe_before_arm(struct ktap *t)
{
	unsigned int bad = 5 * PER_FUNC + PER_FUNC / 2, failed = NR_PROBES, right, n, i;
	unsigned long hits;
	int ret;

	init_probes();
	for (i = 0; i < NR_PROBES; i++)
		probes[i].p.flags |= OPTPROBE_F_NOOPT;
	arriving_kp.addr = (kprobe_opcode_t *)insides[bad / PER_FUNC];
	kp_hits = 0;
	op_set_arm_hook(kprobe_arrives);
	ret = optprobe_register_batch(ps, NR_PROBES, &failed);
	op_set_arm_hook(NULL);
	n = nr_registered();
	right = call_all("");
	hits = kp_hits;
	if (!arriving_ret)
		unregister_kprobe(&arriving_kp);
	ktap_check(t, !arriving_ret && ret == -EBUSY && failed == bad && !n && right == NR_FUNCS &&
		   hits == 1, "kprobe_before_arm_is_ebusy_none_registered",
		   "kprobe %d; returned %d, failed %u (want %u), %u registered, %u of %u functions ran no handler, kprobe hits %lu",
		   arriving_ret, ret, failed, bad, n, right, NR_FUNCS, hits);
	if (!ret)
		optprobe_unregister_many(ps, NR_PROBES);
}

static int __init test_many_init(void)
{
	struct ktap t;

	ktap_start(&t, 15);
	check_boundaries(&t);
	check_good(&t, "first");
	check_bad(&t, "bad_first_is_einval_none_registered", 0, spoil_handlers, -EINVAL);
	check_bad(&t, "bad_middle_is_eilseq_none_registered", 37, spoil_boundary, -EILSEQ);
	check_bad(&t, "bad_last_is_enoent_none_registered", NR_PROBES - 1, spoil_symbol, -ENOENT);
	check_bad(&t, "blacklisted_after_others_is_einval_none_registered", 45,
		  spoil_blacklisted, -EINVAL);
	check_bad(&t, "duplicate_is_eexist_none_registered", 40, spoil_duplicate, -EEXIST);
	check_already_registered(&t);
	check_kprobe_before_arm(&t);
	check_counters_again(&t);
	/* after all that, the good set registers and fires as before */
	check_good(&t, "again");
	return 0;
}

static void __exit test_many_exit(void)
{
}

module_init(test_many_init);
module_exit(test_many_exit);

MODULE_DESCRIPTION("optprobe test: registering many probes at once");
MODULE_LICENSE("GPL");
