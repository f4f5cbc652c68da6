// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on static markers.  A marker probe puts one optprobe, a hook, on
 * every live site of its marker, flagged OP_F_MARKER: the optimizer
 * jump-optimizes such a site at once, since a marker's nop is one
 * instruction that no task can be inside of, and the backends have no
 * instruction to decide about.  The hook's pre handler reads the marker's
 * arguments from where the assembler said they are and calls the probe's
 * handler.  Aggregation, enabling, misses and module unload are the
 * hooks', as for any probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "arch.h"
#include "exports.h"
#include "internal.h"
#include "ksyms.h"
#include "markers.h"

/* Not in every 6.1's compiler_attributes.h (Debian's ppc64el 6.1.0-50): gcc 11+ */
#ifndef __no_stack_protector
#define __no_stack_protector	__attribute__((__no_stack_protector__))
#endif

/* Probes registered before their module came. */
static LIST_HEAD(op_marker_pending);

static __always_inline unsigned long op_marker_reg(const struct pt_regs *regs, s16 offset)
{
	return *(const unsigned long *)((const u8 *)regs + offset);
}

/* The general case of op_marker_arg(): an index register, or memory. */
static noinline u64 op_marker_sum(const struct op_marker_loc *loc, const struct pt_regs *regs)
{
	unsigned long addr;
	u64 v = loc->off;

	if (loc->base != OP_MLOC_NO_REG)
		v += op_marker_reg(regs, loc->base);
	if (loc->index != OP_MLOC_NO_REG)
		v += (u64)op_marker_reg(regs, loc->index) << loc->scale;
	if (loc->mem) {
		addr = v;
		v = 0;
		/* little-endian both: the low bytes of v */
		if (copy_from_kernel_nofault(&v, (void *)addr, loc->size))
			v = 0;
	}
	return v;
}

/* Hit path: the argument at @loc, in the registers or memory of a hit. */
static __always_inline u64 op_marker_arg(const struct op_marker_loc *loc,
					 const struct pt_regs *regs)
{
	u64 v;

	if (loc->how == OP_MLOC_CONST)
		return loc->off;
	if (likely(loc->how == OP_MLOC_REG))
		v = op_marker_reg(regs, loc->base);
	else
		v = op_marker_sum(loc, regs);
	if (!loc->shift)
		return v;
	return loc->is_signed ? (u64)((s64)(v << loc->shift) >> loc->shift) :
				v << loc->shift >> loc->shift;
}

/*
 * The hit path's cost over a plain probe's is here: no stack protector
 * (no array of the caller's is written past) and no zeroing of @args,
 * whose first hook->nargs are all written before the handler reads them.
 */
static int __no_stack_protector op_marker_hit(struct optprobe *p, struct pt_regs *regs)
{
	struct op_marker_hook *hook = container_of(p, struct op_marker_hook, p);
	u64 args[OPTPROBE_MARKER_ARGS_MAX] __uninitialized;
	unsigned int i;

	for (i = 0; i < hook->nargs; i++)
		args[i] = op_marker_arg(&hook->args[i], regs);
	hook->mp->handler(hook->mp, regs, args);
	return 0;
}

static void op_mp_warn(const struct optprobe_marker_probe *mp, const char *what, int err)
{
	if (!(mp->flags & OPTPROBE_F_QUIET))
		pr_warn_ratelimited("marker probe %s:%s: %s (%d)\n", mp->module ?: "(null)",
				    mp->name ?: "(null)", what, err);
}

/* Take @mp's hooks off their sites. */
static void op_marker_unhook(struct optprobe_marker_probe *mp)
{
	unsigned int i;

	for (i = 0; i < mp->nhooks; i++)
		optprobe_unregister(&mp->hooks[i].p);
	kfree(mp->hooks);
	mp->hooks = NULL;
	mp->nhooks = 0;
}

