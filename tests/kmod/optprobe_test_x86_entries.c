// SPDX-License-Identifier: GPL-2.0
/*
 * Jump regions entered from outside their function, on x86_64.
 *
 * op_tx86_cold_join (optprobe_target_x86, C that gcc splits into a .cold
 * part) probed on the instruction before the join its .cold part jumps
 * back to: not optimized, with the reason; then both ways run, with
 * exact results and hits.  Optimized, its cold way would run the jmp's
 * bytes (the test then does not call it).
 *
 * Then kernel-wide, checked with the kernel's own decoder, not
 * optprobe's: probes on thousands of kernel-core sites (the first
 * instruction after each chosen function's first, a random instruction
 * in it, and the instruction before each of many targets of jumps from
 * other symbols, as .cold parts make them), the sites that are not
 * optimized removed, then every function of kernel-core text walked with
 * insn_decode(): no relative jump or call lands strictly inside an
 * optimized region, and no exception fixup does.  A region is read off
 * the text: its jmp and the int3s optprobe leaves after it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/extable.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/bsearch.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <asm/insn.h>
#include <asm/text-patching.h>

#include "exports.h"
#include "wrap-kallsyms.h"
#include "optprobe_test.h"
#include "x86_opt_targets.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static typeof(op_ptr_to(insn_decode)) kernel_insn_decode;
static typeof(op_ptr_to(kallsyms_on_each_symbol)) each_symbol;
static typeof(op_ptr_to(kallsyms_lookup_size_offset)) lookup_size_offset;
static void *text_start, *text_end, *ex_start, *ex_stop;

static const struct op_ksym test_ksyms[] = {
	{ .name = "insn_decode", .slot = (void **)&kernel_insn_decode },
	{ .name = "kallsyms_on_each_symbol", .slot = (void **)&each_symbol },
	{ .name = "kallsyms_lookup_size_offset", .slot = (void **)&lookup_size_offset },
	{ .name = "_stext", .slot = &text_start, .addr_only = true },
	{ .name = "_etext", .slot = &text_end, .addr_only = true },
	{ .name = "__start___ex_table", .slot = &ex_start, .addr_only = true },
	{ .name = "__stop___ex_table", .slot = &ex_stop, .addr_only = true },
};

#define COLD_CALLS	100

static atomic_t cold_hits;

static int cold_pre(struct optprobe *p, struct pt_regs *regs)
{
	atomic_inc(&cold_hits);
	return 0;
}

/* What op_tx86_cold_join() computes. */
static long cold_join_want(long a, long b)
{
	long r = a < 0 ? a * 7 + 1 : a * 3;

	r ^= b << 3;
	r += b * 5;
	return r + (b >> 1);
}

/* Decode the instruction at @addr, at most @end - @addr bytes; its length or 0. */
static unsigned int decode(unsigned long addr, unsigned long end, struct insn *insn)
{
	u8 buf[MAX_INSN_SIZE];
	size_t n = min_t(unsigned long, sizeof(buf), end - addr);

	if (copy_from_kernel_nofault(buf, (void *)addr, n) ||
	    kernel_insn_decode(insn, buf, n, INSN_MODE_KERN))
		return 0;
	return insn->length;
}

/* The target of a relative jmp, jcc, call, loop/jrcxz or xbegin at @addr, or 0. */
static unsigned long rel_target(unsigned long addr, const struct insn *insn)
{
	u8 op = insn->opcode.bytes[0], op2 = insn->opcode.bytes[1];
	bool rel;

	if (insn->opcode.nbytes == 1)
		rel = op == 0xe8 || op == 0xe9 || op == 0xeb || (op >= 0x70 && op <= 0x7f) ||
		      (op >= 0xe0 && op <= 0xe3) || (op == 0xc7 && insn->modrm.bytes[0] == 0xf8);
	else
		rel = op == 0x0f && op2 >= 0x80 && op2 <= 0x8f;
	return rel ? addr + insn->length + insn->immediate.value : 0;
}

/* The last instruction boundary before @target in its function, or 0. */
static unsigned long boundary_before(unsigned long target)
{
	unsigned long size, off, pos, func;
	struct insn insn;
	unsigned int len;

	if (!lookup_size_offset(target, &size, &off) || !off)
		return 0;
	func = target - off;
	for (pos = func; pos < target; pos += len) {
		len = decode(pos, func + size, &insn);
		if (!len)
			return 0;
		if (pos + len == target)
			return pos;
	}
	return 0;
}

