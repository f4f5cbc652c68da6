// SPDX-License-Identifier: GPL-2.0
/*
 * The hit path's state and its cold part; the rest is inline in
 * dispatch.h.
 */
#include <linux/kprobes.h>

#include "dispatch.h"
#include "retprobe.h"

DEFINE_PER_CPU(bool, op_in_handler);

void op_dispatch_missed(struct op_site *site)
{
	struct optprobe *p;

	list_for_each_entry_rcu(p, &site->probes, list)
		if (!READ_ONCE(p->disabled))
			op_count(op_probe_nmissed(p));
}

NOKPROBE_SYMBOL(op_dispatch_missed);

int notrace op_dispatch_pre_all(struct op_site *site, struct pt_regs *regs)
{
	struct optprobe *p;

	list_for_each_entry_rcu(p, &site->probes, list) {
		if (READ_ONCE(p->disabled))
			continue;
		__this_cpu_inc(*p->nhit);
		if (p->pre_handler && p->pre_handler(p, regs))
			return 1;
	}
	return 0;
}

NOKPROBE_SYMBOL(op_dispatch_pre_all);
