// SPDX-License-Identifier: GPL-2.0
/*
 * A storm on two CPUs: one kthread on each calls the target in a loop
 * while the test registers a return probe on it, lets the calls run,
 * checks the accounting, and unregisters it with the calls still going.
 *
 * Exact accounting: the callers are paused (between two calls, nothing in
 * flight) before each registration and before each check, so the calls
 * made in between are exactly those made while the probe was registered
 * and enabled, and all have returned: they must equal handler runs +
 * skipped + nmissed.  Every call checks the value it got back, through
 * registrations and unregistrations alike, and no handler may run once
 * optretprobe_unregister() returned.
 *
 * A plain probe stays on the entry all along, so that registering and
 * unregistering the return probe writes no text under the running
 * callers: QEMU's TCG may miss text changes made under a running vCPU
 * (see optprobe_test_stress.c).  For the same reason the callers sleep now
 * and then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>

#include "optprobe_target_ret.h"
#include "optprobe_test.h"

#define ROUNDS		20
#define NR_CALLERS	2

static struct ktap t;

static struct {
	atomic_long_t calls, wrong;
	atomic_t parked;
	bool pause, stop;
	wait_queue_head_t wq;
} storm;

static struct {
	atomic_long_t runs, skipped, bad, late;
	bool unregistered;
} rec;

static int caller(void *arg)
{
	unsigned long seq = (unsigned long)arg << 40;

	while (!READ_ONCE(storm.stop)) {
		if (READ_ONCE(storm.pause)) {
			atomic_inc(&storm.parked);
			wake_up_all(&storm.wq);
			wait_event(storm.wq, !READ_ONCE(storm.pause) || READ_ONCE(storm.stop));
			atomic_dec(&storm.parked);
			continue;
		}
		seq++;
		if (optprobe_target_ret_storm(seq) != OPTPROBE_TARGET_RET_STORM(seq))
			atomic_long_inc(&storm.wrong);
		atomic_long_inc(&storm.calls);
		if (!(seq % 2000))
			usleep_range(200, 400);
	}
	atomic_inc(&storm.parked);
	wake_up_all(&storm.wq);
	return 0;
}

static int storm_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	unsigned long seq = test_arg(regs, 0);

	*(unsigned long *)data = seq;
	if (!(seq % 7)) {
		atomic_long_inc(&rec.skipped);
		return 1;
	}
	return 0;
}

static void storm_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	if (READ_ONCE(rec.unregistered))
		atomic_long_inc(&rec.late);
	if (regs_return_value(regs) != OPTPROBE_TARGET_RET_STORM(*(unsigned long *)data))
		atomic_long_inc(&rec.bad);
	atomic_long_inc(&rec.runs);
}

/* Park every caller between two calls. */
static bool pause_callers(void)
{
	WRITE_ONCE(storm.pause, true);
	return wait_event_timeout(storm.wq, atomic_read(&storm.parked) == NR_CALLERS, 20 * HZ);
}

static void resume_callers(void)
{
	WRITE_ONCE(storm.pause, false);
	wake_up_all(&storm.wq);
}

static int anchor_pre(struct optprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int __init optprobe_test_ret_storm_init(void)
{
	struct optprobe anchor = {
		.symbol = "optprobe_target_ret_storm",
		.pre_handler = anchor_pre,
	};
	struct optretprobe rp;
	long calls, accounted, exact = 0, total = 0;
	int round, cpu, ret, started = 0;

	ktap_start(&t, 5);
	init_waitqueue_head(&storm.wq);
	ret = optprobe_register(&anchor);
	if (!ktap_check(&t, !ret, "storm_anchor", "register: %d", ret))
		return 0;
	optprobe_sync();
	WRITE_ONCE(storm.pause, true);
	for (cpu = 0; cpu < NR_CALLERS; cpu++) {
		struct task_struct *task = kthread_create(caller, (void *)(long)cpu, "ret_storm/%d",
							  cpu);

		if (IS_ERR(task))
			break;
		kthread_bind(task, cpu % num_online_cpus());
		wake_up_process(task);
		started++;
	}
	for (round = 0; round < ROUNDS && started == NR_CALLERS && pause_callers(); round++) {
		memset(&rp, 0, sizeof(rp));
		rp.symbol = "optprobe_target_ret_storm";
		rp.entry_handler = storm_entry;
		rp.handler = storm_ret;
		rp.data_size = sizeof(unsigned long);
		atomic_long_set(&rec.runs, 0);
		atomic_long_set(&rec.skipped, 0);
		WRITE_ONCE(rec.unregistered, false);
		calls = atomic_long_read(&storm.calls);
		ret = optretprobe_register(&rp);
		if (ret)
			break;
		resume_callers();
		msleep(30);
		if (!pause_callers())
			break;
		calls = atomic_long_read(&storm.calls) - calls;
		accounted = atomic_long_read(&rec.runs) + atomic_long_read(&rec.skipped) +
			    rp.nmissed;
		exact += calls == accounted;
		total += calls;
		if (calls != accounted)
			pr_info("round %d: %ld calls, %ld runs + %ld skipped + %lu missed\n", round,
				calls, atomic_long_read(&rec.runs),
				atomic_long_read(&rec.skipped), rp.nmissed);
		resume_callers();
		usleep_range(5000, 10000);
		optretprobe_unregister(&rp);
		WRITE_ONCE(rec.unregistered, true);
		usleep_range(5000, 10000);
	}
	WRITE_ONCE(storm.stop, true);
	wake_up_all(&storm.wq);
	wait_event_timeout(storm.wq, atomic_read(&storm.parked) == started, 20 * HZ);
	optprobe_unregister(&anchor);

	ktap_check(&t, started == NR_CALLERS && round == ROUNDS, "storm_rounds",
		   "%d callers, %d rounds, last error %d", started, round, ret);
	ktap_check(&t, exact == ROUNDS && total > 0, "storm_exact_accounting",
		   "%ld of %d rounds exact, %ld calls", exact, ROUNDS, total);
	ktap_check(&t, !atomic_long_read(&storm.wrong) && !atomic_long_read(&rec.bad),
		   "storm_return_values", "%ld callers and %ld handlers saw a wrong value",
		   atomic_long_read(&storm.wrong), atomic_long_read(&rec.bad));
	ktap_check(&t, !atomic_long_read(&rec.late), "storm_no_handler_after_unregister",
		   "%ld handler runs after unregistering", atomic_long_read(&rec.late));
	return 0;
}

static void __exit optprobe_test_ret_storm_exit(void)
{
}

module_init(optprobe_test_ret_storm_init);
module_exit(optprobe_test_ret_storm_exit);
MODULE_DESCRIPTION("optprobe return probes: a storm on two CPUs");
MODULE_LICENSE("GPL");
