// SPDX-License-Identifier: GPL-2.0
/* x86_64 symbols reached through kallsyms; see core/ksyms.h. */
#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/static_call.h>
#include <asm/cpufeature.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "decode.h"
#include "exports.h"
#include "ksyms.h"
#include "wrap-unaligned.h"

/* The static calls of kcalls-arch.h (rethook_add_node's: retprobe.c) */
DEFINE_STATIC_CALL_NULL(op_k_text_poke, text_poke);
DEFINE_STATIC_CALL_NULL(op_k_text_poke_bp, text_poke_bp);
DEFINE_STATIC_CALL_NULL(op_k_text_poke_sync, text_poke_sync);
DEFINE_STATIC_CALL_NULL(op_k_text_poke_queue, text_poke_queue);
DEFINE_STATIC_CALL_NULL(op_k_text_poke_finish, text_poke_finish);
DEFINE_STATIC_CALL_NULL(op_k_perf_event_text_poke, perf_event_text_poke);
DEFINE_STATIC_CALL_NULL(op_k_alternatives_text_reserved, alternatives_text_reserved);
DEFINE_STATIC_CALL_NULL(op_k_static_call_text_reserved, static_call_text_reserved);
DEFINE_STATIC_CALL_NULL(op_k_set_memory_ro, set_memory_ro);
DEFINE_STATIC_CALL_NULL(op_k_set_memory_x, set_memory_x);
DEFINE_STATIC_CALL_NULL(op_k_find_vm_area, find_vm_area);
DEFINE_STATIC_CALL_NULL(op_k_rethook_alloc, rethook_alloc);
DEFINE_STATIC_CALL_NULL(op_k_rethook_free, rethook_free);
DEFINE_STATIC_CALL_NULL(op_k_rethook_try_get, rethook_try_get);
DEFINE_STATIC_CALL_NULL(op_k_rethook_recycle, rethook_recycle);
DEFINE_STATIC_CALL_NULL(op_k_rethook_hook, rethook_hook);

/* The backend's other symbols */
const struct op_ksym op_arch_ksym_table[] = {
	OP_ARCH_KSYM_ADDR(text_mutex),
	OP_ARCH_KSYM_ADDR(kprobe_mutex),
	OP_ARCH_KSYM_ADDR(__start___jump_table),
	OP_ARCH_KSYM_ADDR(__stop___jump_table),
	OP_ARCH_KSYM_ADDR(__start___ex_table),
	OP_ARCH_KSYM_ADDR(__stop___ex_table),
	OP_ARCH_KSYM_ADDR(_stext),
	OP_ARCH_KSYM_ADDR(_etext),
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
	switch (op_x86_head(addr)) {
	case OP_X86_HEAD_ENDBR:
		return NULL;
	case OP_X86_HEAD_UNREADABLE:
		return "its first bytes are unreadable";
	default:
		return "no ENDBR64 at its start (sealed at boot, or built without one)";
	}
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

/*
 * Does the 5-byte instruction at @at call (or, for a tail call, jump to)
 * @addr directly?  With call-depth tracking on (retbleed=stuff, 6.2+) the
 * kernel makes a static call's site call the function's accounting thunk,
 * in the 16 bytes of padding just before the function.
 */
static bool op_x86_direct_to(unsigned long at, u8 opcode, unsigned long addr)
{
	unsigned long target;
	u8 insn[JMP32_INSN_SIZE];

	if (copy_from_kernel_nofault(insn, (void *)at, sizeof(insn)) || insn[0] != opcode)
		return false;
	target = at + sizeof(insn) + (long)get_unaligned((s32 *)(insn + 1));
	if (target == addr)
		return true;
#ifdef X86_FEATURE_CALL_DEPTH
	if (cpu_feature_enabled(X86_FEATURE_CALL_DEPTH) && opcode == CALL_INSN_OPCODE)
		return target < addr && addr - target <= 16;
#endif
	return false;
}

/**
 * op_arch_kcall_direct() - does every call through a static call of
 * optprobe's reach its function directly?
 * @sym:	the static call's entry (core/kcalls.h)
 * @addr:	the function, to which static_call_update() just set it
 *
 * The update rewrote the static call's trampoline into a jump to @addr,
 * and every call site of it that objtool listed in optprobe's
 * .static_call_sites into a call to @addr (a jump, for a tail call).
 * Read them back: a call that reached the function through a pointer
 * would need its ENDBR64, which the kernel seals in most of them (IBT).
 * While optprobe loads (COMING), its init text's sites count too.
 *
 * Return: NULL, or why not.
 */
const char *op_arch_kcall_direct(const struct op_ksym *sym, unsigned long addr)
{
	const struct static_call_site *site = THIS_MODULE->static_call_sites;
	const struct static_call_site *stop = site + THIS_MODULE->num_static_call_sites;
	bool init = THIS_MODULE->state == MODULE_STATE_COMING;

	if (!op_x86_direct_to((unsigned long)sym->tramp, JMP32_INSN_OPCODE, addr))
		return "its static call's trampoline does not jump to it";
	for (; site < stop; site++) {
		unsigned long key = (unsigned long)&site->key + site->key;
		unsigned long at = (unsigned long)&site->addr + site->addr;
		bool tail = key & STATIC_CALL_SITE_TAIL;

		if ((key & ~STATIC_CALL_SITE_FLAGS) != (unsigned long)sym->call)
			continue;
		if (!init && (key & STATIC_CALL_SITE_INIT))
			continue;
		if (!op_x86_direct_to(at, tail ? JMP32_INSN_OPCODE : CALL_INSN_OPCODE, addr))
			return "a call site of it is not a direct call to it";
	}
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(op_arch_kcall_direct, OPTPROBE_INTERNAL);

/* x86_64 kernels have KALLSYMS_ALL: kallsyms gives event_mutex, or nothing does. */
struct mutex *op_arch_event_mutex(void)
{
	return NULL;
}
