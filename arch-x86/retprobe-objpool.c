// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes on x86_64 with 6.7+'s rethook, whose pool is an objpool
 * of nodes allocated with it, fixed in number (wrap-rethook.h; 6.1's is
 * retprobe.c, which says why the return side is the kernel's rethook).
 *
 * Each instance rides on a node of its own for good: the probe's nodes
 * come from a chain of rethooks, each of as many nodes as all before it
 * (16 at first), allocated as instances come (14 cover OP_RET_POOL_MAX).  A
 * new rethook's nodes are all taken out of its pool at once and kept
 * aside (spare), and one goes back, carrying its instance, as each
 * instance is added: the rethooks' pools hold only nodes with an
 * instance, and a hooked call takes both in one.  The grow work keeps as
 * many spares as there are instances; a burst that takes them all before
 * it runs makes the next rethooks on its hits, as an interrupt could
 * allocate them (op_arch_ret_add_now()), up to the chain's first 512
 * nodes.
 * The rethook calls op_x86_rethook_handler() with preemption disabled,
 * regs->ip the real return address and regs->sp the caller's, then
 * recycles the node, and with it the instance.  A task that exits inside
 * a followed call gives its nodes back when the kernel flushes them, as
 * its kretprobes' do.
 */
#include <linux/kprobes.h>
#include <linux/objpool.h>
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
static notrace struct rethook_node *op_x86_ret_pop(struct rethook *rh)
{
	struct rethook_node *node;

	preempt_disable();
	node = op_kcall(rethook_try_get)(rh);
	preempt_enable();
	return node;
}

NOKPROBE_SYMBOL(op_x86_ret_pop);

static notrace void op_x86_ret_push(struct rethook_node *node)
{
	preempt_disable();
	op_kcall(rethook_recycle)(node);
	preempt_enable();
}

NOKPROBE_SYMBOL(op_x86_ret_push);

/* objpool_init()'s, for each node of a new rethook, as rethook_alloc()'s does */
static notrace int op_x86_ret_node_init(void *obj, void *context)
{
	((struct rethook_node *)obj)->rethook = context;
	return 0;
}

NOKPROBE_SYMBOL(op_x86_ret_node_init);

/*
 * A rethook of @num nodes.  Process context (@gfp may sleep) has the
 * kernel make it; a hit makes it as rethook_alloc() does, but without
 * sleeping (OP_X86_RET_HIT_GFP).  Either way the kernel's own callback
 * frees it once its last node is dropped, which may be after optprobe
 * has gone (a dead task's nodes, flushed late).
 */
static notrace struct rethook *op_x86_rethook_alloc(struct op_ret *ret, unsigned int num,
						    gfp_t gfp)
{
	struct rethook *rh;

	if (gfpflags_allow_blocking(gfp)) {
		rh = op_kcall(rethook_alloc)(ret, op_x86_rethook_handler,
					     sizeof(struct op_x86_ret_node), num);
		return IS_ERR(rh) ? NULL : rh;
	}
	rh = kzalloc(sizeof(*rh), gfp);
	if (!rh)
		return NULL;
	rh->data = ret;
	rcu_assign_pointer(rh->handler, op_x86_rethook_handler);
	if (objpool_init(&rh->pool, num, sizeof(struct op_x86_ret_node), gfp, rh,
			 op_x86_ret_node_init, op_ksyms.arch.by_version.rethook_fini_pool)) {
		kfree(rh);
		return NULL;
	}
	return rh;
}

NOKPROBE_SYMBOL(op_x86_rethook_alloc);

/* The rethook in the chain's place @i has as many nodes as all before it. */
static notrace unsigned int op_x86_ret_chain_nodes(unsigned int i)
{
	return i ? 16U << (i - 1) : 16U;
}

NOKPROBE_SYMBOL(op_x86_ret_chain_nodes);

/*
 * Objpools of up to this many nodes are all a hit makes (the chain's
 * first 512 nodes, its first six places): each possible CPU's slot holds
 * room for all of them, allocated and cleared with interrupts off.  The
 * grow work makes the larger ones, keeping as many spares as there are
 * instances.
 */
#define OP_X86_RET_HIT_NODES	256U

/*
 * Grow the chain by its next rethook, all of whose nodes become spare.
 * Process context and hits (@gfp says which) may grow it at once: each
 * makes the rethook of the first empty place, and one takes the place
 * (cmpxchg(), which orders the rethook's making before it: acquire in
 * op_x86_ret_node_get()); a loser frees what it made and finds the
 * winner's spares.  The places fill in order and stay filled, so hits
 * read up to the first empty one.
 *
 * Return: 0; -EAGAIN if another took the place first, -ENOSPC if the
 * chain is full, -ENOMEM if no rethook could be made (or none as large
 * as the place needs from a hit: OP_X86_RET_HIT_NODES).
 */
static notrace int op_x86_ret_chain_grow(struct op_ret *ret, gfp_t gfp)
{
	struct llist_node *first = NULL, *last = NULL;
	struct op_arch_ret *a = &ret->arch;
	struct op_x86_ret_node *n;
	struct rethook_node *node;
	struct rethook *rh;
	unsigned int i, num;

	for (i = 0; i < OP_X86_RETHOOKS && READ_ONCE(a->rh[i]); i++)
		;
	if (i == OP_X86_RETHOOKS)
		return -ENOSPC;
	num = op_x86_ret_chain_nodes(i);
	if (!gfpflags_allow_blocking(gfp) && num > OP_X86_RET_HIT_NODES)
		return -ENOMEM;
	rh = op_x86_rethook_alloc(ret, num, gfp);
	if (!rh)
		return -ENOMEM;
	/* not published yet: no call takes from its pool meanwhile */
	while ((node = op_x86_ret_pop(rh))) {
		n = container_of(node, struct op_x86_ret_node, node);
		n->spare.next = first;
		first = &n->spare;
		last = last ?: first;
		if (gfpflags_allow_blocking(gfp))
			cond_resched();
	}
	if (cmpxchg(&a->rh[i], NULL, rh)) {
		/* all its nodes back, so that it can be freed whole */
		while (first) {
			n = container_of(first, struct op_x86_ret_node, spare);
			first = first->next;
			op_x86_ret_push(&n->node);
		}
		op_kcall(rethook_free)(rh);
		return -EAGAIN;
	}
	atomic_add(num, &a->nodes);
	/* then its nodes, for hits to put instances on: they find them published */
	if (first)
		llist_add_batch(first, last, &a->spare);
	return 0;
}

NOKPROBE_SYMBOL(op_x86_ret_chain_grow);

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

/* A spare node for @inst, growing the chain with @gfp while there is none. */
static notrace int op_x86_ret_add(struct op_ret *ret, struct op_ret_inst *inst, gfp_t gfp)
{
	struct op_arch_ret *a = &ret->arch;
	struct op_x86_ret_node *n;
	int err;

	while (!(n = op_x86_ret_spare(a))) {
		err = op_x86_ret_chain_grow(ret, gfp);
		if (err && err != -EAGAIN)
			return err;
	}
	op_x86_ret_ride(a, inst, n);
	return 0;
}

NOKPROBE_SYMBOL(op_x86_ret_add);

/*
 * Process context; the hit path may take from the pools, and grow the
 * chain, meanwhile.  -ENOSPC (the chain is full) or -ENOMEM: no node for
 * the instance, which the core then does not count.
 */
int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst)
{
	int err = op_x86_ret_add(ret, inst, GFP_KERNEL);

	/*
	 * A pool that grows keeps at least as many spares as it has
	 * instances (the chain's next rethook doubles the nodes): hits then
	 * seldom have to allocate a rethook themselves.
	 */
	if (!err && ret->auto_size &&
	    atomic_read(&ret->arch.nodes) < 2 * (atomic_read(&ret->pool_size) + 1))
		op_x86_ret_chain_grow(ret, GFP_KERNEL);
	return err;
}

