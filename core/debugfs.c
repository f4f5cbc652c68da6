// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/optprobe/: what optprobe holds, for people and tests.
 *
 *   ksyms	one line per resolved kernel symbol: address, name
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "internal.h"
#include "ksyms.h"

struct dentry *op_debugfs_dir;

static int ksyms_show(struct seq_file *m, void *v)
{
	const struct op_ksym *table;
	unsigned int i, n;

	table = op_ksyms_table(&n);
	for (i = 0; i < n; i++)
		seq_printf(m, "%px %s\n", *table[i].slot, table[i].name);
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
