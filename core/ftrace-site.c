// SPDX-License-Identifier: GPL-2.0
/*
 * Sites on a function's ftrace call site (x86_64 fentry, ppc64le
 * mprofile-kernel): driven through the kernel's exported ftrace API rather
 * than a breakpoint, since ftrace owns that text.
 *
 * One ftrace_ops serves every such site; its filter holds their addresses.
 * It saves full registers and may modify the instruction pointer, so that
 * handlers see the same pt_regs as from a breakpoint and a pre handler can
 * redirect the call (function override).
 *
 * Not named ftrace.c: powerpc's recordmcount skips every object of that
 * name, whose _mcount calls would then stay calls (four instructions and
 * a stub on every hit) and its functions untraceable.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/trace_recursion.h>

#include "arch.h"
#include "dispatch.h"
#include "internal.h"

/**
 * op_ftrace_site_at() - is @addr a function's ftrace call site?
 * @addr:	an address in text
 *
 * ftrace_location() would also map a function's start to its site, which
 * asks kallsyms where the function starts, a walk of every symbol of a
 * module: for thousands of probes in module text, as costly as all the
 * rest of registering them.
 */
bool op_ftrace_site_at(unsigned long addr)
{
	return op_kcall(ftrace_location_range)(addr, addr) == addr;
}

/**
 * op_func_entry() - where a probe on "@func + 0" goes
 * @func:	a function's address
 *
 * Return: its ftrace site if it has one, else its entry past what the
 * arch skips (op_arch_local_entry()).
 */
unsigned long op_func_entry(unsigned long func)
{
	return op_kcall(ftrace_location)(func) ?: op_arch_local_entry(func);
}

static __always_inline void op_ftrace_hit(unsigned long ip, struct pt_regs *regs, bool miss)
{
	unsigned long next = ip + MCOUNT_INSN_SIZE, sp;
	struct op_site *site = op_site_lookup(ip);

	if (!site)
		return;
	if (miss) {
		op_dispatch_missed(site);
		return;
	}
	if (!regs)
		return;
	sp = kernel_stack_pointer(regs);
	/* as at a breakpoint: the pre handler sees the probed address */
	instruction_pointer_set(regs, ip);
	if (!op_dispatch_pre(site, regs)) {
		instruction_pointer_set(regs, next);
		op_dispatch_post(site, regs);
	} else if (unlikely(kernel_stack_pointer(regs) != sp)) {
		op_arch_ftrace_sp(regs, sp);
	}
}

/* op_ftrace_hit() where RCU is not watching (dispatch.h) */
static noinline void notrace op_ftrace_hit_unwatched(unsigned long ip, struct pt_regs *regs,
						     bool miss)
{
	unsigned long flags = op_dispatch_rcu_enter();

	op_ftrace_hit(ip, regs, miss);
	op_dispatch_rcu_exit(flags);
}

NOKPROBE_SYMBOL(op_ftrace_hit_unwatched);

/*
 * ftrace passes the call site's address as @ip; on return it resumes at
 * the instruction pointer in @fregs, which it set to the instruction after
 * the call site.  A hit under another ftrace callback's recursion
 * protection is a miss.
 */
static void notrace op_ftrace_handler(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	int bit;

	/* disables preemption when it succeeds */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		preempt_disable_notrace();
	if (likely(op_rcu_watching()))
		op_ftrace_hit(ip, regs, bit < 0);
	else
		op_ftrace_hit_unwatched(ip, regs, bit < 0);
	if (bit < 0)
		preempt_enable_notrace();
	else
		ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(op_ftrace_handler);

/*
 * Where RCU is not watching (idle), the handler makes it watch
 * (op_dispatch_rcu_enter()), so that the grace periods of op_quiesce()
 * cover every running handler and no hit is lost there.
 * FTRACE_OPS_FL_RCU would skip such hits instead, through ftrace's
 * assist function, which takes a recursion bit and disables preemption
 * around an indirect call of the handler, which does both again, on
 * every hit.
 */
static struct ftrace_ops op_ftrace_ops = {
	.func = op_ftrace_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

/* Armed ftrace sites; op_ftrace_ops is registered while there are any. */
static unsigned int op_ftrace_sites;

/**
 * op_ftrace_arm() - start calling a site's handlers from its ftrace site
 * @site:	the site, at an ftrace call site
 *
 * Context: op_mutex held.
 * Return: 0, or ftrace's error (e.g. -EBUSY: another user modifies the
 * instruction pointer of this function).
 */
int op_ftrace_arm(struct op_site *site)
{
	int ret;

	lockdep_assert_held(&op_mutex);
	ret = ftrace_set_filter_ip(&op_ftrace_ops, site->addr, 0, 0);
	if (ret)
		return ret;
	if (!op_ftrace_sites) {
		ret = register_ftrace_function(&op_ftrace_ops);
		if (ret) {
			ftrace_set_filter_ip(&op_ftrace_ops, site->addr, 1, 0);
			return ret;
		}
	}
	op_ftrace_sites++;
	return 0;
}

/**
 * op_ftrace_disarm() - stop calling a site's handlers
 * @site:	an armed ftrace site
 *
 * Context: op_mutex held.
 */
void op_ftrace_disarm(struct op_site *site)
{
	lockdep_assert_held(&op_mutex);
	/* Unregister before the filter empties: an empty filter traces every function. */
	if (op_ftrace_sites == 1)
		unregister_ftrace_function(&op_ftrace_ops);
	ftrace_set_filter_ip(&op_ftrace_ops, site->addr, 1, 0);
	op_ftrace_sites--;
}

/* At unload, when no site is armed: free the filter's hash. */
void op_ftrace_exit(void)
{
	ftrace_free_filter(&op_ftrace_ops);
}
