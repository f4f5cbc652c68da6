// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line part of the powerpc64le return-probe hit path
 * (ret-hit.h): an entry whose CPU has no instance in its place.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>

#include "retprobe.h"

/* This CPU's place was empty: the list's instance, or another CPU's, or NULL. */
notrace struct op_ret_inst *op_ppc_ret_get_slow(struct op_ret *ret)
{
	struct freelist_node *node = freelist_try_get(&ret->arch.pool);
	struct op_ret_inst **hot, *inst;
	int cpu;

	if (node) {
		op_ret_took(ret);
		return container_of(node, struct op_ret_inst, arch.free);
	}
	for_each_possible_cpu(cpu) {
		hot = per_cpu_ptr(ret->arch.hot, cpu);
		inst = READ_ONCE(*hot) ? xchg_acquire(hot, NULL) : NULL;
		if (inst)
			return inst;
	}
	return NULL;
}

NOKPROBE_SYMBOL(op_ppc_ret_get_slow);
