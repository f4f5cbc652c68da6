// SPDX-License-Identifier: GPL-2.0
/*
 * Module lifecycle: probes in a module that is being unloaded become gone
 * (OPTPROBE_MODE_GONE).  They never fire again, the module's text is not
 * written, and unregistering them later is safe.
 */
#include <linux/module.h>
#include <linux/notifier.h>

#include "internal.h"

static int op_module_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	/* GOING comes after the module's exit and before its text is freed. */
	if (state == MODULE_STATE_GOING)
		op_sites_gone(data);
	return NOTIFY_DONE;
}

static struct notifier_block op_module_nb = {
	.notifier_call = op_module_notify,
};

int __init op_module_init(void)
{
	return register_module_notifier(&op_module_nb);
}

void op_module_exit(void)
{
	unregister_module_notifier(&op_module_nb);
}
