/* SPDX-License-Identifier: GPL-2.0 */
/* Where code enters text other than at a symbol's start (entries.c). */
#ifndef OP_X86_ENTRIES_H
#define OP_X86_ENTRIES_H

#include <linux/extable.h>
#include <linux/init.h>
#include <linux/types.h>

#include "x86-insn.h"

struct dentry;

unsigned long op_x86_fixup_of(const struct exception_table_entry *e);
bool op_x86_padding(unsigned long pos, unsigned long end);
unsigned long op_x86_address_operand(unsigned long pos, const struct op_x86_insn *insn);
bool op_x86_table_read(const struct op_x86_insn *insn);

int op_x86_foreign_entry_in(unsigned long from, unsigned long to, enum op_reason *reason);
int __init op_x86_entries_init(void);
void op_x86_entries_exit(void);
void op_x86_entries_debugfs(struct dentry *dir);

#endif /* OP_X86_ENTRIES_H */
