// SPDX-License-Identifier: GPL-2.0
/*
 * optprobe's x86_64 decoder against the kernel's own insn_decode(), on the
 * text of the running kernel and of every loaded module.
 *
 * Every function kallsyms names in the kernel's text (_stext to _etext)
 * and in each module's core text is walked from its start with both
 * decoders, over the same copy of the bytes; their lengths must be equal.
 * A function's walk stops at its end (the next symbol), at the first
 * instruction either decoder refuses, at a breakpoint and after a jump to
 * a probe's detour (see walk_function()).  The test fails on any length
 * that differs, and on any instruction the kernel decodes and ours
 * refuses, unless 64-bit mode lacks its opcode (see invalid_in_64bit()).
 *
 * The decoder is compiled into this module from its source, as it is
 * into optprobe.ko; the kernel's decoder is reached through kallsyms.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <asm/insn.h>

#include "exports.h"
#include "wrap-kallsyms.h"
#include "ktap.h"

#include "../../arch-x86/x86-insn.c"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

#define SHOW_MAX	5

static typeof(op_ptr_to(insn_decode)) kernel_insn_decode;
static typeof(op_ptr_to(kallsyms_on_each_symbol)) each_symbol;
static typeof(op_ptr_to(module_kallsyms_on_each_symbol)) each_module_symbol;
static typeof(op_ptr_to(kallsyms_lookup_size_offset)) lookup_size_offset;
static typeof(op_ptr_to(__module_text_address)) text_module;
static void *text_start, *text_end;

static const struct op_ksym test_ksyms[] = {
	{ .name = "insn_decode", .slot = (void **)&kernel_insn_decode },
	{ .name = "kallsyms_on_each_symbol", .slot = (void **)&each_symbol },
	{ .name = "module_kallsyms_on_each_symbol", .slot = (void **)&each_module_symbol },
	{ .name = "kallsyms_lookup_size_offset", .slot = (void **)&lookup_size_offset },
	{ .name = "__module_text_address", .slot = (void **)&text_module },
	{ .name = "_stext", .slot = &text_start, .addr_only = true },
	{ .name = "_etext", .slot = &text_end, .addr_only = true },
};

struct walk {
	const char *name;
	unsigned long lo, hi;		/* the text: functions are clipped to it */
	unsigned long last;		/* the last function walked (aliases share a start) */
	unsigned long functions, insns;
	unsigned long mismatched;	/* both decode, lengths differ */
	unsigned long ours_refused;	/* the kernel decodes, ours does not */
	unsigned long invalid64;	/* ... an opcode 64-bit mode lacks */
	unsigned long kernel_refused;	/* ours decodes, the kernel does not */
	unsigned long both_refused, truncated;
	unsigned int shown;
};

static void show(struct walk *w, const char *what, unsigned long addr, const u8 *buf,
		 size_t n, int ret, const struct op_x86_insn *ours, int kret,
		 const struct insn *theirs)
{
	if (w->shown++ >= SHOW_MAX)
		return;
	pr_info("# %s: %s at %pS: %*ph: ours %d (%u bytes), kernel %d (%u bytes)\n", w->name,
		what, (void *)addr, (int)n, buf, ret, ret ? 0 : ours->len, kret,
		kret ? 0 : theirs->length);
}

/*
 * One-byte opcodes that do not exist in 64-bit mode.  The kernel's decoder
 * takes them; ours must not.  The kernel's text holds some 32-bit code
 * (the Xen PVH entry), where they are found.
 */
static bool invalid_in_64bit(const struct insn *theirs)
{
	static const u8 ops[] = {
		0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f, 0x37,
		0x3f, 0x60, 0x61, 0x82, 0x9a, 0xce, 0xd4, 0xd5, 0xd6, 0xea,
	};

	return theirs->opcode.nbytes == 1 && !theirs->vex_prefix.nbytes &&
	       memchr(ops, theirs->opcode.bytes[0], sizeof(ops));
}

/* Does the instruction leave all text, to a probe's detour, say? */
static bool jumps_out(const struct walk *w, unsigned long addr, const struct op_x86_insn *ours)
{
	unsigned long to = addr + ours->len + ours->rel;

	return ours->cls == OP_X86_JMP && (to < w->lo || to >= w->hi) &&
	       (to < (unsigned long)text_start || to >= (unsigned long)text_end);
}

/*
 * Walk the function at @start with both decoders, to its end or the
 * first refusal.  An int3 after a ret or jmp (or after such an int3) is
 * padding, and the walk goes on; any other is a breakpoint over the first
 * byte of an instruction, whose tail follows: the walk ends, as it does
 * after a jmp out of all text, which is what an optimized probe puts over
 * the instructions it replaces.
 */
