// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers see exact registers: at a function's entry (ftrace mode) and on
 * the first instruction inside it (trap mode, and whatever mode the
 * engine picks without OPTPROBE_F_NOOPT), the pre handler sees the probed
 * address, the call's arguments, its stack pointer and return address,
 * with preemption disabled; the post handler then sees the address of the
 * next instruction.  Ported from the kernel's lib/test_kprobes.c
 * (test_kprobe) and extended to the registers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/preempt.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

#define NR_ARGS	6

static const int args[NR_ARGS] = { 0x1001, 0x2002, 0x3003, 0x4004, 0x5005, 0x6006 };

/* What the handlers saw on their last hit. */
static struct {
	unsigned int pre_hits, post_hits, order, pre_order, post_order;
	unsigned long pre_ip, post_ip, ret, sp;
	int args[NR_ARGS];
	bool preemptible;
} seen;

static int regs_pre(struct optprobe *p, struct pt_regs *regs)
{
	unsigned int i;

	seen.pre_hits++;
	seen.pre_order = ++seen.order;
	seen.pre_ip = instruction_pointer(regs);
	for (i = 0; i < NR_ARGS; i++)
		seen.args[i] = (int)test_arg(regs, i);
	seen.ret = test_return_address(regs);
	seen.sp = kernel_stack_pointer(regs);
	seen.preemptible = preemptible();
	return 0;
}

static void regs_post(struct optprobe *p, struct pt_regs *regs)
{
	seen.post_hits++;
	seen.post_order = ++seen.order;
	seen.post_ip = instruction_pointer(regs);
}

#define CASE_CHECKS	9

static void check_case(struct ktap *t, const struct test_where *c, unsigned long entry)
{
	int ret, err = -ENOENT, i, sum, want_sum = 0;
	unsigned long addr = entry, next;
	const char *w = c->name;
	char name[TEST_NAME_LEN];
	struct optprobe p;
	bool args_ok = true;

	if (c->inside) {
		addr = test_next_boundary(entry, &err);
		next = test_next_boundary(addr, &err);
	} else {
		next = entry ? entry + TEST_ENTRY_INSN_SIZE : 0;
	}
	if (!addr || !next) {
		ktap_check(t, false, test_name(name, w, "registers"),
			   "no instruction boundary found: %d", err);
		for (i = 1; i < CASE_CHECKS; i++)
			ktap_check(t, false, test_name(name, w, "unchecked"), "no probe");
		return;
	}

	test_probe_init(&p, NULL, addr, regs_pre, regs_post, c->flags);
	ret = optprobe_register(&p);
	optprobe_sync();
	ktap_check(t, !ret && test_mode_fits(c, optprobe_mode(&p)), test_name(name, w, "registers"),
		   "returned %d, mode %s (%s)", ret, test_mode_name(optprobe_mode(&p)),
		   ret ? "" : optprobe_reason(&p));

	memset(&seen, 0, sizeof(seen));
	sum = optprobe_target_add(args[0], args[1], args[2], args[3], args[4], args[5]);
	if (!ret)
		optprobe_unregister(&p);
	for (i = 0; i < NR_ARGS; i++) {
		want_sum += args[i];
		args_ok &= seen.args[i] == args[i];
	}

	ktap_check(t, seen.pre_hits == 1 && seen.pre_ip == addr,
		   test_name(name, w, "pre_ip_is_probed_address"), "%u hits, ip %pS, want %pS",
		   seen.pre_hits, (void *)seen.pre_ip, (void *)addr);
	ktap_check(t, args_ok, test_name(name, w, "pre_args_are_call_args"),
		   "saw %#x %#x %#x %#x %#x %#x", seen.args[0], seen.args[1], seen.args[2],
		   seen.args[3], seen.args[4], seen.args[5]);
	ktap_check(t, seen.ret == optprobe_target_add_ret,
		   test_name(name, w, "pre_return_address_is_callers"), "saw %pS, want %pS",
		   (void *)seen.ret, (void *)optprobe_target_add_ret);
	ktap_check(t, seen.sp == optprobe_target_add_sp,
		   test_name(name, w, "pre_stack_pointer_is_callers"), "saw %#lx, want %#lx",
		   seen.sp, optprobe_target_add_sp);
	ktap_check(t, !seen.preemptible, test_name(name, w, "pre_runs_with_preemption_disabled"),
		   "preemptible() was true");
	ktap_check(t, seen.post_hits == 1 && seen.post_ip == next,
		   test_name(name, w, "post_ip_is_next_insn"), "%u hits, ip %pS, want %pS",
		   seen.post_hits, (void *)seen.post_ip, (void *)next);
	ktap_check(t, seen.pre_order == 1 && seen.post_order == 2,
		   test_name(name, w, "post_runs_after_pre"), "pre ran %u., post %u.",
		   seen.pre_order, seen.post_order);
	ktap_check(t, sum == want_sum, test_name(name, w, "result_unchanged"),
		   "returned %#x, want %#x", sum, want_sum);
}

/* symbol + 0 is where the kernel's kprobes put a probe on the function's entry. */
static unsigned long check_entry(struct ktap *t)
{
	struct kprobe kp = { .symbol_name = "optprobe_target_add", .pre_handler = NULL };
	unsigned long entry = test_entry_of("optprobe_target_add");
	int kret = register_kprobe(&kp);

	if (!kret)
		unregister_kprobe(&kp);
	ktap_check(t, entry && !kret && entry == (unsigned long)kp.addr,
		   "entry_is_where_kprobes_put_it", "entry %pS, kprobe (%d) at %pS",
		   (void *)entry, kret, kp.addr);
	return entry;
}

static int __init test_regs_init(void)
{
	unsigned long entry;
	struct ktap t;
	unsigned int i;

	ktap_start(&t, 1 + ARRAY_SIZE(test_wheres) * CASE_CHECKS);
	entry = check_entry(&t);
	for (i = 0; i < ARRAY_SIZE(test_wheres); i++)
		check_case(&t, &test_wheres[i], entry);
	return 0;
}

static void __exit test_regs_exit(void)
{
}

module_init(test_regs_init);
module_exit(test_regs_exit);

MODULE_DESCRIPTION("optprobe test: registers seen by handlers");
MODULE_LICENSE("GPL");
