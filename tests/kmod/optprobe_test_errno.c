// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe_register() refuses each kind of bad probe with its errno, from
 * a real bad input, and leaves nothing armed and the struct reusable; the
 * other calls refuse probes that are not registered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

static atomic_t hits;
static int errno_data;

static int count_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	return 0;
}

/* Hits of count_pre() over one call of each errno target. */
static int hits_of_calls(void)
{
	atomic_set(&hits, 0);
	if (optprobe_target_errno(2) != 2 * 19 + 7 || optprobe_target_busy(2) != 2 * 23 + 8)
		return -1;
	return atomic_read(&hits);
}

/*
 * Register @p, which must fail with @want, leaving nothing armed; a probe
 * that registered anyway is unregistered again.
 */
static void expect_refused(struct ktap *t, const char *name, struct optprobe *p, int want)
{
	int ret = optprobe_register(p);
	int n = hits_of_calls();

	if (!ret)
		optprobe_unregister(p);
	ktap_check(t, ret == want && n == 0, name, "returned %d (want %d), %d hits after", ret,
		   want, n);
}

static void check_handlerless(struct ktap *t)
{
	struct optprobe p;

	test_probe_init(&p, "optprobe_target_errno", 0, NULL, NULL, 0);
	expect_refused(t, "no_handler_is_einval", &p, -EINVAL);
}

/* optprobe's own flags (a marker's, its own guards') are refused from outside */
static void check_unknown_flags(struct ktap *t)
{
	struct optprobe p;

	test_probe_init(&p, "optprobe_target_errno", 0, count_pre, NULL, 0x40000000);
	expect_refused(t, "unknown_flags_are_einval", &p, -EINVAL);
	test_probe_init(&p, "optprobe_target_errno", 0, count_pre, NULL, 0x80000000);
	expect_refused(t, "own_flag_is_einval", &p, -EINVAL);
}

static void check_symbol_and_addr(struct ktap *t)
{
	struct optprobe p;

	test_probe_init(&p, "optprobe_target_errno", (unsigned long)optprobe_target_errno,
			count_pre, NULL, 0);
	expect_refused(t, "symbol_and_addr_is_einval", &p, -EINVAL);
	test_probe_init(&p, NULL, 0, count_pre, NULL, 0);
	expect_refused(t, "neither_symbol_nor_addr_is_einval", &p, -EINVAL);
}

static void check_not_text(struct ktap *t)
{
	struct optprobe p;

	test_probe_init(&p, NULL, (unsigned long)&errno_data, count_pre, NULL, 0);
	expect_refused(t, "data_address_is_einval", &p, -EINVAL);
}

static void check_blacklisted(struct ktap *t)
{
	struct optprobe p;

	test_probe_init(&p, NULL, (unsigned long)optprobe_register, count_pre, NULL, 0);
	expect_refused(t, "optprobe_text_is_einval", &p, -EINVAL);
	/* NOKPROBE_SYMBOL() in kernel/notifier.c, on both arches */
	test_probe_init(&p, "atomic_notifier_call_chain", 0, count_pre, NULL, 0);
	expect_refused(t, "kprobe_blacklisted_function_is_einval", &p, -EINVAL);
	/* noinstr text (kernel/context_tracking.c) */
	test_probe_init(&p, "ct_nmi_enter", 0, count_pre, NULL, 0);
	expect_refused(t, "noinstr_function_is_einval", &p, -EINVAL);
}

/*
 * The padding before a function, which has a symbol of its own where the
 * kernel has call padding (x86_64 on 6.12: __pfx_vfs_read).
 */
static void check_function_padding(struct ktap *t)
{
	struct optprobe p;

	if (!IS_ENABLED(CONFIG_PREFIX_SYMBOLS)) {
		ktap_skip(t, "function_padding_is_einval", "no call padding in this kernel");
		return;
	}
	test_probe_init(&p, "__pfx_vfs_read", 0, count_pre, NULL, 0);
	expect_refused(t, "function_padding_is_einval", &p, -EINVAL);
}

static void check_unknown_symbol(struct ktap *t)
{
	struct optprobe p;

	test_probe_init(&p, "optprobe_test_no_such_function", 0, count_pre, NULL, 0);
	expect_refused(t, "unknown_symbol_is_enoent", &p, -ENOENT);
}

