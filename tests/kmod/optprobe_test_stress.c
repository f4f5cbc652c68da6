// SPDX-License-Identifier: GPL-2.0
/*
 * Ten seconds on two CPUs: a thread on CPU 0 calls two target functions in
 * a loop while a thread on CPU 1 registers, disables, enables and
 * unregisters probes on them, at random.  Each target has a probe that
 * stays registered all along (at the entry of the first, on the first
 * instruction inside the second), beside which another probe comes and
 * goes, in the same mode and on the same address: those changes are made
 * while the calls go on, with no text written.  A fifth probe, on the
 * second instruction inside the second target, comes and goes with its
 * breakpoint.
 *
 * The caller numbers its iterations and passes the number (seq) to the
 * targets; handlers mark the numbers they see.  Around each operation
 * that arms a probe the control thread reads how far the caller has got,
 * and around each that disarms it; then exactly these hold:
 *
 *   done_before_arm	(d0) the last iteration finished before arming began
 *   started_after_arm	(a)  the last iteration begun before arming ended
 *   done_before_disarm	(d)  the last iteration finished before disarming began
 *   started_after_disarm (b) the last iteration begun before disarming ended
 *
 * Every iteration in (a, d] ran entirely while the probe was armed: it is
 * hit exactly once.  No iteration in (b of the previous window, d0] ran
 * while the probe was armed: it is not hit.  The others may or may not be.
 * Full barriers on both sides make the reads exact: an iteration that
 * published its number after the control thread read it sees what the
 * control thread wrote before.
 *
 * The caller is parked between two iterations while text is written under
 * it (a breakpoint set or removed, an ftrace call site patched): QEMU
 * 7.2's TCG, which runs the test matrix, does not make such a change
 * visible to a CPU that runs through it at that moment, with the kernel's
 * own kprobes as with optprobe (on ppc64le, tcg_rewrite's second write
 * does not always help: a caller was seen trapping on a removed trap for
 * minutes).  It keeps running the old code:
 * a breakpoint is missed, or hit again after it is gone, forever; a call
 * site being patched jumps to address 0.  Hence also the probes that stay:
 * they keep the entry's call site patched and the breakpoint inside set
 * while their neighbours come and go.
 *
 * optprobe_test_stress_opt builds this file with STRESS_OPTIMIZED for
 * twenty seconds of the same with jump-optimized probes: the probe kept
 * inside the second target is optimized, the one that comes and goes on
 * its second instruction lies inside the jump, so each time it comes the
 * site goes back to its breakpoint, and each time it goes the site is
 * optimized again; now and then the optimize switch is turned off and on.
 * The optimizer's text changes happen within optprobe_sync(), which every
 * operation ends with, while the caller is parked, as above.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "exports.h"
#include "optprobe_target.h"
#include "optprobe_test.h"

#ifdef STRESS_OPTIMIZED
MODULE_IMPORT_NS(OPTPROBE_INTERNAL);
#define STRESS_OPT	true
#define STRESS_SECONDS	20
#define STRESS_NOOPT	0
#else
#define STRESS_OPT	false
#define STRESS_SECONDS	10
#define STRESS_NOOPT	OPTPROBE_F_NOOPT
#endif
#define MAX_SEQ		BIT(23)
#define MAX_WINDOWS	4096
#define CALLER_CPU	0
#define CONTROL_CPU	1

struct window {
	unsigned long d0, a, d, b;
};

struct stress_probe {
	const char *where;
	const char *symbol;
	unsigned int depth;		/* 0: the entry; n: the nth instruction after it */
	unsigned int flags;
	bool kept;			/* registered before the run, unregistered after */
	bool writes_text;		/* alone on its address: arming it writes text */

	unsigned long addr;
	struct optprobe p;
	bool registered, armed;
	unsigned long *seen;		/* bitmap of the seqs hit */
	atomic_long_t hits, dups, bad_ip, bad_seq;
	unsigned long nmissed;		/* over all its registrations */
	struct window *windows;
	unsigned int nr_windows;
};

static struct stress_probe probes[] = {
	{ "a_entry_kept", "optprobe_target_stress_a", 0, 0, true, false },
	{ "a_entry", "optprobe_target_stress_a", 0, 0, false, false },
	{ "b_inside_kept", "optprobe_target_stress_b", 1, STRESS_NOOPT, true, false },
	{ "b_inside", "optprobe_target_stress_b", 1, 0, false, false },
	{ "b_second", "optprobe_target_stress_b", 2, STRESS_NOOPT, false, true },
};

/* The probes that come and go */
static struct stress_probe * const churned[] = { &probes[1], &probes[3], &probes[4] };

