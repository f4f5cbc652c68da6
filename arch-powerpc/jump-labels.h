/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's jump labels, indexed (jump-labels.c). */
#ifndef OPTPROBE_PPC_JUMP_LABELS_H
#define OPTPROBE_PPC_JUMP_LABELS_H

#include <linux/init.h>

int __init op_ppc_jump_labels_init(void);
void op_ppc_jump_labels_exit(void);

#endif /* OPTPROBE_PPC_JUMP_LABELS_H */
