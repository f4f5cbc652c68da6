// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of arch-powerpc/toc-ref.c, which finds the kernel's
 * kprobe_optinsn_slots, kprobe_mutex, event_mutex and the jump table on a
 * kernel without KALLSYMS_ALL:
 * fed with the words of the kernel functions that pass them to a call, as
 * they are in the vmlinux that the ppc64le legs boot (ppc_toc_words.h,
 * made by ppc-toc-words.sh), and with made-up words for what must fail.
 */
#include "toc-ref.h"
#include "unit.h"
#include "ppc_toc_words.h"

/* A kernel function's words, where it is, and the callee it passes the cache to. */
struct func {
	const char *name;
	const u32 *words;
	unsigned int n;
	u64 addr, callee;
};

#define FUNC(f, to)	{ #f, words_##f, ARRAY_SIZE(words_##f), FUNC_##f, SYM_##to }

static const struct func prepare_f = FUNC(arch_prepare_optimized_kprobe, __get_insn_slot);
static const struct func remove_f = FUNC(arch_remove_optimized_kprobe, __free_insn_slot);
static const struct func kallsym_f = FUNC(kprobe_get_kallsym, kprobe_cache_get_kallsym);
static const struct func wait_f = FUNC(wait_for_kprobe_optimizer, mutex_lock);
static const struct func free_init_f = FUNC(kprobe_free_init_mem, mutex_lock);
static const struct func set_clr_f = FUNC(trace_set_clr_event, mutex_lock);
static const struct func release_all_f = FUNC(dyn_events_release_all, mutex_lock);
static const struct func jl_reserved_f = FUNC(jump_label_text_reserved, mutex_lock);

static int refs(const struct func *f, u64 *found, unsigned int max)
{
	return op_ppc_toc_refs(f->words, f->n, f->addr, f->callee, found, max);
}

/* Every call of the callee passes @want (kprobe_optinsn_slots, a mutex). */
static void check_one(const char *name, const struct func *f, u64 want)
{
	u64 found[8];
	int ret = refs(f, found, ARRAY_SIZE(found));
	int i, right = 0;

	for (i = 0; i < ret; i++)
		right += found[i] == want;
	unit_check(ret >= 1 && right == ret, name, "%d found, %d of them at %llx", ret, right,
		   (unsigned long long)want);
}

static void check_kallsym(void)
{
	u64 found[4];
	int ret = refs(&kallsym_f, found, ARRAY_SIZE(found));

	/* both caches, in the order kernel/kprobes.c lists them */
	unit_check(ret == 2 && found[0] == SYM_kprobe_insn_slots &&
		   found[1] == SYM_kprobe_optinsn_slots, "kprobe_get_kallsym_both_caches",
		   "%d found: %llx %llx", ret, ret > 0 ? (unsigned long long)found[0] : 0ULL,
		   ret > 1 ? (unsigned long long)found[1] : 0ULL);
}

/*
 * jump_label_text_reserved() builds both ends of the jump table from the
 * TOC for its inlined walk (arch-powerpc/jump-labels.c): start before stop.
 */
static void check_jump_table(void)
{
	const struct func *f = &jl_reserved_f;
	int i, ret, start = -1, stop = -1;
	u64 found[16];

	ret = op_ppc_toc_addrs(f->words, f->n, f->addr, found, ARRAY_SIZE(found));
	for (i = 0; i < ret; i++) {
		if (found[i] == SYM___start___jump_table && start < 0)
			start = i;
		if (found[i] == SYM___stop___jump_table && stop < 0)
			stop = i;
	}
	unit_check(start >= 0 && stop >= 0, "jump_label_text_reserved_builds_jump_table",
		   "%d found, start at %d, stop at %d", ret, start, stop);
}

/* Made-up functions: entry TOC setup, then what the case needs. */
#define ENTRY_HI	0x3c4c0001	/* addis r2,r12,1 */
#define ENTRY_LO	0x38420000	/* addi r2,r2,0: r2 = func + 0x10000 */
#define BL_AT(i, to)	(0x48000001 | (((to) - 4 * (i)) & 0x03fffffc))

