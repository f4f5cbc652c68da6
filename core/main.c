// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe: jump-optimized dynamic probes for the Linux kernel.
 *
 * Module load and unload.  Loading first checks that detours can be freed
 * safely on this kernel (preempt-policy.h), then resolves every kernel
 * symbol optprobe needs before anything else, so that a kernel that lacks
 * one is refused at load rather than failing later on a probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "arch.h"
#include "internal.h"
#include "ksyms.h"
#include "markers.h"
#include "opev-init.h"
#include "preempt-policy.h"
#include "wrap-supported.h"

static int __init optprobe_init(void)
{
	int ret;

	if (!op_can_free_detours(IS_ENABLED(CONFIG_PREEMPTION) ||
				 IS_ENABLED(CONFIG_PREEMPT_DYNAMIC),
				 IS_ENABLED(CONFIG_TASKS_RCU))) {
		pr_err("not loaded: this kernel can preempt tasks (CONFIG_PREEMPTION) but has no tasks-RCU (CONFIG_TASKS_RCU), so a detour could not be freed safely\n");
		return -EOPNOTSUPP;
	}
	ret = op_ksyms_init();
	if (ret)
		return ret;
	ret = op_blacklist_init();
	if (ret)
		return ret;
	ret = op_sites_init();
	if (ret)
		return ret;
	ret = op_optimizer_init();
	if (ret)
		goto out_cache;
	ret = op_arch_init();
	if (ret)
		goto out_optimizer;
	ret = op_module_init();
	if (ret)
		goto out_arch;
	ret = op_ret_init();
	if (ret)
		goto out_module;
	ret = op_debugfs_init();
	if (ret)
		goto out_ret;
	ret = op_arch_own_probes_register();
	if (ret)
		goto out_debugfs;
	ret = op_markers_init();
	if (ret)
		goto out_own;
	ret = opev_init();
	if (ret)
		goto out_markers;
	op_switches_start();
	pr_info("loaded\n");
	return 0;

out_markers:
	op_markers_exit();
out_own:
	op_arch_own_probes_unregister();
out_debugfs:
	op_debugfs_exit();
out_ret:
	op_ret_exit();
out_module:
	op_module_exit();
out_arch:
	op_arch_exit();
out_optimizer:
	op_sites_exit();
	op_optimizer_exit();
out_cache:
	op_sites_cache_destroy();
	op_counters_exit();
	return ret;
}

/* Probe modules hold references to optprobe: no probe is left here. */
static void __exit optprobe_exit(void)
{
	op_switches_stop();
	opev_exit();
	op_markers_exit();
	op_arch_own_probes_unregister();
	op_debugfs_exit();
	/*
	 * First the optimizer's works: one may still be disarming the last
	 * site it held for a kernel kprobe, whose module reference it has
	 * already dropped; its breakpoint needs the trap handler until then.
	 * The sites' work first, which may give the optimizer a retry.
	 */
	op_sites_exit();
	op_optimizer_exit();
	op_ret_exit();
	op_module_exit();
	op_arch_exit();
	op_ftrace_exit();
	op_sites_cache_destroy();
	op_counters_exit();
}

module_init(optprobe_init);
module_exit(optprobe_exit);

MODULE_DESCRIPTION("Jump-optimized dynamic probes");
MODULE_AUTHOR("The optprobe developers");
MODULE_LICENSE("GPL");
