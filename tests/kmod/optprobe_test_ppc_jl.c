// SPDX-License-Identifier: GPL-2.0
/*
 * powerpc64le: optprobe's index of the kernel's jump labels
 * (arch-powerpc/jump-labels.c) answers exactly what the kernel's
 * jump_label_text_reserved() answers, which it replaces on every
 * registration.
 *
 *  - Every label of the kernel core the index holds, and the bytes around
 *    it: each byte from 4 before to 4 after it alone, and the word at
 *    each of those; the label's own bytes must be reserved.
 *  - Seeded random ranges of 1 to 8 bytes across kernel text.
 *  - This module's own labels while it is coming (its init text is there,
 *    so its init labels count): one in init text, one in its text.
 * Both answers must be equal for every question.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sizes.h>

#include "exports.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define AROUND		4	/* bytes looked at either side of a label */
#define NR_RANDOM	5000
#define RANDOM_MAX_LEN	8

static DEFINE_STATIC_KEY_FALSE(test_jl_key);
static unsigned long test_jl_calls;

/* A label in this module's text, and one in its init text */
static noinline void test_jl_text(void)
{
	if (static_branch_unlikely(&test_jl_key))
		test_jl_calls++;
}

static noinline void __init test_jl_init_text(void)
{
	if (static_branch_unlikely(&test_jl_key))
		test_jl_calls++;
}

struct jl_tally {
	unsigned long asked, differ, reserved, first_differ;
};

/* Both answers for [@first, @last]; counted in @t.  Returns the kernel's. */
static bool ask(struct jl_tally *t, unsigned long first, unsigned long last)
{
	bool kernel, index = op_ppc_jump_label_both(first, last, &kernel);

	t->asked++;
	t->reserved += kernel;
	if (index != kernel && !t->differ++)
		t->first_differ = first;
	return kernel;
}

/*
 * Around the label at @code: each byte alone and each word.  The label's
 * own bytes must be reserved; those around may be another label's.
 */
static bool ask_around(struct jl_tally *t, unsigned long code)
{
	bool own = true;
	long off;

	for (off = -AROUND; off <= AROUND; off++) {
		if (!ask(t, code + off, code + off) && off >= 0 && off < JUMP_LABEL_NOP_SIZE)
			own = false;
		ask(t, code + off, code + off + JUMP_LABEL_NOP_SIZE - 1);
	}
	return own;
}

static void check_core_labels(struct ktap *t)
{
	struct jl_tally tally = {};
	unsigned long code;
	unsigned int i, not_own = 0;

	for (i = 0; (code = op_ppc_jump_label_code(i)); i++) {
		not_own += !ask_around(&tally, code);
		cond_resched();
	}
	ktap_check(t, i > 0 && !tally.differ && !not_own, "core_labels_and_around_agree",
		   "%u labels, %lu questions: %lu answers differ (first at %lx), %u labels not reserved by the kernel",
		   i, tally.asked, tally.differ, tally.first_differ, not_own);
	pr_info("%u core labels, %lu questions, %lu reserved\n", i, tally.asked, tally.reserved);
}

static void check_random_text(struct ktap *t)
{
	unsigned long lo = op_ppc_jump_label_code(0), hi, first;
	struct jl_tally tally = {};
	struct rnd_state rnd;
	unsigned int i, nr;

	for (nr = 0; op_ppc_jump_label_code(nr); nr++)
		;
	hi = nr ? op_ppc_jump_label_code(nr - 1) : 0;
	prandom_seed_state(&rnd, 1);
	for (i = 0; nr && i < NR_RANDOM; i++) {
		first = lo + (((u64)prandom_u32_state(&rnd) << 32 | prandom_u32_state(&rnd)) %
			      (hi - lo + 1));
		ask(&tally, first, first + prandom_u32_state(&rnd) % RANDOM_MAX_LEN);
		if (!(i % 256))
			cond_resched();
	}
	ktap_check(t, nr && !tally.differ, "random_kernel_text_agrees",
		   "%lu questions in [%lx, %lx]: %lu answers differ (first at %lx)", tally.asked,
		   lo, hi, tally.differ, tally.first_differ);
	pr_info("%lu random questions, %lu reserved\n", tally.asked, tally.reserved);
}

/*
 * This module's labels, while it is coming: those in init text count too
 * (the kernel counts every label of a coming module, marked init or not).
 */
static void __init check_module_labels(struct ktap *t)
{
	const struct jump_entry *entry = THIS_MODULE->jump_entries;
	const struct jump_entry *stop = entry + THIS_MODULE->num_jump_entries;
	unsigned int nr = 0, init = 0, not_own = 0;
	struct jl_tally tally = {};

	test_jl_text();
	test_jl_init_text();
	for (; entry < stop; entry++, nr++) {
		/* the label inside test_jl_init_text(), a few words in */
		init += jump_entry_code(entry) - (unsigned long)test_jl_init_text < SZ_256;
		not_own += !ask_around(&tally, jump_entry_code(entry));
	}
	ktap_check(t, nr >= 2 && init >= 1 && !tally.differ && !not_own,
		   "coming_module_labels_agree",
		   "%u labels (%u in test_jl_init_text()), %lu questions: %lu answers differ (first at %lx), %u not reserved",
		   nr, init, tally.asked, tally.differ, tally.first_differ, not_own);
}

static int __init test_ppc_jl_init(void)
{
	struct ktap t;

	ktap_start(&t, 3);
	check_core_labels(&t);
	check_random_text(&t);
	check_module_labels(&t);
	return 0;
}

static void __exit test_ppc_jl_exit(void)
{
}

module_init(test_ppc_jl_init);
module_exit(test_ppc_jl_exit);

MODULE_DESCRIPTION("optprobe test: powerpc jump-label index against the kernel's walk");
MODULE_LICENSE("GPL");
