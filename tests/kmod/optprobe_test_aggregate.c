// SPDX-License-Identifier: GPL-2.0
/*
 * Several probes on one address share its site: their handlers run in
 * registration order, and removing one leaves the others firing with
 * exact counts.  Checked at a function's entry (ftrace) and inside it
 * (breakpoint).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

static struct test_log log;

/* Call the target once; false if it computed a wrong result. */
static bool call_once(void)
{
	test_log_reset(&log);
	return optprobe_target_aggr(3) == 3 * 5 + 2;
}

static void check_aggregate(struct ktap *t, const char *where, unsigned long addr)
{
	struct test_log_probe a, b, c, d;
	char name[TEST_NAME_LEN];
	enum optprobe_mode mode;
	int ra, rb, rc, rd, i;
	bool ok, same = true;

	ra = test_log_register(&a, &log, 'A', addr, true, 0);
	rb = test_log_register(&b, &log, 'B', addr, true, 0);
	rc = test_log_register(&c, &log, 'C', addr, true, 0);
	/* read once the optimizer is done, or it may change the site between reads */
	optprobe_sync();
	mode = optprobe_mode(&a.p);
	ok = !ra && !rb && !rc && a.p.addr == b.p.addr && b.p.addr == c.p.addr &&
	     mode == optprobe_mode(&b.p) && mode == optprobe_mode(&c.p);
	ktap_check(t, ok, test_name(name, where, "three_probes_share_a_site"),
		   "register %d %d %d at %pS %pS %pS, modes %s %s %s", ra, rb, rc, a.p.addr,
		   b.p.addr, c.p.addr, test_mode_name(mode), test_mode_name(optprobe_mode(&b.p)),
		   test_mode_name(optprobe_mode(&c.p)));

	ok = call_once();
	ktap_check(t, ok && !strcmp(log.pre, "ABC"),
		   test_name(name, where, "pre_handlers_in_registration_order"), "ran %s",
		   log.pre);
	ktap_check(t, ok && !strcmp(log.post, "ABC"),
		   test_name(name, where, "post_handlers_in_registration_order"), "ran %s",
		   log.post);

	if (!rb)
		optprobe_unregister(&b.p);
	for (i = 0; i < 10; i++) {
		ok = call_once();
		same &= ok && !strcmp(log.pre, "AC") && !strcmp(log.post, "AC");
	}
	ktap_check(t, same && a.hits == 11 && b.hits == 1 && c.hits == 11,
		   test_name(name, where, "unregistering_middle_leaves_others_firing"),
		   "last call ran %s/%s; %u %u %u hits, want 11 1 11", log.pre, log.post, a.hits,
		   b.hits, c.hits);
	ktap_check(t, optprobe_mode(&a.p) == mode && optprobe_mode(&c.p) == mode,
		   test_name(name, where, "unregistering_middle_keeps_mode"),
		   "modes %s %s, were %s", test_mode_name(optprobe_mode(&a.p)),
		   test_mode_name(optprobe_mode(&c.p)), test_mode_name(mode));

	rb = test_log_register(&b, &log, 'B', addr, true, 0);
	ok = call_once();
	ktap_check(t, !rb && ok && !strcmp(log.pre, "ACB") && !strcmp(log.post, "ACB"),
		   test_name(name, where, "registered_again_runs_last"), "register %d, ran %s/%s",
		   rb, log.pre, log.post);

	rd = test_log_register(&d, &log, 'D', addr, false, 0);
	ok = call_once();
	ktap_check(t, !rd && ok && !strcmp(log.pre, "ACB") && !strcmp(log.post, "ACBD"),
		   test_name(name, where, "post_only_probe_joins"), "register %d, ran %s/%s", rd,
		   log.pre, log.post);

	if (!ra)
		optprobe_unregister(&a.p);
	if (!rb)
		optprobe_unregister(&b.p);
	if (!rc)
		optprobe_unregister(&c.p);
	if (!rd)
		optprobe_unregister(&d.p);
	ok = call_once();
	ktap_check(t, ok && !log.npre && !log.npost,
		   test_name(name, where, "all_unregistered_none_fires"), "ran %s/%s", log.pre,
		   log.post);
}

static int __init test_aggregate_init(void)
{
	unsigned long entry = test_entry_of("optprobe_target_aggr");
	struct ktap t;
	int err;

	ktap_start(&t, 2 * 8);
	check_aggregate(&t, "entry", entry);
	check_aggregate(&t, "inside", test_next_boundary(entry, &err));
	return 0;
}

static void __exit test_aggregate_exit(void)
{
}

module_init(test_aggregate_init);
module_exit(test_aggregate_exit);

MODULE_DESCRIPTION("optprobe test: several probes on one address");
MODULE_LICENSE("GPL");
