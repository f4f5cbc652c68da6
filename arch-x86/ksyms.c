// SPDX-License-Identifier: GPL-2.0
/* x86_64 symbols reached through kallsyms; see core/ksyms.h. */
#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/cpufeature.h>

#include "arch.h"
#include "ksyms.h"

const struct op_ksym op_arch_ksym_table[] = {
	OP_ARCH_KSYM(text_poke),
	OP_ARCH_KSYM(text_poke_bp),
	OP_ARCH_KSYM(text_poke_sync),
	OP_ARCH_KSYM(text_poke_queue),
	OP_ARCH_KSYM(text_poke_finish),
	OP_ARCH_KSYM_ADDR(text_mutex),
	OP_ARCH_KSYM_ADDR(kprobe_mutex),
	OP_ARCH_KSYM(perf_event_text_poke),
	OP_ARCH_KSYM(alternatives_text_reserved),
	OP_ARCH_KSYM(static_call_text_reserved),
	OP_ARCH_KSYM_ADDR(__start___jump_table),
	OP_ARCH_KSYM_ADDR(__stop___jump_table),
	OP_ARCH_KSYM_ADDR(__start___ex_table),
	OP_ARCH_KSYM_ADDR(__stop___ex_table),
	OP_ARCH_KSYM_ADDR(_stext),
	OP_ARCH_KSYM_ADDR(_etext),
	OP_ARCH_KSYM(set_memory_ro),
	OP_ARCH_KSYM(set_memory_x),
	OP_ARCH_KSYM(find_vm_area),
	OP_ARCH_KSYM(rethook_alloc),
	OP_ARCH_KSYM(rethook_free),
	OP_ARCH_KSYM(rethook_try_get),
	OP_ARCH_KSYM(rethook_recycle),
	OP_ARCH_KSYM(rethook_hook),
	OP_RETHOOK_BY_VERSION_KSYM
};

/* Every member of struct op_arch_ksyms is a pointer with an entry above. */
static_assert(ARRAY_SIZE(op_arch_ksym_table) * sizeof(void *) ==
	      sizeof(struct op_arch_ksyms));

const unsigned int op_arch_ksym_count = ARRAY_SIZE(op_arch_ksym_table);

/**
 * op_x86_endbr_at() - does the kernel function at @addr start with ENDBR64?
 * @addr:	its address, from kallsyms
 *
 * At boot the kernel seals (overwrites with a 4-byte nop) every ENDBR64
 * objtool found no address taken of (apply_seal_endbr(), listed in the
 * image's .ibt_endbr_seal): the bytes there now say whether an indirect
 * call would land on an ENDBR64.  tests/ibt/endbr-proof.py checks that
 * what this reads agrees with the image's seal list.
 *
 * Return: NULL, or why not.
 */
const char *op_x86_endbr_at(unsigned long addr)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	u8 head[sizeof(endbr64)];

	if (copy_from_kernel_nofault(head, (void *)addr, sizeof(head)))
		return "its first bytes are unreadable";
	if (memcmp(head, endbr64, sizeof(head)))
		return "no ENDBR64 at its start (sealed at boot, or built without one)";
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(op_x86_endbr_at, OPTPROBE_INTERNAL);

/**
 * op_arch_ksym_callable() - may optprobe call the kernel function at @addr
 * through a pointer?
 * @addr:	its address, from kallsyms
 *
 * Only where the CPU enforces IBT must an indirect call land on an
 * ENDBR64 (op_x86_endbr_at()); elsewhere (QEMU's TCG has no IBT) any
 * function may be called so.
 *
 * Return: NULL, or why not.
 */
const char *op_arch_ksym_callable(unsigned long addr)
{
	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT) || !cpu_feature_enabled(X86_FEATURE_IBT))
		return NULL;
	return op_x86_endbr_at(addr);
}
EXPORT_SYMBOL_NS_GPL(op_arch_ksym_callable, OPTPROBE_INTERNAL);

/* x86_64 kernels have KALLSYMS_ALL: kallsyms gives event_mutex, or nothing does. */
struct mutex *op_arch_event_mutex(void)
{
	return NULL;
}