static void check_cold_join(struct ktap *t)
{
	unsigned long fn = (unsigned long)op_tx86_targets.cold_join;
	unsigned long cold = *op_tx86_targets.cold_part;
	unsigned long size, off, pos, join = 0, probe;
	unsigned int len, wrong = 0;
	struct optprobe p;
	long a;
	struct insn insn;
	bool optimized;
	int ret = -ENOENT;

	/* the .cold part's jump back into the function */
	if (lookup_size_offset(fn, &size, &off) && lookup_size_offset(cold, &off, &pos))
		for (pos = cold; pos < cold + off && !join; pos += len) {
			len = decode(pos, cold + off, &insn);
			if (!len)
				break;
			join = rel_target(pos, &insn);
			if (join <= fn || join >= fn + size)
				join = 0;
		}
	probe = join ? boundary_before(join) : 0;
	if (probe && join - probe < JMP32_INSN_SIZE) {
		test_probe_init(&p, NULL, probe, cold_pre, NULL, 0);
		ret = optprobe_register(&p);
		optprobe_sync();
	}
	optimized = !ret && optprobe_mode(&p) == OPTPROBE_MODE_OPTIMIZED;
	ktap_check(t, !ret && !optimized && op_probe_reason(&p) == OP_R_FOREIGN_JUMP,
		   "cold_join_refused", "join %pS, probe %pS: register %d, mode %s, reason \"%s\"",
		   (void *)join, (void *)probe, ret, ret ? "-" : test_mode_name(optprobe_mode(&p)),
		   ret ? "" : optprobe_reason(&p));
	if (ret || optimized) {
		ktap_skip(t, "cold_join_results", "not called: its cold way would crash");
		ktap_skip(t, "cold_join_hits", "not called");
		if (!ret)
			optprobe_unregister(&p);
		return;
	}
	atomic_set(&cold_hits, 0);
	for (a = 0; a < COLD_CALLS; a++) {
		wrong += op_tx86_targets.cold_join(a, 3) != cold_join_want(a, 3);
		wrong += op_tx86_targets.cold_join(-1 - a, 5) != cold_join_want(-1 - a, 5);
	}
	ktap_check(t, !wrong, "cold_join_results", "%u of %u results wrong", wrong,
		   2 * COLD_CALLS);
	/* the probed instruction is on the hot way only */
	ktap_check(t, atomic_read(&cold_hits) == COLD_CALLS && op_probe_hits(&p) == COLD_CALLS,
		   "cold_join_hits", "%d/%lu hits for %u hot calls", atomic_read(&cold_hits),
		   op_probe_hits(&p), COLD_CALLS);
	optprobe_unregister(&p);
}

/* Kernel-wide: every FUNC_STRIDE-th function, and up to MAX_FOREIGN foreign targets. */
#define FUNC_STRIDE	40
#define MAX_FOREIGN	1500
#define MIN_OPTIMIZED	1000

struct ulongs {
	unsigned long *v;
	unsigned int nr, cap;
};

static int ulongs_add(struct ulongs *a, unsigned long x)
{
	unsigned long *grown;

	if (a->nr == a->cap) {
		a->cap = max(2 * a->cap, 4096U);
		grown = kvmalloc_array(a->cap, sizeof(*grown), GFP_KERNEL);
		if (!grown)
			return -ENOMEM;
		if (a->nr)
			memcpy(grown, a->v, a->nr * sizeof(*grown));
		kvfree(a->v);
		a->v = grown;
	}
	a->v[a->nr++] = x;
	return 0;
}

static int ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static void ulongs_sort(struct ulongs *a)
{
	unsigned int i, n = 0;

	sort(a->v, a->nr, sizeof(*a->v), ulong_cmp, NULL);
	for (i = 0; i < a->nr; i++)
		if (!n || a->v[i] != a->v[n - 1])
			a->v[n++] = a->v[i];
	a->nr = n;
}

/* Every symbol of kernel-core text; the padding before functions (6.12) apart too. */
struct symbols {
	struct ulongs all, padding;
};

static int add_symbol(void *data, const char *name, struct module *mod, unsigned long addr)
{
	struct symbols *s = data;

	if (mod || addr < (unsigned long)text_start || addr >= (unsigned long)text_end)
		return 0;
	if (str_has_prefix(name, "__pfx_") || str_has_prefix(name, "__cfi_"))
		ulongs_add(&s->padding, addr);
	return ulongs_add(&s->all, addr);
}

static bool in_sorted(const struct ulongs *a, unsigned long x)
{
	return bsearch(&x, a->v, a->nr, sizeof(x), ulong_cmp);
}

/* Symbol @i of @syms spans [syms->v[i], end_of(syms, i)). */
static unsigned long end_of(const struct ulongs *syms, unsigned int i)
{
	return i + 1 < syms->nr ? syms->v[i + 1] : (unsigned long)text_end;
}

