// SPDX-License-Identifier: GPL-2.0
/*
 * Hits where RCU is not watching, as in idle code that is not noinstr
 * (cpuidle drivers' enter functions on 6.1, platform idle loops): the
 * target is called between ct_idle_enter() and ct_idle_exit(), the
 * calls idle makes around such code, with interrupts masked.  In every
 * mode (ftrace at the entry, jump-optimized and breakpoint inside) each
 * call is a hit, none is missed, and the handler runs with RCU watching;
 * so does a return probe's handler, once per call:
 * sites and probes are freed after grace periods that do not wait for a
 * CPU RCU does not watch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/rcupdate.h>

#include "exports.h"
#include "optprobe_target.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define CALLS	100

static void *idle_enter, *idle_exit;

static const struct op_ksym test_ksyms[] = {
	{ .name = "ct_idle_enter", .slot = &idle_enter },
	{ .name = "ct_idle_exit", .slot = &idle_exit },
};

static atomic_t hits, watched;

static int idle_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	if (rcu_is_watching())
		atomic_inc(&watched);
	return 0;
}

/* CALLS calls with RCU not watching; the number of wrong results. */
static unsigned int call_idle(void)
{
	unsigned int i, wrong = 0;
	unsigned long flags;
	bool eqs;

	local_irq_save(flags);
	((void (*)(void))idle_enter)();
	eqs = !rcu_is_watching();
	for (i = 0; i < CALLS; i++)
		wrong += optprobe_target_idle(i) != i * 11 + 4;
	((void (*)(void))idle_exit)();
	local_irq_restore(flags);
	return eqs ? wrong : CALLS;
}

static void check_mode(struct ktap *t, const char *name, unsigned long addr,
		       unsigned int flags, enum optprobe_mode want)
{
	char tname[TEST_NAME_LEN];
	enum optprobe_mode mode;
	struct optprobe p;
	unsigned int wrong;
	int ret;

	test_probe_init(&p, addr ? NULL : "optprobe_target_idle", addr, idle_pre, NULL, flags);
	ret = optprobe_register(&p);
	optprobe_sync();
	mode = ret ? OPTPROBE_MODE_GONE : optprobe_mode(&p);
	atomic_set(&hits, 0);
	atomic_set(&watched, 0);
	wrong = ret ? CALLS : call_idle();
	ktap_check(t, !ret && mode == want && !wrong, test_name(tname, name, "calls"),
		   "register %d, mode %s (want %s), %u of %u results wrong or RCU watching",
		   ret, test_mode_name(mode), test_mode_name(want), wrong, CALLS);
	ktap_check(t, !ret && atomic_read(&hits) == CALLS && op_probe_hits(&p) == CALLS &&
		   !p.nmissed, test_name(tname, name, "hits"), "%d/%lu hits, %lu missed of %u",
		   atomic_read(&hits), ret ? 0 : op_probe_hits(&p), p.nmissed, CALLS);
	ktap_check(t, atomic_read(&watched) == atomic_read(&hits),
		   test_name(tname, name, "rcu_watching"), "RCU watched in %d of %d handler runs",
		   atomic_read(&watched), atomic_read(&hits));
	if (!ret)
		optprobe_unregister(&p);
}

static void ret_handler(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	atomic_inc(&hits);
	if (rcu_is_watching())
		atomic_inc(&watched);
}

static void check_return(struct ktap *t)
{
	struct optretprobe rp = {
		.symbol = "optprobe_target_idle",
		.handler = ret_handler,
		.maxactive = 4,
	};
	unsigned int wrong;
	int ret;

	ret = optretprobe_register(&rp);
	optprobe_sync();
	atomic_set(&hits, 0);
	atomic_set(&watched, 0);
	wrong = ret ? CALLS : call_idle();
	ktap_check(t, !ret && !wrong, "return_calls",
		   "register %d, %u of %u results wrong or RCU watching", ret, wrong, CALLS);
	ktap_check(t, !ret && atomic_read(&hits) == CALLS && !rp.nmissed, "return_hits",
		   "%d handler runs, %lu missed of %u", atomic_read(&hits), rp.nmissed, CALLS);
	ktap_check(t, atomic_read(&watched) == atomic_read(&hits), "return_rcu_watching",
		   "RCU watched in %d of %d handler runs", atomic_read(&watched),
		   atomic_read(&hits));
	if (!ret)
		optretprobe_unregister(&rp);
}

static int __init test_rcu_idle_init(void)
{
	int err, resolved = op_ksyms_resolve(test_ksyms, ARRAY_SIZE(test_ksyms));
	unsigned long inside = test_inside_of("optprobe_target_idle", &err);
	struct ktap t;

	ktap_start(&t, 13);
	if (!ktap_check(&t, !resolved && inside, "setup", "resolve %d, inside %d", resolved, err))
		return 0;
	check_mode(&t, "ftrace", 0, 0, OPTPROBE_MODE_FTRACE);
	check_mode(&t, "optimized", inside, 0, OPTPROBE_MODE_OPTIMIZED);
	check_mode(&t, "trap", inside, OPTPROBE_F_NOOPT, OPTPROBE_MODE_TRAP);
	check_return(&t);
	return 0;
}

static void __exit test_rcu_idle_exit(void)
{
}

module_init(test_rcu_idle_init);
module_exit(test_rcu_idle_exit);

MODULE_DESCRIPTION("optprobe test: hits where RCU is not watching");
MODULE_LICENSE("GPL");
