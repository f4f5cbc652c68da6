/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is RCU watching this CPU?  What rcu_is_watching() answers, inline and
 * without its preemption toggling, for the hit path, which runs with
 * preemption disabled: one per-CPU read of the exported context_tracking
 * state.  The bit is RCU_DYNTICKS_IDX read by ct_dynticks() up to 6.11,
 * CT_RCU_WATCHING read by ct_rcu_watching() since 6.12.
 */
#ifndef OPTPROBE_WRAP_RCU_WATCHING_H
#define OPTPROBE_WRAP_RCU_WATCHING_H

#include <linux/context_tracking_state.h>

#include "wrap-kver.h"

static __always_inline bool op_rcu_watching(void)
{
#if OP_KERNEL_AT_LEAST(6, 12)
	return ct_rcu_watching() & CT_RCU_WATCHING;
#else
	return ct_dynticks() & RCU_DYNTICKS_IDX;
#endif
}

#endif /* OPTPROBE_WRAP_RCU_WATCHING_H */
