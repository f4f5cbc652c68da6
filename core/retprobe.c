// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes (include/optprobe.h: struct optretprobe): the API, the
 * pools of per-call instances, accounting, and what happens to calls
 * still in flight when a probe goes or a task exits inside one.
 *
 * Entry: an optprobe at the function's entry (op_ret_entry()) takes an
 * instance from the pool, runs the entry handler, and has the backend
 * hook the return (arch.h: op_arch_ret_*()).  Return: the backend calls
 * op_ret_returned(), gives the instance back, and calls op_ret_done().
 *
 * Pools: maxactive N > 0 is a pool of exactly N.  maxactive 0 starts at
 * OP_RET_POOL_MIN and doubles, up to OP_RET_POOL_MAX, whenever the hit
 * path finds a quarter of it in use (the backend counts what it takes
 * and gives back: op_ret_took(), op_ret_reclaimed(); instances it keeps
 * aside per CPU count as free, so that it may grow later, up to three
 * quarters in use, where those are empty): the hit path only raises an
 * irq_work (safe in NMI), which queues the allocation on optprobe's
 * high-priority workqueue.  Growing that early leaves calls a quarter of
 * the pool or more to arrive in before the allocation is done; a burst
 * that takes them all adds instances on its hits (op_ret_grow_now()).
 *
 * Calls in flight: while a probe lives, the per-CPU counts its hit paths
 * keep anyway tell how many (followed, less returned and abandoned), at
 * no cost of their own.  Unregistering takes the entry probe away, stops
 * handlers (@dead, then a grace period), takes a reference on optprobe's
 * module and counts down the calls still in flight (op_ret_drain()).
 * The last call to return frees the probe and its instances and drops
 * the module reference, from a work item: until then optprobe cannot be
 * unloaded, since those calls return through its (or the kernel's)
 * trampoline into its code.  optprobe's unload drains the workqueue, so
 * no work item still runs its code afterwards.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>

#include "dispatch.h"
#include "internal.h"
#include "ksyms.h"
#include "mode-name.h"
#include "retprobe.h"

/* A maxactive 0 pool's first size (at least); OP_RET_POOL_MAX in retprobe.h. */
#define OP_RET_POOL_MIN	16

/* @draining before the count of calls in flight is known: more than could ever return */
#define OP_RET_DRAIN_BIAS	(LONG_MAX / 2)

static DEFINE_MUTEX(op_ret_mutex);	/* guards op_rets and op_rets_draining */
static LIST_HEAD(op_rets);		/* registered return probes */
static LIST_HEAD(op_rets_draining);	/* unregistered, with calls in flight */
static struct workqueue_struct *op_ret_wq;
static struct tracepoint *op_ret_exit_tp;

static void op_ret_warn(const struct optretprobe *rp, const char *what, enum op_reason why, int err)
{
	if (rp->flags & OPTPROBE_F_QUIET)
		return;
	if (rp->symbol)
		pr_warn("cannot %s return probe on %s: %s (%d)\n", what, rp->symbol,
			op_reason_text(why), err);
	else
		pr_warn("cannot %s return probe on %pS: %s (%d)\n", what, rp->addr,
			op_reason_text(why), err);
}

/* A new instance for @ret's pool, which @add puts there; false if none could be had. */
static bool op_ret_add(struct op_ret *ret, gfp_t gfp,
		       int (*add)(struct op_ret *ret, struct op_ret_inst *inst), int *err)
{
	struct op_ret_inst *inst;

	inst = kzalloc(struct_size(inst, data, ret->data_size), gfp);
	if (!inst) {
		*err = -ENOMEM;
		return false;
	}
	inst->ret = ret;
	/* counted before @add publishes it: a hit's take must not drive nfree below 0 */
	atomic_inc(&ret->pool_size);
	if (ret->auto_size)
		atomic_inc(&ret->nfree);
	*err = add(ret, inst);
	if (!*err)
		return true;
	if (ret->auto_size)
		atomic_dec(&ret->nfree);
	atomic_dec(&ret->pool_size);
	kfree(inst);
	return false;
}

/*
 * Add up to @n instances to @ret's pool.  Only one caller at a time: the
 * registration before the probe is armed, then the probe's grow_work
 * (hits may add meanwhile: op_ret_grow_now()).
 */
static int op_ret_grow(struct op_ret *ret, unsigned int n)
{
	int err = 0;

	while (n-- && op_ret_add(ret, GFP_KERNEL, op_arch_ret_add, &err))
		;
	return err;
}

static void op_ret_grow_work(struct work_struct *work)
{
	struct op_ret *ret = container_of(work, struct op_ret, grow_work);
	unsigned int size;
	int err;

	while (op_ret_pool_low(ret, atomic_read(&ret->nfree))) {
		/* hits may have grown it past pool_max meanwhile */
		size = atomic_read(&ret->pool_size);
		if (size >= ret->pool_max)
			break;
		err = op_ret_grow(ret, min(size, ret->pool_max - size));
		if (err) {
			/* no room left in the backend: stop asking (-ENOMEM: ask again) */
			if (err == -ENOSPC)
				WRITE_ONCE(ret->pool_max, atomic_read(&ret->pool_size));
			break;
		}
	}
}

static void op_ret_grow_kick(struct irq_work *work)
{
	queue_work(op_ret_wq, &container_of(work, struct op_ret, grow_kick)->grow_work);
}

/* Hits on @ret may add instances themselves before this many tries fail. */
#define OP_RET_GROW_NOW_TRIES	4

/*
 * A burst of calls (a thundering herd entering at once) can outrun the
 * grow work, which waits for a worker to be scheduled among them.  So a
 * hit that finds a maxactive 0 pool empty adds an instance itself, where
 * an interrupt could have allocated it: outside NMI, the probed code
 * running with interrupts enabled.  Any interrupt handler may allocate
 * without sleeping at such a place, and the allocators take their locks
 * with interrupts disabled, so the interrupted code holds none of them.
 * Without the reserves an interrupt may use (GFP_NOWAIT, not GFP_ATOMIC):
 * a miss is better than memory taken from where it is needed more.
 * At an ftrace site the handler runs with the probed code's own interrupt
 * state; elsewhere the saved registers tell it (op_arch_regs_irqs_on()).
 * The instance goes into the pool, from which the hit takes again: it may
 * find another hit's there first, or lose its own to one.
 */
static noinline struct op_ret_inst *op_ret_grow_now(struct op_ret *ret, struct pt_regs *regs)
{
	struct op_ret_inst *inst = NULL;
	struct op_site *site = op_site_of(&ret->entry);
	unsigned int tries;
	int err;

	if (!ret->auto_size || in_nmi() || !site ||
	    (site->ftrace ? irqs_disabled() : !op_arch_regs_irqs_on(regs)))
		return NULL;
	for (tries = 0; !inst && tries < OP_RET_GROW_NOW_TRIES; tries++) {
		if (atomic_read(&ret->pool_size) >= READ_ONCE(ret->pool_max) ||
		    !op_ret_add(ret, GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC,
				op_arch_ret_add_now, &err))
			return NULL;
		inst = op_arch_ret_get(ret);
	}
	return inst;
}

NOKPROBE_SYMBOL(op_ret_grow_now);

/*
 * The pre handler of a return probe's entry probe.  It runs with
 * op_running set, so no hit on this CPU comes here in between: its
 * per-CPU counts need no interrupt masking to be exact (as hits' counts,
 * dispatch.h).
 */
bool notrace op_ret_returned_unwatched(struct op_ret_inst *inst, struct pt_regs *regs)
{
	unsigned long flags = op_dispatch_rcu_enter();
	bool lived = op_ret_returned_watched(inst, regs);

	op_dispatch_rcu_exit(flags);
	return lived;
}

NOKPROBE_SYMBOL(op_ret_returned_unwatched);

static int notrace op_ret_entry(struct optprobe *p, struct pt_regs *regs)
{
	struct op_ret *ret = container_of(p, struct op_ret, entry);
	struct optretprobe *rp = ret->rp;
	struct op_ret_inst *inst;

	/*
	 * A dead task's final __schedule() never returns, nor what it calls
	 * before the switch, and its task-exit hook has run: not followed.
	 * (Nor an interrupt's call on it in between: this may run in a trap
	 * handler, whose context says nothing of the probed code's.)
	 */
	if (unlikely(READ_ONCE(current->__state) == TASK_DEAD)) {
		op_count(&rp->nmissed);
		return 0;
	}
	inst = op_arch_ret_get(ret);
	if (unlikely(!inst))
		inst = op_ret_grow_now(ret, regs);
	if (!inst) {
		op_count(&rp->nmissed);
		return 0;
	}
	if (unlikely(inst->held)) {
		/* not counted in the pool: the backend's op_ret_took() was one too many */
		inst->held = false;
		op_ret_reclaimed(ret);
	}
	if (rp->entry_handler && rp->entry_handler(rp, regs, inst->data)) {
		op_arch_ret_put(ret, inst);
		__this_cpu_inc(ret->stats->skipped);
		return 0;
	}
	op_arch_ret_hook(inst, regs);
	/* in flight from here on: op_ret_drain() */
	__this_cpu_inc(ret->stats->followed);
	return 0;
}

NOKPROBE_SYMBOL(op_ret_entry);

/**
 * op_ret_abandoned() - a followed call's task exited inside it
 * @ret:	its probe, which may be freed from here on if it is dead
 * @back:	its instance is back in the pool; if not, the backend has set
 *		its ->held, and it counts free again only when a call takes
 *		it (op_ret_entry()), so that a task that stays unreaped
 *		cannot make the pool look roomier than it is
 *
 * Counted as op_ret_returned() counts a return, in a preempt-disabled
 * section of its own (op_ret_drain() relies on it): the tracepoint that
 * calls this need not disable preemption on every kernel.
 *
 * Context: the exiting task.
 */
void notrace op_ret_abandoned(struct op_ret *ret, bool back)
{
	bool live;

	preempt_disable_notrace();
	live = !READ_ONCE(ret->dead);
	if (live)
		this_cpu_inc(ret->stats->abandoned);
	if (back)
		op_ret_reclaimed(ret);
	op_ret_done(ret, live);
	preempt_enable_notrace();
}

/* Free a probe no call is in flight through, and its instances. */
static void op_ret_free(struct op_ret *ret)
{
	op_arch_ret_release(ret);
	free_percpu(ret->stats);
	kfree(ret);
}

static void op_ret_free_work(struct work_struct *work)
{
	struct op_ret *ret = container_of(work, struct op_ret, free_work);

	/* the irq_work that queued this may still be finishing on its CPU */
	irq_work_sync(&ret->free_kick);
	mutex_lock(&op_ret_mutex);
	list_del(&ret->list);
	mutex_unlock(&op_ret_mutex);
	op_ret_free(ret);
	/* taken by op_ret_unregister_batch(); optprobe's unload drains op_ret_wq */
	module_put(THIS_MODULE);
}

static void op_ret_free_kick(struct irq_work *work)
{
	queue_work(op_ret_wq, &container_of(work, struct op_ret, free_kick)->free_work);
}

static void op_ret_stats_sum(struct op_ret *ret, struct op_ret_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct op_ret_stats *s = per_cpu_ptr(ret->stats, cpu);

		sum->followed += READ_ONCE(s->followed);
		sum->skipped += READ_ONCE(s->skipped);
		sum->ran += READ_ONCE(s->ran);
		sum->nested += READ_ONCE(s->nested);
		sum->abandoned += READ_ONCE(s->abandoned);
	}
}

