// SPDX-License-Identifier: GPL-2.0
/*
 * A register/unregister storm on one marker: a thread on each of CPUs 0
 * and 1 registers its probe on tm_storm, waits for it to run, and takes
 * it off again, over and over, while a third thread reaches the marker
 * in a loop (sleeping now and then: QEMU's multi-threaded TCG can keep a
 * CPU that never leaves a loop on a stale translation of patched text,
 * see FACTS).  The marker's site thus goes between no probe, one and
 * two.  Every registration is checked:
 *  - the probe is jump-optimized as soon as register returns;
 *  - it runs (the caller keeps calling), with the caller's argument;
 *  - every other registration is disabled first: then, once the runs
 *    in flight are over (a grace period: handlers run with preemption
 *    disabled), optprobe_marker_hits() equals the handler's runs, and no
 *    run follows while it is disabled;
 *  - no run follows its unregistration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>

#include "optprobe_target_marker.h"
#include "optprobe_test.h"

#define STORM_SECONDS	8
#define STORM_CYCLES	100	/* per CPU, at most */
#define STORM_MIN	5	/* per CPU, at least, or the storm did not happen */
#define STORM_TAG	0x5a5a000000000000UL
#define STORM_TAG_MASK	0xffff000000000000UL
/* how long a registration may wait for its first run */
#define FIRST_RUN_MS	2000

struct storm {
	struct optprobe_marker_probe mp;
	struct completion done;
	atomic_long_t runs;		/* in this registration */
	atomic_long_t bad_arg;
	/* over all its registrations */
	unsigned int cycles, reg_failed, not_optimized, not_disabled, never_ran;
	unsigned int hits_wrong, ran_disabled, ran_unregistered, op_failed;
	unsigned long nmissed, total_runs;
	int first_error;
	long hits_got, hits_want;	/* the first wrong count */
};

static struct storm storms[2];
static unsigned long calls;
static bool stop_controls;

static void storm_handler(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			  const u64 *args)
{
	struct storm *s = container_of(mp, struct storm, mp);

	if ((args[0] & STORM_TAG_MASK) != STORM_TAG)
		atomic_long_inc(&s->bad_arg);
	atomic_long_inc(&s->runs);
}

static int caller_fn(void *unused)
{
	unsigned long seq = 0;

	while (!kthread_should_stop()) {
		optprobe_target_marker_storm(STORM_TAG | ++seq);
		if (!(seq % 16))
			usleep_range(20, 40);
	}
	WRITE_ONCE(calls, seq);
	return 0;
}

/* Wait up to FIRST_RUN_MS for a run: true if there was one. */
static bool wait_run(struct storm *s)
{
	unsigned int i;

	for (i = 0; i < FIRST_RUN_MS; i++) {
		if (atomic_long_read(&s->runs))
			return true;
		usleep_range(1000, 1100);
	}
	return atomic_long_read(&s->runs);
}

static void note_error(struct storm *s, int ret)
{
	if (!s->first_error)
		s->first_error = ret;
}

/* One registration; @disable_first: disable it and count before unregistering. */
static void cycle(struct storm *s, bool disable_first)
{
	long runs, hits;
	int ret;

	atomic_long_set(&s->runs, 0);
	ret = optprobe_marker_register(&s->mp);
	if (ret) {
		s->reg_failed++;
		note_error(s, ret);
		return;
	}
	s->cycles++;
	if (optprobe_marker_mode(&s->mp) != OPTPROBE_MODE_OPTIMIZED)
		s->not_optimized++;
	if (!wait_run(s))
		s->never_ran++;
	if (disable_first) {
		ret = optprobe_marker_disable(&s->mp);
		if (ret) {
			s->op_failed++;
			note_error(s, ret);
		}
		if (optprobe_marker_mode(&s->mp) != OPTPROBE_MODE_DISABLED)
			s->not_disabled++;
		/* the handlers still running are done after a grace period */
		synchronize_rcu();
		runs = atomic_long_read(&s->runs);
		hits = optprobe_marker_hits(&s->mp);
		if (hits != runs && !s->hits_wrong++) {
			s->hits_got = hits;
			s->hits_want = runs;
		}
		usleep_range(2000, 3000);
		if (atomic_long_read(&s->runs) != runs)
			s->ran_disabled++;
	}
	s->nmissed += READ_ONCE(s->mp.nmissed);
	optprobe_marker_unregister(&s->mp);
	runs = atomic_long_read(&s->runs);
	s->total_runs += runs;
	usleep_range(2000, 3000);
	if (atomic_long_read(&s->runs) != runs)
		s->ran_unregistered++;
}

