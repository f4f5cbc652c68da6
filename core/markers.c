// SPDX-License-Identifier: GPL-2.0
/*
 * Finding static markers (include/optprobe-marker.h).  Every record is
 * labelled with a local symbol named OPTPROBE_MARKER_SYM and a number,
 * which a module's kallsyms keep: on x86_64 as a data symbol (Debian's
 * kernels have KALLSYMS_ALL), on ppc64le as a text symbol (the records'
 * section is executable there; 6.1 has no KALLSYMS_ALL).  A module's
 * records are read once: when it comes, from the module notifier, before
 * its init runs, or at optprobe's load for the modules already there.
 * Several records of one name are one marker with several sites; they
 * must agree on the format, which gives the arguments' types
 * (marker-format.c).  A record that does not hold together is skipped
 * with a warning, and the module's other markers stay usable.  Only the
 * registry is here: marker-module.c follows the modules, and
 * marker-probes.c the probes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "arch.h"
#include "ksyms.h"
#include "marker-format.h"
#include "markers.h"
#include "wrap-kallsyms.h"

/* Longest name or format read from a record, NUL included. */
#define OP_MARKER_STR_MAX	256

/* Over the registry and every marker probe; taken before op_mutex. */
DEFINE_MUTEX(op_marker_mutex);
/* Every marker of the modules loaded, struct optprobe_marker */
LIST_HEAD(op_markers);

/* A module whose records were read, with markers or without. */
struct op_marker_mod {
	struct list_head list;
	struct module *mod;
};

static LIST_HEAD(op_marker_mods);

static struct op_marker_mod *op_marker_mod_find(const struct module *mod)
{
	struct op_marker_mod *known;

	list_for_each_entry(known, &op_marker_mods, list)
		if (known->mod == mod)
			return known;
	return NULL;
}

/**
 * op_marker_module_known() - were the records of the module @module read?
 * @module:	a module's name
 *
 * A module that is not known is not loaded, or is coming and its
 * notifier has not run yet: a probe on it waits.
 */
bool op_marker_module_known(const char *module)
{
	struct op_marker_mod *known;

	lockdep_assert_held(&op_marker_mutex);
	list_for_each_entry(known, &op_marker_mods, list)
		if (!strcmp(module_name(known->mod), module))
			return true;
	return false;
}

/**
 * op_marker_find() - the marker @name of the module @module, or NULL
 * @module:	a module's name
 * @name:	the marker's name
 */
struct optprobe_marker *op_marker_find(const char *module, const char *name)
{
	struct optprobe_marker *marker;

	lockdep_assert_held(&op_marker_mutex);
	list_for_each_entry(marker, &op_markers, list)
		if (!strcmp(module_name(marker->mod), module) && !strcmp(marker->name, name))
			return marker;
	return NULL;
}

static bool op_marker_in(const struct module *mod, const void *start, size_t len)
{
	unsigned long addr = (unsigned long)start;

	return within_module(addr, (struct module *)mod) &&
	       within_module(addr + len - 1, (struct module *)mod);
}

/* A NUL-terminated string in @mod, of at most OP_MARKER_STR_MAX bytes. */
static bool op_marker_string(const struct module *mod, const char *s)
{
	unsigned int i;

	for (i = 0; i < OP_MARKER_STR_MAX; i++) {
		if (!op_marker_in(mod, s + i, 1))
			return false;
		if (!s[i])
			return true;
	}
	return false;
}

static bool op_marker_text(const struct module *mod, unsigned long addr)
{
	bool text;

	preempt_disable();
	text = op_kcall(__module_text_address)(addr) == mod;
	preempt_enable();
	return text;
}

/* The hit path's shortcut for @loc: a register, a constant, or neither. */
static void op_marker_loc_how(struct op_marker_loc *loc)
{
	bool reg = loc->base != OP_MLOC_NO_REG;
	u64 v = loc->off;

	loc->how = OP_MLOC_SUM;
	if (loc->mem || loc->index != OP_MLOC_NO_REG)
		return;
	if (reg && !loc->off) {
		loc->how = OP_MLOC_REG;
	} else if (!reg) {
		loc->how = OP_MLOC_CONST;
		if (loc->shift)
			v = loc->is_signed ? (u64)((s64)(v << loc->shift) >> loc->shift) :
					     v << loc->shift >> loc->shift;
		loc->off = v;
	}
}