/* Followed calls not returned yet (exact once the counts are final). */
static unsigned long op_ret_in_flight(const struct op_ret_stats *sum)
{
	return sum->followed - sum->ran - sum->nested - sum->abandoned;
}

/*
 * After @dead and the grace period that follows it: no call is followed
 * any more and the counts are final, so the calls they leave in flight
 * are those still to return, or that returned since @dead, each counting
 * @draining down by one from OP_RET_DRAIN_BIAS.  Take the bias off less
 * those calls: whichever reaches 0, this or the last return, frees the
 * probe.
 */
static void op_ret_drain(struct op_ret *ret)
{
	struct op_ret_stats sum;
	unsigned long in_flight;

	op_ret_stats_sum(ret, &sum);
	in_flight = op_ret_in_flight(&sum);
	/* each call in flight holds an instance: more is a miscount, to leak, not free */
	if (WARN_ON_ONCE(in_flight > atomic_read(&ret->pool_size)))
		return;
	/*
	 * A call that never returns (a task inside the function that never
	 * leaves it, and never exits) keeps optprobe loaded for good: say so
	 * now, and in debugfs "retprobes" for as long as it lasts.
	 */
	if (in_flight)
		pr_warn("return probe on %ps unregistered with %lu calls in flight: optprobe stays loaded until they return\n",
			ret->entry.addr, in_flight);
	if (atomic_long_sub_and_test(OP_RET_DRAIN_BIAS - in_flight, &ret->draining))
		queue_work(op_ret_wq, &ret->free_work);
}