static void walk_function(struct walk *w, unsigned long start)
{
	unsigned long size, off, addr, end;
	struct op_x86_insn ours = { };
	u8 buf[OP_X86_MAX_INSN_LEN];
	bool after_jump = false;
	struct insn theirs;
	int ret, kret;
	size_t n;

	if (start == w->last || !lookup_size_offset(start, &size, &off) || off)
		return;
	w->last = start;
	w->functions++;
	end = min(start + size, w->hi);
	for (addr = start; addr < end; addr += ours.len) {
		n = min_t(unsigned long, sizeof(buf), end - addr);
		if (copy_from_kernel_nofault(buf, (void *)addr, n))
			return;
		ret = op_x86_insn_decode(buf, n, &ours);
		kret = kernel_insn_decode(&theirs, buf, n, INSN_MODE_64);
		if (ret == -ENODATA && kret) {
			w->truncated++;		/* runs into the next symbol */
			return;
		}
		if (ret && kret) {
			w->both_refused++;
			return;
		}
		if (ret) {
			if (invalid_in_64bit(&theirs)) {
				w->invalid64++;
				return;
			}
			w->ours_refused++;
			show(w, "ours refuses", addr, buf, n, ret, &ours, kret, &theirs);
			return;
		}
		if (kret) {
			w->kernel_refused++;
			return;
		}
		if (ours.len != theirs.length) {
			w->mismatched++;
			show(w, "lengths differ", addr, buf, n, ret, &ours, kret, &theirs);
			return;
		}
		w->insns++;
		if (ours.cls == OP_X86_INT3) {
			if (!after_jump)
				return;
			continue;
		}
		if (jumps_out(w, addr, &ours))
			return;
		after_jump = ours.cls == OP_X86_JMP || ours.cls == OP_X86_JMP_INDIRECT ||
			     ours.cls == OP_X86_RET || ours.cls == OP_X86_RET_IMM;
	}
}

static int walk_core_symbol(void *data, const char *name, struct module *mod,
			    unsigned long addr)
{
	struct walk *w = data;

	if (!mod && addr >= w->lo && addr < w->hi)
		walk_function(w, addr);
	return 0;
}

/* Called with module_mutex held: module text cannot go away meanwhile. */
static int walk_module_symbol(void *data, const char *name, struct module *mod,
			      unsigned long addr)
{
	unsigned long base = mod ? op_module_text_base(mod) : 0;
	struct walk *w = data;

	if (mod && addr - base < op_module_text_size(mod)) {
		w->lo = base;
		w->hi = base + op_module_text_size(mod);
		walk_function(w, addr);
	}
	cond_resched();
	return 0;
}

static void report(struct ktap *t, struct walk *w, const char *lengths, const char *refusals,
		   unsigned long min_insns, s64 ms)
{
	pr_info("# %s: compared %lu functions, %lu instructions in %lld ms\n", w->name,
		w->functions, w->insns, ms);
	pr_info("# %s: walks ended: %lu lengths differ, %lu ours refuses, %lu kernel refuses, %lu both refuse, %lu at the end\n",
		w->name, w->mismatched, w->ours_refused + w->invalid64, w->kernel_refused,
		w->both_refused, w->truncated);
	pr_info("# %s: %lu of the refusals are opcodes that 64-bit mode lacks, in 32-bit code\n",
		w->name, w->invalid64);
	ktap_check(t, !w->mismatched && w->insns >= min_insns, lengths,
		   "%lu of %lu instructions differ in length (at least %lu expected)",
		   w->mismatched, w->insns, min_insns);
	ktap_check(t, !w->ours_refused, refusals, "ours refuses %lu the kernel decodes",
		   w->ours_refused);
}

static int __init test_x86_insn_init(void)
{
	struct walk core = { .name = "kernel text" }, mods = { .name = "module text" };
	int resolved = op_ksyms_resolve(test_ksyms, ARRAY_SIZE(test_ksyms));
	struct ktap t;
	ktime_t t0;

	ktap_start(&t, 5);
	if (!ktap_check(&t, !resolved, "symbols_resolved", "op_ksyms_resolve: %d", resolved)) {
		ktap_skip(&t, "kernel_text_lengths_agree", "no symbols");
		ktap_skip(&t, "kernel_text_no_refusals", "no symbols");
		ktap_skip(&t, "module_text_lengths_agree", "no symbols");
		ktap_skip(&t, "module_text_no_refusals", "no symbols");
		return 0;
	}

	core.lo = (unsigned long)text_start;
	core.hi = (unsigned long)text_end;
	t0 = ktime_get();
	op_kallsyms_on_each(each_symbol, walk_core_symbol, &core);
	report(&t, &core, "kernel_text_lengths_agree", "kernel_text_no_refusals", 1000000,
	       ktime_ms_delta(ktime_get(), t0));

	/* optprobe.ko and this module at least */
	t0 = ktime_get();
	op_module_kallsyms_on_each(each_module_symbol, text_module, walk_module_symbol, &mods);
	report(&t, &mods, "module_text_lengths_agree", "module_text_no_refusals", 1000,
	       ktime_ms_delta(ktime_get(), t0));
	return 0;
}

static void __exit test_x86_insn_exit(void)
{
}

module_init(test_x86_insn_init);
module_exit(test_x86_insn_exit);

MODULE_DESCRIPTION("optprobe test: the x86_64 decoder against the kernel's");
MODULE_LICENSE("GPL");