/*
 * Why the record at @rec of @mod is not one, or NULL; its site into @site,
 * each argument's type from the format.
 */
static const char *op_marker_record_check(const struct module *mod,
					  const struct optprobe_marker_record *rec,
					  struct op_marker_site *site)
{
	struct op_marker_type types[OPTPROBE_MARKER_ARGS_MAX];
	unsigned int i;

	if (!op_marker_in(mod, rec, sizeof(*rec)) || rec->magic != OPTPROBE_MARKER_MAGIC ||
	    rec->nargs > OPTPROBE_MARKER_ARGS_MAX)
		return "not a marker record";
	if (!op_marker_string(mod, rec->name) || !*rec->name || !op_marker_string(mod, rec->format))
		return "no name or format";
	if (op_marker_format_types(rec->format, types, OPTPROBE_MARKER_ARGS_MAX) != rec->nargs)
		return "its format does not take its arguments";
	if (rec->site_len != OPTPROBE_MARKER_NOP_LEN || !op_marker_text(mod, rec->site))
		return "its site is not the module's text";
	/* the records are read before anything probes a module's text */
	if (!op_arch_marker_nop(rec->site))
		return "its site holds no marker's nop";
	site->addr = rec->site;
	site->init = within_module_init(rec->site, (struct module *)mod);
	for (i = 0; i < rec->nargs; i++) {
		struct op_marker_loc *loc = &site->args[i];

		if (op_arch_marker_loc(rec->args[i].loc, (unsigned long)rec->args[i].loc, loc))
			return "an argument's location is not understood";
		if (loc->base != OP_MLOC_NO_REG)
			loc->base = op_arch_marker_reg_offset(loc->base);
		if (loc->index != OP_MLOC_NO_REG)
			loc->index = op_arch_marker_reg_offset(loc->index);
		loc->size = types[i].size;
		loc->shift = 64 - 8 * types[i].size;
		loc->is_signed = types[i].is_signed;
		op_marker_loc_how(loc);
	}
	return NULL;
}

/* Add the site of the record at @rec of @mod to its marker. */
static void op_marker_add(struct module *mod, const struct optprobe_marker_record *rec)
{
	struct op_marker_site site = { 0 }, *sites;
	struct optprobe_marker *marker;
	const char *why;

	why = op_marker_record_check(mod, rec, &site);
	if (why) {
		pr_warn("%s: marker record %pS skipped: %s\n", module_name(mod), rec, why);
		return;
	}
	marker = op_marker_find(module_name(mod), rec->name);
	if (marker && strcmp(marker->format, rec->format)) {
		pr_warn("%s: marker %s at %pS skipped: format \"%s\", its other sites' \"%s\"\n",
			module_name(mod), rec->name, (void *)rec->site, rec->format,
			marker->format);
		return;
	}
	if (!marker) {
		marker = kzalloc(sizeof(*marker), GFP_KERNEL);
		if (!marker)
			goto nomem;
		marker->mod = mod;
		marker->name = rec->name;
		marker->format = rec->format;
		marker->nargs = rec->nargs;
		INIT_LIST_HEAD(&marker->probes);
		list_add_tail(&marker->list, &op_markers);
	}
	sites = krealloc_array(marker->sites, marker->nsites + 1, sizeof(*sites), GFP_KERNEL);
	if (!sites)
		goto nomem;
	sites[marker->nsites++] = site;
	marker->sites = sites;
	return;

nomem:
	pr_warn("%s: marker %s at %pS skipped: out of memory\n", module_name(mod), rec->name,
		(void *)rec->site);
}

/*
 * The records' addresses in @mod's kallsyms, into @recs (at most @max);
 * returns how many there are.  Until the module is live its kallsyms are
 * the whole symbol table, then the part kept; both hold the records'.
 */
static unsigned int op_marker_symbols(struct module *mod, unsigned long *recs, unsigned int max)
{
	size_t len = strlen(OPTPROBE_MARKER_SYM);
	struct mod_kallsyms *ks;
	unsigned int i, n = 0;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; i < ks->num_symtab; i++) {
		if (ks->symtab[i].st_shndx == SHN_UNDEF ||
		    strncmp(ks->strtab + ks->symtab[i].st_name, OPTPROBE_MARKER_SYM, len))
			continue;
		if (n < max)
			recs[n] = ks->symtab[i].st_value;
		n++;
	}
	preempt_enable();
	return n;
}

