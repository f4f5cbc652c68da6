/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's jump labels, indexed (jump-labels.c). */
#ifndef OP_X86_JUMP_LABELS_H
#define OP_X86_JUMP_LABELS_H

#include <linux/init.h>
#include <linux/types.h>

bool op_x86_jump_label_target_in(unsigned long from, unsigned long to);
int __init op_x86_jump_labels_init(void);
void op_x86_jump_labels_exit(void);

#endif /* OP_X86_JUMP_LABELS_H */