static int control_fn(void *data)
{
	struct storm *s = data;
	unsigned long end = jiffies + STORM_SECONDS * HZ;
	unsigned int i;

	for (i = 0; i < STORM_CYCLES && time_before(jiffies, end) && !READ_ONCE(stop_controls);
	     i++)
		cycle(s, i % 2);
	kthread_complete_and_exit(&s->done, 0);
}

#define NR_CHECKS	8

static int __init test_marker_storm_init(void)
{
	struct task_struct *caller, *control[2];
	unsigned int i;
	struct storm *a = &storms[0], *b = &storms[1];
	struct ktap t;

	ktap_start(&t, NR_CHECKS);
	if (!cpu_online(0) || !cpu_online(1)) {
		for (i = 0; i < NR_CHECKS; i++)
			ktap_skip(&t, "storm", "needs CPUs 0 and 1");
		return 0;
	}
	caller = kthread_run(caller_fn, NULL, "optprobe_marker_caller");
	if (IS_ERR(caller))
		return PTR_ERR(caller);
	for (i = 0; i < 2; i++) {
		storms[i].mp.module = TM_MODULE;
		storms[i].mp.name = "tm_storm";
		storms[i].mp.format = TM_STORM_FMT;
		storms[i].mp.handler = storm_handler;
		init_completion(&storms[i].done);
		control[i] = kthread_create(control_fn, &storms[i], "optprobe_marker_ctl/%u", i);
		if (IS_ERR(control[i])) {
			control[i] = NULL;
			WRITE_ONCE(stop_controls, true);
			continue;
		}
		kthread_bind(control[i], i);
	}
	for (i = 0; i < 2; i++)
		if (control[i])
			wake_up_process(control[i]);
	for (i = 0; i < 2; i++)
		if (control[i])
			wait_for_completion(&storms[i].done);
	kthread_stop(caller);

	pr_info("# %u and %u registrations, %lu and %lu runs, %lu calls\n", a->cycles, b->cycles,
		a->total_runs, b->total_runs, READ_ONCE(calls));
	ktap_check(&t, a->cycles >= STORM_MIN && b->cycles >= STORM_MIN && !a->reg_failed &&
		   !b->reg_failed && !a->op_failed && !b->op_failed,
		   "registrations_on_both_cpus",
		   "%u and %u registrations (at least %u each), %u and %u refused, %u and %u disables failed, first errors %d %d",
		   a->cycles, b->cycles, STORM_MIN, a->reg_failed, b->reg_failed, a->op_failed,
		   b->op_failed, a->first_error, b->first_error);
	ktap_check(&t, !a->not_optimized && !b->not_optimized && !a->not_disabled &&
		   !b->not_disabled, "optimized_on_register_disabled_on_disable",
		   "%u and %u not optimized, %u and %u not disabled", a->not_optimized,
		   b->not_optimized, a->not_disabled, b->not_disabled);
	ktap_check(&t, !a->never_ran && !b->never_ran, "every_registration_runs",
		   "%u and %u registrations did not run within %u ms", a->never_ran,
		   b->never_ran, FIRST_RUN_MS);
	ktap_check(&t, !a->hits_wrong && !b->hits_wrong, "hits_equal_handler_runs",
		   "%u and %u registrations wrong; first: %ld hits for %ld runs, %ld for %ld",
		   a->hits_wrong, b->hits_wrong, a->hits_got, a->hits_want, b->hits_got,
		   b->hits_want);
	ktap_check(&t, !a->ran_disabled && !b->ran_disabled, "no_run_while_disabled",
		   "%u and %u registrations ran while disabled", a->ran_disabled,
		   b->ran_disabled);
	ktap_check(&t, !a->ran_unregistered && !b->ran_unregistered, "no_run_after_unregister",
		   "%u and %u registrations ran after unregister", a->ran_unregistered,
		   b->ran_unregistered);
	ktap_check(&t, !atomic_long_read(&a->bad_arg) && !atomic_long_read(&b->bad_arg),
		   "arguments_intact", "%ld and %ld runs with a wrong argument",
		   atomic_long_read(&a->bad_arg), atomic_long_read(&b->bad_arg));
	ktap_check(&t, !a->nmissed && !b->nmissed, "no_misses", "nmissed %lu and %lu",
		   a->nmissed, b->nmissed);
	return 0;
}

static void __exit test_marker_storm_exit(void)
{
}

module_init(test_marker_storm_init);
module_exit(test_marker_storm_exit);

MODULE_DESCRIPTION("optprobe test: probes on a marker registered and unregistered on two CPUs under calls");
MODULE_LICENSE("GPL");