/* The address of the function's entry that @rp names, as for an optprobe on symbol + 0. */
static int op_ret_entry_address(const struct optretprobe *rp, unsigned long *entry,
				enum op_reason *why)
{
	unsigned long func, size, offset;

	if (rp->symbol) {
		func = op_kcall(kallsyms_lookup_name)(rp->symbol);
		if (!func) {
			*why = OP_R_UNKNOWN_SYMBOL;
			return -ENOENT;
		}
	} else {
		func = (unsigned long)rp->addr;
	}
	if (!op_kcall(kallsyms_lookup_size_offset)(func, &size, &offset) || offset) {
		*why = OP_R_RET_NOT_START;
		return -EINVAL;
	}
	/*
	 * What calls optprobe's task-exit hook (op_ret_task_exit()) returns
	 * after it, where the hook took every call of the task to be over.
	 */
	if (func == (unsigned long)op_ret_exit_tp->iterator ||
	    func == (unsigned long)op_ret_exit_tp->static_call_tramp) {
		*why = OP_R_RET_EXIT_HOOK;
		return -EINVAL;
	}
	/* called after that hook, never returns: a call would stay in flight */
	if (func == (unsigned long)op_ksyms.do_task_dead) {
		*why = OP_R_RET_NEVER_RETURNS;
		return -EINVAL;
	}
	*entry = op_func_entry(func);
	return 0;
}

