// SPDX-License-Identifier: GPL-2.0
/*
 * Jump optimization on powerpc64le: not implemented yet (issue #5), so
 * every site stays a breakpoint and says why.
 */
#include "arch.h"

int op_arch_opt_prepare(struct op_site *site)
{
	site->reason = "breakpoint: no jump optimizer for powerpc yet";
	return -EOPNOTSUPP;
}

void op_arch_opt_unprepare(struct op_site *site)
{
}

void op_arch_optimize(struct list_head *sites, struct list_head *failed)
{
	list_splice_init(sites, failed);
}

void op_arch_unoptimize(struct list_head *sites)
{
}

bool op_arch_opt_covers(const struct op_site *site, unsigned long addr)
{
	return false;
}

bool op_arch_slot_reaches(const void *page, unsigned long addr)
{
	return false;
}