/*
 * A hit on a maxactive 0 probe, where an interrupt could allocate
 * (core/retprobe.c: op_ret_grow_now()), that found no instance: a spare
 * node, or a new rethook allocated as an interrupt would, so that a burst
 * of calls is followed in full.  objpool_init() takes kmalloc() for
 * GFP_ATOMIC's bits and vmalloc() otherwise (6.7 to 6.12 decide so), and
 * __GFP_HIGH lets the allocation go down to half the min watermark,
 * where the core's instance (GFP_NOWAIT) stops at it; __GFP_NOMEMALLOC
 * keeps it out of the emergency reserves.  The rethooks hits make are
 * small (OP_X86_RET_HIT_NODES) and made once per place in the chain.
 */
#define OP_X86_RET_HIT_GFP	(GFP_ATOMIC | __GFP_NOMEMALLOC | __GFP_NOWARN)

notrace int op_arch_ret_add_now(struct op_ret *ret, struct op_ret_inst *inst)
{
	return op_x86_ret_add(ret, inst, OP_X86_RET_HIT_GFP);
}

NOKPROBE_SYMBOL(op_arch_ret_add_now);

static notrace struct rethook_node *op_x86_ret_node_get(struct op_arch_ret *a)
{
	struct rethook_node *node;
	struct rethook *rh;
	unsigned int i;

	for (i = 0; i < OP_X86_RETHOOKS; i++) {
		/* acquire: pairs with op_x86_ret_chain_grow()'s cmpxchg() */
		rh = smp_load_acquire(&a->rh[i]);
		if (!rh)
			break;
		node = op_kcall(rethook_try_get)(rh);
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
	op_kcall(rethook_recycle)(inst->arch.node);
}

NOKPROBE_SYMBOL(op_x86_ret_put);

/* At a function's entry, in every mode, regs->sp points at the return address. */
void notrace op_arch_ret_hook(struct op_ret_inst *inst, struct pt_regs *regs)
{
	op_kcall(rethook_hook)(inst->arch.node, regs, false);
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
	for (i = 0; i < OP_X86_RETHOOKS && ret->arch.rh[i]; i++)
		op_kcall(rethook_free)(ret->arch.rh[i]);
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
