// SPDX-License-Identifier: GPL-2.0
/*
 * Foreign entries: the places inside a symbol's code that code outside
 * that symbol enters.  A jump region may hold none of them after its
 * first byte (op_x86_foreign_entry_in()).
 *
 * optimize.c checks a region against its own function, [func, func +
 * size) as kallsyms sizes it.  Code elsewhere reaches into a function
 * too: gcc moves unlikely blocks into a separate foo.cold symbol, which
 * jumps back into foo at ordinary join points (not only after an
 * unconditional jmp), and foo jumps into foo.cold past its start; asm
 * jumps to inner labels of other symbols; an exception's fixup may be
 * anywhere.  So each text probes may go in is indexed once: the kernel's
 * core text, and each live module's core text, on the first question
 * about it (a module's index goes when the module does).  A text is
 * walked symbol by symbol with optprobe's decoder, each symbol from its
 * start to the next one's, as kallsyms delimits them for the function
 * walk, reading through breakpoints and optprobe's own jumps to the
 * original bytes; these addresses are kept, sorted:
 *
 *  - the target of every relative jmp, jcc, call, loop/jrcxz and xbegin
 *    that lands in another symbol, past its start;
 *  - every address an instruction names (RIP-relative, absolute or an
 *    immediate) in another symbol, past its start, and every entry of a
 *    jump table it reads that lands there: what an indirect jump of
 *    another symbol may reach;
 *  - every exception-table fixup of that text, wherever its faulting
 *    instruction is.
 *
 * A symbol's start is left out: a region lies inside one symbol, so only
 * its own first byte could be a start, and that one may be entered.  So
 * is the padding before functions (__pfx_, __cfi_), which is never probed.
 *
 * Why nothing else enters a region: a direct jump or call is decoded
 * wherever it is, in .text, .text.unlikely (.cold), .noinstr.text,
 * .entry.text and the rest of [_stext, _etext), or anywhere in a
 * module's core text; what the walk reads is the live text, with
 * alternatives, retpolines and return thunks applied at boot or module
 * load (a jmp to a retpoline thunk is an indirect jump, to the return
 * thunk a ret; both thunks are symbols, entered at their starts).  An
 * indirect jump or call goes to an address held in a register or in
 * memory: function pointers and static calls point at symbols' starts;
 * code addresses taken of inner labels are indexed here (another
 * symbol's) or refused by the function walk (the function's own); the
 * kernel is built without compiler jump tables (-fno-jump-tables with
 * retpolines), and computed gotos' tables are read by the code that
 * jumps through them, indexed here or checked by the function walk.
 * Jump labels jump where jump-labels.c indexes, since a disabled one is a
 * nop the walk cannot see.  A return lands after its call, and a call
 * can only end a region.  Interrupted code resumes where it stopped,
 * which the optimizer's grace periods take care of.
 *
 * The walk reads through a kernel kprobe's optimized jmp too: the bytes
 * it replaced are the kprobe's saved opcode and copied_insn.  What the
 * walk cannot read it counts (debugfs "foreign_entries"): bytes neither
 * decoder nor padding check accepts; a symbol's walk stops there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/extable.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "decode.h"
#include "entries.h"
#include "jump-labels.h"
#include "ksyms.h"
#include "wrap-kallsyms.h"

/* Where an exception-table entry's fixup resumes. */
unsigned long op_x86_fixup_of(const struct exception_table_entry *e)
{
	return (unsigned long)&e->fixup + e->fixup;
}

/*
 * Are [@pos, @end) the padding after a function's last instruction: all
 * zeros (a module's text between its sections) or all int3?  kallsyms
 * sizes a function up to the next symbol, so its end may cut the padding
 * in the middle of what would decode as an instruction.
 */
bool op_x86_padding(unsigned long pos, unsigned long end)
{
	u8 first, byte;

	if (copy_from_kernel_nofault(&first, (void *)pos, 1) ||
	    (first != 0 && first != INT3_INSN_OPCODE))
		return false;
	for (pos++; pos < end; pos++)
		if (copy_from_kernel_nofault(&byte, (void *)pos, 1) || byte != first)
			return false;
	return true;
}