static int op_ret_check(const struct optretprobe *rp, enum op_reason *why)
{
	if (rp->priv) {
		*why = OP_R_ALREADY_REGISTERED;
		return -EEXIST;
	}
	if (!rp->handler) {
		*why = OP_R_NO_HANDLER;
		return -EINVAL;
	}
	if (rp->maxactive < 0) {
		*why = OP_R_RET_MAXACTIVE;
		return -EINVAL;
	}
	if (!rp->symbol == !rp->addr) {
		*why = OP_R_SYMBOL_XOR_ADDR;
		return -EINVAL;
	}
	if (rp->data_size > OPTRETPROBE_DATA_MAX) {
		*why = OP_R_RET_DATA_SIZE;
		return -E2BIG;
	}
	return 0;
}

/* A new, unarmed op_ret for @rp with its first instances; an ERR_PTR() on failure. */
static struct op_ret *op_ret_alloc(struct optretprobe *rp, unsigned long entry)
{
	struct op_ret *ret = kzalloc(sizeof(*ret), GFP_KERNEL);
	int err = -ENOMEM;

	if (!ret)
		return ERR_PTR(-ENOMEM);
	ret->stats = alloc_percpu(struct op_ret_stats);
	if (!ret->stats)
		goto fail_free;
	atomic_long_set(&ret->draining, OP_RET_DRAIN_BIAS);
	err = op_arch_ret_prepare(ret);
	if (err)
		goto fail_stats;
	ret->rp = rp;
	ret->data_size = rp->data_size;
	ret->auto_size = !rp->maxactive;
	ret->pool_max = OP_RET_POOL_MAX;
	init_irq_work(&ret->grow_kick, op_ret_grow_kick);
	INIT_WORK(&ret->grow_work, op_ret_grow_work);
	init_irq_work(&ret->free_kick, op_ret_free_kick);
	INIT_WORK(&ret->free_work, op_ret_free_work);
	ret->entry.addr = (void *)entry;
	ret->entry.pre_handler = op_ret_entry;
	ret->entry.flags = rp->flags;
	/* the entry's misses are calls not followed: exact accounting */
	ret->entry.missed = &rp->nmissed;
	err = op_ret_grow(ret, rp->maxactive ?: max_t(unsigned int, OP_RET_POOL_MIN,
						      2 * num_possible_cpus()));
	if (err) {
		op_ret_free(ret);
		return ERR_PTR(err);
	}
	return ret;

fail_stats:
	free_percpu(ret->stats);
fail_free:
	kfree(ret);
	return ERR_PTR(err);
}

