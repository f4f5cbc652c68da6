// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: every change optprobe makes to text is told to perf
 * (perf_event_text_poke(), PERF_RECORD_TEXT_POKE), as the kernel's own
 * kprobes tell theirs, so that a tracer decoding the text (Intel PT, say)
 * sees what runs.  A kernel kprobe on perf_event_text_poke() itself
 * records what is told: the int3 written on arming and taken out on
 * disarming, with the original byte on the other side, and the detour
 * and the jump of a jump-optimized probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <asm/text-patching.h>

#include "optprobe_target.h"
#include "optprobe_test.h"

static struct {
	unsigned long site;		/* the probed address */
	unsigned int armed, disarmed;	/* reports of an int3 written / taken out there */
	unsigned int jumps;		/* reports of a jmp written there */
	unsigned int new_code;		/* reports of new code elsewhere (detours, slots) */
	u8 original;			/* the byte the int3 covered, as reported */
} told;

/* perf_event_text_poke(addr, old_bytes, old_len, new_bytes, new_len) */
static int text_poke_told(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long addr = regs_get_kernel_argument(regs, 0);
	const u8 *old = (const u8 *)regs_get_kernel_argument(regs, 1);
	unsigned long old_len = regs_get_kernel_argument(regs, 2);
	const u8 *new = (const u8 *)regs_get_kernel_argument(regs, 3);
	unsigned long new_len = regs_get_kernel_argument(regs, 4);

	if (addr != told.site) {
		told.new_code += !old_len && new_len;
		return 0;
	}
	if (new_len && new[0] == INT3_INSN_OPCODE && old_len) {
		told.armed++;
		told.original = old[0];
	} else if (old_len && old[0] == INT3_INSN_OPCODE && new_len) {
		told.disarmed += new[0] == told.original;
	}
	told.jumps += new_len && new[0] == JMP32_INSN_OPCODE;
	return 0;
}

static struct kprobe told_kp = {
	.symbol_name = "perf_event_text_poke",
	.pre_handler = text_poke_told,
};

static void check_breakpoint(struct ktap *t, unsigned long inside)
{
	struct optprobe p;
	u8 original;
	int ret;

	memset(&told, 0, sizeof(told));
	told.site = inside;
	original = *(u8 *)inside;
	test_probe_init(&p, NULL, inside, test_nop_pre, NULL, OPTPROBE_F_NOOPT);
	ret = optprobe_register(&p);
	if (!ret)
		optprobe_unregister(&p);
	ktap_check(t, !ret && told.armed == 1 && told.disarmed == 1 && told.original == original,
		   "int3_arm_and_disarm_told_to_perf",
		   "register %d: %u arm and %u disarm reports, original %#x told as %#x", ret,
		   told.armed, told.disarmed, original, told.original);
}

static void check_jump(struct ktap *t, unsigned long inside)
{
	enum optprobe_mode mode = OPTPROBE_MODE_DISABLED;
	struct optprobe p;
	int ret;

	memset(&told, 0, sizeof(told));
	told.site = inside;
	test_probe_init(&p, NULL, inside, test_nop_pre, NULL, 0);
	ret = optprobe_register(&p);
	optprobe_sync();
	if (!ret) {
		mode = optprobe_mode(&p);
		optprobe_unregister(&p);
	}
	ktap_check(t, !ret && mode == OPTPROBE_MODE_OPTIMIZED && told.jumps >= 1 &&
		   told.new_code >= 1, "detour_and_jump_told_to_perf",
		   "register %d, mode %s: %u jump and %u new-code reports", ret,
		   test_mode_name(mode), told.jumps, told.new_code);
}

static int __init test_textpoke_init(void)
{
	unsigned long inside;
	struct ktap t;
	int ret, err;

	ktap_start(&t, 2);
	inside = test_inside_of("optprobe_target_textpoke", &err);
	ret = register_kprobe(&told_kp);
	if (ret || !inside) {
		ktap_check(&t, false, "int3_arm_and_disarm_told_to_perf",
			   "kprobe on perf_event_text_poke %d, target %d", ret, err);
		ktap_check(&t, false, "detour_and_jump_told_to_perf", "not set up");
		if (!ret)
			unregister_kprobe(&told_kp);
		return 0;
	}
	check_breakpoint(&t, inside);
	check_jump(&t, inside);
	unregister_kprobe(&told_kp);
	return 0;
}

static void __exit test_textpoke_exit(void)
{
}

module_init(test_textpoke_init);
module_exit(test_textpoke_exit);

MODULE_DESCRIPTION("optprobe test: text changes told to perf (x86_64)");
MODULE_LICENSE("GPL");
