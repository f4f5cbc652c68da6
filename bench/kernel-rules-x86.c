// SPDX-License-Identifier: GPL-2.0
/*
 * Why the kernel's own kprobes leave an x86 site unoptimized.  The kernel
 * says nothing: the kprobe just stays a breakpoint.  So the coverage sweep
 * asks this model of its rules, in the kernel's order (Debian's 6.1 and
 * 6.12 sources, arch/x86/kernel/kprobes/):
 *
 *   can_optimize():     the function around the site, decoded whole;
 *   copy_optimized_instructions(): each instruction the jump would
 *                       replace (__copy_instruction(), can_boost()), then
 *                       the reserved-text checks over those bytes;
 *   arch_check_optimized_kprobe(): no other kprobe inside them.
 *
 * Text is read as the kernel reads it (an ftrace site is a 5-byte nop)
 * before any kprobe of the sweep's chunk is set.  bench/coverage.c holds
 * the model to the kernel's verdicts: a site the kernel optimized must
 * pass it.
 */
#include <linux/cpu.h>
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/memory.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/insn.h>
#include <asm/text-patching.h>

#include "exports.h"
#include "bench.h"
#include "wrap-kprobe-rules.h"

static struct {
	typeof(op_ptr_to(search_exception_tables)) search_exception_tables;
	typeof(op_ptr_to(ftrace_text_reserved)) ftrace_text_reserved;
	typeof(op_ptr_to(alternatives_text_reserved)) alternatives_text_reserved;
	typeof(op_ptr_to(jump_label_text_reserved)) jump_label_text_reserved;
	typeof(op_ptr_to(static_call_text_reserved)) static_call_text_reserved;
	typeof(op_ptr_to(jump_label_lock)) jump_label_lock;
	typeof(op_ptr_to(jump_label_unlock)) jump_label_unlock;
	struct mutex *text_mutex;	/* the kernel's, taken as its kprobes take it */
	unsigned long entry_text_start, entry_text_end;
	unsigned long thunk_start, thunk_end;
} krules;

#define KRULES_KSYM(sym) { .name = #sym, .slot = (void **)&krules.sym }
#define KRULES_KSYM_ADDR(sym, member) { .name = #sym, .slot = (void **)&krules.member, \
					.addr_only = true }
static const struct op_ksym krules_ksym_table[] = {
	KRULES_KSYM(search_exception_tables),
	KRULES_KSYM(ftrace_text_reserved),
	KRULES_KSYM(alternatives_text_reserved),
	KRULES_KSYM(jump_label_text_reserved),
	KRULES_KSYM(static_call_text_reserved),
	KRULES_KSYM(jump_label_lock),
	KRULES_KSYM(jump_label_unlock),
	KRULES_KSYM_ADDR(text_mutex, text_mutex),
	KRULES_KSYM_ADDR(__entry_text_start, entry_text_start),
	KRULES_KSYM_ADDR(__entry_text_end, entry_text_end),
#if KRULES_INDIRECT_JUMPS
	KRULES_KSYM_ADDR(__indirect_thunk_start, thunk_start),
	KRULES_KSYM_ADDR(__indirect_thunk_end, thunk_end),
#endif
};

/* Detours come from module_alloc() pages, as many as needed. */
const char *const bench_kernel_slots_out;

int bench_kernel_rules_init(void)
{
	return op_ksyms_resolve(krules_ksym_table, ARRAY_SIZE(krules_ksym_table));
}

/*
 * Two-byte opcodes (0f xx) can_boost() accepts, its twobyte_is_boostable
 * (the same in 6.1 and 6.12): bit x of row x >> 4 for 0f x.
 */
static const u16 krules_twobyte_boostable[16] = {
	0x034c, 0x8000, 0x000f, 0x0002, 0xffff, 0x0000, 0xcfff, 0xc0f0,
	0x0000, 0xffff, 0xbb3b, 0xf8ff, 0xff03, 0xbb2e, 0xbb26, 0x772e,
};

/* The instruction at @addr as the kernel decodes it: an ftrace site is a nop5. */
static int krules_decode(unsigned long addr, struct insn *insn)
{
	static const u8 nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	u8 buf[MAX_INSN_SIZE];

	if (copy_from_kernel_nofault(buf, (void *)addr, sizeof(buf)))
		return -EFAULT;
	if (bench_ksyms.ftrace_location(addr) == addr)
		memcpy(buf, nop5, sizeof(nop5));
	return bench_ksyms.insn_decode(insn, buf, sizeof(buf), INSN_MODE_KERN);
}

/* insn_jump_into_range(): a relative jmp, jcc, loop or jcxz to [start, start + len]. */
static bool krules_jumps_into(const struct insn *insn, unsigned long addr,
			      unsigned long start, unsigned long len)
{
	u8 op = insn->opcode.bytes[0];
	unsigned long target;

	if (!((op >= 0xe0 && op <= 0xe3) || op == 0xe9 || op == 0xeb || (op & 0xf0) == 0x70 ||
	      (op == 0x0f && (insn->opcode.bytes[1] & 0xf0) == 0x80)))
		return false;
	target = addr + insn->length + insn->immediate.value;
	return start <= target && target <= start + len;
}

