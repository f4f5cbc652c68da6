// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers and their modules: a module's markers are read when it
 * comes, before its init runs, and the probes waiting for it are armed
 * then; its init text's sites go when its init is done; its markers go
 * with it, their probes gone.  At optprobe's load, the markers of the
 * modules already live are read; one that came before the notifier was
 * registered and is not live yet is read when it goes live.
 */
#include <linux/module.h>
#include <linux/notifier.h>

#include "markers.h"

static int op_marker_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct optprobe_marker *marker;
	struct module *mod = data;

	mutex_lock(&op_marker_mutex);
	switch (state) {
	case MODULE_STATE_COMING:
		op_markers_read(mod);
		op_marker_probes_coming(mod);
		break;
	case MODULE_STATE_LIVE:
		/* one that came before the notifier was there, and was not live for the walk */
		op_markers_read(mod);
		op_marker_probes_coming(mod);
		break;
	case MODULE_STATE_GOING:
		list_for_each_entry(marker, &op_markers, list)
			if (marker->mod == mod)
				op_marker_probes_gone(marker);
		op_markers_drop(mod);
		break;
	}
	mutex_unlock(&op_marker_mutex);
	return NOTIFY_DONE;
}

/*
 * Before the notifiers of priority 0 (the events layer's, probe modules'):
 * a module's markers are read, and the probes waiting for them armed,
 * before anyone else hears of it coming.
 */
static struct notifier_block op_marker_nb = {
	.notifier_call = op_marker_notify,
	.priority = 1,
};

int __init op_markers_init(void)
{
	int ret;

	/* first, so that no module comes unseen during the walk */
	ret = register_module_notifier(&op_marker_nb);
	if (ret)
		return ret;
	ret = op_markers_read_loaded();
	if (ret)
		op_markers_exit();
	return ret;
}

void op_markers_exit(void)
{
	unregister_module_notifier(&op_marker_nb);
	op_markers_free();
}
