/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is RCU watching this CPU?  What rcu_is_watching() answers, inline and
 * without its preemption toggling, for the hit path, which runs with
 * preemption disabled: one per-CPU read of the exported context_tracking
 * state, as ct_dynticks() (up to 6.11) and ct_rcu_watching() (since 6.12)
 * read it, but straight off the CPU's own copy (raw_cpu_read(): one load
 * on x86, where this_cpu_ptr() first and then a load took three
 * instructions more).  The bit is RCU_DYNTICKS_IDX up to 6.11,
 * CT_RCU_WATCHING since 6.12.
 */
#ifndef OPTPROBE_WRAP_RCU_WATCHING_H
#define OPTPROBE_WRAP_RCU_WATCHING_H

#include <linux/context_tracking_state.h>
#include <linux/percpu.h>

#include "wrap-kver.h"

static __always_inline bool op_rcu_watching(void)
{
#if OP_KERNEL_AT_LEAST(6, 12)
	return raw_cpu_read(context_tracking.state.counter) & CT_RCU_WATCHING;
#else
	return raw_cpu_read(context_tracking.state.counter) & RCU_DYNTICKS_IDX;
#endif
}

#endif /* OPTPROBE_WRAP_RCU_WATCHING_H */
