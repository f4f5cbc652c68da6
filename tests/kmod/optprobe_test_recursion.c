// SPDX-License-Identifier: GPL-2.0
/*
 * A probe hit while an optprobe handler runs on the CPU skips its
 * handlers and counts a miss: the outer probe's handler calls a function
 * with a probe of its own (the inner probe), whose nmissed then grows by
 * exactly the outer hits while its handler never runs there; called
 * directly, the inner probe fires.  Also a probe whose handler calls the
 * function it probes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

#define NR_OUTER	10
#define NR_DIRECT	3

static struct {
	bool from_post;		/* the outer post handler calls, else the pre */
	unsigned int outer_hits, inner_hits, wrong;
} rec;

static void call_inner(void)
{
	rec.wrong += optprobe_target_inner(4) != 4 * 13 + 5;
}

static int outer_pre(struct optprobe *p, struct pt_regs *regs)
{
	rec.outer_hits++;
	if (!rec.from_post)
		call_inner();
	return 0;
}

static void outer_post(struct optprobe *p, struct pt_regs *regs)
{
	if (rec.from_post)
		call_inner();
}

static int inner_pre(struct optprobe *p, struct pt_regs *regs)
{
	rec.inner_hits++;
	return 0;
}

struct nest {
	const char *where;
	bool outer_inside, inner_inside, from_post;
};

static const struct nest nests[] = {
	{ "entry_pre", false, false, false },
	{ "inside_pre", true, true, false },
	{ "entry_in_inside_pre", true, false, false },
	{ "inside_in_entry_pre", false, true, false },
	{ "entry_post", false, false, true },
	{ "inside_post", true, true, true },
};

#define NEST_CHECKS	5

static unsigned long outer_entry, outer_inside, inner_entry, inner_inside;

static void check_nest(struct ktap *t, const struct nest *n)
{
	struct optprobe outer, inner;
	char name[TEST_NAME_LEN];
	unsigned long missed;
	int ro, ri, i;

	memset(&rec, 0, sizeof(rec));
	rec.from_post = n->from_post;
	test_probe_init(&outer, NULL, n->outer_inside ? outer_inside : outer_entry, outer_pre,
			outer_post, OPTPROBE_F_NOOPT);
	test_probe_init(&inner, NULL, n->inner_inside ? inner_inside : inner_entry, inner_pre,
			NULL, OPTPROBE_F_NOOPT);
	ro = optprobe_register(&outer);
	ri = optprobe_register(&inner);
	for (i = 0; i < NR_OUTER; i++)
		rec.wrong += optprobe_target_outer(i) != i * 11 + 4;
	missed = READ_ONCE(inner.nmissed);

	ktap_check(t, !ro && !ri && rec.outer_hits == NR_OUTER && !rec.wrong,
		   test_name(name, n->where, "outer_fires"),
		   "register %d %d; %u outer hits for %u calls, %u wrong results", ro, ri,
		   rec.outer_hits, NR_OUTER, rec.wrong);
	ktap_check(t, missed == NR_OUTER, test_name(name, n->where, "inner_misses_each_outer_hit"),
		   "inner nmissed %lu, want %u", missed, NR_OUTER);
	ktap_check(t, rec.inner_hits == 0, test_name(name, n->where, "inner_skipped_in_handler"),
		   "inner handler ran %u times", rec.inner_hits);

	for (i = 0; i < NR_DIRECT; i++)
		call_inner();
	ktap_check(t, rec.inner_hits == NR_DIRECT && inner.nmissed == missed && !rec.wrong,
		   test_name(name, n->where, "inner_fires_outside_handler"),
		   "%u inner hits for %u direct calls, nmissed %lu, %u wrong results",
		   rec.inner_hits, NR_DIRECT, inner.nmissed, rec.wrong);
	ktap_check(t, outer.nmissed == 0, test_name(name, n->where, "outer_does_not_miss"),
		   "outer nmissed %lu", outer.nmissed);
	if (!ri)
		optprobe_unregister(&inner);
	if (!ro)
		optprobe_unregister(&outer);
}

static unsigned int self_hits, self_wrong;

static int self_pre(struct optprobe *p, struct pt_regs *regs)
{
	self_hits++;
	self_wrong += optprobe_target_self(2) != 2 * 17 + 6;
	return 0;
}

/* A probe whose handler calls the function it probes misses that hit. */
static void check_self(struct ktap *t, const char *where, unsigned long addr)
{
	char name[TEST_NAME_LEN];
	struct optprobe p;
	int ret, i;

	self_hits = 0;
	self_wrong = 0;
	test_probe_init(&p, NULL, addr, self_pre, NULL, OPTPROBE_F_NOOPT);
	ret = optprobe_register(&p);
	for (i = 0; i < NR_OUTER; i++)
		self_wrong += optprobe_target_self(i) != i * 17 + 6;
	if (!ret)
		optprobe_unregister(&p);
	ktap_check(t, !ret && self_hits == NR_OUTER && !self_wrong,
		   test_name(name, where, "self_call_fires_once_per_call"),
		   "register %d; %u hits for %u calls, %u wrong results", ret, self_hits,
		   NR_OUTER, self_wrong);
	ktap_check(t, p.nmissed == NR_OUTER, test_name(name, where, "self_call_misses"),
		   "nmissed %lu, want %u", p.nmissed, NR_OUTER);
}

static int __init test_recursion_init(void)
{
	unsigned long self_entry;
	struct ktap t;
	unsigned int i;
	int err;

	ktap_start(&t, ARRAY_SIZE(nests) * NEST_CHECKS + 2 * 2);
	outer_entry = test_entry_of("optprobe_target_outer");
	outer_inside = test_next_boundary(outer_entry, &err);
	inner_entry = test_entry_of("optprobe_target_inner");
	inner_inside = test_next_boundary(inner_entry, &err);
	for (i = 0; i < ARRAY_SIZE(nests); i++)
		check_nest(&t, &nests[i]);
	self_entry = test_entry_of("optprobe_target_self");
	check_self(&t, "entry", self_entry);
	check_self(&t, "inside", test_next_boundary(self_entry, &err));
	return 0;
}

static void __exit test_recursion_exit(void)
{
}

module_init(test_recursion_init);
module_exit(test_recursion_exit);

MODULE_DESCRIPTION("optprobe test: probes hit from handlers");
MODULE_LICENSE("GPL");
