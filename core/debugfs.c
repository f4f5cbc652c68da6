// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/optprobe/: what optprobe holds, for people and tests.
 *
 *   list	one line per probe, site by site in no order: address,
 *		symbol+offset, mode, hits, nmissed, reason it is not optimized
 *   sites	one line per site, in no order: address, symbol+offset, the
 *		optimizer's state, enabled probes, reason
 *   enabled	1/0: arm or disarm every probe (each keeps its own state)
 *   optimize	1/0: the global jump-optimization switch
 *   boost	1/0: whether probes registered from now on may be boosted
 *		(these three are module parameters too, core/switches.c:
 *		lockdown refuses these files, not those)
 *   slots	one line per slot area: address, size, slots used/total
 *   retprobes	one line per return probe: address, symbol+offset of its
 *		entry, entry mode, calls followed, skipped, missed, in flight,
 *		pool size
 *   breakpoints	how many breakpoint traps optprobe has taken (a hit in
 *		a breakpoint mode takes one, or two with a trap after an
 *		out-of-line copy)
 *   ksyms	one line per kernel symbol resolved at load: its name, and
 *		what kallsyms says is at the address resolved (so name+0x0)
 *
 * and the backend's own files (op_arch_debugfs()).
 */
#include <linux/debugfs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>

#include "internal.h"
#include "ksyms.h"
#include "markers.h"
#include "mode-name.h"

static struct dentry *op_debugfs_dir;

static void list_show_site(struct op_site *site, void *m)
{
	struct optprobe *p;

	list_for_each_entry(p, &site->probes, list)
		seq_printf(m, "0x%lx %pS %s %lu %lu %s\n", site->addr, (void *)site->addr,
			   op_mode_name(optprobe_mode(p)), op_probe_hits(p),
			   READ_ONCE(p->nmissed), optprobe_reason(p));
}

static int list_show(struct seq_file *m, void *v)
{
	mutex_lock(&op_mutex);
	op_sites_for_each(list_show_site, m);
	mutex_unlock(&op_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(list);

static int markers_show(struct seq_file *m, void *v)
{
	op_markers_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(markers);

static void sites_show_site(struct op_site *site, void *m)
{
	unsigned int enabled = 0;
	struct optprobe *p;

	list_for_each_entry(p, &site->probes, list)
		enabled += !p->disabled;
	seq_printf(m, "0x%lx %pS %s %u %s\n", site->addr, (void *)site->addr,
		   op_opt_state_name(site->state), enabled,
		   op_reason_text(op_site_reason(site)));
}

static int sites_show(struct seq_file *m, void *v)
{
	mutex_lock(&op_mutex);
	op_sites_for_each(sites_show_site, m);
	mutex_unlock(&op_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sites);

static int slots_show(struct seq_file *m, void *v)
{
	mutex_lock(&op_mutex);
	op_slots_show(m);
	mutex_unlock(&op_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(slots);

static int retprobes_show(struct seq_file *m, void *v)
{
	op_ret_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(retprobes);

static int breakpoints_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", op_bp_traps());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(breakpoints);

static int ksyms_show(struct seq_file *m, void *v)
{
	const struct op_ksym *sym;
	unsigned int i;

	for (i = 0; (sym = op_ksym_at(i)); i++)
		seq_printf(m, "%-28s %pS\n", sym->name, (void *)op_ksym_addr(sym));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ksyms);

/* A switch's file: reads "0\n" or "1\n", takes anything kstrtobool does. */
static ssize_t switch_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	const struct op_switch *sw = file->private_data;
	char val[2] = { sw->get() ? '1' : '0', '\n' };

	return simple_read_from_buffer(buf, count, ppos, val, sizeof(val));
}

static ssize_t switch_write(struct file *file, const char __user *buf, size_t count,
			    loff_t *ppos)
{
	const struct op_switch *sw = file->private_data;
	bool on;
	int ret;

	ret = kstrtobool_from_user(buf, count, &on);
	if (ret)
		return ret;
	sw->set(on);
	return count;
}

static const struct file_operations switch_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = switch_read,
	.write = switch_write,
	.llseek = default_llseek,
};

int __init op_debugfs_init(void)
{
	op_debugfs_dir = debugfs_create_dir("optprobe", NULL);
	if (IS_ERR(op_debugfs_dir))
		return PTR_ERR(op_debugfs_dir);
	debugfs_create_file("list", 0400, op_debugfs_dir, NULL, &list_fops);
	debugfs_create_file("enabled", 0600, op_debugfs_dir, (void *)&op_enabled_switch,
			    &switch_fops);
	debugfs_create_file("optimize", 0600, op_debugfs_dir, (void *)&op_optimize_switch,
			    &switch_fops);
	debugfs_create_file("boost", 0600, op_debugfs_dir, (void *)&op_boost_switch,
			    &switch_fops);
	debugfs_create_file("sites", 0400, op_debugfs_dir, NULL, &sites_fops);
	debugfs_create_file("markers", 0400, op_debugfs_dir, NULL, &markers_fops);
	debugfs_create_file("slots", 0400, op_debugfs_dir, NULL, &slots_fops);
	debugfs_create_file("retprobes", 0400, op_debugfs_dir, NULL, &retprobes_fops);
	debugfs_create_file("breakpoints", 0400, op_debugfs_dir, NULL, &breakpoints_fops);
	debugfs_create_file("ksyms", 0400, op_debugfs_dir, NULL, &ksyms_fops);
	op_arch_debugfs(op_debugfs_dir);
	return 0;
}

void op_debugfs_exit(void)
{
	debugfs_remove_recursive(op_debugfs_dir);
}
