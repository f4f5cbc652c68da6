// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's jump labels, indexed: which bytes of text their instructions
 * take (op_arch_jump_label_in()), and where they jump
 * (op_x86_jump_label_target_in()).
 *
 * jump_label_text_reserved() answers the first question by walking every
 * entry of the kernel's table and decoding each one's instruction to learn
 * its size (arch_jump_entry_size()): tens of thousands of decodes for each
 * question, which a probe asks twice (registration, then the optimizer).
 * Measured under TCG with 10,000 kernel-text probes registered and
 * optimized at once, that was 32 of the 40 seconds.
 *
 * The kernel core's table does not change once the kernel booted (it is
 * read-only after init): its entries' code and target are fixed, and
 * those of init text were marked by jump_label_init() and are left out,
 * as jump_label_text_reserved() leaves them out once the system runs;
 * optprobe refuses to load before.  So optprobe sorts it once, at load,
 * into two arrays searched in O(log n).  A module's entries are few and
 * walked as they stand, under preempt_disable() (a module's freeing waits
 * for RCU); its init entries count while it is coming (its init text is
 * there and may be probed), and are left out once it is live, when that
 * text goes, as the kernel's __jump_label_mod_text_reserved() does.
 *
 * The old way also risked a BUG: arch_jump_entry_size() BUGs on an int3
 * of a label being flipped, and was called without the locks that keep
 * flips out.  Here the index is built under text_mutex, and the size of a
 * module's label is read as its first byte, whatever it is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "arch.h"
#include "ksyms.h"
#include "jump-labels.h"

/* A jump label's instruction: a 2- or 5-byte jmp, or a nop of that size. */
#define OP_X86_JUMP_LABEL_MAX	5

struct op_x86_label {
	unsigned long code;
	u8 len;
};

static struct op_x86_label *op_x86_labels;	/* the core's, by code */
static unsigned long *op_x86_targets;		/* the core's, sorted */
static unsigned int op_x86_nr_labels;

/*
 * The size of the instruction at a jump label, from its first byte: jmp
 * rel8 (eb) or the 2-byte nop (66 90), jmp rel32 (e9) or the 5-byte nop
 * (0f 1f 44 00 00).  The kernel keeps a label's size when it flips it; an
 * int3 of a flip in progress, or anything else, counts as the larger.
 */
static unsigned int op_x86_jump_label_len(unsigned long code)
{
	u8 first;

	if (copy_from_kernel_nofault(&first, (void *)code, 1))
		return OP_X86_JUMP_LABEL_MAX;
	return first == 0xeb || first == 0x66 ? 2 : OP_X86_JUMP_LABEL_MAX;
}

static int op_x86_label_cmp(const void *a, const void *b)
{
	unsigned long x = ((const struct op_x86_label *)a)->code;
	unsigned long y = ((const struct op_x86_label *)b)->code;

	return x < y ? -1 : x > y;
}

int op_x86_ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The first of the @nr sorted elements at @base (@size bytes each, each
 * keyed by the unsigned long it starts with) whose key is @key or above.
 * Also entries.c's.
 */