/* can_optimize(): the whole function around @addr, from @start, @size bytes. */
static const char *krules_function(unsigned long addr, unsigned long start, unsigned long size)
{
	struct insn insn;
	unsigned long at;
	u8 op;

	for (at = start; at < start + size; at += insn.length) {
		if (krules.search_exception_tables(at))
			return "an instruction of the function has an exception fixup";
		if (krules_decode(at, &insn) < 0)
			return "undecodable instruction in the function";
		op = insn.opcode.bytes[0];
		if (KRULES_INDIRECT_JUMPS &&
		    ((op == 0xff && (X86_MODRM_REG(insn.modrm.value) & 6) == 4) || op == 0xea))
			return "an indirect jump in the function (taken for a jump table)";
		if (KRULES_INDIRECT_JUMPS &&
		    krules_jumps_into(&insn, at, krules.thunk_start,
				      krules.thunk_end - krules.thunk_start))
			return "a jump to a retpoline or return thunk in the function";
		if (krules_jumps_into(&insn, at, addr + INT3_INSN_SIZE, DISP32_SIZE))
			return "a jump in the function lands inside the jump's bytes";
	}
	return NULL;
}

/* __copy_instruction() and can_boost() on one instruction the jump replaces. */
static const char *krules_replaced(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0], reg = X86_MODRM_REG(insn->modrm.value);
	insn_byte_t prefix;
	int i;

	if (insn_has_emulate_prefix(insn))
		return "a replaced instruction has the emulate prefix";
	if (op == INT3_INSN_OPCODE)
		return "int3 padding where the jump would go";
	if (insn_masking_exception(insn))
		return "a replaced instruction masks exceptions (mov or pop to ss)";
	/* can_boost()'s exception-fixup test: krules_function() refused those */
	if (insn->opcode.nbytes == 2) {
		if (krules_twobyte_boostable[insn->opcode.bytes[1] >> 4] &
		    BIT(insn->opcode.bytes[1] & 15))
			return NULL;
		if ((insn->opcode.bytes[1] & 0xf0) == 0x80)
			return "a replaced instruction is a conditional jump (not boosted)";
		return "a replaced instruction is a two-byte opcode the kernel does not boost";
	}
	if (insn->opcode.nbytes != 1)
		return "a replaced instruction has a three-byte opcode (not boosted)";
	for_each_insn_prefix(insn, i, prefix)
		if (prefix == 0x2e || prefix == 0x67)
			return "a replaced instruction has a CS or address-size prefix";

	switch (op) {
	case 0x70 ... 0x7f:
		return "a replaced instruction is a conditional jump (not boosted)";
	case 0xe8:
		return "a replaced instruction is a call (not boosted)";
	case 0xe9:
	case 0xeb:
		return "a replaced instruction is a jmp (not boosted)";
	case 0xc0 ... 0xc1:
	case 0xd0 ... 0xd3:
		if (KRULES_BOOST_GROUPS && reg != 6)
			return NULL;
		return "a replaced instruction is a shift or rotate (group 2, not boosted)";
	case 0xf6 ... 0xf7:
		if (KRULES_BOOST_GROUPS && reg != 1)
			return NULL;
		return "a replaced instruction is test/not/neg/mul/div (group 3, not boosted)";
	case 0xfe:
		if (KRULES_BOOST_GROUPS && reg <= 1)
			return NULL;
		return "a replaced instruction is group 4 (not boosted)";
	case 0xff:
		if (reg == 4 || (KRULES_BOOST_GROUPS && reg <= 1))
			return NULL;
		return "a replaced instruction is a group 5 call, push or inc/dec (not boosted)";
	case 0x62:
	case 0x9a:
	case 0xcc ... 0xce:
	case 0xd6:
	case 0xd8 ... 0xdf:
	case 0xe0 ... 0xe3:
	case 0xf0 ... 0xf4:
		return "a replaced instruction is int, hlt, loop, x87 or far (not boosted)";
	default:
		return NULL;
	}
}

/* The reserved-text checks, under the locks the kernel's kprobes take. */
static const char *krules_reserved(unsigned long start, unsigned long end)
{
	void *s = (void *)start, *e = (void *)end;
	const char *why = NULL;

	cpus_read_lock();
	krules.jump_label_lock();
	mutex_lock(krules.text_mutex);
	if (krules.ftrace_text_reserved(s, e))
		why = "an ftrace site where the jump would go";
	else if (krules.alternatives_text_reserved(s, e))
		why = "an alternative overlaps the bytes the jump would replace";
	else if (krules.jump_label_text_reserved(s, e))
		why = "a jump label overlaps the bytes the jump would replace";
	else if (krules.static_call_text_reserved(s, e))
		why = "a static call overlaps the bytes the jump would replace";
	mutex_unlock(krules.text_mutex);
	krules.jump_label_unlock();
	cpus_read_unlock();
	return why;
}

const char *bench_kernel_refusal(unsigned long addr, const unsigned long *chunk, unsigned int nr)
{
	unsigned long size, offset, len;
	struct insn insn;
	const char *why;
	unsigned int i;

	if (!bench_ksyms.kallsyms_lookup_size_offset(addr, &size, &offset))
		return "no symbol covers it";
	if (addr >= krules.entry_text_start && addr < krules.entry_text_end)
		return "entry text (never optimized)";
	if (size - offset < JMP32_INSN_SIZE)
		return "the function ends before a jump's 5 bytes";
	why = krules_function(addr, addr - offset, size);
	if (why)
		return why;
	for (len = 0; len < JMP32_INSN_SIZE; len += insn.length) {
		if (krules_decode(addr + len, &insn) < 0)
			return "undecodable instruction where the jump would go";
		why = krules_replaced(&insn);
		if (why)
			return why;
	}
	why = krules_reserved(addr, addr + len - 1);
	if (why)
		return why;
	for (i = 0; i < nr; i++)
		if (chunk[i] > addr && chunk[i] < addr + len)
			return "another probe inside the bytes its jump would replace";
	return NULL;
}
