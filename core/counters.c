// SPDX-License-Identifier: GPL-2.0
/*
 * Probes' hit counters: a per-CPU unsigned long each, handed out from
 * chunks that take one alloc_percpu() each.  An alloc_percpu() per probe
 * was an eighth to a quarter of registering one on ppc64le under TCG (12
 * to 26 us of 80 to 100, 10,000 probes): the per-CPU allocator searches
 * its chunks' maps, under two locks, each time.  A new chunk holds as
 * many counters as are in use, from OP_COUNTERS_MIN to OP_COUNTERS_MAX:
 * a few probes take little more per-CPU memory than before, on machines
 * with many CPUs too.
 *
 * Chunks with a free counter come first on the list, full ones after,
 * so the first chunk tells whether one must be allocated.  A chunk goes
 * back when its last counter does.  Counters are freed after a grace
 * period, outside op_mutex (api.c): they have a lock of their own.
 */
#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

#define OP_COUNTERS_MIN	8
#define OP_COUNTERS_MAX	256

struct op_counters {
	struct list_head list;		/* op_counters: with room first */
	unsigned long __percpu *base;
	unsigned int nr, used;
	DECLARE_BITMAP(map, OP_COUNTERS_MAX);
};

static LIST_HEAD(op_counters);
static unsigned int op_counters_used;	/* in every chunk */
static DEFINE_MUTEX(op_counters_lock);

static struct op_counters *op_counters_new(void)
{
	struct op_counters *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->nr = clamp(op_counters_used, OP_COUNTERS_MIN, OP_COUNTERS_MAX);
	c->base = __alloc_percpu(c->nr * sizeof(unsigned long), __alignof__(unsigned long));
	if (!c->base) {
		kfree(c);
		return NULL;
	}
	list_add(&c->list, &op_counters);
	return c;
}

/**
 * op_counter_alloc() - a hit counter, zero on every CPU
 *
 * Return: the counter, or NULL.
 */
unsigned long __percpu *op_counter_alloc(void)
{
	unsigned long __percpu *counter = NULL;
	struct op_counters *c;
	unsigned int i;
	int cpu;

	mutex_lock(&op_counters_lock);
	c = list_first_entry_or_null(&op_counters, struct op_counters, list);
	if (!c || c->used == c->nr)
		c = op_counters_new();
	if (!c)
		goto out;
	i = find_first_zero_bit(c->map, c->nr);
	__set_bit(i, c->map);
	op_counters_used++;
	if (++c->used == c->nr)
		list_move_tail(&c->list, &op_counters);
	counter = c->base + i;
	/* a new chunk is zeroed; a counter handed out again holds its old hits */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(counter, cpu), 0, sizeof(unsigned long));
out:
	mutex_unlock(&op_counters_lock);
	return counter;
}

/* The chunk that holds @counter, and its index there, or NULL. */
static struct op_counters *op_counters_of(unsigned long __percpu *counter, unsigned int *i)
{
	unsigned long off;
	struct op_counters *c;

	list_for_each_entry(c, &op_counters, list) {
		off = (__force unsigned long)counter - (__force unsigned long)c->base;
		if (off < c->nr * sizeof(unsigned long)) {
			*i = off / sizeof(unsigned long);
			return c;
		}
	}
	return NULL;
}

/**
 * op_counter_free() - give back a hit counter of op_counter_alloc()
 * @counter:	the counter, or NULL; nothing increments it any more
 */
void op_counter_free(unsigned long __percpu *counter)
{
	struct op_counters *c;
	unsigned int i;

	if (!counter)
		return;
	mutex_lock(&op_counters_lock);
	c = op_counters_of(counter, &i);
	if (WARN_ON_ONCE(!c || !test_bit(i, c->map)))
		goto out;
	__clear_bit(i, c->map);
	op_counters_used--;
	if (--c->used) {
		list_move(&c->list, &op_counters);
		goto out;
	}
	list_del(&c->list);
	free_percpu(c->base);
	kfree(c);
out:
	mutex_unlock(&op_counters_lock);
}

/*
 * At unload: the counters of probes that were never unregistered, their
 * module gone with them (op_sites_exit() says so).
 */
void op_counters_exit(void)
{
	struct op_counters *c, *tmp;

	list_for_each_entry_safe(c, tmp, &op_counters, list) {
		free_percpu(c->base);
		kfree(c);
	}
}
