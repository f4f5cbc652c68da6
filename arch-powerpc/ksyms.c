// SPDX-License-Identifier: GPL-2.0
/* powerpc64le symbols reached through kallsyms; see core/ksyms.h. */
#include <linux/build_bug.h>
#include <linux/module.h>

#include "ksyms.h"

/* The static calls of kcalls-arch.h */
DEFINE_STATIC_CALL_NULL(op_k_patch_instruction, patch_instruction);
#if OP_PATCH_INSTRUCTIONS
DEFINE_STATIC_CALL_NULL(op_k_patch_instructions, patch_instructions);
#endif
DEFINE_STATIC_CALL_NULL(op_k_change_memory_attr, change_memory_attr);
DEFINE_STATIC_CALL_NULL(op_k_emulate_step, emulate_step);
DEFINE_STATIC_CALL_NULL(op_k_OP_VMALLOC_RANGE, OP_VMALLOC_RANGE);
DEFINE_STATIC_CALL_NULL(op_k___get_insn_slot, __get_insn_slot);
DEFINE_STATIC_CALL_NULL(op_k___free_insn_slot, __free_insn_slot);
DEFINE_STATIC_CALL_NULL(op_k_jump_label_text_reserved, jump_label_text_reserved);

/* The backend's other symbols */
const struct op_ksym op_arch_ksym_table[] = {
	OP_ARCH_KSYM_ADDR(optinsn_slot),
	OP_ARCH_KSYM_ADDR(alloc_optinsn_page),
	OP_ARCH_KSYM_ADDR(free_optinsn_page),
	OP_ARCH_KSYM_ADDR(optprobe_template_entry),
	OP_ARCH_KSYM_ADDR(optprobe_template_end),
	OP_ARCH_KSYM_ADDR(kprobe_cache_get_kallsym),
};

/* Every member of struct op_arch_ksyms is a pointer with an entry above. */
static_assert(ARRAY_SIZE(op_arch_ksym_table) * sizeof(void *) ==
	      sizeof(struct op_arch_ksyms));

const unsigned int op_arch_ksym_count = ARRAY_SIZE(op_arch_ksym_table);

/*
 * Without arch static calls, op_kcall() calls through the key's pointer,
 * which powerpc may: it has no indirect-branch tracking.
 */
const char *op_arch_kcall_direct(const struct op_ksym *sym, unsigned long addr)
{
	return READ_ONCE(sym->call->func) == (void *)addr ? NULL :
	       "its static call does not hold its address";
}
EXPORT_SYMBOL_NS_GPL(op_arch_kcall_direct, OPTPROBE_INTERNAL);

/* powerpc has no indirect-branch tracking: every function may be called. */
const char *op_arch_ksym_callable(unsigned long addr)
{
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(op_arch_ksym_callable, OPTPROBE_INTERNAL);
