// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/optprobe/: what optprobe holds, for people and tests.
 *
 *   ksyms	one line per kernel symbol resolved at load: its name, and
 *		what kallsyms says is at the address resolved (so name+0x0)
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "internal.h"
#include "ksyms.h"

struct dentry *op_debugfs_dir;

static int ksyms_show(struct seq_file *m, void *v)
{
	const struct op_ksym *sym;
	unsigned int i;

	for (i = 0; (sym = op_ksym_at(i)); i++)
		seq_printf(m, "%-28s %pS\n", sym->name, *sym->slot);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ksyms);

int __init op_debugfs_init(void)
{
	op_debugfs_dir = debugfs_create_dir("optprobe", NULL);
	if (IS_ERR(op_debugfs_dir))
		return PTR_ERR(op_debugfs_dir);
	debugfs_create_file("ksyms", 0400, op_debugfs_dir, NULL, &ksyms_fops);
	return 0;
}

void op_debugfs_exit(void)
{
	debugfs_remove_recursive(op_debugfs_dir);
}
