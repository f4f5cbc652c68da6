// SPDX-License-Identifier: GPL-2.0
/* powerpc64le symbols reached through kallsyms; see core/ksyms.h. */
#include <linux/build_bug.h>
#include <linux/module.h>

#include "ksyms.h"

const struct op_ksym op_arch_ksym_table[] = {
	OP_ARCH_KSYM(patch_instruction),
	OP_ARCH_KSYM(change_memory_attr),
	OP_ARCH_KSYM(emulate_step),
	OP_KSYM_AS(arch.vmalloc_node_range, OP_VMALLOC_RANGE),
	OP_ARCH_KSYM_ADDR(optinsn_slot),
	OP_ARCH_KSYM(__get_insn_slot),
	OP_ARCH_KSYM(__free_insn_slot),
	OP_ARCH_KSYM(alloc_optinsn_page),
	OP_ARCH_KSYM(free_optinsn_page),
	OP_ARCH_KSYM_ADDR(optprobe_template_entry),
	OP_ARCH_KSYM_ADDR(optprobe_template_end),
	OP_ARCH_KSYM(kprobe_cache_get_kallsym),
	OP_ARCH_KSYM(jump_label_text_reserved),
};

/* Every member of struct op_arch_ksyms is a pointer with an entry above. */
static_assert(ARRAY_SIZE(op_arch_ksym_table) * sizeof(void *) ==
	      sizeof(struct op_arch_ksyms));

const unsigned int op_arch_ksym_count = ARRAY_SIZE(op_arch_ksym_table);

/* powerpc has no indirect-branch tracking: every function may be called. */
const char *op_arch_ksym_callable(unsigned long addr)
{
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(op_arch_ksym_callable, OPTPROBE_INTERNAL);
