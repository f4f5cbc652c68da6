// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's own blacklist, on top of the kernel's kprobe blacklist (which
 * op_check_address() consults too).  Two kinds of text may not be probed:
 *
 *  - code that runs on optprobe's hit path before its recursion guard: a
 *    probe there would trap again before it could notice, forever.  The
 *    kernel's kprobes never meet it, because they are called before the
 *    die notifier chain; optprobe is called from it;
 *  - text that another user rewrites at run time without knowing about
 *    breakpoints (static-call trampolines, ftrace trampolines), and idle
 *    code, where neither RCU nor tasks-RCU would cover a CPU running a
 *    slot.
 *
 * Each range is named by symbols, resolved at load: [start, end), or the
 * whole function @start when @end is NULL.  A range that the running
 * kernel does not have (its feature is configured out) is optional.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>

#include "internal.h"
#include "ksyms.h"

static const struct op_blacklist_entry op_core_blacklist[] = {
	/* atomic_notifier_call_chain() of the die chain, with PREEMPT_RCU */
	{ "__rcu_read_lock", NULL, true },
	{ "__rcu_read_unlock", NULL, true },
	/* die notifiers that may run before optprobe's */
	{ "hw_breakpoint_exceptions_notify", NULL, true },
	{ "arch_uprobe_exception_notify", NULL, true },
	/* idle: RCU is not watching, tasks-RCU does not wait for idle tasks */
	{ "__cpuidle_text_start", "__cpuidle_text_end", false },
};

struct op_range {
	unsigned long start, end;
	const char *name;
};

static struct op_range op_ranges[ARRAY_SIZE(op_core_blacklist) + OP_ARCH_BLACKLIST_MAX];
static unsigned int op_nr_ranges;

static int __init op_blacklist_add(const struct op_blacklist_entry *e)
{
	unsigned long start = op_kcall(kallsyms_lookup_name)(e->start);
	unsigned long end, size, offset;

	if (!start) {
		if (e->optional)
			return 0;
		pr_warn("kernel symbol '%s' not found\n", e->start);
		return -ENOENT;
	}
	if (e->end) {
		end = op_kcall(kallsyms_lookup_name)(e->end);
		if (!end) {
			pr_warn("kernel symbol '%s' not found\n", e->end);
			return -ENOENT;
		}
	} else if (op_kcall(kallsyms_lookup_size_offset)(start, &size, &offset)) {
		end = start - offset + size;
	} else {
		end = start + 1;
	}
	op_ranges[op_nr_ranges++] = (struct op_range){ start, end, e->start };
	return 0;
}

int __init op_blacklist_init(void)
{
	unsigned int i;
	int ret;

	BUILD_BUG_ON(ARRAY_SIZE(op_core_blacklist) == 0);
	for (i = 0; i < ARRAY_SIZE(op_core_blacklist); i++) {
		ret = op_blacklist_add(&op_core_blacklist[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < op_arch_blacklist_count; i++) {
		ret = op_blacklist_add(&op_arch_blacklist[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * op_blacklisted() - is an address in optprobe's blacklist?
 * @addr:	the address
 *
 * Return: the name of the range holding @addr, or NULL.
 */
const char *op_blacklisted(unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < op_nr_ranges; i++)
		if (addr >= op_ranges[i].start && addr < op_ranges[i].end)
			return op_ranges[i].name;
	return NULL;
}
