// SPDX-License-Identifier: GPL-2.0
/* x86_64 symbols reached through kallsyms; see core/ksyms.h. */
#include <linux/build_bug.h>

#include "ksyms.h"

const struct op_ksym op_arch_ksym_table[] = {
	OP_ARCH_KSYM(text_poke),
	OP_ARCH_KSYM(text_poke_bp),
	OP_ARCH_KSYM(text_poke_sync),
	OP_ARCH_KSYM(text_poke_queue),
	OP_ARCH_KSYM(text_poke_finish),
	OP_ARCH_KSYM(text_mutex),
	OP_ARCH_KSYM(kprobe_mutex),
	OP_ARCH_KSYM(perf_event_text_poke),
	OP_ARCH_KSYM(alternatives_text_reserved),
	OP_ARCH_KSYM(static_call_text_reserved),
	OP_ARCH_KSYM(__start___jump_table),
	OP_ARCH_KSYM(__stop___jump_table),
	OP_ARCH_KSYM(set_memory_ro),
	OP_ARCH_KSYM(set_memory_x),
	OP_ARCH_KSYM(find_vm_area),
	OP_ARCH_KSYM(rethook_alloc),
	OP_ARCH_KSYM(rethook_free),
	OP_RETHOOK_ADD_NODE_KSYM
	OP_ARCH_KSYM(rethook_try_get),
	OP_ARCH_KSYM(rethook_recycle),
	OP_ARCH_KSYM(rethook_hook),
};

/* Every member of struct op_arch_ksyms is a pointer with an entry above. */
static_assert(ARRAY_SIZE(op_arch_ksym_table) * sizeof(void *) ==
	      sizeof(struct op_arch_ksyms));

const unsigned int op_arch_ksym_count = ARRAY_SIZE(op_arch_ksym_table);