/* A memory operand without a base register: disp32(,%index,scale) or disp32. */
static bool op_x86_no_base(const struct op_x86_insn *insn)
{
	return insn->has_sib && !(insn->modrm >> 6) && (insn->sib & 7) == 5;
}

/*
 * The address an operand of @insn (at @pos) names, if it names one: a
 * RIP-relative or absolute (no base register) memory operand, or a 32- or
 * 64-bit immediate (a mov or push of an address); else 0.
 */
unsigned long op_x86_address_operand(unsigned long pos, const struct op_x86_insn *insn)
{
	if (insn->rip_relative)
		return pos + insn->len + insn->disp;
	if (op_x86_no_base(insn) && insn->disp_size == 4)
		return (long)insn->disp;
	if (!insn->has_rel && insn->imm_size >= 4)
		return insn->imm;
	return 0;
}

/* An array of addresses indexed by a register: disp32(,%index,8). */
bool op_x86_table_read(const struct op_x86_insn *insn)
{
	return op_x86_no_base(insn) && insn->sib >> 6 == 3 &&
	       (((insn->sib >> 3) & 7) != 4 || (insn->rex & 0x2));
}

/* Entries of a jump table read at most. */
#define OP_X86_ENTRY_TABLE_MAX	1024

enum op_x86_entry_kind {
	OP_X86_ENTRY_JUMP,
	OP_X86_ENTRY_ADDRESS,
	OP_X86_ENTRY_TABLE,
	OP_X86_ENTRY_FIXUP,
};

struct op_x86_entry {
	unsigned long addr;
	enum op_x86_entry_kind kind;
};

/* One text's index: the kernel's core text (mod NULL) or a module's. */
struct op_x86_entries {
	struct list_head list;
	struct module *mod;
	unsigned long lo, hi;		/* the text */
	struct op_x86_entry *entries;	/* sorted by addr */
	unsigned int nr;
	unsigned int unread;		/* symbols whose walk stopped early */
};

/* The indexes built so far, with text_mutex held. */
static LIST_HEAD(op_x86_indexes);

/* A symbol's bounds while an index is built: where symbols start. */
struct op_x86_symbols {
	unsigned long lo, hi;
	unsigned long *start;		/* sorted, no padding symbols */
	unsigned long *padding;		/* sorted: __pfx_ and __cfi_ */
	unsigned int nr, nr_padding, cap, cap_padding;
	int err;
};

static int op_x86_entry_cmp(const void *a, const void *b)
{
	return op_x86_ulong_cmp(&((const struct op_x86_entry *)a)->addr,
				&((const struct op_x86_entry *)b)->addr);
}

/*
 * Make room for one more of the *@nr elements of @size bytes at *@arr,
 * doubling its room *@cap when full.
 */
static int op_x86_room(void **arr, size_t size, unsigned int nr, unsigned int *cap)
{
	unsigned int grown = max(*cap * 2, 1024U);
	void *to;

	if (nr < *cap)
		return 0;
	to = kvmalloc_array(grown, size, GFP_KERNEL);
	if (!to)
		return -ENOMEM;
	if (nr)
		memcpy(to, *arr, nr * size);
	kvfree(*arr);
	*arr = to;
	*cap = grown;
	return 0;
}

/* Append @v to the array *@arr of *@nr, with room for *@cap. */
static int op_x86_push(unsigned long **arr, unsigned int *nr, unsigned int *cap, unsigned long v)
{
	int ret = op_x86_room((void **)arr, sizeof(**arr), *nr, cap);

	if (!ret)
		(*arr)[(*nr)++] = v;
	return ret;
}

static bool op_x86_in_sorted(const unsigned long *arr, unsigned int nr, unsigned long key)
{
	unsigned int i = op_x86_lower_bound(arr, nr, sizeof(*arr), key);

	return i < nr && arr[i] == key;
}