#define PROBE_CHECKS	5

/* Written by the caller only: the last iteration begun, and the last finished. */
static unsigned long started, done;
static unsigned long caller_wrong;
static bool stop, caller_started, caller_finished;
/* Parking the caller: requested by the control thread, acknowledged by the caller */
static bool park_request, parked;
static unsigned int ops, ops_failed;
static int first_error;
static DECLARE_COMPLETION(caller_done);
static DECLARE_COMPLETION(control_done);

/*
 * Handlers run in the caller, during its calls: the seq is the last one it
 * began.  Up to the first instruction inside, it is still in the argument
 * register too.
 */
static int stress_pre(struct optprobe *p, struct pt_regs *regs)
{
	struct stress_probe *sp = container_of(p, struct stress_probe, p);
	unsigned long seq = READ_ONCE(started);

	if (instruction_pointer(regs) != sp->addr)
		atomic_long_inc(&sp->bad_ip);
	if (!seq || seq >= MAX_SEQ || (sp->depth <= 1 && test_arg(regs, 0) != seq)) {
		atomic_long_inc(&sp->bad_seq);
		return 0;
	}
	if (test_and_set_bit(seq, sp->seen))
		atomic_long_inc(&sp->dups);
	atomic_long_inc(&sp->hits);
	return 0;
}

/* The caller, between two iterations: acknowledge a park request, wait for the end. */
static void wait_parked(void)
{
	/* the last iteration is done before the control thread sees the ack */
	smp_store_release(&parked, true);
	while (READ_ONCE(park_request))
		usleep_range(10, 20);
	/* no iteration begins before the control thread's writes are seen */
	smp_mb();
	WRITE_ONCE(parked, false);
}

static int caller_fn(void *unused)
{
	unsigned long seq;

	for (seq = 1; seq < MAX_SEQ && !READ_ONCE(stop); seq++) {
		WRITE_ONCE(started, seq);
		smp_mb();	/* publish seq before the calls; pairs with read_started() */
		caller_wrong += optprobe_target_stress_a(seq) != seq * 29 + 9;
		caller_wrong += optprobe_target_stress_b(seq) != seq * 31 + 10;
		smp_mb();	/* finish the calls before publishing; pairs with read_done() */
		WRITE_ONCE(done, seq);
		/* sleep now and then: a voluntary switch, for RCU-tasks grace periods */
		if (!(seq % 8))
			usleep_range(20, 40);
		if (READ_ONCE(park_request))
			wait_parked();
	}
	WRITE_ONCE(caller_finished, true);
	kthread_complete_and_exit(&caller_done, 0);
}

/*
 * Park the caller between two iterations before an operation on @sp that
 * writes text, and let it go on after (see the top).
 */
static void park(const struct stress_probe *sp, bool on)
{
	if ((!sp->writes_text && !STRESS_OPT) || !READ_ONCE(caller_started))
		return;
	/* whatever was written before a release is seen by the caller after it */
	smp_store_release(&park_request, on);
	/* and what the caller did before it acknowledges is seen here */
	while (smp_load_acquire(&parked) != on && !READ_ONCE(caller_finished))
		usleep_range(10, 20);
}

/* With optimized probes, the optimizer's text changes happen while parked. */
static void optimizer_sync(void)
{
	if (STRESS_OPT)
		optprobe_sync();
}

#ifdef STRESS_OPTIMIZED
/* Turn the optimize switch off and on again: every site unoptimized, then optimized. */
static void toggle_optimize(void)
{
	park(&probes[2], true);
	op_set_optimize(false);
	op_set_optimize(true);
	optprobe_sync();
	park(&probes[2], false);
	ops++;
}
#else
static void toggle_optimize(void)
{
}
#endif

static unsigned long read_done(void)
{
	smp_mb();	/* whatever the control thread does next comes after this read */
	return READ_ONCE(done);
}

static unsigned long read_started(void)
{
	smp_mb();	/* what the control thread did comes before this read */
	return READ_ONCE(started);
}

static void note_op(int ret)
{
	ops++;
	if (ret) {
		if (!ops_failed)
			first_error = ret;
		ops_failed++;
	}
}

/* Arm @sp (register or enable it) inside a new window. */
static void arm(struct stress_probe *sp, bool do_register)
{
	struct window *w = &sp->windows[sp->nr_windows];
	int ret;

	park(sp, true);
	w->d0 = read_done();
	if (do_register) {
		test_probe_init(&sp->p, NULL, sp->addr, stress_pre, NULL, sp->flags);
		ret = optprobe_register(&sp->p);
		sp->registered = !ret;
	} else {
		ret = optprobe_enable(&sp->p);
	}
	optimizer_sync();
	w->a = read_started();
	park(sp, false);
	note_op(ret);
	if (!ret) {
		sp->armed = true;
		sp->nr_windows++;
	}
}

