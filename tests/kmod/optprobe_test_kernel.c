// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on a kernel function, gcd(): one at its entry (ftrace mode) and
 * one on the first instruction inside it (trap mode).  Other code may call
 * gcd() at any time, so the handlers count only the calls with this
 * test's arguments: the counts are exact, for calls made here and for
 * those lcm() makes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gcd.h>
#include <linux/kprobes.h>
#include <linux/lcm.h>
#include <linux/module.h>

#include "optprobe_test.h"

#define ARG_A		(3UL * 5 * 7 * 1009)
#define ARG_B		(5UL * 7 * 11 * 1013)
#define NR_CALLS	1000
#define NR_LCM_CALLS	10

static atomic_t hits[2];

static int gcd_pre(struct optprobe *p, struct pt_regs *regs)
{
	if (test_arg(regs, 0) == ARG_A && test_arg(regs, 1) == ARG_B)
		atomic_inc(&hits[!!(p->flags & OPTPROBE_F_NOOPT)]);
	return 0;
}

static int __init test_kernel_init(void)
{
	struct kprobe kp = { .symbol_name = "gcd" };
	unsigned long a = ARG_A;
	unsigned int i, wrong = 0;
	struct optprobe entry, inside;
	int re, ri = -ENOENT, kret, err, e, n;
	enum optprobe_mode me, mi;
	struct ktap t;

	ktap_start(&t, 6);
	kret = register_kprobe(&kp);
	if (!kret)
		unregister_kprobe(&kp);
	test_probe_init(&entry, "gcd", 0, gcd_pre, NULL, 0);
	re = optprobe_register(&entry);
	me = optprobe_mode(&entry);
	ktap_check(&t, !re && me == OPTPROBE_MODE_FTRACE && !kret && entry.addr == kp.addr,
		   "entry_probe_is_ftrace_where_kprobes_put_it",
		   "register %d, mode %s, at %pS; kprobe (%d) at %pS", re, test_mode_name(me),
		   entry.addr, kret, kp.addr);

	test_probe_init(&inside, NULL, test_next_boundary((unsigned long)entry.addr, &err),
			gcd_pre, NULL, OPTPROBE_F_NOOPT);
	if (inside.addr)
		ri = optprobe_register(&inside);
	mi = optprobe_mode(&inside);
	ktap_check(&t, !ri && mi == OPTPROBE_MODE_TRAP, "inside_probe_is_trap",
		   "register %d (boundary %d), mode %s, at %pS", ri, err, test_mode_name(mi),
		   inside.addr);

	/* gcd() and lcm() are __attribute_const__: hide the arguments, or one call does */
	for (i = 0; i < NR_CALLS; i++) {
		OPTIMIZER_HIDE_VAR(a);
		wrong += gcd(a, ARG_B) != 5 * 7;
	}
	e = atomic_read(&hits[0]);
	n = atomic_read(&hits[1]);
	ktap_check(&t, e == NR_CALLS && !wrong, "entry_hits_equal_calls",
		   "%d hits for %u calls, %u wrong results", e, NR_CALLS, wrong);
	ktap_check(&t, n == NR_CALLS, "inside_hits_equal_calls", "%d hits for %u calls", n,
		   NR_CALLS);

	for (i = 0; i < NR_LCM_CALLS; i++) {
		OPTIMIZER_HIDE_VAR(a);
		wrong += lcm(a, ARG_B) != ARG_A / (5 * 7) * ARG_B;
	}
	e = atomic_read(&hits[0]) - e;
	n = atomic_read(&hits[1]) - n;
	ktap_check(&t, e == NR_LCM_CALLS && n == NR_LCM_CALLS && !wrong,
		   "hits_equal_calls_from_kernel_code", "%d and %d hits for %u lcm() calls",
		   e, n, NR_LCM_CALLS);
	ktap_check(&t, !entry.nmissed && !inside.nmissed, "no_miss", "nmissed %lu and %lu",
		   entry.nmissed, inside.nmissed);
	if (!re)
		optprobe_unregister(&entry);
	if (!ri)
		optprobe_unregister(&inside);
	return 0;
}

static void __exit test_kernel_exit(void)
{
}

module_init(test_kernel_init);
module_exit(test_kernel_exit);

MODULE_DESCRIPTION("optprobe test: probes on a kernel function");
MODULE_LICENSE("GPL");