static void check_not_boundary(struct ktap *t)
{
	struct optprobe p;

	/*
	 * x86_64: byte 2 of the 5-byte ftrace call at the function's start;
	 * ppc64le: not a multiple of 4.
	 */
	test_probe_init(&p, "optprobe_target_errno", 0, count_pre, NULL, 0);
	p.offset = 2;
	expect_refused(t, "mid_instruction_is_eilseq", &p, -EILSEQ);
#ifdef CONFIG_PPC64
	/* the suffix of a prefixed instruction (optprobe_target.c) */
	test_probe_init(&p, "optprobe_target_prefixed", 0, count_pre, NULL, 0);
	p.offset = 4;
	expect_refused(t, "prefixed_instruction_suffix_is_eilseq", &p, -EILSEQ);
#else
	ktap_skip(t, "prefixed_instruction_suffix_is_eilseq", "powerpc only");
#endif
}

/*
 * optprobe_next_insn(): after the entry, the address registering by trial
 * finds; the same through a breakpoint of optprobe's on the instruction;
 * -EILSEQ inside an instruction, -EINVAL off text.
 */
static void check_next_insn(struct ktap *t)
{
	unsigned long entry = test_entry_of("optprobe_target_errno"), trial;
	void *next = NULL, *after = NULL, *through = NULL;
	int err = 0, ret, mid, off_text, reg;
	bool again;
	struct optprobe p;

	trial = test_next_boundary(entry, &err);
	ret = entry ? optprobe_next_insn((void *)entry, &next) : -ENOENT;
	ktap_check(t, !ret && trial && (unsigned long)next == trial, "next_insn_after_entry",
		   "optprobe_next_insn %d: %pS, by trial %pS (%d)", ret, next, (void *)trial, err);
	ret = next ? optprobe_next_insn(next, &after) : -ENOENT;
	test_probe_init(&p, NULL, (unsigned long)next, count_pre, NULL, OPTPROBE_F_NOOPT);
	reg = ret ? ret : optprobe_register(&p);
	again = !reg && !optprobe_next_insn(next, &through);
	if (!reg)
		optprobe_unregister(&p);
	ktap_check(t, !ret && !reg && again && through == after, "next_insn_through_a_breakpoint",
		   "before %d: %pS; register %d; through the breakpoint %pS", ret, after, reg,
		   through);
	mid = optprobe_next_insn((void *)entry + 2, &next);
	ktap_check(t, mid == -EILSEQ, "next_insn_mid_instruction_is_eilseq", "%d", mid);
	off_text = optprobe_next_insn(&errno_data, &next);
	ktap_check(t, off_text == -EINVAL, "next_insn_not_text_is_einval", "%d", off_text);
}

static void check_registered_twice(struct ktap *t)
{
	struct optprobe p;
	int ret1, ret2, n;

	test_probe_init(&p, "optprobe_target_errno", 0, count_pre, NULL, 0);
	ret1 = optprobe_register(&p);
	ret2 = optprobe_register(&p);
	n = hits_of_calls();
	ktap_check(t, ret1 == 0 && ret2 == -EEXIST, "registered_twice_is_eexist",
		   "returned %d, then %d", ret1, ret2);
	ktap_check(t, n == 1, "registered_twice_fires_once", "%d hits for one call", n);
	if (!ret1)
		optprobe_unregister(&p);
}

static int kprobe_hits;

static int kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	kprobe_hits++;
	return 0;
}

/*
 * A kernel kprobe on optprobe_target_busy's entry (@addr 0) or at @addr
 * owns that address: optprobe refuses it and the kprobe keeps firing.
 * But at an ftrace site (the entry, where the kernel's kprobe goes
 * through ftrace): each has its own ftrace ops, and both fire.
 */
