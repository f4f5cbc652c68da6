// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes on x86_64 with 6.7+'s rethook, whose pool is an objpool
 * of nodes it allocates itself, fixed in number (wrap-rethook.h; 6.1's
 * is retprobe.c, which says why the return side is the kernel's rethook).
 *
 * Each instance rides on a node of its own for good: the probe's nodes
 * come from a chain of rethooks, each of as many nodes as all before it
 * (16 at first), allocated as instances come (14 cover OP_RET_POOL_MAX).  A
 * new rethook's nodes are all taken out of its pool at once and kept
 * aside (spare), and one goes back, carrying its instance, as each
 * instance is added: the rethooks' pools hold only nodes with an
 * instance, and a hooked call takes both in one.  The rethook calls
 * op_x86_rethook_handler() with preemption disabled, regs->ip the real
 * return address and regs->sp the caller's, then recycles the node, and
 * with it the instance.  A task that exits inside a followed call gives
 * its nodes back when the kernel flushes them, as its kretprobes' do.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ksyms.h"
#include "retprobe.h"

/* A rethook's node: what the kernel hooks, and the instance riding on it. */
struct op_x86_ret_node {
	struct rethook_node node;
	union {
		struct op_ret_inst *inst;	/* in its rethook's pool, or hooked */
		struct llist_node spare;	/* no instance yet */
	};
};

static void notrace op_x86_rethook_handler(struct rethook_node *node, void *data,
					   unsigned long ret_addr, struct pt_regs *regs)
{
	struct op_ret_inst *inst = container_of(node, struct op_x86_ret_node, node)->inst;

	/* the rethook recycles the node next, and the instance with it */
	bool live = op_ret_returned(inst, regs);

	op_ret_reclaimed(data);
	op_ret_done(data, live);
}

NOKPROBE_SYMBOL(op_x86_rethook_handler);

int op_arch_ret_prepare(struct op_ret *ret)
{
	memset(&ret->arch, 0, sizeof(ret->arch));
	return 0;
}

/*
 * A rethook's pool taken from and given to outside its hit path (a new
 * rethook's nodes, an instance's node added): the kernel has the hit
 * path's preemption disabled (rethook_try_get()), and so do these, one
 * node at a time.
 */
static struct rethook_node *op_x86_ret_pop(struct rethook *rh)
{
	struct rethook_node *node;

	preempt_disable();
	node = op_ksyms.arch.rethook_try_get(rh);
	preempt_enable();
	return node;
}

static notrace void op_x86_ret_push(struct rethook_node *node)
{
	preempt_disable();
	op_ksyms.arch.rethook_recycle(node);
	preempt_enable();
}

/* A new rethook of @num nodes, all of them spare; false if none could be allocated. */
static bool op_x86_ret_more_nodes(struct op_ret *ret, unsigned int num)
{
	struct llist_node *first = NULL, *last = NULL;
	struct op_arch_ret *a = &ret->arch;
	struct op_x86_ret_node *n;
	struct rethook_node *node;
	struct rethook *rh;

	rh = op_ksyms.arch.rethook_alloc(ret, op_x86_rethook_handler,
					 sizeof(struct op_x86_ret_node), num);
	if (IS_ERR_OR_NULL(rh))
		return false;
	/* not published yet: no call takes from its pool meanwhile */
	while ((node = op_x86_ret_pop(rh))) {
		n = container_of(node, struct op_x86_ret_node, node);
		n->spare.next = first;
		first = &n->spare;
		last = last ?: first;
		cond_resched();
	}
	WRITE_ONCE(a->rh[a->nr_rh], rh);
	/* rh[] first (acquire: op_x86_ret_node_get()); its pool is empty until refilled */
	smp_store_release(&a->nr_rh, a->nr_rh + 1);
	a->nodes += num;
	/* then its nodes, for hits to put instances on: they find them published */
	if (first)
		llist_add_batch(first, last, &a->spare);
	return true;
}

/*
 * A spare node for an instance, or NULL.  Hits take them too, on several
 * CPUs at once, which llist_del_first() allows here: a node taken never
 * comes back to the spare list, so the list's head cannot be a taken node
 * again when a taker that read it before compares it (no ABA).
 */
static notrace struct op_x86_ret_node *op_x86_ret_spare(struct op_arch_ret *a)
{
	struct llist_node *spare = llist_del_first(&a->spare);

	return spare ? container_of(spare, struct op_x86_ret_node, spare) : NULL;
}

NOKPROBE_SYMBOL(op_x86_ret_spare);

/* Give @inst the spare node @n, and put it into its rethook's pool. */
static notrace void op_x86_ret_ride(struct op_arch_ret *a, struct op_ret_inst *inst,
				    struct op_x86_ret_node *n)
{
	llist_add(&inst->arch.all, &a->all);
	/* over the spare link that a losing llist_del_first() may still read */
	WRITE_ONCE(n->inst, inst);
	inst->arch.node = &n->node;
	/* into its rethook's pool, which publishes the instance with it */
	op_x86_ret_push(&n->node);
}

NOKPROBE_SYMBOL(op_x86_ret_ride);

/* The chain's next rethook, as many nodes as all before it; false if none. */
static bool op_x86_ret_chain_grow(struct op_ret *ret)
{
	struct op_arch_ret *a = &ret->arch;

	return a->nr_rh < OP_X86_RETHOOKS && op_x86_ret_more_nodes(ret, max(16U, a->nodes));
}

/*
 * Process context; the hit path may take from the pools meanwhile.
 * -ENOMEM: no node for the instance (the chain is full, or no rethook
 * could be allocated), which the core then does not count.  Only one
 * caller at a time: it alone adds rethooks.
 */
int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	struct op_arch_ret *a = &ret->arch;
	struct op_x86_ret_node *n;

	n = op_x86_ret_spare(a);
	if (!n && op_x86_ret_chain_grow(ret))
		n = op_x86_ret_spare(a);
	if (!n)
		return -ENOMEM;
	op_x86_ret_ride(a, inst, n);
	/*
	 * Hits can add instances only on spare nodes: a pool that grows keeps
	 * at least as many spares as it has instances (the chain's next
	 * rethook doubles the nodes), so that a burst of calls can double
	 * the pool before the grow work runs (OP_X86_RET_BURST_FOLLOWED).
	 */
	if (ret->auto_size && a->nodes < 2 * (atomic_read(&ret->pool_size) + 1))
		op_x86_ret_chain_grow(ret);
	return 0;
}

