// SPDX-License-Identifier: GPL-2.0
/*
 * Module lifecycle: probes in a module that is being unloaded become gone
 * (OPTPROBE_MODE_GONE).  They never fire again, the module's text is not
 * written, and unregistering them later is safe.  So do probes in a
 * module's init text once its init is done: the kernel frees that text
 * after the module goes live (or with the module, if its init fails).
 */
#include <linux/module.h>
#include <linux/notifier.h>

#include "internal.h"

static int op_module_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	/*
	 * GOING comes after the module's exit (or its failed init) and before
	 * its text is freed; LIVE after its init returned, before the init
	 * text is freed (after a grace period), and lets the optimizer have
	 * the module's sites it put off until then (arch-x86/entries.c).
	 */
	if (state == MODULE_STATE_GOING)
		op_sites_gone(data, false);
	else if (state == MODULE_STATE_LIVE)
		op_sites_gone(data, true);
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
