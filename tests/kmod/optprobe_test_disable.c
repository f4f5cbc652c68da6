// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe_disable() stops a probe's handlers and optprobe_enable()
 * resumes them, with the mode following; a disabled probe keeps its place
 * among the probes on its address; OPTPROBE_F_DISABLED registers a probe
 * disarmed; optprobe_disable_many() disables the probes it is given.
 * Checked at a function's entry (ftrace) and inside it (breakpoint).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

static struct test_log log;

/* Call the target @n times; false if it computed a wrong result. */
static bool call_target(int n)
{
	bool ok = true;
	int i;

	test_log_reset(&log);
	for (i = 0; i < n; i++)
		ok &= optprobe_target_toggle(i) == i * 7 + 3;
	return ok;
}

/* One probe alone: disable, enable. */
static void check_alone(struct ktap *t, const char *where, unsigned long addr)
{
	char name[TEST_NAME_LEN];
	enum optprobe_mode mode;
	struct test_log_probe a;
	int ret, dis, en;
	bool ok;

	ret = test_log_register(&a, &log, 'A', addr, true, 0);
	/* the mode the optimizer settles on, which enabling must come back to */
	optprobe_sync();
	mode = optprobe_mode(&a.p);
	dis = optprobe_disable(&a.p);
	ktap_check(t, !ret && !dis && optprobe_mode(&a.p) == OPTPROBE_MODE_DISABLED,
		   test_name(name, where, "disabled_mode_is_disabled"),
		   "register %d, disable %d, mode %s", ret, dis,
		   test_mode_name(optprobe_mode(&a.p)));
	ok = call_target(5);
	ktap_check(t, ok && a.hits == 0 && !log.npost,
		   test_name(name, where, "disabled_does_not_fire"), "%u hits, results %s",
		   a.hits, ok ? "right" : "wrong");
	en = optprobe_enable(&a.p);
	optprobe_sync();
	ktap_check(t, !en && optprobe_mode(&a.p) == mode,
		   test_name(name, where, "enabled_mode_is_restored"), "enable %d, mode %s, was %s",
		   en, test_mode_name(optprobe_mode(&a.p)), test_mode_name(mode));
	ok = call_target(5);
	ktap_check(t, ok && a.hits == 5 && log.npost == 5,
		   test_name(name, where, "enabled_fires"), "%u hits, %u post, results %s",
		   a.hits, log.npost, ok ? "right" : "wrong");
	if (!ret)
		optprobe_unregister(&a.p);
}

/* Three probes, then a fourth registered disabled. */
static void check_aggregate(struct ktap *t, const char *where, unsigned long addr)
{
	enum optprobe_mode mode, ma, mb, mc;
	struct test_log_probe a, b, c, d;
	char name[TEST_NAME_LEN];
	int ra, rb, rc, rd, ret;
	bool ok;

	ra = test_log_register(&a, &log, 'A', addr, true, 0);
	rb = test_log_register(&b, &log, 'B', addr, true, 0);
	rc = test_log_register(&c, &log, 'C', addr, true, 0);
	optprobe_sync();
	mode = optprobe_mode(&a.p);

	ret = optprobe_disable(&b.p);
	ok = call_target(1);
	ma = optprobe_mode(&a.p);
	mb = optprobe_mode(&b.p);
	mc = optprobe_mode(&c.p);
	ktap_check(t, !ra && !rb && !rc && !ret && ok && !strcmp(log.pre, "AC") &&
		   !strcmp(log.post, "AC") && ma == mode && mb == OPTPROBE_MODE_DISABLED &&
		   mc == mode, test_name(name, where, "disabled_middle_others_fire"),
		   "register %d %d %d, disable %d; ran %s/%s; modes %s %s %s", ra, rb, rc, ret,
		   log.pre, log.post, test_mode_name(ma), test_mode_name(mb), test_mode_name(mc));

	ret = optprobe_enable(&b.p);
	optprobe_sync();
	ok = call_target(1);
	ktap_check(t, !ret && ok && !strcmp(log.pre, "ABC") && !strcmp(log.post, "ABC") &&
		   optprobe_mode(&b.p) == mode, test_name(name, where, "enabled_keeps_its_place"),
		   "enable %d; ran %s/%s; mode %s", ret, log.pre, log.post,
		   test_mode_name(optprobe_mode(&b.p)));

	ret = optprobe_disable(&a.p) ?: optprobe_disable(&b.p) ?: optprobe_disable(&c.p);
	ok = call_target(3);
	ma = optprobe_mode(&a.p);
	mb = optprobe_mode(&b.p);
	mc = optprobe_mode(&c.p);
	ktap_check(t, !ret && ok && !log.npre && !log.npost && ma == OPTPROBE_MODE_DISABLED &&
		   mb == OPTPROBE_MODE_DISABLED && mc == OPTPROBE_MODE_DISABLED,
		   test_name(name, where, "all_disabled_none_fires"),
		   "disable %d; ran %s/%s; modes %s %s %s", ret, log.pre, log.post,
		   test_mode_name(ma), test_mode_name(mb), test_mode_name(mc));

	ret = optprobe_enable(&c.p) ?: optprobe_enable(&a.p) ?: optprobe_enable(&b.p);
	ok = call_target(1);
	ktap_check(t, !ret && ok && !strcmp(log.pre, "ABC") && !strcmp(log.post, "ABC"),
		   test_name(name, where, "all_enabled_in_registration_order"),
		   "enable %d; ran %s/%s", ret, log.pre, log.post);

	rd = test_log_register(&d, &log, 'D', addr, true, OPTPROBE_F_DISABLED);
	ok = call_target(1);
	ktap_check(t, !rd && ok && !strcmp(log.pre, "ABC") &&
		   optprobe_mode(&d.p) == OPTPROBE_MODE_DISABLED,
		   test_name(name, where, "flag_disabled_joins_disarmed"),
		   "register %d; ran %s; mode %s", rd, log.pre,
		   test_mode_name(optprobe_mode(&d.p)));
	ret = optprobe_enable(&d.p);
	optprobe_sync();
	ok = call_target(1);
	ktap_check(t, !ret && ok && !strcmp(log.pre, "ABCD") && optprobe_mode(&d.p) == mode,
		   test_name(name, where, "flag_disabled_enabled_fires"),
		   "enable %d; ran %s; mode %s", ret, log.pre, test_mode_name(optprobe_mode(&d.p)));

	ret = optprobe_disable(&a.p);
	if (!ra)
		optprobe_unregister(&a.p);
	ok = call_target(1);
	ktap_check(t, !ret && ok && !strcmp(log.pre, "BCD") && optprobe_enable(&a.p) == -EINVAL,
		   test_name(name, where, "disabled_probe_unregisters"),
		   "disable %d; ran %s", ret, log.pre);

	if (!rb)
		optprobe_unregister(&b.p);
	if (!rc)
		optprobe_unregister(&c.p);
	if (!rd)
		optprobe_unregister(&d.p);
}

