// SPDX-License-Identifier: GPL-2.0
/*
 * Functions for optprobe's return-probe tests (see optprobe_target_ret.h),
 * noinline and __noipa as in optprobe_target.c, so that each is called,
 * and returns, as it stands.
 */
#include <linux/compiler.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/stacktrace.h>

#include "optprobe_target_ret.h"

void optprobe_target_ret_gate_init(struct optprobe_target_ret_gate *g)
{
	init_waitqueue_head(&g->wq);
	atomic_set(&g->inside, 0);
	atomic_set(&g->done, 0);
	g->open = false;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_gate_init);

void optprobe_target_ret_gate_open(struct optprobe_target_ret_gate *g)
{
	WRITE_ONCE(g->open, true);
	wake_up_all(&g->wq);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_gate_open);

bool optprobe_target_ret_gate_wait(struct optprobe_target_ret_gate *g, int n)
{
	return wait_event_timeout(g->wq, atomic_read(&g->inside) >= n, 20 * HZ) > 0;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_gate_wait);

/* Not probed: the sleepers' common part. */
static noinline void gate_pass(struct optprobe_target_ret_gate *g)
{
	atomic_inc(&g->inside);
	wake_up_all(&g->wq);
	wait_event(g->wq, READ_ONCE(g->open));
}

noinline __noipa int optprobe_target_ret_sleep_auto(struct optprobe_target_ret_gate *g, int x)
{
	gate_pass(g);
	return OPTPROBE_TARGET_RET_SLEEP(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_sleep_auto);

noinline __noipa int optprobe_target_ret_sleep_max(struct optprobe_target_ret_gate *g, int x)
{
	gate_pass(g);
	return OPTPROBE_TARGET_RET_SLEEP(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_sleep_max);

noinline __noipa int optprobe_target_ret_sleep_unreg(struct optprobe_target_ret_gate *g, int x)
{
	gate_pass(g);
	return OPTPROBE_TARGET_RET_SLEEP(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_sleep_unreg);

noinline __noipa int optprobe_target_ret_sleep_burst(struct optprobe_target_ret_gate *g, int x)
{
	gate_pass(g);
	return OPTPROBE_TARGET_RET_SLEEP(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_sleep_burst);

noinline __noipa int optprobe_target_ret_sleep_held(struct optprobe_target_ret_gate *g, int x)
{
	gate_pass(g);
	return OPTPROBE_TARGET_RET_SLEEP(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_sleep_held);

noinline __noipa int optprobe_target_ret_sleep_unload(struct optprobe_target_ret_gate *g, int x)
{
	gate_pass(g);
	return OPTPROBE_TARGET_RET_SLEEP(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_sleep_unload);

static struct optprobe_target_ret_gate unload_gate;
static struct task_struct *unload_task;
static int unload_result;
module_param(unload_result, int, 0444);
MODULE_PARM_DESC(unload_result, "what the call left in flight for optprobe_unload.sh returned, 0 before");

static int unload_gate_set(const char *val, const struct kernel_param *kp)
{
	if (unload_task)
		optprobe_target_ret_gate_open(&unload_gate);
	return 0;
}

static const struct kernel_param_ops unload_gate_ops = {
	.set = unload_gate_set,
};
module_param_cb(unload_gate, &unload_gate_ops, NULL, 0200);
MODULE_PARM_DESC(unload_gate, "write anything: the call left in flight returns");

static int unload_caller(void *unused)
{
	int value = optprobe_target_ret_sleep_unload(&unload_gate, OPTPROBE_TARGET_RET_UNLOAD_ARG);

	WRITE_ONCE(unload_result, value);
	/* stay, so that no code of this module runs once it is gone */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

bool optprobe_target_ret_unload_start(void)
{
	struct task_struct *task;

	if (unload_task)
		return false;
	optprobe_target_ret_gate_init(&unload_gate);
	task = kthread_run(unload_caller, NULL, "ret_unload");
	if (IS_ERR(task))
		return false;
	unload_task = task;
	return optprobe_target_ret_gate_wait(&unload_gate, 1);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_unload_start);

noinline __noipa int optprobe_target_ret_add(int a, int b, int c, int d, int e, int f)
{
	return a + b + c + d + e + f;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_add);

noinline __noipa long optprobe_target_ret_value(long x)
{
	return x * 3 + 1;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_value);

noinline __noipa int optprobe_target_ret_data(int x)
{
	return x * 5 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_data);

noinline __noipa int optprobe_target_ret_skip(int x)
{
	return x * 5 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_skip);

noinline __noipa int optprobe_target_ret_toggle(int x)
{
	return x * 5 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_toggle);

noinline __noipa int optprobe_target_ret_errno(int x)
{
	return x * 5 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_errno);

noinline __noipa int optprobe_target_ret_cpus(int x)
{
	return x * 5 + 2;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_cpus);

noinline __noipa unsigned long optprobe_target_ret_storm(unsigned long x)
{
	return OPTPROBE_TARGET_RET_STORM(x);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_storm);

noinline __noipa int optprobe_target_ret_recurse(int depth)
{
	int below;

	if (!depth)
		return 1;
	below = optprobe_target_ret_recurse(depth - 1);
	/* no turning the recursion into a loop */
	OPTIMIZER_HIDE_VAR(below);
	return below * 2 + depth;
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_recurse);

noinline __noipa unsigned int optprobe_target_ret_trace(unsigned long *entries, unsigned int size)
{
	dump_stack();
	return stack_trace_save(entries, size, 0);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_trace);

noinline __noipa int optprobe_target_ret_exit(struct completion *done)
{
	kthread_complete_and_exit(done, 0);
}
EXPORT_SYMBOL_GPL(optprobe_target_ret_exit);

static void __exit optprobe_target_ret_exit_module(void)
{
	if (!unload_task)
		return;
	optprobe_target_ret_gate_open(&unload_gate);
	kthread_stop(unload_task);
}
module_exit(optprobe_target_ret_exit_module);

MODULE_DESCRIPTION("Functions for optprobe's return-probe tests");
MODULE_LICENSE("GPL");
