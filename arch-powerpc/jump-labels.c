// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's jump labels, indexed: which words of text their
 * instructions take (op_arch_jump_label_in()).
 *
 * jump_label_text_reserved() answers by walking every entry of the
 * kernel's table, 11,000 to 14,000 on Debian's kernels, for each
 * question.  A profile of 10,000 kernel-core probes registered and
 * optimized at once (6.1, POWER9 under TCG) put that walk at 92-116 us
 * per probe, as much as everything else optprobe does for it.
 *
 * The kernel core's table does not change once the kernel booted (it is
 * read-only after init): its entries' code and target are fixed, and
 * those of init text were marked by jump_label_init() and are left out,
 * as jump_label_text_reserved() leaves them out once the system runs;
 * optprobe refuses to load before.  So optprobe sorts the codes of the
 * others once, at load, and searches them in O(log n).  A label's
 * instruction is one word (JUMP_LABEL_NOP_SIZE): nothing to decode.  A
 * module's entries are few and walked as they stand, with the module
 * held as the kernel holds it; its init entries count while it is coming
 * (its init text is there and may be probed), and are left out once it
 * is live, as the kernel's __jump_label_mod_text_reserved() does.
 *
 * Finding the table: with KALLSYMS_ALL (Debian's 6.12) kallsyms knows
 * __start___jump_table and __stop___jump_table; without it (6.1) they
 * are read back from jump_label_text_reserved(), whose inlined walk of
 * the table builds both addresses from the TOC (toc-ref.c).  That
 * decoding yields a few candidates; the pair taken is the widest that
 * reads as the kernel's sorted table (op_ppc_table_check()), and
 * where kallsyms knows the table, the decoding is checked against it.
 * A table that does not check out fails the load, naming the check:
 * without it optprobe cannot tell which words of text a label owns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "arch.h"
#include "exports.h"
#include "jump-labels.h"
#include "ksyms.h"
#include "toc-ref.h"

/* The longest function read for the table's addresses. */
#define OP_PPC_JL_FUNC_MAX	(2 * SZ_1K)
/* Room for the TOC-relative addresses decoded in it. */
#define OP_PPC_JL_CANDS		16

#define OP_PPC_NOP		0x60000000
#define OP_PPC_B_MASK		0xfc000003
#define OP_PPC_B		0x48000000

static unsigned long *op_ppc_labels;	/* the core's codes, sorted */
static unsigned int op_ppc_nr_labels;
static unsigned int op_ppc_nr_init;	/* left out: in init text */

static int op_ppc_ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The first of the @nr sorted @codes at @key or above. */
static unsigned int op_ppc_lower_bound(const unsigned long *codes, unsigned int nr,
				       unsigned long key)
{
	unsigned int lo = 0, hi = nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (codes[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The kernel's addr_conflict(): does the label at @code overlap [@first, @last]? */
static bool op_ppc_label_over(unsigned long code, unsigned long first, unsigned long last)
{
	return code <= last && code + JUMP_LABEL_NOP_SIZE > first;
}

/* The core's labels, from the index. */
static bool op_ppc_core_label_in(unsigned long first, unsigned long last)
{
	unsigned int i;

	i = op_ppc_lower_bound(op_ppc_labels, op_ppc_nr_labels,
			       first >= JUMP_LABEL_NOP_SIZE ? first - JUMP_LABEL_NOP_SIZE + 1 : 0);
	return i < op_ppc_nr_labels && op_ppc_label_over(op_ppc_labels[i], first, last);
}

/*
 * A module's labels, walked: the kernel's __jump_label_mod_text_reserved(),
 * which holds the module (a going one answers no) and counts init entries
 * only while the module is coming.
 */
static bool op_ppc_module_label_in(unsigned long first, unsigned long last)
{
	const struct jump_entry *entry, *stop;
	struct module *mod;
	bool init, in = false;

	preempt_disable();
	mod = op_kcall(__module_text_address)(first);
	if (!try_module_get(mod))
		mod = NULL;
	preempt_enable();
	if (!mod)
		return false;
	init = mod->state == MODULE_STATE_COMING;
	stop = mod->jump_entries + mod->num_jump_entries;
	for (entry = mod->jump_entries; entry < stop && !in; entry++)
		in = (init || !jump_entry_is_init(entry)) &&
		     op_ppc_label_over(jump_entry_code(entry), first, last);
	module_put(mod);
	return in;
}

/* What jump_label_text_reserved() answers, the core first as it asks. */
bool op_arch_jump_label_in(unsigned long first, unsigned long last)
{
	return op_ppc_core_label_in(first, last) || op_ppc_module_label_in(first, last);
}

/* The kernel's jump_label_cmp(): by key, then by code. */
static int op_ppc_entry_cmp(const struct jump_entry *a, const struct jump_entry *b)
{
	if (jump_entry_key(a) != jump_entry_key(b))
		return jump_entry_key(a) < jump_entry_key(b) ? -1 : 1;
	if (jump_entry_code(a) != jump_entry_code(b))
		return jump_entry_code(a) < jump_entry_code(b) ? -1 : 1;
	return 0;
}

/*
 * Does [@start, @stop) read as the kernel core's jump table once the
 * system runs?  A whole number of entries, at least one, outside kernel
 * text; sorted as jump_label_init() left it; every entry not marked init
 * labels a word of kernel text that is what the kernel writes there, a
 * nop or a branch to the entry's target (arch_jump_label_transform()).
 *
 * Return: NULL, or the check that failed.
 */
static const char *op_ppc_table_check(unsigned long start, unsigned long stop)
{
	const struct jump_entry *entry, *first = (void *)start, *end = (void *)stop;
	struct jump_entry copy;
	unsigned long code;
	u32 word;

	if (!start || stop <= start || (stop - start) % sizeof(*entry) ||
	    !IS_ALIGNED(start, sizeof(long)))
		return "not a whole number of entries";
	if (op_kcall(core_kernel_text)(start) || op_kcall(core_kernel_text)(stop - 1))
		return "in kernel text";
	for (entry = first; entry < end; entry++) {
		/* read through a copy: its fields are relative to where it is */
		if (copy_from_kernel_nofault(&copy, entry, sizeof(copy)))
			return "unreadable";
		if (entry > first && op_ppc_entry_cmp(entry - 1, entry) > 0)
			return "not sorted by key and code";
		if (jump_entry_is_init(entry))
			continue;
		code = jump_entry_code(entry);
		if (!op_kcall(core_kernel_text)(code) || !IS_ALIGNED(code, sizeof(u32)))
			return "a label outside kernel text";
		if (copy_from_kernel_nofault(&word, (void *)code, sizeof(word)))
			return "a label's word unreadable";
		if (word != OP_PPC_NOP &&
		    ((word & OP_PPC_B_MASK) != OP_PPC_B ||
		     code + sign_extend64(word & 0x03fffffc, 25) != jump_entry_target(entry)))
			return "a label's word neither a nop nor a branch to its target";
	}
	return NULL;
}

/*
 * The table's bounds read back from jump_label_text_reserved(): among
 * the addresses it builds from the TOC, the widest pair that checks out.
 * Its walk also builds addresses inside the table (the next entry), so
 * parts of it check out too; they must all lie within that pair, which
 * is checked as a whole.
 *
 * Return: NULL with *@start and *@stop set, or why not.
 */
static const char *op_ppc_table_decode(unsigned long *start, unsigned long *stop)
{
	unsigned long func = op_kcall_addr(jump_label_text_reserved), size, off;
	u64 cand[OP_PPC_JL_CANDS];
	unsigned int i, j;
	u32 *words;
	int n;

	if (!op_kcall(kallsyms_lookup_size_offset)(func, &size, &off) || off)
		return "jump_label_text_reserved() has no size";
	size = min_t(unsigned long, size, OP_PPC_JL_FUNC_MAX);
	words = kmalloc(size, GFP_KERNEL);
	if (!words)
		return "out of memory";
	n = copy_from_kernel_nofault(words, (void *)func, size) ? -1 :
		op_ppc_toc_addrs(words, size / sizeof(u32), func, cand, ARRAY_SIZE(cand));
	kfree(words);
	if (n <= 0)
		return "no table in jump_label_text_reserved()";
	*start = ULONG_MAX;
	*stop = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			if (cand[i] >= cand[j] || op_ppc_table_check(cand[i], cand[j]))
				continue;
			*start = min_t(unsigned long, *start, cand[i]);
			*stop = max_t(unsigned long, *stop, cand[j]);
		}
	}
	if (!*stop)
		return "no table in jump_label_text_reserved()";
	if (op_ppc_table_check(*start, *stop))
		return "more than one table in jump_label_text_reserved()";
	return NULL;
}

/* Where the table is, from kallsyms or decoded, checked; NULL or why not. */
static const char *op_ppc_table_find(unsigned long *start, unsigned long *stop)
{
	unsigned long ks_start = op_kcall(kallsyms_lookup_name)("__start___jump_table");
	unsigned long ks_stop = op_kcall(kallsyms_lookup_name)("__stop___jump_table");
	const char *why = op_ppc_table_decode(start, stop);

	if (ks_start && ks_stop) {
		/* the decoding, all 6.1 has, is only checked against kallsyms */
		pr_info("jump labels: the decoding of jump_label_text_reserved() %s kallsyms\n",
			why ? why : *start == ks_start && *stop == ks_stop ?
			"agrees with" : "DISAGREES with");
		*start = ks_start;
		*stop = ks_stop;
		return op_ppc_table_check(ks_start, ks_stop);
	}
	return why;
}

int __init op_ppc_jump_labels_init(void)
{
	const struct jump_entry *entry, *stop;
	unsigned long start_addr, stop_addr;
	unsigned int nr = 0;
	const char *why;

	if (system_state < SYSTEM_RUNNING) {
		pr_warn("cannot load before the kernel's init text is gone (jump labels there are left out)\n");
		return -EBUSY;
	}
	why = op_ppc_table_find(&start_addr, &stop_addr);
	if (why) {
		pr_err("the kernel's jump table not found: %s\n", why);
		return -ENOENT;
	}
	entry = (void *)start_addr;
	stop = (void *)stop_addr;
	op_ppc_labels = kvmalloc_array(stop - entry, sizeof(*op_ppc_labels), GFP_KERNEL);
	if (!op_ppc_labels)
		return -ENOMEM;
	for (op_ppc_nr_init = 0; entry < stop; entry++) {
		if (jump_entry_is_init(entry))
			op_ppc_nr_init++;
		else
			op_ppc_labels[nr++] = jump_entry_code(entry);
	}
	sort(op_ppc_labels, nr, sizeof(*op_ppc_labels), op_ppc_ulong_cmp, NULL);
	op_ppc_nr_labels = nr;
	pr_info("jump labels: %u of the kernel's indexed (%u in init text left out)\n",
		nr, op_ppc_nr_init);
	return 0;
}

void op_ppc_jump_labels_exit(void)
{
	kvfree(op_ppc_labels);
	op_ppc_labels = NULL;
	op_ppc_nr_labels = 0;
}

/*
 * For the tests: the @i-th code of the index (0 past its end), and both
 * answers for [@first, @last], the index's and the kernel's.
 */
unsigned long op_ppc_jump_label_code(unsigned int i)
{
	return i < op_ppc_nr_labels ? op_ppc_labels[i] : 0;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_jump_label_code, OPTPROBE_INTERNAL);

bool op_ppc_jump_label_both(unsigned long first, unsigned long last, bool *kernel)
{
	*kernel = op_kcall(jump_label_text_reserved)((void *)first, (void *)last);
	return op_arch_jump_label_in(first, last);
}
EXPORT_SYMBOL_NS_GPL(op_ppc_jump_label_both, OPTPROBE_INTERNAL);
