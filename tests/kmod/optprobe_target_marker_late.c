// SPDX-License-Identifier: GPL-2.0
/*
 * Markers in a module that comes after probes were registered for it:
 * make check loads it with the others, then optprobe_test_marker_late.sh
 * unloads it, has optprobe_test_marker_late.ko register probes on its
 * markers (pending), and loads it again.  Its init function reaches the
 * marker tml_init once, then calls its core function TML_INIT_CALLS
 * times, which reaches tml_core; tml_both has a site in each (an inline
 * function), in init text and in core text.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include <optprobe-marker.h>

#include "optprobe_target_marker_late.h"

static int seed = TML_SEED;
module_param(seed, int, 0444);
MODULE_PARM_DESC(seed, "the first argument of the marker in the init function");

static __always_inline void tml_both(int where, int x)
{
	OPTPROBE_MARKER(tml_both, TML_BOTH_FMT, where, x);
}

noinline __noipa int optprobe_target_marker_late_fn(int x)
{
	OPTPROBE_MARKER(tml_core, TML_CORE_FMT, x);
	tml_both(TML_BOTH_CORE, x);
	return x * 3 + 1;
}
EXPORT_SYMBOL_GPL(optprobe_target_marker_late_fn);

static int __init optprobe_target_marker_late_init(void)
{
	int i, wrong = 0;

	OPTPROBE_MARKER(tml_init, TML_INIT_FMT, seed, KBUILD_MODNAME);
	tml_both(TML_BOTH_INIT, seed);
	for (i = 0; i < TML_INIT_CALLS; i++)
		wrong += optprobe_target_marker_late_fn(i) != i * 3 + 1;
	if (wrong)
		pr_warn("%d wrong results\n", wrong);
	return 0;
}

static void __exit optprobe_target_marker_late_exit(void)
{
}

module_init(optprobe_target_marker_late_init);
module_exit(optprobe_target_marker_late_exit);

MODULE_DESCRIPTION("optprobe test: markers in a module loaded after probes wait for it");
MODULE_LICENSE("GPL");
