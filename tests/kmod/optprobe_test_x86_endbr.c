// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: a probe on a function's "+ 0" where the function has no ftrace
 * site goes after its ENDBR64 (or the nop the kernel seals one into), as
 * the kernel's kprobes put theirs (arch_adjust_kprobe_addr()): indirect
 * calls land on the ENDBR64, and on a CPU enforcing IBT an int3 or a jump
 * there would fault them.  So do a return probe's entry, an event's, and
 * a probe asked for by the function's address.
 * The target, op_tx86_endbr(), is called through a pointer; its first
 * four bytes must read the same while its probes are armed, optimized
 * and gone.  On 6.1 (no IBT) the function has no ENDBR64 and the probe
 * stays at "+ 0".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/string.h>

#include "optprobe_test.h"
#include "x86_opt_targets.h"

#define CALLS	5

static struct ktap t;
static atomic_t hits, entries, returns;

static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

static int count_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	return 0;
}

static int count_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	atomic_inc(&entries);
	return 0;
}

static void count_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	if (regs_return_value(regs) == op_tx86_endbr(7, 2))
		atomic_inc(&returns);
}

static bool has_endbr;

/* The ENDBR64 as it was (nothing to keep without one: 6.1's probe is on "+ 0") */
static bool head_intact(const u8 *head)
{
	return !has_endbr || !memcmp((void *)op_tx86_endbr, head, sizeof(endbr64));
}

/* through a pointer, as indirect calls land on the ENDBR64 */
static void calls(int n)
{
	target_fn fn = op_tx86_endbr;

	OPTIMIZER_HIDE_VAR(fn);
	while (n--)
		fn(7, 2);
}

static int __init test_x86_endbr_init(void)
{
	unsigned long func = (unsigned long)op_tx86_endbr;
	struct optretprobe rp = {
		.symbol = "op_tx86_endbr",
		.entry_handler = count_entry,
		.handler = count_ret,
	};
	enum optprobe_mode mode;
	unsigned long want;
	struct optprobe p;
	u8 head[4];
	int ret;

	ktap_start(&t, 7);
	has_endbr = !memcmp((void *)func, endbr64, sizeof(endbr64));
	memcpy(head, (void *)func, sizeof(head));
	/* not vacuous: IBT builds (6.12) give the function its ENDBR64 */
	ktap_check(&t, has_endbr == IS_ENABLED(CONFIG_X86_KERNEL_IBT), "endbr_as_built",
		   "ENDBR64 first: %d, CONFIG_X86_KERNEL_IBT: %d", has_endbr,
		   IS_ENABLED(CONFIG_X86_KERNEL_IBT));

	want = func + (has_endbr ? sizeof(endbr64) : 0);
	test_probe_init(&p, "op_tx86_endbr", 0, count_pre, NULL, 0);
	ret = optprobe_register(&p);
	ktap_check(&t, !ret && (unsigned long)p.addr == want, "probe_after_endbr",
		   "register %d at %pS, want %pS", ret, p.addr, (void *)want);
	if (!ret)
		calls(CALLS);
	ktap_check(&t, !ret && head_intact(head) && atomic_read(&hits) == CALLS,
		   "armed_endbr_intact", "first bytes %4ph (were %4ph), %d hits of %d",
		   (void *)func, head, atomic_read(&hits), CALLS);
	optprobe_sync();
	mode = ret ? OPTPROBE_MODE_DISABLED : optprobe_mode(&p);
	if (!ret)
		calls(CALLS);
	ktap_check(&t, !ret && head_intact(head) && atomic_read(&hits) == 2 * CALLS,
		   "settled_endbr_intact", "%s: first bytes %4ph (were %4ph), %d hits of %d",
		   test_mode_name(mode), (void *)func, head, atomic_read(&hits), 2 * CALLS);
	if (!ret)
		optprobe_unregister(&p);

	/* by address, as the kernel's kprobes move one there too */
	test_probe_init(&p, NULL, func, count_pre, NULL, OPTPROBE_F_DISABLED);
	ret = optprobe_register(&p);
	ktap_check(&t, !ret && (unsigned long)p.addr == want && head_intact(head),
		   "address_probe_after_endbr", "register %d at %pS, want %pS", ret, p.addr,
		   (void *)want);
	if (!ret)
		optprobe_unregister(&p);

	ret = optretprobe_register(&rp);
	if (!ret) {
		optprobe_sync();
		calls(CALLS);
	}
	ktap_check(&t, !ret && head_intact(head) && atomic_read(&entries) == CALLS &&
		   atomic_read(&returns) == CALLS, "retprobe_endbr_intact",
		   "register %d: first bytes %4ph (were %4ph), %d entries, %d returns of %d",
		   ret, (void *)func, head, atomic_read(&entries), atomic_read(&returns), CALLS);
	if (!ret)
		optretprobe_unregister(&rp);
	ktap_check(&t, head_intact(head), "unregistered_endbr_intact",
		   "first bytes %4ph, were %4ph", (void *)func, head);
	return 0;
}

static void __exit test_x86_endbr_exit(void)
{
}

module_init(test_x86_endbr_init);
module_exit(test_x86_endbr_exit);
MODULE_DESCRIPTION("optprobe: probes on a function's entry leave its ENDBR64");
MODULE_LICENSE("GPL");