/**
 * op_markers_read() - read the records of @mod, unless read or it is going
 * @mod:	a module coming, or loaded before optprobe and held
 */
void op_markers_read(struct module *mod)
{
	struct op_marker_mod *known;
	unsigned long *recs;
	unsigned int i, n;

	lockdep_assert_held(&op_marker_mutex);
	if (mod == THIS_MODULE || mod->state == MODULE_STATE_GOING || op_marker_mod_find(mod))
		return;
	known = kzalloc(sizeof(*known), GFP_KERNEL);
	n = op_marker_symbols(mod, NULL, 0);
	recs = n ? kcalloc(n, sizeof(*recs), GFP_KERNEL) : NULL;
	if (!known || (n && !recs)) {
		pr_warn("%s: markers not read: out of memory\n", module_name(mod));
		kfree(known);
		kfree(recs);
		return;
	}
	known->mod = mod;
	list_add_tail(&known->list, &op_marker_mods);
	n = min(n, op_marker_symbols(mod, recs, n));
	for (i = 0; i < n; i++)
		op_marker_add(mod, (const struct optprobe_marker_record *)recs[i]);
	kfree(recs);
}

/*
 * @mod is going: its markers go.  Their probes were made gone first
 * (marker-module.c).
 */
void op_markers_drop(struct module *mod)
{
	struct optprobe_marker *marker, *tmp;
	struct op_marker_mod *known;

	lockdep_assert_held(&op_marker_mutex);
	list_for_each_entry_safe(marker, tmp, &op_markers, list) {
		if (marker->mod != mod)
			continue;
		list_del(&marker->list);
		kfree(marker->sites);
		kfree(marker);
	}
	known = op_marker_mod_find(mod);
	if (known) {
		list_del(&known->list);
		kfree(known);
	}
}

/* The modules there at load, each held, one entry per module. */
struct op_marker_walk {
	struct module *last;
	struct list_head mods;
};

static struct module *op_marker_module_of(unsigned long addr)
{
	return op_kcall(__module_address)(addr);
}

static int op_marker_walk_one(void *data, const char *name, struct module *mod,
			      unsigned long addr)
{
	struct op_marker_walk *walk = data;
	struct op_marker_mod *held;

	if (!mod || mod == walk->last)
		return 0;
	walk->last = mod;
	/*
	 * Live ones only: a reference does not keep a coming module whose
	 * init fails; the notifier reads those, at COMING or at LIVE.
	 */
	if (mod == THIS_MODULE || mod->state != MODULE_STATE_LIVE || !try_module_get(mod))
		return 0;
	held = kzalloc(sizeof(*held), GFP_KERNEL);
	if (!held) {
		module_put(mod);
		return -ENOMEM;
	}
	held->mod = mod;
	list_add_tail(&held->list, &walk->mods);
	return 0;
}

/**
 * op_markers_read_loaded() - read the records of the modules already loaded
 *
 * The module notifier is registered first: a module coming meanwhile is
 * read once, by whichever gets to it first.
 *
 * Return: 0 or -ENOMEM.
 */
int op_markers_read_loaded(void)
{
	struct op_marker_walk walk = { .mods = LIST_HEAD_INIT(walk.mods) };
	struct op_marker_mod *held, *tmp;
	int ret;

	ret = op_module_kallsyms_on_each(op_kcall(module_kallsyms_on_each_symbol),
					 op_marker_module_of, op_marker_walk_one, &walk);
	list_for_each_entry_safe(held, tmp, &walk.mods, list) {
		if (!ret) {
			mutex_lock(&op_marker_mutex);
			op_markers_read(held->mod);
			mutex_unlock(&op_marker_mutex);
		}
		module_put(held->mod);
		kfree(held);
	}
	return ret;
}

/* optprobe is unloading: every probe module has gone, no probe is left. */
void op_markers_free(void)
{
	struct op_marker_mod *known, *tmp;
	struct optprobe_marker *marker, *next;

	list_for_each_entry_safe(marker, next, &op_markers, list) {
		WARN_ON_ONCE(!list_empty(&marker->probes));
		list_del(&marker->list);
		kfree(marker->sites);
		kfree(marker);
	}
	list_for_each_entry_safe(known, tmp, &op_marker_mods, list) {
		list_del(&known->list);
		kfree(known);
	}
}