static void check_kprobe_owns(struct ktap *t, const char *name, unsigned long addr)
{
	struct kprobe kp = { .pre_handler = kprobe_pre };
	struct optprobe p;
	int kret, ret = 0, n = -1;
	bool shared;

	if (addr)
		kp.addr = (kprobe_opcode_t *)addr;
	else
		kp.symbol_name = "optprobe_target_busy";
	kret = register_kprobe(&kp);
	if (!kret) {
		test_probe_init(&p, NULL, (unsigned long)kp.addr, count_pre, NULL, 0);
		ret = optprobe_register(&p);
		kprobe_hits = 0;
		n = hits_of_calls();
		if (!ret)
			optprobe_unregister(&p);
		unregister_kprobe(&kp);
	}
	shared = !kret && (kp.flags & KPROBE_FLAG_FTRACE);
	ktap_check(t, !kret && ret == (shared ? 0 : -EBUSY) && n == shared && kprobe_hits == 1,
		   name, "register_kprobe %d (%s), optprobe_register %d, hits %d and %d (kprobe)",
		   kret, shared ? "through ftrace" : "a breakpoint", ret, n, kprobe_hits);
}

static void check_kprobe_there(struct ktap *t)
{
	unsigned long inside;
	int err;

	check_kprobe_owns(t, "kernel_kprobe_at_entry_shared_through_ftrace", 0);
	inside = test_inside_of("optprobe_target_busy", &err);
	if (inside)
		check_kprobe_owns(t, "kernel_kprobe_inside_is_ebusy", inside);
	else
		ktap_check(t, false, "kernel_kprobe_inside_is_ebusy",
			   "no boundary after the entry: %d", err);
}

/* A failed registration leaves the struct as it was: fixed, it registers. */
static void check_reusable(struct ktap *t)
{
	struct optprobe p;
	int ret1, ret2, n;

	test_probe_init(&p, "optprobe_test_no_such_function", 0, count_pre, NULL, 0);
	ret1 = optprobe_register(&p);
	p.symbol = "optprobe_target_errno";
	ret2 = optprobe_register(&p);
	n = hits_of_calls();
	if (!ret2)
		optprobe_unregister(&p);
	ktap_check(t, ret1 == -ENOENT && ret2 == 0 && n == 1, "refused_probe_registers_when_fixed",
		   "returned %d, then %d; %d hits for one call", ret1, ret2, n);
}

static void check_not_registered(struct ktap *t)
{
	struct optprobe p;
	int en, dis, ret, n;

	test_probe_init(&p, "optprobe_target_errno", 0, count_pre, NULL, 0);
	en = optprobe_enable(&p);
	dis = optprobe_disable(&p);
	ktap_check(t, en == -EINVAL && dis == -EINVAL, "enable_disable_unregistered_is_einval",
		   "enable %d, disable %d", en, dis);
	ktap_check(t, optprobe_mode(&p) == OPTPROBE_MODE_DISABLED, "unregistered_mode_is_disabled",
		   "mode %s", test_mode_name(optprobe_mode(&p)));

	/* refused with a pr_warn line; the struct stays usable */
	optprobe_unregister(&p);
	ret = optprobe_register(&p);
	n = hits_of_calls();
	ktap_check(t, ret == 0 && n == 1, "unregister_of_unregistered_is_harmless",
		   "register after it returned %d; %d hits for one call", ret, n);
	if (!ret)
		optprobe_unregister(&p);
	optprobe_unregister(&p);
	n = hits_of_calls();
	ktap_check(t, n == 0 && optprobe_mode(&p) == OPTPROBE_MODE_DISABLED,
		   "unregister_twice_is_harmless", "%d hits, mode %s", n,
		   test_mode_name(optprobe_mode(&p)));
}

static int __init test_errno_init(void)
{
	struct ktap t;

	ktap_start(&t, 26);
	check_handlerless(&t);
	check_unknown_flags(&t);
	check_symbol_and_addr(&t);
	check_not_text(&t);
	check_blacklisted(&t);
	check_function_padding(&t);
	check_unknown_symbol(&t);
	check_not_boundary(&t);
	check_next_insn(&t);
	check_registered_twice(&t);
	check_kprobe_there(&t);
	check_reusable(&t);
	check_not_registered(&t);
	return 0;
}

static void __exit test_errno_exit(void)
{
}

module_init(test_errno_init);
module_exit(test_errno_exit);

MODULE_DESCRIPTION("optprobe test: registration errors");
MODULE_LICENSE("GPL");
