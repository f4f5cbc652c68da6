// SPDX-License-Identifier: GPL-2.0
/*
 * The optimizer's work queue and switch.  Every change of a probe's text
 * that is done in the background (optimizing, unoptimizing, freeing
 * detours after a grace period) runs as work on this one ordered queue, so
 * optprobe_sync() only has to drain it.  The switch (debugfs "optimize")
 * is the equivalent of the kernel's debug.kprobes-optimization.
 */
#include <linux/workqueue.h>

#include <optprobe.h>

#include "internal.h"

static struct workqueue_struct *op_optimizer_wq;
static bool op_optimize = true;
static bool op_boost = true;

void optprobe_sync(void)
{
	flush_workqueue(op_optimizer_wq);
}
EXPORT_SYMBOL_GPL(optprobe_sync);

void op_set_optimize(bool optimize)
{
	WRITE_ONCE(op_optimize, optimize);
}
EXPORT_SYMBOL_NS_GPL(op_set_optimize, OPTPROBE_INTERNAL);

bool op_optimize_enabled(void)
{
	return READ_ONCE(op_optimize);
}

/*
 * The boost switch (debugfs "boost") decides how sites created from now on
 * run their instruction out of line: with a jump back (boosted) or with a
 * breakpoint after it.  Existing sites keep what they were prepared with.
 */
void op_set_boost(bool boost)
{
	WRITE_ONCE(op_boost, boost);
}
EXPORT_SYMBOL_NS_GPL(op_set_boost, OPTPROBE_INTERNAL);

bool op_boost_enabled(void)
{
	return READ_ONCE(op_boost);
}

int __init op_optimizer_init(void)
{
	op_optimizer_wq = alloc_ordered_workqueue("optprobe", 0);
	return op_optimizer_wq ? 0 : -ENOMEM;
}

void op_optimizer_exit(void)
{
	destroy_workqueue(op_optimizer_wq);
}