static int op_ret_register_locked(struct optretprobe *rp)
{
	enum op_reason why = OP_R_NOMEM;
	unsigned long entry;
	struct op_ret *ret;
	int err;

	lockdep_assert_held(&op_ret_mutex);
	err = op_ret_check(rp, &why) ?: op_ret_entry_address(rp, &entry, &why);
	if (err)
		goto fail;
	ret = op_ret_alloc(rp, entry);
	if (IS_ERR(ret)) {
		err = PTR_ERR(ret);
		if (err == -ENOSPC)
			why = OP_R_RET_POOL_TAKEN;
		goto fail;
	}
	rp->nmissed = 0;
	err = optprobe_register(&ret->entry);
	if (err) {
		/* never armed: nothing was in flight */
		op_ret_free(ret);
		why = OP_R_RET_ENTRY;
		goto fail;
	}
	list_add_tail(&ret->list, &op_rets);
	WRITE_ONCE(rp->priv, ret);
	return 0;

fail:
	op_ret_warn(rp, "register", why, err);
	return err;
}

/*
 * Unregister @rps[0..@n): their entry probes in one batch, then one grace
 * period after which no handler of theirs runs; calls still in flight
 * free each probe when the last of them returns.
 */
static void op_ret_unregister_batch(struct optretprobe **rps, unsigned int n)
{
	struct optprobe **entries;
	struct op_ret *ret;
	unsigned int i, k = 0;

	entries = kcalloc(n, sizeof(*entries), GFP_KERNEL | __GFP_NOFAIL);
	mutex_lock(&op_ret_mutex);
	for (i = 0; i < n; i++) {
		ret = rps[i]->priv;
		if (!ret) {
			op_ret_warn(rps[i], "unregister", OP_R_NOT_REGISTERED, -EINVAL);
			continue;
		}
		/* taken here, once: the same probe twice is "not registered" */
		WRITE_ONCE(rps[i]->priv, NULL);
		list_move(&ret->list, &op_rets_draining);
		entries[k++] = &ret->entry;
	}
	mutex_unlock(&op_ret_mutex);
	/* no new call is followed from here on */
	optprobe_unregister_many(entries, k);
	for (i = 0; i < k; i++)
		WRITE_ONCE(container_of(entries[i], struct op_ret, entry)->dead, true);
	/* a return that saw !dead has finished its handler and its counts */
	synchronize_rcu();
	for (i = 0; i < k; i++) {
		ret = container_of(entries[i], struct op_ret, entry);
		/* the entry probe was the only one to kick it */
		irq_work_sync(&ret->grow_kick);
		cancel_work_sync(&ret->grow_work);
		__module_get(THIS_MODULE);
		op_ret_drain(ret);
	}
	kfree(entries);
}

int optretprobe_register(struct optretprobe *rp)
{
	int ret;

	mutex_lock(&op_ret_mutex);
	ret = op_ret_register_locked(rp);
	mutex_unlock(&op_ret_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(optretprobe_register);

int optretprobe_register_batch(struct optretprobe **rps, unsigned int n, unsigned int *failed)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&op_ret_mutex);
	for (i = 0; i < n && !ret; i++)
		ret = op_ret_register_locked(rps[i]);
	mutex_unlock(&op_ret_mutex);
	/* all or nothing: the ones before the failed one go again */
	if (ret) {
		op_ret_unregister_batch(rps, i - 1);
		*failed = i - 1;
	}
	return ret;
}
EXPORT_SYMBOL_GPL(optretprobe_register_batch);

int optretprobe_register_many(struct optretprobe **rps, unsigned int n)
{
	unsigned int failed;

	return optretprobe_register_batch(rps, n, &failed);
}
EXPORT_SYMBOL_GPL(optretprobe_register_many);

void optretprobe_unregister(struct optretprobe *rp)
{
	op_ret_unregister_batch(&rp, 1);
}
EXPORT_SYMBOL_GPL(optretprobe_unregister);

void optretprobe_unregister_many(struct optretprobe **rps, unsigned int n)
{
	op_ret_unregister_batch(rps, n);
}
EXPORT_SYMBOL_GPL(optretprobe_unregister_many);

int optretprobe_enable(struct optretprobe *rp)
{
	struct op_ret *ret = READ_ONCE(rp->priv);

	return ret ? optprobe_enable(&ret->entry) : -EINVAL;
}
EXPORT_SYMBOL_GPL(optretprobe_enable);

int optretprobe_disable(struct optretprobe *rp)
{
	struct op_ret *ret = READ_ONCE(rp->priv);

	return ret ? optprobe_disable(&ret->entry) : -EINVAL;
}
EXPORT_SYMBOL_GPL(optretprobe_disable);

