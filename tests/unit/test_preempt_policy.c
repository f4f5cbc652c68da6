// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of core/preempt-policy.h: on which kernels optprobe may
 * load, given whether tasks can be preempted and whether tasks-RCU is
 * there to wait for a task preempted inside a detour.
 */
#include <stdbool.h>	/* bool, which the header takes from its includer */

#include "preempt-policy.h"
#include "unit.h"

static const struct {
	const char *name;
	bool preemptible, tasks_rcu, want;
} cases[] = {
	/* ppc64le Debian 6.1: PREEMPT_VOLUNTARY, no TASKS_RCU */
	{ "no_preemption_no_tasks_rcu_loads", false, false, true },
	{ "no_preemption_with_tasks_rcu_loads", false, true, true },
	/* x86_64 Debian 6.1: PREEMPT_DYNAMIC, TASKS_RCU */
	{ "preemption_with_tasks_rcu_loads", true, true, true },
	{ "preemption_without_tasks_rcu_refused", true, false, false },
};

int main(void)
{
	unsigned int i;

	unit_plan(ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool got = op_can_free_detours(cases[i].preemptible, cases[i].tasks_rcu);

		unit_check(got == cases[i].want, cases[i].name, "op_can_free_detours(%d, %d) = %d",
			   cases[i].preemptible, cases[i].tasks_rcu, got);
	}
	return unit_status();
}