static void check_made_up(void)
{
	const u64 func = 0x1000000, callee = func + 0x100;
	/* addis r9,r2,1; addi r3,r9,8; bl callee */
	const u32 good[] = { ENTRY_HI, ENTRY_LO, 0x3d220001, 0x38690008, BL_AT(4, 0x100) };
	/* the same with a bl in between: r9 is volatile */
	const u32 clobbered[] = { ENTRY_HI, ENTRY_LO, 0x3d220001, BL_AT(3, 0x200), 0x38690008,
				  BL_AT(5, 0x100) };
	/* r3 = lis, a constant */
	const u32 constant[] = { ENTRY_HI, ENTRY_LO, 0x3c600001, BL_AT(3, 0x100) };
	/* no TOC setup at the start */
	const u32 no_entry[] = { 0x60000000, 0x60000000, 0x3d220001, 0x38690008,
				 BL_AT(4, 0x100) };
	/* a bl to the local entry counts, through mr r3,r31 */
	const u32 local[] = { ENTRY_HI, ENTRY_LO, 0x3fe20002, 0x7fe3fb78, BL_AT(4, 0x108) };
	/* addis r9,r2,1; addi r9,r9,8; li r10,5; addi r8,r2,-16 */
	const u32 built[] = { ENTRY_HI, ENTRY_LO, 0x3d220001, 0x39290008, 0x39400005, 0x3902fff0 };
	u64 found[2];
	int ret;

	ret = op_ppc_toc_addrs(built, ARRAY_SIZE(built), func, found, 2);
	unit_check(ret == 2 && found[0] == func + 0x10000 + 0x10000 + 8 &&
		   found[1] == func + 0x10000 - 16, "made_up_addrs_built_not_li",
		   "%d %llx %llx", ret, (unsigned long long)found[0], (unsigned long long)found[1]);
	ret = op_ppc_toc_refs(good, ARRAY_SIZE(good), func, callee, found, 2);
	unit_check(ret == 1 && found[0] == func + 0x10000 + 0x10000 + 8, "made_up_addis_addi",
		   "%d %llx", ret, (unsigned long long)found[0]);
	ret = op_ppc_toc_refs(clobbered, ARRAY_SIZE(clobbered), func, callee, found, 2);
	unit_check(ret == 0, "made_up_volatile_clobbered_by_call", "%d", ret);
	ret = op_ppc_toc_refs(constant, ARRAY_SIZE(constant), func, callee, found, 2);
	unit_check(ret == 0, "made_up_constant_is_no_toc_reference", "%d", ret);
	ret = op_ppc_toc_refs(no_entry, ARRAY_SIZE(no_entry), func, callee, found, 2);
	unit_check(ret == -1, "made_up_no_toc_setup", "%d", ret);
	ret = op_ppc_toc_refs(local, ARRAY_SIZE(local), func, callee, found, 2);
	unit_check(ret == 1 && found[0] == func + 0x10000 + 0x20000, "made_up_local_entry_and_mr",
		   "%d %llx", ret, (unsigned long long)found[0]);
}

int main(void)
{
	unit_plan(14);
	check_one("arch_prepare_optimized_kprobe_get_slot", &prepare_f, SYM_kprobe_optinsn_slots);
	check_one("arch_remove_optimized_kprobe_free_slot", &remove_f, SYM_kprobe_optinsn_slots);
	/* arch-powerpc/patch.c: every mutex_lock() of theirs takes kprobe_mutex */
	check_one("wait_for_kprobe_optimizer_locks_kprobe_mutex", &wait_f, SYM_kprobe_mutex);
	check_one("kprobe_free_init_mem_locks_kprobe_mutex", &free_init_f, SYM_kprobe_mutex);
	/* and op_arch_event_mutex()'s: every mutex_lock() of theirs takes event_mutex */
	check_one("trace_set_clr_event_locks_event_mutex", &set_clr_f, SYM_event_mutex);
	check_one("dyn_events_release_all_locks_event_mutex", &release_all_f, SYM_event_mutex);
	check_kallsym();
	check_jump_table();
	check_made_up();
	return unit_status();
}