/* The index of the symbol holding @addr. */
static unsigned int symbol_of(const struct ulongs *syms, unsigned long addr)
{
	unsigned int lo = 0, hi = syms->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (syms->v[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/*
 * Walk every symbol; call @fn(@data, @i, from, target) for each relative
 * branch of symbol @i whose target is kernel text.  Returns the
 * instructions decoded.
 */
static unsigned long walk_branches(const struct ulongs *syms,
				   void (*fn)(void *data, unsigned int i, unsigned long from,
					      unsigned long target),
				   void *data)
{
	unsigned long pos, target, end, n = 0;
	struct insn insn;
	unsigned int i, len;

	for (i = 0; i < syms->nr; i++) {
		end = end_of(syms, i);
		for (pos = syms->v[i]; pos < end; pos += len, n++) {
			len = decode(pos, end, &insn);
			if (!len)
				break;
			target = rel_target(pos, &insn);
			if (target >= (unsigned long)text_start && target < (unsigned long)text_end)
				fn(data, i, pos, target);
		}
		cond_resched();
	}
	return n;
}

struct foreign {
	const struct ulongs *syms;
	struct ulongs targets;
};

/* A jump landing in another symbol, past its start. */
static void add_foreign(void *data, unsigned int i, unsigned long from, unsigned long target)
{
	struct foreign *f = data;
	unsigned int to = symbol_of(f->syms, target);

	if (to != i && f->syms->v[to] != target)
		ulongs_add(&f->targets, target);
}

/* Optimized regions, sorted by start, and what lands inside them. */
struct regions {
	struct ulongs start;
	u8 *len;
	unsigned long inside;
	unsigned long first_from, first_to;
};

/* The region of the optimized probe at @addr, read off the text. */
static u8 region_len(unsigned long addr)
{
	u8 bytes[JMP32_INSN_SIZE - 1 + MAX_INSN_SIZE];
	unsigned int n = JMP32_INSN_SIZE;

	if (copy_from_kernel_nofault(bytes, (void *)addr, sizeof(bytes)))
		return JMP32_INSN_SIZE;
	while (n < sizeof(bytes) && bytes[n] == INT3_INSN_OPCODE)
		n++;
	return n;
}

static void region_check(struct regions *r, unsigned long from, unsigned long target)
{
	unsigned int i;

	if (!r->start.nr || target <= r->start.v[0])
		return;
	i = symbol_of(&r->start, target);
	if (target == r->start.v[i] || target >= r->start.v[i] + r->len[i])
		return;
	if (!r->inside++) {
		r->first_from = from;
		r->first_to = target;
	}
}

static void branch_check(void *data, unsigned int i, unsigned long from, unsigned long target)
{
	region_check(data, from, target);
}

/*
 * The instruction boundaries of [@func, @end) but int3s (padding, after a
 * ret too), at most @max into @at; how many.
 */
static unsigned int boundaries(unsigned long func, unsigned long end, unsigned long *at,
			       unsigned int max)
{
	unsigned int n = 0, len;
	struct insn insn;

	for (; func < end && n < max; func += len) {
		len = decode(func, end, &insn);
		if (!len)
			break;
		if (insn.opcode.bytes[0] != INT3_INSN_OPCODE)
			at[n++] = func;
	}
	return n;
}

#define MAX_BOUNDARIES	256

/*
 * The sites: in every FUNC_STRIDE-th function (the padding before
 * functions, 6.12's __pfx_ symbols, not counted) the second instruction
 * (the first after an ftrace site) and a random one after it; before
 * every k-th foreign target, the instruction right before it if a jmp
 * there would cover it.
 */
static void pick_sites(const struct symbols *symbols, const struct ulongs *foreign,
		       struct ulongs *sites)
{
	unsigned long *at = kmalloc_array(MAX_BOUNDARIES, sizeof(*at), GFP_KERNEL);
	unsigned int i, n, func = 0, step = max(foreign->nr / MAX_FOREIGN, 1U);
	const struct ulongs *syms = &symbols->all;
	struct rnd_state rnd;
	unsigned long b;

	if (!at)
		return;
	prandom_seed_state(&rnd, 26);
	for (i = 0; i < syms->nr; i++) {
		if (in_sorted(&symbols->padding, syms->v[i]) || func++ % FUNC_STRIDE)
			continue;
		n = boundaries(syms->v[i], end_of(syms, i), at, MAX_BOUNDARIES);
		if (n < 2)
			continue;
		ulongs_add(sites, at[1]);
		if (n > 2)
			ulongs_add(sites, at[2 + prandom_u32_state(&rnd) % (n - 2)]);
	}
	kfree(at);
	for (i = 0; i < foreign->nr; i += step) {
		b = boundary_before(foreign->v[i]);
		if (b && foreign->v[i] - b < JMP32_INSN_SIZE)
			ulongs_add(sites, b);
	}
	ulongs_sort(sites);
}

/* Register a probe on each site; keep the optimized ones, with their regions. */
static unsigned int probe_sites(const struct ulongs *sites, struct optprobe *probes,
				struct optprobe **opt, struct regions *r)
{
	unsigned int i, nr = 0, nr_opt = 0, nr_other = 0;
	struct optprobe **other = kvmalloc_array(sites->nr, sizeof(*other), GFP_KERNEL);

	if (!other)
		return 0;
	for (i = 0; i < sites->nr; i++) {
		test_probe_init(&probes[nr], NULL, sites->v[i], test_nop_pre, NULL, 0);
		if (!optprobe_register(&probes[nr]))
			nr++;
	}
	optprobe_sync();
	for (i = 0; i < nr; i++) {
		if (optprobe_mode(&probes[i]) != OPTPROBE_MODE_OPTIMIZED) {
			other[nr_other++] = &probes[i];
			continue;
		}
		opt[nr_opt++] = &probes[i];
		ulongs_add(&r->start, (unsigned long)probes[i].addr);
	}
	/* their breakpoints would hide instruction boundaries from the walk */
	optprobe_unregister_many(other, nr_other);
	kvfree(other);
	pr_info("# %u sites, %u registered, %u optimized\n", sites->nr, nr, nr_opt);
	/* without all regions, no walk: the caller still unregisters @opt */
	r->len = kmalloc_array(max(r->start.nr, 1U), sizeof(*r->len), GFP_KERNEL);
	if (r->len && r->start.nr == nr_opt)
		for (i = 0; i < nr_opt; i++)
			r->len[i] = region_len(r->start.v[i]);
	else
		r->start.nr = 0;
	return nr_opt;
}

static void check_kernel_text(struct ktap *t)
{
	struct symbols symbols = {};
	struct ulongs *syms = &symbols.all, sites = {};
	struct foreign f = { .syms = syms };
	struct regions r = {};
	const struct exception_table_entry *e;
	struct optprobe *probes = NULL, **opt = NULL;
	unsigned long insns = 0, fixups = 0;
	unsigned int nr_opt = 0;

	op_kallsyms_on_each(each_symbol, add_symbol, &symbols);
	ulongs_sort(syms);
	ulongs_sort(&symbols.padding);
	walk_branches(syms, add_foreign, &f);
	ulongs_sort(&f.targets);
	pick_sites(&symbols, &f.targets, &sites);
	probes = kvcalloc(sites.nr, sizeof(*probes), GFP_KERNEL);
	opt = kvcalloc(sites.nr, sizeof(*opt), GFP_KERNEL);
	if (probes && opt)
		nr_opt = probe_sites(&sites, probes, opt, &r);
	pr_info("# %u symbols, %u targets of jumps from other symbols\n", syms->nr, f.targets.nr);
	ktap_check(t, nr_opt >= MIN_OPTIMIZED, "kernel_sites_optimized",
		   "%u of %u sites optimized, at least %u expected", nr_opt, sites.nr,
		   MIN_OPTIMIZED);
	if (r.start.nr)
		insns = walk_branches(syms, branch_check, &r);
	ktap_check(t, r.start.nr && insns > 1000000 && !r.inside, "kernel_no_jump_into_region",
		   "%lu of the jumps in %lu instructions land inside a region, first %pS -> %pS",
		   r.inside, insns, (void *)r.first_from, (void *)r.first_to);
	r.inside = 0;
	for (e = ex_start; r.start.nr && e < (const struct exception_table_entry *)ex_stop;
	     e++, fixups++)
		region_check(&r, (unsigned long)&e->insn + e->insn,
			     (unsigned long)&e->fixup + e->fixup);
	ktap_check(t, r.start.nr && fixups > 100 && !r.inside, "kernel_no_fixup_into_region",
		   "%lu of %lu exception fixups land inside a region, first %pS -> %pS",
		   r.inside, fixups, (void *)r.first_from, (void *)r.first_to);
	optprobe_unregister_many(opt, nr_opt);
	kvfree(opt);
	kvfree(probes);
	kfree(r.len);
	kvfree(r.start.v);
	kvfree(sites.v);
	kvfree(f.targets.v);
	kvfree(symbols.padding.v);
	kvfree(syms->v);
}

static int __init test_x86_entries_init(void)
{
	int resolved = op_ksyms_resolve(test_ksyms, ARRAY_SIZE(test_ksyms));
	struct ktap t;

	ktap_start(&t, 7);
	if (!ktap_check(&t, !resolved, "symbols_resolved", "op_ksyms_resolve: %d", resolved))
		return 0;
	check_cold_join(&t);
	check_kernel_text(&t);
	return 0;
}

static void __exit test_x86_entries_exit(void)
{
}

module_init(test_x86_entries_init);
module_exit(test_x86_entries_exit);

MODULE_DESCRIPTION("optprobe test: x86_64 jump regions entered from outside their function");
MODULE_LICENSE("GPL");
