// SPDX-License-Identifier: GPL-2.0
/*
 * A function in a module for the events tests (optprobe_events.sh,
 * optprobe_events_diff.sh), which unload and load it again under events
 * defined on it.  Nothing else refers to it, so that nothing holds it.
 * Writing N to its parameter "call" calls optprobe_target_events_fn(N)
 * once.
 */
#include <linux/kernel.h>
#include <linux/module.h>

static noinline __noipa long optprobe_target_events_fn(long x)
{
	return x * 3 + 1;
}

static long optprobe_target_events_last;

static int call_set(const char *val, const struct kernel_param *kp)
{
	long x;
	int ret = kstrtol(val, 0, &x);

	if (ret)
		return ret;
	WRITE_ONCE(optprobe_target_events_last, optprobe_target_events_fn(x));
	return 0;
}

static const struct kernel_param_ops call_ops = {
	.set = call_set,
};
module_param_cb(call, &call_ops, NULL, 0200);

MODULE_DESCRIPTION("optprobe test: a module function for trace events");
MODULE_LICENSE("GPL");