static void op_x86_add_symbol(struct op_x86_symbols *s, const char *name, unsigned long addr)
{
	static const char * const padding[] = { "__pfx_", "__cfi_" };
	unsigned int i;

	if (s->err || addr < s->lo || addr >= s->hi)
		return;
	for (i = 0; i < ARRAY_SIZE(padding); i++)
		if (str_has_prefix(name, padding[i])) {
			s->err = op_x86_push(&s->padding, &s->nr_padding, &s->cap_padding, addr);
			break;
		}
	if (!s->err)
		s->err = op_x86_push(&s->start, &s->nr, &s->cap, addr);
}

static int op_x86_core_symbol(void *data, const char *name, struct module *mod,
			      unsigned long addr)
{
	struct op_x86_symbols *s = data;

	if (!mod)
		op_x86_add_symbol(s, name, addr);
	return s->err;
}

/*
 * A module's symbols as its kallsyms lookup (find_kallsyms_symbol()) sees
 * them: defined, named, and not a mapping symbol ($x..., which x86 does
 * not have).  The symbols must be the same that size the function walk:
 * with one more or one less, a jump between two of them would be seen by
 * neither that walk nor this one.
 */
static void op_x86_module_symbols(struct op_x86_symbols *s, struct module *mod)
{
	const struct mod_kallsyms *ks;
	const char *name;
	unsigned int i;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 1; i < ks->num_symtab && !s->err; i++) {
		name = ks->strtab + ks->symtab[i].st_name;
		if (ks->symtab[i].st_shndx == SHN_UNDEF || !*name || *name == '$')
			continue;
		op_x86_add_symbol(s, name, ks->symtab[i].st_value);
	}
	preempt_enable();
}

/* Sort and drop duplicates (aliases share a start). */
static unsigned int op_x86_sort_unique(unsigned long *arr, unsigned int nr)
{
	unsigned int i, n = 0;

	sort(arr, nr, sizeof(*arr), op_x86_ulong_cmp, NULL);
	for (i = 0; i < nr; i++)
		if (!n || arr[i] != arr[n - 1])
			arr[n++] = arr[i];
	return n;
}

/* Building one text's index. */
struct op_x86_walk {
	struct op_x86_entries *idx;
	struct op_x86_symbols *sym;
	unsigned long from, to;		/* the symbol being walked */
	struct op_x86_reader rd;	/* its original instructions */
	unsigned int cap;
	int err;
};

/* Keep @addr if it enters another symbol of the text past its start. */
static void op_x86_keep(struct op_x86_walk *w, unsigned long addr, enum op_x86_entry_kind kind)
{
	struct op_x86_entries *idx = w->idx;
	unsigned int i;

	if (w->err || addr < idx->lo || addr >= idx->hi || (addr >= w->from && addr < w->to))
		return;
	if (op_x86_in_sorted(w->sym->start, w->sym->nr, addr))
		return;
	/* inside the padding before a function? */
	i = op_x86_lower_bound(w->sym->start, w->sym->nr, sizeof(*w->sym->start), addr + 1);
	if (i && op_x86_in_sorted(w->sym->padding, w->sym->nr_padding, w->sym->start[i - 1]))
		return;
	w->err = op_x86_room((void **)&idx->entries, sizeof(*idx->entries), idx->nr, &w->cap);
	if (w->err)
		return;
	idx->entries[idx->nr].addr = addr;
	idx->entries[idx->nr++].kind = kind;
}

/* Every text entry of the jump table at @table. */
static void op_x86_keep_table(struct op_x86_walk *w, unsigned long table)
{
	unsigned long entry;
	unsigned int i;

	for (i = 0; i < OP_X86_ENTRY_TABLE_MAX; i++, table += sizeof(entry)) {
		if (copy_from_kernel_nofault(&entry, (void *)table, sizeof(entry)) ||
		    entry < w->idx->lo || entry >= w->idx->hi)
			return;
		op_x86_keep(w, entry, OP_X86_ENTRY_TABLE);
	}
}