/* Disarm @sp (disable or unregister it), closing its window. */
static void disarm(struct stress_probe *sp, bool do_unregister)
{
	struct window *w = &sp->windows[sp->nr_windows - 1];
	int ret = 0;

	park(sp, true);
	w->d = read_done();
	if (do_unregister) {
		sp->nmissed += READ_ONCE(sp->p.nmissed);
		optprobe_unregister(&sp->p);
		sp->registered = false;
	} else {
		ret = optprobe_disable(&sp->p);
	}
	optimizer_sync();
	w->b = read_started();
	park(sp, false);
	note_op(ret);
	sp->armed = false;
}

/* Register @sp disabled, or unregister it while disabled: no window opens or closes. */
static void register_disarmed(struct stress_probe *sp)
{
	int ret;

	test_probe_init(&sp->p, NULL, sp->addr, stress_pre, NULL, sp->flags | OPTPROBE_F_DISABLED);
	park(sp, true);		/* a new site fills a slot */
	ret = optprobe_register(&sp->p);
	optimizer_sync();
	park(sp, false);
	note_op(ret);
	sp->registered = !ret;
}

static void unregister_disarmed(struct stress_probe *sp)
{
	park(sp, true);
	sp->nmissed += READ_ONCE(sp->p.nmissed);
	optprobe_unregister(&sp->p);
	optimizer_sync();
	park(sp, false);
	sp->registered = false;
}

static void step(struct stress_probe *sp)
{
	bool full = sp->nr_windows == MAX_WINDOWS;
	u32 r = get_random_u32();

	if (!sp->registered) {
		if (full)
			return;
		if (r % 4)
			arm(sp, true);
		else
			register_disarmed(sp);
	} else if (sp->armed) {
		disarm(sp, r % 3 == 0);
	} else if (r % 3 == 0 || full) {
		unregister_disarmed(sp);
	} else {
		arm(sp, false);
	}
}

static int control_fn(void *unused)
{
	unsigned long end = jiffies + STRESS_SECONDS * HZ;
	unsigned int i;

	while (time_before(jiffies, end) && !READ_ONCE(caller_finished)) {
		if (STRESS_OPT && get_random_u32() % 16 == 0)
			toggle_optimize();
		step(churned[get_random_u32() % ARRAY_SIZE(churned)]);
		usleep_range(50, 50 + get_random_u32() % 500);
	}
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (probes[i].kept)
			continue;
		if (probes[i].armed)
			disarm(&probes[i], true);
		if (probes[i].registered)
			unregister_disarmed(&probes[i]);
	}
	WRITE_ONCE(stop, true);
	kthread_complete_and_exit(&control_done, 0);
}

/* How many of the seqs in [lo, hi] @sp saw. */
static unsigned long seen_in(const struct stress_probe *sp, unsigned long lo, unsigned long hi)
{
	unsigned long bit, n = 0;

	if (lo > hi)
		return 0;
	for (bit = find_next_bit(sp->seen, hi + 1, lo); bit <= hi;
	     bit = find_next_bit(sp->seen, hi + 1, bit + 1))
		n++;
	return n;
}

static void check_probe(struct ktap *t, const struct stress_probe *sp, unsigned long last)
{
	unsigned long missing = 0, outside = 0, inside_calls = 0, prev_b = 0;
	const struct window *w;
	char name[TEST_NAME_LEN];
	unsigned int i;

	for (i = 0; i < sp->nr_windows; i++) {
		w = &sp->windows[i];
		outside += seen_in(sp, prev_b + 1, w->d0);
		if (w->d > w->a) {
			inside_calls += w->d - w->a;
			missing += w->d - w->a - seen_in(sp, w->a + 1, w->d);
		}
		prev_b = w->b;
	}
	outside += seen_in(sp, prev_b + 1, last);

	ktap_check(t, !missing && inside_calls, test_name(name, sp->where, "hits_every_armed_call"),
		   "%lu of %lu calls made while armed missed, over %u windows", missing,
		   inside_calls, sp->nr_windows);
	ktap_check(t, !outside, test_name(name, sp->where, "no_hit_while_disarmed"),
		   "%lu calls made while disarmed were hit", outside);
	ktap_check(t, !atomic_long_read(&sp->dups) && !atomic_long_read(&sp->bad_seq),
		   test_name(name, sp->where, "each_call_hit_once"),
		   "%ld calls hit twice, %ld hits with a wrong argument",
		   atomic_long_read(&sp->dups), atomic_long_read(&sp->bad_seq));
	ktap_check(t, !atomic_long_read(&sp->bad_ip),
		   test_name(name, sp->where, "ip_is_probed_address"),
		   "%ld hits with a wrong instruction pointer", atomic_long_read(&sp->bad_ip));
	ktap_check(t, !sp->nmissed, test_name(name, sp->where, "no_miss"), "nmissed %lu",
		   sp->nmissed);
	pr_info("# %s: %ld hits, %lu calls in %u windows\n", sp->where,
		atomic_long_read(&sp->hits), inside_calls, sp->nr_windows);
}

