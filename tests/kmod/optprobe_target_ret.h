/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions optprobe's return-probe tests probe, in
 * optprobe_target_ret.ko.  Each test has targets of its own.  The
 * sleepers wait at a gate inside the function until the test opens it.
 */
#ifndef OPTPROBE_TARGET_RET_H
#define OPTPROBE_TARGET_RET_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/wait.h>

/* Where sleeping calls wait; optprobe_target_ret_gate_init() before use. */
struct optprobe_target_ret_gate {
	wait_queue_head_t wq;
	atomic_t inside;	/* calls that reached the gate */
	atomic_t done;		/* calls returned to their caller (counted by the caller) */
	bool open;
};

void optprobe_target_ret_gate_init(struct optprobe_target_ret_gate *g);
void optprobe_target_ret_gate_open(struct optprobe_target_ret_gate *g);
/* Wait until @n calls are inside; false after 20 s. */
bool optprobe_target_ret_gate_wait(struct optprobe_target_ret_gate *g, int n);

/* The value each sleeper returns for @x. */
#define OPTPROBE_TARGET_RET_SLEEP(x)	((x) * 2 + 1)
int optprobe_target_ret_sleep_auto(struct optprobe_target_ret_gate *g, int x);
int optprobe_target_ret_sleep_max(struct optprobe_target_ret_gate *g, int x);
int optprobe_target_ret_sleep_unreg(struct optprobe_target_ret_gate *g, int x);
int optprobe_target_ret_sleep_burst(struct optprobe_target_ret_gate *g, int x);
int optprobe_target_ret_sleep_held(struct optprobe_target_ret_gate *g, int x);

/*
 * A call that outlives the test module probing it, for optprobe_unload.sh:
 * a kthread of optprobe_target_ret.ko calls optprobe_target_ret_sleep_unload()
 * once, and stays until this module goes.  The script opens the gate through
 * the parameter unload_gate and reads the value the call returned in
 * unload_result (0 until it returned).  Returns false if it could not start
 * or did not get inside.
 */
#define OPTPROBE_TARGET_RET_UNLOAD_ARG	7
int optprobe_target_ret_sleep_unload(struct optprobe_target_ret_gate *g, int x);
bool optprobe_target_ret_unload_start(void);

/* a + b + ... + f */
int optprobe_target_ret_add(int a, int b, int c, int d, int e, int f);
/* x * 3 + 1, for the probes by address */
long optprobe_target_ret_value(long x);
/* x * 5 + 2: data, skip, disable/enable, errno, cpus, storm each have one */
int optprobe_target_ret_data(int x);
int optprobe_target_ret_skip(int x);
int optprobe_target_ret_toggle(int x);
int optprobe_target_ret_errno(int x);
int optprobe_target_ret_cpus(int x);
unsigned long optprobe_target_ret_storm(unsigned long x);
#define OPTPROBE_TARGET_RET_STORM(x)	((x) * 5 + 2)

/* f(0) = 1, f(d) = 2 f(d - 1) + d: every level's value differs */
int optprobe_target_ret_recurse(int depth);

/* Calls dump_stack() and stack_trace_save() into @entries; returns how many. */
unsigned int optprobe_target_ret_trace(unsigned long *entries, unsigned int size);

/* kthread_complete_and_exit(@done, 0): the calling kthread ends inside. */
int optprobe_target_ret_exit(struct completion *done);

#endif /* OPTPROBE_TARGET_RET_H */
