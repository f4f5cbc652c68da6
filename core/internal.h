/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared between the files of optprobe's core. */
#ifndef OPTPROBE_INTERNAL_H
#define OPTPROBE_INTERNAL_H

#include <linux/dcache.h>
#include <linux/hash.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "arch.h"
#include "exports.h"
#include "site.h"

struct module;

/*
 * Release op_mutex after an operation that may have written text: the
 * backend first makes its writes seen everywhere (op_arch_commit()).
 */
static inline void op_unlock(void)
{
	op_arch_commit();
	mutex_unlock(&op_mutex);
}

/*
 * dispatch.c: the hit path's table of sites, and waiting the hit path
 * out.  A site is in the bucket of hash_long() of its address, its chain
 * linked by ->next: one pointer a site, not a list node's two.
 */
#define OP_SITES_BITS	10
extern struct op_site __rcu *op_sites[1 << OP_SITES_BITS];

static inline struct op_site __rcu **op_sites_bucket(unsigned long addr)
{
	return &op_sites[hash_long(addr, OP_SITES_BITS)];
}

/* The next site of a chain, for writers (op_mutex held) */
#define op_site_next(p)		rcu_dereference_protected(p, lockdep_is_held(&op_mutex))
struct op_site *op_sites_first(unsigned int *bkt);
struct op_site *op_sites_next(struct op_site *site, unsigned int *bkt);
void op_quiesce(bool slots);

/* sites.c */
void op_set_all_enabled(bool enabled);
bool op_get_all_enabled(void);
void op_sites_gone(struct module *mod, bool init);
int op_site_change(struct op_site *site, struct list_head *unopt);
void op_site_drop_sole(struct op_site *site);
void op_sites_unlist(struct list_head *release);
int op_sites_init(void);
void op_sites_exit(void);
void op_sites_cache_destroy(void);
void op_site_join(struct op_site *site, struct optprobe *p);
void op_site_leave(struct op_site *site, struct optprobe *p);
void op_site_wait(struct op_site *site);
void op_sites_look_later(void);
void op_release(struct list_head *release);
struct op_site *op_site_create(unsigned long addr, struct module *mod, enum op_reason *why);
void op_site_add(struct op_site *site);
void op_site_remove_new(struct op_site *site);
void op_site_free_unused(struct op_site *site);
enum op_reason op_site_reason(const struct op_site *site);

/* A per-CPU counter's sum over the CPUs, for readers off the hit path. */
static inline unsigned long op_percpu_sum(const unsigned long __percpu *counter)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(counter, cpu));
	return sum;
}

/* counters.c: probes' hit counters */
unsigned long __percpu *op_counter_alloc(void);
void op_counter_free(unsigned long __percpu *counter);
void op_counters_exit(void);

/* validate.c */
int op_probe_address(const struct optprobe *p, unsigned long *addr, enum op_reason *why);
void op_check_forget(void);
int op_check_address(unsigned long addr, struct module **mod, enum op_reason *why);
int op_next_insn(unsigned long addr, unsigned long *next, enum op_reason *why);

/* blacklist.c */
int op_blacklist_init(void);
const char *op_blacklisted(unsigned long addr);

/* slots.c */
void op_slots_release(struct list_head *sites);
void op_slots_show(struct seq_file *m);

/* ftrace-site.c: sites at a function's ftrace call site */
unsigned long op_func_entry(unsigned long func);
int op_ftrace_arm(struct op_site *site);
void op_ftrace_disarm(struct op_site *site);
void op_ftrace_exit(void);

/* optimizer.c: the only code that moves a site's state */
/* The kernel's kprobe optimizer waits as long to gather a batch. */
#define OP_OPT_DELAY	5
/* How often sites that wait on something else are looked at again. */
#define OP_OPT_RECHECK	HZ
int op_optimizer_init(void);
void op_optimizer_exit(void);
void op_site_disarm(struct op_site *site);
void op_site_gone(struct op_site *site);
bool op_opt_wanted(struct op_site *site);
void op_opt_queue(struct op_site *site);
void op_opt_cancel(struct op_site *site);
void op_opt_arm_begin(struct list_head *sites);
int op_opt_arm_end(struct list_head *sites, bool write);
void op_opt_reoptimize(struct op_site *site);
void op_opt_rehold(struct op_site *site);
void op_opt_unoptimize(struct list_head *sites);
int op_opt_make_room(unsigned long addr);
void op_opt_retry(void);
int op_opt_site(struct op_site *site, struct list_head *unopt);
bool op_opt_settle(struct list_head *unopt, struct list_head *release);
void op_opt_settle_all(void);
void op_opt_recheck_now(void);
void op_opt_flush(void);

/* module.c */
int op_module_init(void);
void op_module_exit(void);

/* retprobe.c */
int op_ret_init(void);
void op_ret_exit(void);
void op_ret_show(struct seq_file *m);

/* debugfs.c */
int op_debugfs_init(void);
void op_debugfs_exit(void);

/* switches.c: a switch, for its module parameter and its debugfs file */
struct op_switch {
	bool (*get)(void);
	void (*set)(bool on);
};

extern const struct op_switch op_enabled_switch, op_optimize_switch, op_boost_switch;
void op_switches_start(void);
void op_switches_stop(void);

#endif /* OPTPROBE_INTERNAL_H */