/* A rethook cannot be allocated without sleeping: only a spare node will do. */
notrace int op_arch_ret_add_now(struct op_ret *ret, struct op_ret_inst *inst)
{
	struct op_x86_ret_node *n = op_x86_ret_spare(&ret->arch);

	if (!n)
		return -EAGAIN;
	op_x86_ret_ride(&ret->arch, inst, n);
	return 0;
}

NOKPROBE_SYMBOL(op_arch_ret_add_now);

static notrace struct rethook_node *op_x86_ret_node_get(struct op_arch_ret *a)
{
	/* acquire: pairs with op_x86_ret_more_nodes()'s release */
	unsigned int i, n = smp_load_acquire(&a->nr_rh);
	struct rethook_node *node;

	for (i = 0; i < n; i++) {
		node = op_ksyms.arch.rethook_try_get(READ_ONCE(a->rh[i]));
		if (node)
			return node;
	}
	return NULL;
}

NOKPROBE_SYMBOL(op_x86_ret_node_get);

notrace struct op_ret_inst *op_x86_ret_get(struct op_ret *ret)
{
	struct rethook_node *node = op_x86_ret_node_get(&ret->arch);

	return node ? container_of(node, struct op_x86_ret_node, node)->inst : NULL;
}

NOKPROBE_SYMBOL(op_x86_ret_get);

void notrace op_x86_ret_put(struct op_ret *ret, struct op_ret_inst *inst)
{
	op_ksyms.arch.rethook_recycle(inst->arch.node);
}

NOKPROBE_SYMBOL(op_x86_ret_put);

/* At a function's entry, in every mode, regs->sp points at the return address. */
void notrace op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	op_ksyms.arch.rethook_hook(inst->arch.node, regs, false);
}

NOKPROBE_SYMBOL(op_arch_ret_hook);

/*
 * Every call has returned (or its task is gone): the spare nodes go back
 * to their pools, the rethooks free their nodes after a grace period
 * (those still on a dead task's list once the kernel flushes them), then
 * themselves; the instances go now.
 */
void op_arch_ret_release(struct op_ret *ret)
{
	struct op_x86_ret_node *n, *next;
	struct op_ret_inst *inst, *inext;
	unsigned int i;

	llist_for_each_entry_safe(n, next, llist_del_all(&ret->arch.spare), spare)
		op_x86_ret_push(&n->node);
	for (i = 0; i < ret->arch.nr_rh; i++)
		op_ksyms.arch.rethook_free(ret->arch.rh[i]);
	llist_for_each_entry_safe(inst, inext, llist_del_all(&ret->arch.all), arch.all)
		kfree(inst);
}

/*
 * The nodes on current's list stay there until the kernel flushes them,
 * one grace period after the task is reaped, and our instances with them.
 */
void op_arch_ret_task_exit(void)
{
	struct llist_node *pos;

	for (pos = current->rethooks.first; pos; pos = pos->next) {
		struct rethook_node *node = container_of(pos, struct rethook_node, llist);

		if ((rethook_handler_t __force)rcu_access_pointer(node->rethook->handler) !=
		    op_x86_rethook_handler)
			continue;
		/* the kernel's flush publishes it with the node */
		container_of(node, struct op_x86_ret_node, node)->inst->held = true;
		op_ret_abandoned(node->rethook->data, false);
	}
}