/* A probe registered disabled, alone on its address: no site armed until enabled. */
static void check_flag_alone(struct ktap *t, const char *where, unsigned long addr)
{
	char name[TEST_NAME_LEN];
	struct test_log_probe a;
	int ret, en;
	bool ok1, ok2;
	unsigned int hits;

	ret = test_log_register(&a, &log, 'A', addr, true, OPTPROBE_F_DISABLED);
	ok1 = call_target(3);
	hits = a.hits;
	ktap_check(t, !ret && ok1 && !hits && optprobe_mode(&a.p) == OPTPROBE_MODE_DISABLED,
		   test_name(name, where, "flag_disabled_alone_does_not_fire"),
		   "register %d, %u hits, mode %s", ret, hits, test_mode_name(optprobe_mode(&a.p)));
	en = optprobe_enable(&a.p);
	ok2 = call_target(3);
	ktap_check(t, !en && ok2 && a.hits == 3,
		   test_name(name, where, "flag_disabled_alone_enabled_fires"),
		   "enable %d, %u hits, mode %s", en, a.hits, test_mode_name(optprobe_mode(&a.p)));
	if (!ret)
		optprobe_unregister(&a.p);
}

/* optprobe_disable_many(): the probes given, together; one not registered is reported. */
static void check_many(struct ktap *t, const char *where, unsigned long addr)
{
	struct test_log_probe a, b, c, never = {};
	char name[TEST_NAME_LEN];
	struct optprobe *ps[3];
	int ra, rb, rc, ret;
	bool ok;

	ra = test_log_register(&a, &log, 'A', addr, true, 0);
	rb = test_log_register(&b, &log, 'B', addr, true, 0);
	rc = test_log_register(&c, &log, 'C', addr, true, 0);
	optprobe_sync();
	ps[0] = &a.p;
	ps[1] = &c.p;
	ret = optprobe_disable_many(ps, 2);
	ok = call_target(1);
	ktap_check(t, !ra && !rb && !rc && !ret && ok && !strcmp(log.pre, "B") &&
		   optprobe_mode(&a.p) == OPTPROBE_MODE_DISABLED &&
		   optprobe_mode(&c.p) == OPTPROBE_MODE_DISABLED,
		   test_name(name, where, "many_disabled_the_other_fires"),
		   "register %d %d %d, disable %d; ran %s; modes %s %s", ra, rb, rc, ret, log.pre,
		   test_mode_name(optprobe_mode(&a.p)), test_mode_name(optprobe_mode(&c.p)));

	ps[0] = &never.p;
	ps[1] = &b.p;
	ps[2] = &a.p;
	ret = optprobe_disable_many(ps, 3);
	ok = call_target(1);
	ktap_check(t, ret == -EINVAL && ok && !log.npre &&
		   optprobe_mode(&b.p) == OPTPROBE_MODE_DISABLED,
		   test_name(name, where, "many_with_one_unregistered_disables_the_rest"),
		   "disable %d; ran %s; mode %s", ret, log.pre,
		   test_mode_name(optprobe_mode(&b.p)));
	if (!ra)
		optprobe_unregister(&a.p);
	if (!rb)
		optprobe_unregister(&b.p);
	if (!rc)
		optprobe_unregister(&c.p);
}

#define SITE_CHECKS	(4 + 7 + 2 + 2)

static void check_site(struct ktap *t, const char *where, unsigned long addr)
{
	check_alone(t, where, addr);
	check_aggregate(t, where, addr);
	check_flag_alone(t, where, addr);
	check_many(t, where, addr);
}

static int __init test_disable_init(void)
{
	unsigned long entry = test_entry_of("optprobe_target_toggle");
	struct ktap t;
	int err;

	ktap_start(&t, 2 * SITE_CHECKS);
	check_site(&t, "entry", entry);
	check_site(&t, "inside", test_next_boundary(entry, &err));
	return 0;
}

static void __exit test_disable_exit(void)
{
}

module_init(test_disable_init);
module_exit(test_disable_exit);

MODULE_DESCRIPTION("optprobe test: disabling and enabling probes");
MODULE_LICENSE("GPL");
