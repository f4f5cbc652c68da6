// SPDX-License-Identifier: GPL-2.0
/*
 * tcg_rewrite, optprobe's workaround for stale translations under QEMU's
 * TCG (arch-powerpc/patch.c), runs only when asked: with it off, arming
 * and disarming a breakpoint writes each word once; with it on, each word
 * is written a second time.  The probe goes on optprobe_target_ppc_sum(),
 * which nobody runs while this test does.  The parameter is left as the
 * test found it (the matrix loads optprobe with tcg_rewrite=1).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "optprobe_test.h"
#include "exports.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define SYMBOL	"optprobe_target_ppc_sum"

/*
 * Arm and disarm a breakpoint on SYMBOL with tcg_rewrite @on: how many
 * second writes that took.  *@err is what registering returned, *@mode
 * the mode the probe had.
 */
static unsigned long rewrites_of_arm_disarm(bool on, int *err, int *mode)
{
	unsigned long before;
	struct optprobe p;

	op_ppc_set_tcg_rewrite(on);
	before = op_ppc_tcg_rewrites();
	test_probe_init(&p, SYMBOL, 0, test_nop_pre, NULL, OPTPROBE_F_NOOPT);
	*err = optprobe_register(&p);
	if (*err)
		return 0;
	*mode = optprobe_mode(&p);
	optprobe_unregister(&p);
	return op_ppc_tcg_rewrites() - before;
}

static int __init test_ppc_tcg_init(void)
{
	bool was = op_ppc_set_tcg_rewrite(false);
	unsigned long n;
	int err, mode = -1;
	struct ktap t;

	ktap_start(&t, 2);
	n = rewrites_of_arm_disarm(false, &err, &mode);
	ktap_check(&t, !err && mode == OPTPROBE_MODE_TRAP && n == 0, "tcg_rewrite_off_writes_once",
		   "register %d, mode %d, %lu second writes", err, mode, n);
	/* the trap armed, then the original back: each written again */
	n = rewrites_of_arm_disarm(true, &err, &mode);
	ktap_check(&t, !err && mode == OPTPROBE_MODE_TRAP && n == 2,
		   "tcg_rewrite_on_writes_twice", "register %d, mode %d, %lu second writes, want 2",
		   err, mode, n);
	op_ppc_set_tcg_rewrite(was);
	return 0;
}

static void __exit test_ppc_tcg_exit(void)
{
}

module_init(test_ppc_tcg_init);
module_exit(test_ppc_tcg_exit);

MODULE_DESCRIPTION("optprobe test: the TCG rewrite workaround runs only when asked");
MODULE_LICENSE("GPL");