/* Walk the symbol [w->from, w->to). */
static void op_x86_walk_symbol(struct op_x86_walk *w)
{
	u8 buf[OP_X86_MAX_INSN_LEN];
	struct op_x86_insn insn;
	unsigned long pos, addr;

	op_x86_reader_init(&w->rd, w->to);
	for (pos = w->from; pos < w->to && !w->err; pos += insn.len) {
		if (op_x86_read_insn(&w->rd, pos, &insn, buf)) {
			if (!op_x86_padding(pos, w->to))
				w->idx->unread++;
			return;
		}
		addr = op_x86_address_operand(pos, &insn);
		if (op_x86_table_read(&insn) && (addr < w->idx->lo || addr >= w->idx->hi))
			op_x86_keep_table(w, addr);
		else
			op_x86_keep(w, addr, OP_X86_ENTRY_ADDRESS);
		if (insn.has_rel)
			op_x86_keep(w, pos + insn.len + insn.rel, OP_X86_ENTRY_JUMP);
	}
}

/* Every fixup of the exception table [@e, @stop) in the text. */
static void op_x86_keep_fixups(struct op_x86_walk *w, const struct exception_table_entry *e,
			       const struct exception_table_entry *stop)
{
	/* no symbol is "this one": a fixup in the faulting code's own symbol counts too */
	w->from = 0;
	w->to = 0;
	for (; e < stop; e++)
		op_x86_keep(w, op_x86_fixup_of(e), OP_X86_ENTRY_FIXUP);
}

static void op_x86_index_free(struct op_x86_entries *idx)
{
	kvfree(idx->entries);
	kfree(idx);
}

/* Index the text [@lo, @hi) of @mod (NULL: the kernel's core text). */
static struct op_x86_entries *op_x86_index_build(struct module *mod, unsigned long lo,
						 unsigned long hi)
{
	struct op_x86_symbols sym = { .lo = lo, .hi = hi };
	struct op_x86_entries *idx;
	struct op_x86_walk w = { .sym = &sym };
	unsigned int i, n;

	idx = kzalloc(sizeof(*idx), GFP_KERNEL);
	if (!idx)
		return ERR_PTR(-ENOMEM);
	idx->mod = mod;
	idx->lo = lo;
	idx->hi = hi;
	w.idx = idx;
	if (mod)
		op_x86_module_symbols(&sym, mod);
	else
		op_kallsyms_on_each(op_kcall(kallsyms_on_each_symbol), op_x86_core_symbol, &sym);
	w.err = sym.err;
	sym.nr = op_x86_sort_unique(sym.start, sym.nr);
	sym.nr_padding = op_x86_sort_unique(sym.padding, sym.nr_padding);
	for (i = 0; i < sym.nr && !w.err; i++) {
		if (op_x86_in_sorted(sym.padding, sym.nr_padding, sym.start[i]))
			continue;
		w.from = sym.start[i];
		w.to = i + 1 < sym.nr ? sym.start[i + 1] : hi;
		op_x86_walk_symbol(&w);
		cond_resched();
	}
	if (mod)
		op_x86_keep_fixups(&w, mod->extable, mod->extable + mod->num_exentries);
	else
		op_x86_keep_fixups(&w, op_ksyms.arch.__start___ex_table,
				   op_ksyms.arch.__stop___ex_table);
	kvfree(sym.start);
	kvfree(sym.padding);
	if (w.err) {
		op_x86_index_free(idx);
		return ERR_PTR(w.err);
	}
	sort(idx->entries, idx->nr, sizeof(*idx->entries), op_x86_entry_cmp, NULL);
	for (i = 0, n = 0; i < idx->nr; i++)
		if (!n || idx->entries[i].addr != idx->entries[n - 1].addr)
			idx->entries[n++] = idx->entries[i];
	idx->nr = n;
	return idx;
}

/*
 * The index of the text holding @addr, built if need be; with text_mutex
 * held, which module unloading takes to drop a module's index.
 */
static struct op_x86_entries *op_x86_index_of(unsigned long addr, enum op_reason *reason)
{
	struct op_x86_entries *idx;
	unsigned long lo, hi;
	struct module *mod;
	bool live;