static int setup(void)
{
	struct stress_probe *sp;
	unsigned int i, d;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		sp = &probes[i];
		sp->addr = test_entry_of(sp->symbol);
		for (d = 0; d < sp->depth; d++)
			sp->addr = test_next_boundary(sp->addr, &err);
		if (!sp->addr)
			return err ?: -ENOENT;
		sp->seen = vzalloc(BITS_TO_LONGS(MAX_SEQ) * sizeof(long));
		sp->windows = kvcalloc(MAX_WINDOWS, sizeof(*sp->windows), GFP_KERNEL);
		if (!sp->seen || !sp->windows)
			return -ENOMEM;
	}
	return 0;
}

static void teardown(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		vfree(probes[i].seen);
		kvfree(probes[i].windows);
	}
}

/* Arm the kept probes before the threads start, and disarm them after they end. */
static void arm_kept(bool arming)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (!probes[i].kept)
			continue;
		if (arming)
			arm(&probes[i], true);
		else if (probes[i].armed)
			disarm(&probes[i], true);
	}
}

static int run(void)
{
	struct task_struct *caller, *control;

	caller = kthread_create(caller_fn, NULL, "optprobe_caller");
	if (IS_ERR(caller))
		return PTR_ERR(caller);
	control = kthread_create(control_fn, NULL, "optprobe_control");
	if (IS_ERR(control)) {
		WRITE_ONCE(stop, true);
		wake_up_process(caller);
		wait_for_completion(&caller_done);
		return PTR_ERR(control);
	}
	kthread_bind(caller, CALLER_CPU);
	kthread_bind(control, CONTROL_CPU);
	WRITE_ONCE(caller_started, true);
	wake_up_process(caller);
	wake_up_process(control);
	wait_for_completion(&control_done);
	wait_for_completion(&caller_done);
	return 0;
}

#ifdef STRESS_OPTIMIZED
#define STRESS_CHECKS	3

/* The probe kept inside the second target is optimized, as its neighbour churns. */
static void check_kept_mode(struct ktap *t)
{
	const struct optprobe *p = &probes[2].p;

	optprobe_sync();
	ktap_check(t, optprobe_mode(p) == OPTPROBE_MODE_OPTIMIZED, "kept_probe_optimized",
		   "mode %s: %s", test_mode_name(optprobe_mode(p)), optprobe_reason(p));
}
#else
#define STRESS_CHECKS	2

static void check_kept_mode(struct ktap *t)
{
}
#endif

static int __init test_stress_init(void)
{
	unsigned int i;
	struct ktap t;
	int ret;

	ktap_start(&t, STRESS_CHECKS + ARRAY_SIZE(probes) * PROBE_CHECKS);
	if (!cpu_online(CALLER_CPU) || !cpu_online(CONTROL_CPU)) {
		for (i = 0; i < STRESS_CHECKS + ARRAY_SIZE(probes) * PROBE_CHECKS; i++)
			ktap_skip(&t, "stress", "needs CPUs 0 and 1");
		return 0;
	}
	ret = setup();
	if (!ret) {
		arm_kept(true);
		check_kept_mode(&t);
		ret = run();
		arm_kept(false);
	}
	ktap_check(&t, !ret && !ops_failed, "control_operations_succeed",
		   "setup %d; %u of %u operations failed, the first with %d", ret, ops_failed, ops,
		   first_error);
	ktap_check(&t, !ret && !caller_wrong && done, "caller_results_unchanged",
		   "%lu wrong results in %lu calls", caller_wrong, done);
	pr_info("# %lu calls, %u operations in %d s\n", done, ops, STRESS_SECONDS);
	for (i = 0; i < ARRAY_SIZE(probes); i++)
		check_probe(&t, &probes[i], started);
	teardown();
	return 0;
}

static void __exit test_stress_exit(void)
{
}

module_init(test_stress_init);
module_exit(test_stress_exit);

MODULE_DESCRIPTION("optprobe test: probes coming and going under calls on another CPU");
MODULE_LICENSE("GPL");