/* Put a hook of @mp on every live site of @marker. */
static int op_marker_arm(struct optprobe_marker *marker, struct optprobe_marker_probe *mp)
{
	struct op_marker_hook *hooks;
	unsigned int i, n = 0;
	int ret = 0;

	if (strcmp(mp->format, marker->format)) {
		if (!(mp->flags & OPTPROBE_F_QUIET))
			pr_warn_ratelimited("marker probe %s:%s: the marker's format is \"%s\", the probe's \"%s\"\n",
					    mp->module, mp->name, marker->format, mp->format);
		return -EINVAL;
	}
	hooks = kcalloc(marker->nsites, sizeof(*hooks), GFP_KERNEL);
	if (!hooks)
		return -ENOMEM;
	mp->hooks = hooks;
	for (i = 0; i < marker->nsites; i++) {
		const struct op_marker_site *site = &marker->sites[i];
		struct op_marker_hook *hook = &hooks[n];
		struct optprobe *p = &hook->p;

		if (op_marker_site_gone(marker, site))
			continue;
		hook->p.addr = (void *)site->addr;
		hook->p.pre_handler = op_marker_hit;
		hook->p.flags = OP_F_MARKER | (mp->flags & OPTPROBE_F_QUIET) |
				(mp->disabled ? OPTPROBE_F_DISABLED : 0);
		hook->p.missed = &mp->nmissed;
		hook->mp = mp;
		hook->nargs = marker->nargs;
		memcpy(hook->args, site->args, sizeof(hook->args));
		ret = op_register_own(&p, 1);
		if (ret)
			break;
		mp->nhooks = ++n;
	}
	if (!ret && !n) {
		op_mp_warn(mp, "every site of the marker was in init text, which is done", -EINVAL);
		ret = -EINVAL;
	}
	if (ret) {
		op_marker_unhook(mp);
		return ret;
	}
	mp->marker = marker;
	mp->state = OP_MP_ARMED;
	list_add_tail(&mp->list, &marker->probes);
	return 0;
}

/**
 * op_marker_probes_coming() - arm the probes waiting for @mod
 * @mod:	a module coming, whose markers were just read
 *
 * A probe that cannot be armed is gone, with a warning: its
 * registration succeeded long ago.
 */
void op_marker_probes_coming(struct module *mod)
{
	struct optprobe_marker_probe *mp, *tmp;
	struct optprobe_marker *marker;
	int ret;

	lockdep_assert_held(&op_marker_mutex);
	list_for_each_entry_safe(mp, tmp, &op_marker_pending, list) {
		if (strcmp(mp->module, module_name(mod)))
			continue;
		list_del_init(&mp->list);
		mp->state = OP_MP_GONE;
		marker = op_marker_find(mp->module, mp->name);
		ret = marker ? op_marker_arm(marker, mp) : -ENOENT;
		if (ret)
			op_mp_warn(mp, marker ? "cannot be armed in the module come" :
				   "the module come has no such marker", ret);
	}
}

/**
 * op_marker_probes_gone() - @marker's module is going: its probes are gone
 * @marker:	the marker, about to be freed
 *
 * Their hooks stay registered, gone with the module's text, until the
 * probes are unregistered.
 */
void op_marker_probes_gone(struct optprobe_marker *marker)
{
	struct optprobe_marker_probe *mp, *tmp;

	lockdep_assert_held(&op_marker_mutex);
	list_for_each_entry_safe(mp, tmp, &marker->probes, list) {
		list_del_init(&mp->list);
		mp->marker = NULL;
		WRITE_ONCE(mp->state, OP_MP_GONE);
	}
}

