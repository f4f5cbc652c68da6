// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes on x86_64 with 6.7+'s rethook, whose pool is an objpool
 * of nodes it allocates itself, fixed in number (wrap-rethook.h; 6.1's
 * is retprobe.c, which says why the return side is the kernel's rethook).
 *
 * optprobe's instances keep a lock-free pool of their own, so that the
 * core grows it as on 6.1.  A hooked call takes an instance, then a node
 * from one of the probe's rethooks: a chain of them, each twice the
 * nodes of the one before, added as instances come (16, 32, ...; 14
 * cover OP_RET_POOL_MAX), so that there is a node for every instance.
 * The rethook calls op_x86_rethook_handler() with preemption disabled,
 * regs->ip the real return address and regs->sp the caller's; the
 * handler gives the instance back, then the rethook recycles its node.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ksyms.h"
#include "retprobe.h"

/* A rethook's node: what the kernel hooks, and the instance riding on it. */
struct op_x86_ret_node {
	struct rethook_node node;
	struct op_ret_inst *inst;
};

static void notrace op_x86_rethook_handler(struct rethook_node *node, void *data,
					   unsigned long ret_addr, struct pt_regs *regs)
{
	struct op_ret_inst *inst = container_of(node, struct op_x86_ret_node, node)->inst;
	struct op_ret *ret = data;
	bool live = op_ret_returned(inst, regs);

	freelist_add(&inst->arch.free, &ret->arch.pool);
	/* the rethook recycles the node next */
	op_ret_done(ret, live);
}

NOKPROBE_SYMBOL(op_x86_rethook_handler);

int op_arch_ret_prepare(struct op_ret *ret)
{
	memset(&ret->arch, 0, sizeof(ret->arch));
	return 0;
}

/*
 * Process context.  A rethook that cannot be allocated leaves the instance
 * without a node: calls then find none and count as missed.
 */
void op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	struct op_arch_ret *a = &ret->arch;
	struct rethook *rh;
	int num;

	inst->arch.next = a->all;
	a->all = inst;
	a->insts++;
	if (a->insts > a->nodes && a->nr_rh < OP_X86_RETHOOKS) {
		num = max(16U, a->nodes);
		rh = op_ksyms.arch.rethook_alloc(ret, op_x86_rethook_handler,
						 sizeof(struct op_x86_ret_node), num);
		if (!IS_ERR_OR_NULL(rh)) {
			/* published before the instance that needs it */
			smp_store_release(&a->rh[a->nr_rh], rh);
			WRITE_ONCE(a->nr_rh, a->nr_rh + 1);
			a->nodes += num;
		}
	}
	freelist_add(&inst->arch.free, &a->pool);
}

static notrace struct rethook_node *op_x86_ret_node_get(struct op_arch_ret *a)
{
	unsigned int i, n = READ_ONCE(a->nr_rh);
	struct rethook_node *node;

	for (i = 0; i < n; i++) {
		/* acquire: pairs with op_arch_ret_add()'s release of the rethook */
		node = op_ksyms.arch.rethook_try_get(smp_load_acquire(&a->rh[i]));
		if (node)
			return node;
	}
	return NULL;
}

NOKPROBE_SYMBOL(op_x86_ret_node_get);

notrace struct op_ret_inst *op_arch_ret_get(struct op_ret *ret)
{
	struct freelist_node *free = freelist_try_get(&ret->arch.pool);
	struct rethook_node *node;
	struct op_ret_inst *inst;

	if (!free)
		return NULL;
	inst = container_of(free, struct op_ret_inst, arch.free);
	node = op_x86_ret_node_get(&ret->arch);
	if (!node) {
		freelist_add(&inst->arch.free, &ret->arch.pool);
		return NULL;
	}
	container_of(node, struct op_x86_ret_node, node)->inst = inst;
	inst->arch.node = node;
	return inst;
}

NOKPROBE_SYMBOL(op_arch_ret_get);

void notrace op_arch_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	op_ksyms.arch.rethook_recycle(inst->arch.node);
	freelist_add(&inst->arch.free, &ret->arch.pool);
}

NOKPROBE_SYMBOL(op_arch_ret_put);

/* At a function's entry, in every mode, regs->sp points at the return address. */
bool notrace op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	op_ksyms.arch.rethook_hook(inst->arch.node, regs, false);
	return true;
}

NOKPROBE_SYMBOL(op_arch_ret_hook);

/*
 * Every call has returned (or its task is gone): the rethooks free their
 * nodes after a grace period, then themselves; the instances go now.
 */
void op_arch_ret_release(struct op_ret *ret)
{
	struct op_ret_inst *inst, *next;
	unsigned int i;

	for (i = 0; i < ret->arch.nr_rh; i++)
		op_ksyms.arch.rethook_free(ret->arch.rh[i]);
	for (inst = ret->arch.all; inst; inst = next) {
		next = inst->arch.next;
		kfree(inst);
	}
}

/*
 * The nodes on current's list stay there until the kernel flushes them
 * when the task is freed; our instances on them go back to their pools.
 */
void op_arch_ret_task_exit(void)
{
	struct llist_node *pos;

	for (pos = current->rethooks.first; pos; pos = pos->next) {
		struct rethook_node *node = container_of(pos, struct rethook_node, llist);
		struct op_ret *ret;

		if ((rethook_handler_t __force)rcu_access_pointer(node->rethook->handler) !=
		    op_x86_rethook_handler)
			continue;
		ret = node->rethook->data;
		freelist_add(&container_of(node, struct op_x86_ret_node, node)->inst->arch.free,
			     &ret->arch.pool);
		op_ret_abandoned(ret);
	}
}