int optretprobe_disable_many(struct optretprobe **rps, unsigned int n)
{
	struct optprobe **ps = kvmalloc_array(max(n, 1U), sizeof(*ps), GFP_KERNEL);
	struct op_ret *ret;
	unsigned int i, j = 0;
	int err;

	if (!ps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = READ_ONCE(rps[i]->priv);
		if (ret)
			ps[j++] = &ret->entry;
	}
	err = optprobe_disable_many(ps, j);
	kvfree(ps);
	return j < n ? -EINVAL : err;
}
EXPORT_SYMBOL_GPL(optretprobe_disable_many);

enum optprobe_mode optretprobe_mode(const struct optretprobe *rp)
{
	struct op_ret *ret = READ_ONCE(rp->priv);

	return ret ? optprobe_mode(&ret->entry) : OPTPROBE_MODE_DISABLED;
}
EXPORT_SYMBOL_GPL(optretprobe_mode);

/**
 * op_ret_show() - debugfs "retprobes": one line per return probe
 * @m:	the file
 *
 * The entry's address and symbol, its mode, then calls followed, skipped
 * by the entry handler, missed, in flight (followed, not returned yet)
 * and the pool's size.  Then one line per unregistered probe whose calls
 * have not all returned yet, each holding optprobe loaded: address,
 * symbol, "unregistered", the calls in flight when it was and those of
 * them still to return.
 */
void op_ret_show(struct seq_file *m)
{
	struct op_ret_stats sum;
	struct op_ret *ret;

	mutex_lock(&op_ret_mutex);
	list_for_each_entry(ret, &op_rets, list) {
		op_ret_stats_sum(ret, &sum);
		seq_printf(m, "0x%lx %pS %s %lu %lu %lu %lu %u\n",
			   (unsigned long)ret->entry.addr, ret->entry.addr,
			   op_mode_name(optprobe_mode(&ret->entry)), sum.followed, sum.skipped,
			   READ_ONCE(ret->rp->nmissed), op_ret_in_flight(&sum),
			   atomic_read(&ret->pool_size));
	}
	list_for_each_entry(ret, &op_rets_draining, list) {
		long left = atomic_long_read(&ret->draining);

		op_ret_stats_sum(ret, &sum);
		/* before op_ret_drain() takes the bias off, none has returned */
		if (left > OP_RET_DRAIN_BIAS / 2)
			left = op_ret_in_flight(&sum);
		seq_printf(m, "0x%lx %pS unregistered %lu %ld\n", (unsigned long)ret->entry.addr,
			   ret->entry.addr, op_ret_in_flight(&sum), left);
	}
	mutex_unlock(&op_ret_mutex);
}

/* sched_process_exit: the exiting task's followed calls never return. */
static void op_ret_task_exit(void *data, struct task_struct *task)
{
	op_arch_ret_task_exit();
}

static void op_ret_find_exit_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		*(struct tracepoint **)priv = tp;
}

/**
 * op_ret_init() - at load: the workqueue and the task-exit hook
 *
 * sched_process_exit's register_trace_*() helper is not exported; the
 * tracepoint itself is found by name among the kernel's.
 *
 * Return: 0 or a negative errno.
 */
int __init op_ret_init(void)
{
	int ret;

	for_each_kernel_tracepoint(op_ret_find_exit_tp, &op_ret_exit_tp);
	if (!op_ret_exit_tp) {
		pr_err("tracepoint sched_process_exit not found\n");
		return -ENOENT;
	}
	op_ret_wq = alloc_workqueue("optprobe_ret", WQ_HIGHPRI, 0);
	if (!op_ret_wq)
		return -ENOMEM;
	ret = tracepoint_probe_register(op_ret_exit_tp, op_ret_task_exit, NULL);
	if (ret)
		destroy_workqueue(op_ret_wq);
	return ret;
}

/* At unload: no return probe is registered or has a call in flight. */
void op_ret_exit(void)
{
	tracepoint_probe_unregister(op_ret_exit_tp, op_ret_task_exit, NULL);
	tracepoint_synchronize_unregister();
	/* the last free_work may still be running its final lines */
	destroy_workqueue(op_ret_wq);
	/*
	 * And the last return its own, past its count, in a trampoline of
	 * optprobe's (powerpc), where a preemptible kernel may have switched
	 * it out: only a tasks-RCU grace period waits for it.
	 */
	if (IS_ENABLED(CONFIG_TASKS_RCU))
		synchronize_rcu_tasks();
}