unsigned int op_x86_lower_bound(const void *base, unsigned int nr, size_t size,
				unsigned long key)
{
	unsigned int lo = 0, hi = nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (*(const unsigned long *)(base + mid * size) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Does the label at @code overlap [@first, @last]? */
static bool op_x86_label_over(unsigned long code, unsigned long len, unsigned long first,
			      unsigned long last)
{
	return code <= last && code + len > first;
}

/* Whether @entry of a module in @state is in text that is still there */
static bool op_x86_module_entry_there(const struct jump_entry *entry, enum module_state state)
{
	return !jump_entry_is_init(entry) || state == MODULE_STATE_COMING;
}

/* A module's entries [@entry, @stop): walked, not indexed. */
static bool op_x86_module_label_in(const struct jump_entry *entry, const struct jump_entry *stop,
				   enum module_state state, unsigned long first,
				   unsigned long last)
{
	unsigned long code;

	for (; entry < stop; entry++) {
		if (!op_x86_module_entry_there(entry, state))
			continue;
		code = jump_entry_code(entry);
		/* the size is read only for a label that may overlap */
		if (op_x86_label_over(code, OP_X86_JUMP_LABEL_MAX, first, last) &&
		    op_x86_label_over(code, op_x86_jump_label_len(code), first, last))
			return true;
	}
	return false;
}

static bool op_x86_module_target_in(const struct jump_entry *entry, const struct jump_entry *stop,
				    enum module_state state, unsigned long from, unsigned long to)
{
	unsigned long target;

	for (; entry < stop; entry++) {
		target = jump_entry_target(entry);
		if (op_x86_module_entry_there(entry, state) && target > from && target < to)
			return true;
	}
	return false;
}

bool op_arch_jump_label_in(unsigned long first, unsigned long last)
{
	struct module *mod;
	unsigned int i;
	bool in;

	preempt_disable();
	mod = op_kcall(__module_text_address)(first);
	if (mod) {
		in = op_x86_module_label_in(mod->jump_entries,
					    mod->jump_entries + mod->num_jump_entries,
					    mod->state, first, last);
		preempt_enable();
		return in;
	}
	preempt_enable();
	i = op_x86_lower_bound(op_x86_labels, op_x86_nr_labels, sizeof(*op_x86_labels),
			       first > OP_X86_JUMP_LABEL_MAX ? first - OP_X86_JUMP_LABEL_MAX : 0);
	for (; i < op_x86_nr_labels && op_x86_labels[i].code <= last; i++)
		if (op_x86_label_over(op_x86_labels[i].code, op_x86_labels[i].len, first, last))
			return true;
	return false;
}

/**
 * op_x86_jump_label_target_in() - does a jump label of the text holding
 * @from jump into (@from, @to)?
 * @from:	the first byte, which may be a target
 * @to:		the end
 *
 * The kernel's labels jump within kernel text, a module's within its own.
 */
bool op_x86_jump_label_target_in(unsigned long from, unsigned long to)
{
	struct module *mod;
	unsigned int i;
	bool in;

	preempt_disable();
	mod = op_kcall(__module_text_address)(from);
	if (mod) {
		in = op_x86_module_target_in(mod->jump_entries,
					     mod->jump_entries + mod->num_jump_entries,
					     mod->state, from, to);
		preempt_enable();
		return in;
	}
	preempt_enable();
	i = op_x86_lower_bound(op_x86_targets, op_x86_nr_labels, sizeof(*op_x86_targets), from + 1);
	return i < op_x86_nr_labels && op_x86_targets[i] < to;
}

int __init op_x86_jump_labels_init(void)
{
	const struct jump_entry *start = *op_ksyms.arch.__start___jump_table;
	const struct jump_entry *stop = *op_ksyms.arch.__stop___jump_table;
	const struct jump_entry *entry;
	unsigned int nr = 0;

	if (system_state < SYSTEM_RUNNING) {
		pr_warn("cannot load before the kernel's init text is gone (jump labels there are left out)\n");
		return -EBUSY;
	}
	op_x86_labels = kvmalloc_array(stop - start, sizeof(*op_x86_labels), GFP_KERNEL);
	op_x86_targets = kvmalloc_array(stop - start, sizeof(*op_x86_targets), GFP_KERNEL);
	if (!op_x86_labels || !op_x86_targets) {
		op_x86_jump_labels_exit();
		return -ENOMEM;
	}
	/* no label is being flipped while its size is read */
	mutex_lock(op_ksyms.arch.text_mutex);
	for (entry = start; entry < stop; entry++) {
		if (jump_entry_is_init(entry))
			continue;
		op_x86_labels[nr].code = jump_entry_code(entry);
		op_x86_labels[nr].len = op_x86_jump_label_len(op_x86_labels[nr].code);
		op_x86_targets[nr++] = jump_entry_target(entry);
	}
	mutex_unlock(op_ksyms.arch.text_mutex);
	sort(op_x86_labels, nr, sizeof(*op_x86_labels), op_x86_label_cmp, NULL);
	sort(op_x86_targets, nr, sizeof(*op_x86_targets), op_x86_ulong_cmp, NULL);
	op_x86_nr_labels = nr;
	return 0;
}

void op_x86_jump_labels_exit(void)
{
	kvfree(op_x86_labels);
	kvfree(op_x86_targets);
	op_x86_labels = NULL;
	op_x86_targets = NULL;
	op_x86_nr_labels = 0;
}
