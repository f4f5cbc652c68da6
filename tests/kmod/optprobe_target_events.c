// SPDX-License-Identifier: GPL-2.0
/*
 * A function and two static markers in a module for the events tests
 * (optprobe_events.sh, optprobe_events_diff.sh, optprobe_events_marker.sh),
 * which unload and load it again under events defined on them.  Nothing
 * else refers to it, so that nothing holds it.  Writing N to its
 * parameter "call" calls optprobe_target_events_fn(N) once; writing N to
 * "mark" passes both markers once, with arguments made from N:
 *
 *   optprobe_events_mark "x=%d big=%lu name=%s fn=%p"
 *	N - 5, N * 3000000000, "zero", "one" or "two" (N % 3), the address
 *	of optprobe_target_events_fn (as /proc/kallsyms has it)
 *   optprobe_events_more "%x %c %lld %u"
 *	N * 0x10001, 'a' + N % 26, N * -5000000000, the constant 42
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <optprobe-marker.h>

static noinline __noipa long optprobe_target_events_fn(long x)
{
	return x * 3 + 1;
}

static long optprobe_target_events_last;

static const char *const optprobe_target_events_names[] = { "zero", "one", "two" };

static noinline __noipa void optprobe_target_events_mark(unsigned long x)
{
	OPTPROBE_MARKER(optprobe_events_mark, "x=%d big=%lu name=%s fn=%p", (int)x - 5,
			x * 3000000000UL, optprobe_target_events_names[x % 3],
			(void *)optprobe_target_events_fn);
	OPTPROBE_MARKER(optprobe_events_more, "%x %c %lld %u", (unsigned int)x * 0x10001,
			'a' + (int)(x % 26), (long long)x * -5000000000LL, 42U);
}

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

static int mark_set(const char *val, const struct kernel_param *kp)
{
	unsigned long x;
	int ret = kstrtoul(val, 0, &x);

	if (ret)
		return ret;
	optprobe_target_events_mark(x);
	return 0;
}

static const struct kernel_param_ops mark_ops = {
	.set = mark_set,
};
module_param_cb(mark, &mark_ops, NULL, 0200);

MODULE_DESCRIPTION("optprobe test: a module function and markers for trace events");
MODULE_LICENSE("GPL");
