/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's jump labels, indexed (jump-labels.c). */
#ifndef OP_X86_JUMP_LABELS_H
#define OP_X86_JUMP_LABELS_H

#include <linux/init.h>
#include <linux/types.h>

bool op_x86_jump_label_target_in(unsigned long from, unsigned long to);

/* Sorted arrays of elements keyed by a leading unsigned long. */
int op_x86_ulong_cmp(const void *a, const void *b);
unsigned int op_x86_lower_bound(const void *base, unsigned int nr, size_t size,
				unsigned long key);
int __init op_x86_jump_labels_init(void);
void op_x86_jump_labels_exit(void);

#endif /* OP_X86_JUMP_LABELS_H */
