/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared between the files of optprobe's core. */
#ifndef OPTPROBE_INTERNAL_H
#define OPTPROBE_INTERNAL_H

#include <linux/dcache.h>
#include <linux/init.h>

extern struct dentry *op_debugfs_dir;

int op_debugfs_init(void);
void op_debugfs_exit(void);

int op_optimizer_init(void);
void op_optimizer_exit(void);

#endif /* OPTPROBE_INTERNAL_H */