int optprobe_marker_register(struct optprobe_marker_probe *mp)
{
	struct optprobe_marker *marker;
	int ret = 0;

	if (!mp->module || !mp->name || !mp->format || !mp->handler) {
		op_mp_warn(mp, "a module, a name, a format and a handler are needed", -EINVAL);
		return -EINVAL;
	}
	mutex_lock(&op_marker_mutex);
	if (mp->state != OP_MP_UNREGISTERED) {
		op_mp_warn(mp, "already registered", -EEXIST);
		ret = -EEXIST;
		goto out;
	}
	mp->nmissed = 0;
	mp->disabled = mp->flags & OPTPROBE_F_DISABLED;
	marker = op_marker_find(mp->module, mp->name);
	if (marker) {
		ret = op_marker_arm(marker, mp);
	} else if (op_marker_module_known(mp->module)) {
		op_mp_warn(mp, "the module has no such marker", -ENOENT);
		ret = -ENOENT;
	} else {
		mp->state = OP_MP_PENDING;
		list_add_tail(&mp->list, &op_marker_pending);
	}
out:
	mutex_unlock(&op_marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(optprobe_marker_register);

void optprobe_marker_unregister(struct optprobe_marker_probe *mp)
{
	mutex_lock(&op_marker_mutex);
	switch (mp->state) {
	case OP_MP_UNREGISTERED:
		op_mp_warn(mp, "not registered", -EINVAL);
		break;
	case OP_MP_PENDING:
	case OP_MP_ARMED:
		list_del_init(&mp->list);
		fallthrough;
	case OP_MP_GONE:
		op_marker_unhook(mp);
		break;
	}
	mp->marker = NULL;
	WRITE_ONCE(mp->state, OP_MP_UNREGISTERED);
	mutex_unlock(&op_marker_mutex);
}
EXPORT_SYMBOL_GPL(optprobe_marker_unregister);

static int op_marker_set_disabled(struct optprobe_marker_probe *mp, bool disabled)
{
	unsigned int i;
	int ret = 0, err;

	mutex_lock(&op_marker_mutex);
	if (mp->state == OP_MP_UNREGISTERED) {
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < mp->nhooks; i++) {
		err = disabled ? optprobe_disable(&mp->hooks[i].p) :
				 optprobe_enable(&mp->hooks[i].p);
		ret = ret ?: err;
	}
	mp->disabled = disabled;
out:
	mutex_unlock(&op_marker_mutex);
	return ret;
}

int optprobe_marker_enable(struct optprobe_marker_probe *mp)
{
	return op_marker_set_disabled(mp, false);
}
EXPORT_SYMBOL_GPL(optprobe_marker_enable);

int optprobe_marker_disable(struct optprobe_marker_probe *mp)
{
	return op_marker_set_disabled(mp, true);
}
EXPORT_SYMBOL_GPL(optprobe_marker_disable);

/* How much of the way to a jump a mode is, to report a probe's weakest site. */
static unsigned int op_mode_rank(enum optprobe_mode mode)
{
	switch (mode) {
	case OPTPROBE_MODE_TRAP:
		return 1;
	case OPTPROBE_MODE_BOOSTED:
		return 2;
	case OPTPROBE_MODE_FTRACE:
		return 3;
	case OPTPROBE_MODE_OPTIMIZED:
		return 4;
	default:
		return 0;
	}
}

enum optprobe_mode optprobe_marker_mode(const struct optprobe_marker_probe *mp)
{
	enum optprobe_mode mode, weakest = OPTPROBE_MODE_GONE;
	unsigned int i;

	/* against an unregister or an arm racing with it, which change the hooks */
	mutex_lock(&op_marker_mutex);
	switch (mp->state) {
	case OP_MP_UNREGISTERED:
		weakest = OPTPROBE_MODE_DISABLED;
		break;
	case OP_MP_PENDING:
		weakest = OPTPROBE_MODE_PENDING;
		break;
	case OP_MP_GONE:
		break;
	default:
		if (mp->disabled) {
			weakest = OPTPROBE_MODE_DISABLED;
			break;
		}
		for (i = 0; i < mp->nhooks; i++) {
			mode = optprobe_mode(&mp->hooks[i].p);
			if (mode == OPTPROBE_MODE_GONE)
				continue;
			if (weakest == OPTPROBE_MODE_GONE ||
			    op_mode_rank(mode) < op_mode_rank(weakest))
				weakest = mode;
		}
	}
	mutex_unlock(&op_marker_mutex);
	return weakest;
}
EXPORT_SYMBOL_GPL(optprobe_marker_mode);

unsigned long optprobe_marker_hits(const struct optprobe_marker_probe *mp)
{
	unsigned long hits = 0;
	unsigned int i;

	mutex_lock(&op_marker_mutex);
	for (i = 0; i < mp->nhooks; i++)
		hits += op_probe_hits(&mp->hooks[i].p);
	mutex_unlock(&op_marker_mutex);
	return hits;
}
EXPORT_SYMBOL_GPL(optprobe_marker_hits);

/* The hits of @marker's probes at its site @addr. */
static unsigned long op_marker_site_hits(const struct optprobe_marker *marker, unsigned long addr)
{
	const struct optprobe_marker_probe *mp;
	unsigned long hits = 0;
	unsigned int i;

	list_for_each_entry(mp, &marker->probes, list)
		for (i = 0; i < mp->nhooks; i++)
			if ((unsigned long)mp->hooks[i].p.addr == addr)
				hits += op_probe_hits(&mp->hooks[i].p);
	return hits;
}

/* debugfs "markers": MODULE NAME SYMBOL+OFF PROBES HITS "FORMAT", a line per site. */
void op_markers_show(struct seq_file *m)
{
	struct optprobe_marker *marker;
	struct optprobe_marker_probe *mp;
	char sym[KSYM_SYMBOL_LEN];
	unsigned long size, off;
	unsigned int i, nprobes;

	mutex_lock(&op_marker_mutex);
	list_for_each_entry(marker, &op_markers, list) {
		nprobes = 0;
		list_for_each_entry(mp, &marker->probes, list)
			nprobes++;
		for (i = 0; i < marker->nsites; i++) {
			const struct op_marker_site *site = &marker->sites[i];

			seq_printf(m, "%s %s ", module_name(marker->mod), marker->name);
			if (op_marker_site_gone(marker, site) ||
			    !op_kcall(kallsyms_lookup_size_offset)(site->addr, &size, &off)) {
				seq_puts(m, "gone");
			} else {
				/* "name [module]": the name alone */
				sprint_symbol_no_offset(sym, site->addr);
				sym[strcspn(sym, " ")] = '\0';
				seq_printf(m, "%s+0x%lx", sym, off);
			}
			seq_printf(m, " %u %lu \"%s\"\n",
				   op_marker_site_gone(marker, site) ? 0 : nprobes,
				   op_marker_site_hits(marker, site->addr), marker->format);
		}
	}
	mutex_unlock(&op_marker_mutex);
}
