// SPDX-License-Identifier: GPL-2.0
/*
 * Every call is one hit: over 10,000 calls a probe's pre and post handlers
 * each run exactly 10,000 times, with no miss; an unregistered probe runs
 * no more, and the same struct can be registered again (as
 * lib/test_kprobes.c reuses its kprobes).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

#define NR_CALLS	10000

static atomic_t pre_hits, post_hits;

static int count_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&pre_hits);
	return 0;
}

static void count_post(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&post_hits);
}

/* Call the target @n times; returns the number of wrong results. */
static unsigned int call_target(int n)
{
	unsigned int wrong = 0;
	int i;

	atomic_set(&pre_hits, 0);
	atomic_set(&post_hits, 0);
	for (i = 0; i < n; i++)
		wrong += optprobe_target_count(i) != i * 3 + 1;
	return wrong;
}

static void check_hits(struct ktap *t, const char *where, unsigned long addr, unsigned int flags)
{
	unsigned int wrong, pre, post;
	struct optprobe p;
	char name[TEST_NAME_LEN];
	int ret;

	test_probe_init(&p, NULL, addr, count_pre, count_post, flags);
	ret = optprobe_register(&p);
	optprobe_sync();
	wrong = call_target(NR_CALLS);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	ktap_check(t, !ret && pre == NR_CALLS && post == NR_CALLS,
		   test_name(name, where, "hits_equal_calls"),
		   "register %d, mode %s: %u pre and %u post hits for %u calls", ret,
		   test_mode_name(optprobe_mode(&p)), pre, post, NR_CALLS);
	ktap_check(t, !ret && READ_ONCE(p.nmissed) == 0, test_name(name, where, "no_miss"),
		   "nmissed %lu", p.nmissed);
	ktap_check(t, wrong == 0, test_name(name, where, "results_unchanged"),
		   "%u wrong results", wrong);

	if (!ret)
		optprobe_unregister(&p);
	wrong = call_target(10);
	ktap_check(t, wrong == 0 && !atomic_read(&pre_hits) && !atomic_read(&post_hits),
		   test_name(name, where, "unregistered_does_not_fire"),
		   "%d pre and %d post hits, %u wrong results", atomic_read(&pre_hits),
		   atomic_read(&post_hits), wrong);

	/* unregistered, the struct registers again as it is */
	ret = optprobe_register(&p);
	call_target(10);
	if (!ret)
		optprobe_unregister(&p);
	ktap_check(t, !ret && atomic_read(&pre_hits) == 10 && atomic_read(&post_hits) == 10,
		   test_name(name, where, "registers_again"),
		   "register %d: %d pre and %d post hits for 10 calls", ret,
		   atomic_read(&pre_hits), atomic_read(&post_hits));
}

static int __init test_hits_init(void)
{
	unsigned long entry = test_entry_of("optprobe_target_count"), first;
	const struct test_where *w;
	struct ktap t;
	int err;

	ktap_start(&t, ARRAY_SIZE(test_wheres) * 5);
	first = test_next_boundary(entry, &err);
	for (w = test_wheres; w < test_wheres + ARRAY_SIZE(test_wheres); w++) {
		if (w->inside)
			check_hits(&t, w->name, first, w->flags);
		else
			check_hits(&t, w->name, entry, w->flags);
	}
	return 0;
}

static void __exit test_hits_exit(void)
{
}

module_init(test_hits_init);
module_exit(test_hits_exit);

MODULE_DESCRIPTION("optprobe test: hit counts");
MODULE_LICENSE("GPL");
