// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's switches: "enabled" (every site armed), "optimize" (jump
 * optimization) and "boost" (out-of-line copies that jump back).  Each is
 * a module parameter, /sys/module/optprobe/parameters/NAME, which works
 * under lockdown=integrity (Debian turns it on under Secure Boot), where
 * debugfs refuses every writable file; debugfs has the same switches too
 * (core/debugfs.c).  Given at load (insmod optprobe.ko optimize=0), a
 * switch is set once optprobe is up: the parameters are parsed before
 * its init runs.
 */
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "arch.h"
#include "internal.h"

const struct op_switch op_enabled_switch = {
	.get = op_get_all_enabled,
	.set = op_set_all_enabled,
};

const struct op_switch op_optimize_switch = {
	.get = op_optimize_enabled,
	.set = op_set_optimize,
};

const struct op_switch op_boost_switch = {
	.get = op_boost_enabled,
	.set = op_set_boost,
};

/*
 * Whether the switches may be set now; under kernel_param_lock(), which a
 * write to a parameter holds.  Until then what is written waits in
 * op_switch_given[].
 */
static bool op_switches_up;

enum { OP_ENABLED, OP_OPTIMIZE, OP_BOOST, OP_NR_SWITCHES };

static const struct op_switch *const op_switches[OP_NR_SWITCHES] = {
	[OP_ENABLED] = &op_enabled_switch,
	[OP_OPTIMIZE] = &op_optimize_switch,
	[OP_BOOST] = &op_boost_switch,
};

/* -1: not given at load; else what was */
static int op_switch_given[OP_NR_SWITCHES] = { -1, -1, -1 };

static int op_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i = (uintptr_t)kp->arg;
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret)
		return ret;
	if (op_switches_up)
		op_switches[i]->set(on);
	else
		op_switch_given[i] = on;
	return 0;
}

static int op_param_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i = (uintptr_t)kp->arg;

	if (!op_switches_up && op_switch_given[i] >= 0)
		return sysfs_emit(buf, "%d\n", op_switch_given[i]);
	return sysfs_emit(buf, "%d\n", op_switches[i]->get());
}

static const struct kernel_param_ops op_switch_ops = {
	.set = op_param_set,
	.get = op_param_get,
};

module_param_cb(enabled, &op_switch_ops, (void *)OP_ENABLED, 0644);
MODULE_PARM_DESC(enabled, "arm every site (0: all disarmed, probes keep their state)");
module_param_cb(optimize, &op_switch_ops, (void *)OP_OPTIMIZE, 0644);
MODULE_PARM_DESC(optimize, "jump-optimize sites that can be");
module_param_cb(boost, &op_switch_ops, (void *)OP_BOOST, 0644);
MODULE_PARM_DESC(boost, "run copied instructions with a jump back, not a second trap");

/* At the end of optprobe's init: the switches given at load take effect. */
void op_switches_start(void)
{
	unsigned int i;

	kernel_param_lock(THIS_MODULE);
	op_switches_up = true;
	for (i = 0; i < OP_NR_SWITCHES; i++)
		if (op_switch_given[i] >= 0)
			op_switches[i]->set(op_switch_given[i]);
	kernel_param_unlock(THIS_MODULE);
}

/* At the start of its exit: writes from then on change nothing. */
void op_switches_stop(void)
{
	kernel_param_lock(THIS_MODULE);
	op_switches_up = false;
	kernel_param_unlock(THIS_MODULE);
}