	preempt_disable();
	mod = op_kcall(__module_text_address)(addr);
	live = !mod || mod->state == MODULE_STATE_LIVE;
	preempt_enable();
	/* seen live with text_mutex held: its GOING notifier waits for us */
	if (!live) {
		*reason = OP_R_MODULE_NOT_LIVE;
		return ERR_PTR(-EAGAIN);
	}
	if (!mod && !op_kcall(core_kernel_text)(addr)) {
		*reason = OP_R_NOT_TEXT;
		return ERR_PTR(-EINVAL);
	}
	list_for_each_entry(idx, &op_x86_indexes, list)
		if (idx->mod == mod)
			return idx;
	lo = mod ? op_module_text_base(mod) : (unsigned long)*op_ksyms.arch._stext;
	hi = mod ? lo + op_module_text_size(mod) : (unsigned long)*op_ksyms.arch._etext;
	idx = op_x86_index_build(mod, lo, hi);
	if (IS_ERR(idx)) {
		*reason = OP_R_NOMEM_ENTRIES;
		return idx;
	}
	list_add(&idx->list, &op_x86_indexes);
	return idx;
}

static const enum op_reason op_x86_entry_reasons[] = {
	[OP_X86_ENTRY_JUMP] = OP_R_FOREIGN_JUMP,
	[OP_X86_ENTRY_ADDRESS] = OP_R_FOREIGN_ADDRESS,
	[OP_X86_ENTRY_TABLE] = OP_R_FOREIGN_TABLE,
	[OP_X86_ENTRY_FIXUP] = OP_R_FOREIGN_FIXUP,
};

/**
 * op_x86_foreign_entry_in() - is the code in (@from, @to) entered from
 * outside its symbol?
 * @from:	the first byte of a region, which may be entered
 * @to:		the end of the region
 * @reason:	set to what enters it
 *
 * Context: process context, text_mutex held; may sleep to build the
 * index of the text holding @from.
 * Return: 0 if nothing enters; -EINVAL, -ENOMEM, or -EAGAIN for a module
 * that is not live, with @reason set.
 */
int op_x86_foreign_entry_in(unsigned long from, unsigned long to, enum op_reason *reason)
{
	struct op_x86_entries *idx = op_x86_index_of(from, reason);
	unsigned int lo;

	if (IS_ERR(idx))
		return PTR_ERR(idx);
	lo = op_x86_lower_bound(idx->entries, idx->nr, sizeof(*idx->entries), from + 1);
	if (lo == idx->nr || idx->entries[lo].addr >= to)
		return 0;
	*reason = op_x86_entry_reasons[idx->entries[lo].kind];
	return -EINVAL;
}

/*
 * debugfs "foreign_entries": a line per text indexed so far, with its
 * entries and its symbols not read to their end (on Debian's kernels:
 * 32-bit code, and the return-thunk untraining functions, whose
 * instructions overlap those of the next symbol by design).
 */
static int foreign_entries_show(struct seq_file *m, void *v)
{
	struct op_x86_entries *idx;

	mutex_lock(op_ksyms.arch.text_mutex);
	list_for_each_entry(idx, &op_x86_indexes, list)
		seq_printf(m, "%s %u entries, %u symbols not read to their end\n",
			   idx->mod ? idx->mod->name : "kernel", idx->nr, idx->unread);
	mutex_unlock(op_ksyms.arch.text_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(foreign_entries);

void op_x86_entries_debugfs(struct dentry *dir)
{
	debugfs_create_file("foreign_entries", 0400, dir, NULL, &foreign_entries_fops);
}

static int op_x86_entries_module(struct notifier_block *nb, unsigned long state, void *data)
{
	struct op_x86_entries *idx;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(op_ksyms.arch.text_mutex);
	list_for_each_entry(idx, &op_x86_indexes, list) {
		if (idx->mod == data) {
			list_del(&idx->list);
			op_x86_index_free(idx);
			break;
		}
	}
	mutex_unlock(op_ksyms.arch.text_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block op_x86_entries_nb = {
	.notifier_call = op_x86_entries_module,
};

int __init op_x86_entries_init(void)
{
	return register_module_notifier(&op_x86_entries_nb);
}

void op_x86_entries_exit(void)
{
	struct op_x86_entries *idx, *tmp;

	unregister_module_notifier(&op_x86_entries_nb);
	list_for_each_entry_safe(idx, tmp, &op_x86_indexes, list)
		op_x86_index_free(idx);
	INIT_LIST_HEAD(&op_x86_indexes);
}
