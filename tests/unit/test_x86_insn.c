// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of arch-x86/x86-insn.c, optprobe's x86_64 decoder.
 *
 * First exact cases written by hand.  Then an independent decoder,
 * capstone (Debian's libcapstone4), is the oracle over three streams:
 *
 * - the .text of the x86_64 vmlinux the test matrix boots, extracted from
 *   its bzImage by the Makefile (argv[1]), walked the way capstone
 *   decodes it: at each offset where capstone decodes an instruction
 *   both decoders' lengths (and relative branch targets) are compared
 *   and the walk moves on by capstone's length; where capstone cannot
 *   decode, it moves on by one byte;
 * - RANDOM_INSNS instructions out of random bytes (xorshift64 seeded with
 *   RANDOM_SEED), walked the same way;
 * - every opcode of every map, legacy (each mandatory-prefix column),
 *   VEX (W and L both ways) and EVEX (several W/L'L/b/aaa settings), with
 *   ModRM forms covering each reg field, SIB, disp8/disp32, RIP-relative
 *   and register operands.
 *
 * Where capstone decodes and optprobe's decoder does too, lengths and
 * targets must agree; where capstone decodes and ours refuses, the test
 * fails.  The exceptions are the excuses below, each an exact predicate
 * on the bytes with the architectural reason: capstone 4's own defects,
 * and encodings the Intel SDM makes #UD or leaves undefined (or whose
 * length depends on the vendor), which capstone decodes anyway.  On the
 * vmlinux text only two excuses may occur at all.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <capstone/capstone.h>
#include <linux/elf.h>

#include "x86-insn.h"
#include "unit.h"

#define RANDOM_SEED	0x6f707470726f6265ULL	/* "optprobe" */
#define RANDOM_INSNS	1000000UL
#define RANDOM_BYTES	(16UL << 20)
/* excused refusals allowed in the random stream, per million compared */
#define RANDOM_EXCUSED_PPM	5000
#define SHOW_MAX	5

/* Hand-written cases: the exact fields the backend relies on. */
struct insn_case {
	const char *name;
	u8 bytes[16];
	unsigned int n;
	int ret;
	u8 len;
	enum op_x86_class cls;
	bool boost;
	bool rip_relative;
	u8 disp_off, disp_size;
	u8 imm_off, imm_size;
	bool has_rel;
	s32 rel;
};

#define B(...)	.bytes = { __VA_ARGS__ }, .n = sizeof((u8[]){ __VA_ARGS__ })

static const struct insn_case cases[] = {
	{ "push_rbp", B(0x55), 0, 1, OP_X86_OTHER, true },
	{ "mov_rip_relative", B(0x48, 0x8b, 0x05, 0x34, 0x12, 0x00, 0x00), 0, 7, OP_X86_OTHER,
	  true, true, 3, 4 },
	{ "mov_absolute_sib_disp32", B(0x8b, 0x04, 0x25, 0x78, 0x56, 0x34, 0x12), 0, 7,
	  OP_X86_OTHER, true, false, 3, 4 },
	{ "mov_disp8_rbp", B(0x48, 0x8b, 0x45, 0xf8), 0, 4, OP_X86_OTHER, true, false, 3, 1 },
	{ "add_rsp_imm8", B(0x48, 0x83, 0xc4, 0x08), 0, 4, OP_X86_OTHER, true, false, 0, 0, 3, 1 },
	{ "movabs_imm64", B(0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8), 0, 10, OP_X86_OTHER, true, false,
	  0, 0, 2, 8 },
	{ "mov_imm16_with_66", B(0x66, 0xb8, 0x34, 0x12), 0, 4, OP_X86_OTHER, true, false, 0, 0,
	  2, 2 },
	{ "test_imm32_group3_boosted", B(0xf7, 0x40, 0x10, 1, 2, 3, 4), 0, 7, OP_X86_OTHER, true,
	  false, 2, 1, 3, 4 },
	{ "incb_group4_boosted", B(0xfe, 0x00), 0, 2, OP_X86_OTHER, true },
	{ "decq_group5_boosted", B(0x48, 0xff, 0x08), 0, 3, OP_X86_OTHER, true },
	{ "push_mem_group5_boosted", B(0xff, 0x30), 0, 2, OP_X86_OTHER, true },
	{ "bt_imm8_group8_boosted", B(0x48, 0x0f, 0xba, 0xe0, 0x03), 0, 5, OP_X86_OTHER, true,
	  false, 0, 0, 4, 1 },
	{ "prefetcht0_boosted", B(0x0f, 0x18, 0x08), 0, 3, OP_X86_OTHER, true },
	{ "addr32_rip_relative_not_boosted", B(0x67, 0x8b, 0x05, 1, 2, 3, 4), 0, 7, OP_X86_OTHER,
	  false, true, 3, 4 },
	{ "addr32_register_boosted", B(0x67, 0x8b, 0x00), 0, 3, OP_X86_OTHER, true },
	{ "enter_imm16_imm8", B(0xc8, 0x10, 0x00, 0x01), 0, 4, OP_X86_OTHER, true, false, 0, 0,
	  1, 2 },
	{ "mov_moffs64", B(0x48, 0xa1, 1, 2, 3, 4, 5, 6, 7, 8), 0, 10, OP_X86_OTHER, true, false,
	  0, 0, 2, 8 },
	{ "nopw_66_0f1f_boosted", B(0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00), 0, 6, OP_X86_OTHER,
	  true, false, 5, 1 },
	{ "cs_nopw_boosted", B(0x2e, 0x66, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0), 0, 10, OP_X86_OTHER,
	  true, false, 6, 4 },
	{ "lock_cmpxchg", B(0xf0, 0x48, 0x0f, 0xb1, 0x37), 0, 5, OP_X86_OTHER, true },
	{ "lock_with_register_destination", B(0xf0, 0x01, 0xd8), -EILSEQ },
	{ "cs_override_boosted", B(0x2e, 0x8b, 0x00), 0, 3, OP_X86_OTHER, true },
	{ "rex_before_legacy_prefix_ignored", B(0x48, 0x66, 0x89, 0xc0), 0, 4, OP_X86_OTHER,
	  true },
	{ "shl_group2_boosted", B(0xd1, 0xe0), 0, 2, OP_X86_OTHER, true },
	{ "shl_imm8_group2_boosted", B(0x48, 0xc1, 0xe0, 0x03), 0, 4, OP_X86_OTHER, true, false,
	  0, 0, 3, 1 },
	{ "jmp_rel32", B(0xe9, 0x10, 0x00, 0x00, 0x00), 0, 5, OP_X86_JMP, false, false, 0, 0,
	  1, 4, true, 0x10 },
	{ "jmp_rel8", B(0xeb, 0x80), 0, 2, OP_X86_JMP, false, false, 0, 0, 1, 1, true, -128 },
	{ "jne_rel8", B(0x75, 0xfe), 0, 2, OP_X86_JCC, false, false, 0, 0, 1, 1, true, -2 },
	{ "je_rel32", B(0x0f, 0x84, 0x00, 0x01, 0x00, 0x00), 0, 6, OP_X86_JCC, false, false,
	  0, 0, 2, 4, true, 0x100 },
	{ "call_rel32", B(0xe8, 0xfb, 0xff, 0xff, 0xff), 0, 5, OP_X86_CALL, false, false, 0, 0,
	  1, 4, true, -5 },
	{ "bnd_jmp_rel32", B(0xf2, 0xe9, 0x00, 0x00, 0x00, 0x80), 0, 6, OP_X86_JMP, false, false,
	  0, 0, 2, 4, true, (s32)0x80000000 },
	{ "jmp_rel32_with_66_vendor_dependent", B(0x66, 0xe9, 0x00, 0x00, 0x00, 0x00), -EILSEQ },
	{ "loop", B(0xe2, 0xfe), 0, 2, OP_X86_LOOP, false, false, 0, 0, 1, 1, true, -2 },
	{ "xbegin", B(0xc7, 0xf8, 0x20, 0x00, 0x00, 0x00), 0, 6, OP_X86_XBEGIN, false, false,
	  0, 0, 2, 4, true, 0x20 },
	{ "ret", B(0xc3), 0, 1, OP_X86_RET },
	{ "ret_imm16", B(0xc2, 0x08, 0x00), 0, 3, OP_X86_RET_IMM, false, false, 0, 0, 1, 2 },
	{ "far_ret", B(0x48, 0xcb), 0, 2, OP_X86_FAR },
	{ "call_indirect", B(0xff, 0xd0), 0, 2, OP_X86_CALL_INDIRECT },
	{ "jmp_indirect_disp8", B(0xff, 0x60, 0x10), 0, 3, OP_X86_JMP_INDIRECT, false, false,
	  2, 1 },
	{ "jmp_far_indirect", B(0xff, 0x28), 0, 2, OP_X86_FAR },
	{ "jmp_far_register_invalid", B(0xff, 0xe8), -EILSEQ },
	{ "int3", B(0xcc), 0, 1, OP_X86_INT3 },
	{ "int_n", B(0xcd, 0x80), 0, 2, OP_X86_INT, false, false, 0, 0, 1, 1 },
	{ "int1", B(0xf1), 0, 1, OP_X86_INT },
	{ "iretq", B(0x48, 0xcf), 0, 2, OP_X86_IRET },
	{ "ud2", B(0x0f, 0x0b), 0, 2, OP_X86_UD },
	{ "ud1_has_modrm", B(0x0f, 0xb9, 0x40, 0x10), 0, 4, OP_X86_UD, false, false, 3, 1 },
	{ "xen_emulate_prefix_cpuid", B(0x0f, 0x0b, 'x', 'e', 'n', 0x0f, 0xa2), 0, 7,
	  OP_X86_UD },
	{ "syscall", B(0x0f, 0x05), 0, 2, OP_X86_SYSCALL },
	{ "cli", B(0xfa), 0, 1, OP_X86_IF_CHANGING },
	{ "popf", B(0x9d), 0, 1, OP_X86_IF_CHANGING },
	{ "mov_to_ss", B(0x8e, 0xd0), 0, 2, OP_X86_SEG_MOV },
	{ "mov_to_cs_invalid", B(0x8e, 0xc8), -EILSEQ },
	{ "hlt", B(0xf4), 0, 1, OP_X86_PRIVILEGED },
	{ "swapgs", B(0x0f, 0x01, 0xf8), 0, 3, OP_X86_PRIVILEGED },
	{ "mov_to_cr3_mod_ignored", B(0x0f, 0x22, 0x1d), 0, 3, OP_X86_PRIVILEGED },
	{ "mov_to_cr1_invalid", B(0x0f, 0x22, 0xc8), -EILSEQ },
	{ "wrmsr", B(0x0f, 0x30), 0, 2, OP_X86_PRIVILEGED },
	{ "cmovne_boosted", B(0x48, 0x0f, 0x45, 0xc1), 0, 4, OP_X86_OTHER, true },
	{ "movups_not_boosted", B(0x0f, 0x10, 0x00), 0, 3, OP_X86_OTHER, false },
	{ "pshufb_0f38", B(0x66, 0x0f, 0x38, 0x00, 0xc1), 0, 5, OP_X86_OTHER, false },
	{ "pclmulqdq_0f3a_imm8", B(0x66, 0x0f, 0x3a, 0x44, 0xc1, 0x11), 0, 6, OP_X86_OTHER,
	  false, false, 0, 0, 5, 1 },
	{ "3dnow_pfadd", B(0x0f, 0x0f, 0xc1, 0x9e), 0, 4, OP_X86_OTHER, false, false, 0, 0, 3, 1 },
	{ "3dnow_undefined_suffix", B(0x0f, 0x0f, 0xc1, 0x00), -EILSEQ },
	{ "vex2_vpxor", B(0xc5, 0xfd, 0xef, 0xc0), 0, 4, OP_X86_OTHER, false },
	{ "vex3_vpshufb_rip_relative", B(0xc4, 0xe2, 0x7d, 0x00, 0x05, 1, 2, 3, 4), 0, 9,
	  OP_X86_OTHER, false, true, 5, 4 },
	{ "vex3_map0_invalid", B(0xc4, 0xe0, 0x78, 0x10, 0xc0), -EILSEQ },
	{ "vex_after_66_invalid", B(0x66, 0xc5, 0xfd, 0xef, 0xc0), -EILSEQ },
	{ "vzeroupper_no_modrm", B(0xc5, 0xf8, 0x77), 0, 3, OP_X86_OTHER },
	{ "evex_vmovdqu64_disp8", B(0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x40, 0x01), 0, 7,
	  OP_X86_OTHER, false, false, 6, 1 },
	{ "evex_vpternlogd_imm8", B(0x62, 0xf3, 0x75, 0x48, 0x25, 0xc2, 0x96), 0, 7,
	  OP_X86_OTHER, false, false, 0, 0, 6, 1 },
	{ "xop_vprotb_imm8", B(0x8f, 0xe8, 0x78, 0xc0, 0xc1, 0x05), 0, 6, OP_X86_OTHER, false,
	  false, 0, 0, 5, 1 },
	{ "pop_rm_not_xop", B(0x8f, 0xc0), 0, 2, OP_X86_OTHER, true },
	{ "push_es_invalid_in_64bit", B(0x06), -EILSEQ },
	{ "bound_is_evex_truncated", B(0x62, 0xf1), -ENODATA },
	{ "call_truncated", B(0xe8, 0x00, 0x00), -ENODATA },
	{ "fifteen_bytes", B(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
			     0x66, 0x66, 0x66, 0x90), 0, 15, OP_X86_OTHER, true },
	{ "sixteen_bytes_invalid", B(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
				     0x66, 0x66, 0x66, 0x66, 0x66, 0x90), -EILSEQ },
};

static void check_case(const struct insn_case *c)
{
	struct op_x86_insn in;
	int ret = op_x86_insn_decode(c->bytes, c->n, &in);
	bool pass = ret == c->ret;

	if (pass && !ret)
		pass = in.len == c->len && in.cls == c->cls &&
		       op_x86_insn_can_boost(&in) == c->boost &&
		       in.rip_relative == c->rip_relative && in.disp_size == c->disp_size &&
		       (!c->disp_size || in.disp_off == c->disp_off) &&
		       in.imm_size == c->imm_size && (!c->imm_size || in.imm_off == c->imm_off) &&
		       in.has_rel == c->has_rel && in.rel == c->rel;
	unit_check(pass, c->name,
		   "ret %d len %u class %d boost %d riprel %d disp %u@%u imm %u@%u rel %d:%d",
		   ret, in.len, in.cls, op_x86_insn_can_boost(&in), in.rip_relative, in.disp_size,
		   in.disp_off, in.imm_size, in.imm_off, in.has_rel, in.rel);
}

/* Where control may go on to the next instruction, and where it never does. */
static const struct {
	u8 bytes[8];
	unsigned int n;
	bool falls_through;
} flow_cases[] = {
	{ B(0xeb, 0x10), false },			/* jmp rel8 */
	{ B(0xe9, 0x10, 0x00, 0x00, 0x00), false },	/* jmp rel32 */
	{ B(0xc3), false },				/* ret */
	{ B(0xc2, 0x08, 0x00), false },			/* ret imm16 */
	{ B(0xff, 0xe0), false },			/* jmp *%rax */
	{ B(0x48, 0xcf), false },			/* iretq */
	{ B(0xff, 0x28), false },			/* far jmp */
	{ B(0x48, 0xcb), false },			/* far ret */
	{ B(0xff, 0x18), true },			/* far call */
	{ B(0x75, 0x10), true },			/* jne rel8 */
	{ B(0xe8, 0x00, 0x00, 0x00, 0x00), true },	/* call rel32 */
	{ B(0xff, 0xd0), true },			/* call *%rax */
	{ B(0x0f, 0x1f, 0x44, 0x00, 0x00), true },	/* nop5, a jump label */
	{ B(0x48, 0x89, 0xf8), true },			/* mov %rdi,%rax */
};

/* op_x86_insn_falls_through() on each of flow_cases. */
static void test_falls_through(void)
{
	struct op_x86_insn in;
	unsigned int i, bad = 0;

	for (i = 0; i < ARRAY_SIZE(flow_cases); i++)
		if (op_x86_insn_decode(flow_cases[i].bytes, flow_cases[i].n, &in) ||
		    op_x86_insn_falls_through(&in) != flow_cases[i].falls_through) {
			if (!bad++)
				fprintf(stderr, "# flow case %u: falls through %d\n", i,
					op_x86_insn_falls_through(&in));
		}
	unit_check(!bad, "falls_through", "%u of %zu cases wrong", bad, ARRAY_SIZE(flow_cases));
}

/*
 * Why the decoders may differ on an instruction.  Mismatches are
 * capstone 4 defects (or, for the emulate prefix, a choice of ours);
 * refusals are encodings capstone decodes that do not exist as such.
 */
enum excuse {
	EX_NONE,
	EX_UD01_MODRM,
	EX_RET_IMM_REXW,
	EX_OPSIZE_WITH_REP,
	EX_REL_ADSIZE_REX,
	EX_EVEX_ROUNDING,
	EX_EMULATE_PREFIX,
	EX_REL_OPSIZE,
	EX_VEX_AFTER_PREFIX,
	EX_LOCK,
	EX_NO_FORM,
	EX_OPSIZE_AFTER_REP,
	EX_X87_RESERVED,
	EX_UNDEFINED_MODRM,
	EX_3DNOW_FEMMS,
	NR_EXCUSES,
};

/* Each excuse in a few words, and the reason it holds. */
static const struct {
	const char *what, *why;
} excuses[NR_EXCUSES] = {
	[EX_UD01_MODRM] = { "ud1/ud0 ModRM",
		"capstone 4 omits it; SDM: UD1 is 0F B9 /r, UD0 is 0F FF /r" },
	[EX_RET_IMM_REXW] = { "ret imm16 with REX.W and 66/67",
		"capstone 4 reads an imm32; SDM: C2 iw, CA iw only" },
	[EX_OPSIZE_WITH_REP] = { "66 with f2/f3 on an imm16/32",
		"capstone 4 drops the 66; f2/f3 do not change one-byte operand sizes" },
	[EX_REL_ADSIZE_REX] = { "relative branch with 67 and REX",
		"capstone 4 misreads length/target; 67 changes neither in 64-bit mode" },
	[EX_EVEX_ROUNDING] = { "EVEX {er} or vadd/vmul/vsub/vdiv with a register",
		"capstone 4 reads one more byte; rounding is in EVEX.b and L'L" },
	[EX_EMULATE_PREFIX] = { "Xen/KVM emulate prefix",
		"ud2 'xen'/'kvm' + insn is one instruction to the kernel's decoder and ours" },
	[EX_REL_OPSIZE] = { "66 on a relative branch",
		"AMD: rel16 and a 16-bit target, Intel: ignored; xbegin truncates: refused" },
	[EX_VEX_AFTER_PREFIX] = { "VEX/EVEX/XOP after 66/f2/f3/f0/REX",
		"#UD (SDM 2.3.2)" },
	[EX_LOCK] = { "LOCK on a form that is not lockable",
		"#UD (SDM LOCK); maybe with a 66/f2/f3 that selects no form too" },
	[EX_NO_FORM] = { "66/f2/f3 selecting no form",
		"NP in the SDM; also 0f d6 bare, EVEX 66 0f 12/16 with a register" },
	[EX_OPSIZE_AFTER_REP] = { "66 after f2/f3 on an SSE opcode",
		"SDM: f2/f3 select the form, capstone/kernel: the last prefix: refused" },
	[EX_X87_RESERVED] = { "reserved x87 register forms",
		"fstp1 fcom2 fcomp3/5 fxch4/7 ffreep fstp8/9 feni fdisi fsetpm: SDM blank" },
	[EX_UNDEFINED_MODRM] = { "undefined ModRM form",
		"mov to cs, cr1/5-7/9-15, dr8-15, extrq /1-/7, VSIB without SIB: #UD" },
	[EX_3DNOW_FEMMS] = { "3DNow! suffix 0e",
		"capstone 4 calls it femms; femms is 0f 0e, 0e is no 3DNow! suffix" },
};

/* The instruction's prefix and opcode bytes, read plainly for the excuses. */
struct raw {
	unsigned int body;	/* index of the byte after legacy prefixes and REX */
	bool p66, p67, pf0, prep;
	u8 last_simd;		/* the last of 66, f2, f3 */
	u8 rex;
	u8 esc;			/* c4, c5, 62 or 8f when VEX/EVEX/XOP encoded */
	u8 map, pp, op;
	u8 evex_p2;		/* z L'L b V' aaa */
	int modrm;		/* -1 if past the bytes */
};

static void raw_parse(const u8 *p, size_t n, struct raw *r)
{
	unsigned int i = 0, o;

	memset(r, 0, sizeof(*r));
	r->modrm = -1;
	for (; i < n && i < 15; i++) {
		u8 b = p[i];

		if ((b & 0xf0) == 0x40) {
			r->rex = b;
			continue;
		}
		if (b == 0x66 || b == 0xf2 || b == 0xf3)
			r->last_simd = b;
		if (b == 0x66)
			r->p66 = true;
		else if (b == 0x67)
			r->p67 = true;
		else if (b == 0xf0)
			r->pf0 = true;
		else if (b == 0xf2 || b == 0xf3)
			r->prep = true;
		else if (b != 0x26 && b != 0x2e && b != 0x36 && b != 0x3e && b != 0x64 &&
			 b != 0x65)
			break;
		r->rex = 0;
	}
	r->body = i;
	if (i + 5 >= n)
		return;
	o = i;
	if (p[i] == 0xc5) {
		r->esc = 0xc5;
		r->map = 1;
		r->pp = p[i + 1] & 3;
		o = i + 2;
	} else if (p[i] == 0xc4 || (p[i] == 0x8f && (p[i + 1] & 0x1f) >= 8)) {
		r->esc = p[i];
		r->map = p[i + 1] & 0x1f;
		r->pp = p[i + 2] & 3;
		o = i + 3;
	} else if (p[i] == 0x62) {
		r->esc = 0x62;
		r->map = p[i + 1] & 3;
		r->pp = p[i + 2] & 3;
		r->evex_p2 = p[i + 3];
		o = i + 4;
	} else if (p[i] == 0x0f) {
		r->map = 1;
		o = i + 1;
		if (p[o] == 0x38 || p[o] == 0x3a)
			r->map = p[o++] == 0x38 ? 2 : 3;
	}
	r->op = p[o];
	if (o + 1 < n)
		r->modrm = p[o + 1];
}

static bool raw_is_rel_branch(const struct raw *r)
{
	if (r->esc)
		return false;
	if (r->map == 1)
		return r->op >= 0x80 && r->op <= 0x8f;
	return r->map == 0 && ((r->op >= 0x70 && r->op <= 0x7f) ||
			       (r->op >= 0xe0 && r->op <= 0xe3) ||
			       r->op == 0xe8 || r->op == 0xe9 || r->op == 0xeb);
}

/*
 * Does our decoder take the instruction, once the prefix bytes in
 * @drop (before the opcode) are removed, with capstone's length?  That
 * tells that those prefixes, and nothing else, made it refuse.
 */
static bool decodes_without(const u8 *p, const struct raw *r, const char *drop,
			    unsigned int cs_len)
{
	struct op_x86_insn in;
	u8 buf[16];
	unsigned int i, n = 0, dropped = 0;

	if (cs_len > sizeof(buf))
		return false;
	for (i = 0; i < cs_len; i++) {
		if (i < r->body && strchr(drop, p[i]))
			dropped++;
		else
			buf[n++] = p[i];
	}
	return dropped && !op_x86_insn_decode(buf, n, &in) && in.len + dropped == cs_len;
}

static bool emulate_prefix(const u8 *p, size_t n)
{
	return n >= 5 && p[0] == 0x0f && p[1] == 0x0b &&
	       (!memcmp(p + 2, "xen", 3) || !memcmp(p + 2, "kvm", 3));
}

/* Both decoded, and disagree. */
static enum excuse mismatch_excuse(const u8 *p, size_t n, const struct op_x86_insn *in,
				   unsigned int cs_len)
{
	struct raw r;

	raw_parse(p, n, &r);
	if (emulate_prefix(p, n) && in->cls == OP_X86_UD && cs_len == 2)
		return EX_EMULATE_PREFIX;
	if (!r.esc && r.map == 1 && (r.op == 0xb9 || r.op == 0xff) && cs_len < in->len)
		return EX_UD01_MODRM;
	if (!r.esc && r.map == 0 && (r.op == 0xc2 || r.op == 0xca) && (r.rex & 8) &&
	    (r.p66 || r.p67) && cs_len == in->len + 2U)
		return EX_RET_IMM_REXW;
	if (!r.esc && r.map == 0 && r.p66 && r.prep && cs_len == in->len + 2U)
		return EX_OPSIZE_WITH_REP;
	if (raw_is_rel_branch(&r) && r.p67 && r.rex)
		return EX_REL_ADSIZE_REX;
	if (r.esc == 0x62 && r.modrm >= 0xc0 && cs_len == in->len + 1U &&
	    ((r.evex_p2 & 0x10) || (r.map == 1 && (r.op == 0x58 || r.op == 0x59 ||
						 r.op == 0x5c || r.op == 0x5e))))
		return EX_EVEX_ROUNDING;
	return EX_NONE;
}

/* Capstone decoded, ours refused. */
static enum excuse refusal_excuse(const u8 *p, size_t n, unsigned int cs_len)
{
	u8 reg;
	struct raw r;

	raw_parse(p, n, &r);
	reg = (r.modrm >> 3) & 7;
	if (r.p66 && (raw_is_rel_branch(&r) ||
		      (!r.esc && r.map == 0 && r.op == 0xc7 && r.modrm == 0xf8)))
		return EX_REL_OPSIZE;
	if (r.esc && (r.p66 || r.pf0 || r.prep || r.rex))
		return EX_VEX_AFTER_PREFIX;
	if (r.pf0 && (decodes_without(p, &r, "\xf0", cs_len) ||
		      (r.map && decodes_without(p, &r, "\xf0\x66\xf2\xf3", cs_len))))
		return EX_LOCK;
	if (!r.esc && r.map && r.p66 && r.prep && r.last_simd == 0x66)
		return EX_OPSIZE_AFTER_REP;
	if (!r.esc && r.map && (r.p66 || r.prep) && decodes_without(p, &r, "\x66\xf2\xf3", cs_len))
		return EX_NO_FORM;
	if (!r.esc && r.map == 1 && r.op == 0xd6 && !r.p66 && !r.prep)
		return EX_NO_FORM;
	if (r.esc == 0x62 && r.map == 1 && r.pp == 1 && (r.op == 0x12 || r.op == 0x16) &&
	    r.modrm >= 0xc0)
		return EX_NO_FORM;
	if (!r.esc && r.map == 0 && r.op >= 0xd8 && r.op <= 0xdf && r.modrm >= 0xc0)
		return EX_X87_RESERVED;
	if (!r.esc && r.map == 0 && r.op == 0x8e && reg == 1)
		return EX_UNDEFINED_MODRM;
	if (!r.esc && r.map == 1 && (r.op == 0x20 || r.op == 0x22) &&
	    (reg == 1 || reg >= 5 || (r.rex & 4)))
		return EX_UNDEFINED_MODRM;
	if (!r.esc && r.map == 1 && (r.op == 0x21 || r.op == 0x23) && (r.rex & 4))
		return EX_UNDEFINED_MODRM;
	if (!r.esc && r.map == 1 && r.op == 0x78 && r.p66 && reg)
		return EX_UNDEFINED_MODRM;
	if (r.esc && r.map == 2 && (r.modrm & 7) != 4 &&
	    ((r.op >= 0x90 && r.op <= 0x93) || (r.op >= 0xa0 && r.op <= 0xa3) ||
	     r.op == 0xc6 || r.op == 0xc7))
		return EX_UNDEFINED_MODRM;
	if (!r.esc && r.map == 1 && r.op == 0x0f && p[cs_len - 1] == 0x0e)
		return EX_3DNOW_FEMMS;
	return EX_NONE;
}

struct tally {
	const char *name;
	unsigned long oracle_decoded;	/* instructions capstone decoded */
	unsigned long oracle_failed;	/* offsets (or sweep encodings) it could not decode */
	unsigned long ours_only;	/* of those, ones ours decodes */
	unsigned long agreed, mismatched, refused;
	unsigned long excused[NR_EXCUSES];
	unsigned int shown_mismatch, shown_refusal, shown_ours;
	u8 ours_example[16];
};

static csh cs;
static cs_insn *ci;

static void show(const char *what, const char *stream, const u8 *p, size_t n, u64 addr)
{
	char hex[64] = "";
	size_t i;

	for (i = 0; i < n && i < 15; i++)
		sprintf(hex + 2 * i, "%02x", p[i]);
	printf("# %s: %s at %#llx: %s: capstone %u bytes \"%s %s\"\n", stream, what,
	       (unsigned long long)addr, hex, ci->size, ci->mnemonic, ci->op_str);
}

/* Compare at @p; return capstone's length, or 0 if capstone cannot decode. */
static unsigned int compare_one(struct tally *t, const u8 *p, size_t avail, u64 addr)
{
	const u8 *code = p;
	size_t size = avail;
	u64 a = addr;
	struct op_x86_insn in;
	int ret = op_x86_insn_decode(p, avail, &in);
	enum excuse ex;
	bool rel, same;

	if (!cs_disasm_iter(cs, &code, &size, &a, ci)) {
		t->oracle_failed++;
		if (!ret && !t->ours_only++)
			memcpy(t->ours_example, p, avail < 15 ? avail : 15);
		return 0;
	}
	t->oracle_decoded++;
	if (ret) {
		ex = refusal_excuse(p, avail, ci->size);
		t->excused[ex]++;
		if (ex == EX_NONE) {
			t->refused++;
			if (t->shown_refusal++ < SHOW_MAX)
				show("we refuse", t->name, p, avail, addr);
		}
		return ci->size;
	}
	rel = cs_insn_group(cs, ci, CS_GRP_BRANCH_RELATIVE);
	same = in.len == ci->size && rel == in.has_rel &&
	       (!rel || (u64)ci->detail->x86.operands[0].imm == addr + in.len + (s64)in.rel);
	if (same) {
		t->agreed++;
		return ci->size;
	}
	ex = mismatch_excuse(p, avail, &in, ci->size);
	t->excused[ex]++;
	if (ex == EX_NONE) {
		t->mismatched++;
		if (t->shown_mismatch++ < SHOW_MAX) {
			show("mismatch", t->name, p, avail, addr);
			printf("#   ours: %u bytes, rel %d:%d\n", in.len, in.has_rel, in.rel);
		}
	}
	return ci->size;
}

/* Walk @buf as capstone decodes it, comparing at each instruction it finds. */
static void walk(struct tally *t, const u8 *buf, size_t size, u64 base, unsigned long limit)
{
	size_t off = 0, step;

	while (off < size && (!limit || t->oracle_decoded < limit)) {
		step = compare_one(t, buf + off, size - off, base + off);
		off += step ? step : 1;
	}
}

static unsigned long excused_total(const struct tally *t)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = EX_NONE + 1; i < NR_EXCUSES; i++)
		n += t->excused[i];
	return n;
}

static void report(const struct tally *t)
{
	unsigned int i;

	printf("# %s: capstone decoded %lu instructions, could not decode at %lu places\n",
	       t->name, t->oracle_decoded, t->oracle_failed);
	printf("# %s: ours decodes at %lu of those places\n", t->name, t->ours_only);
	printf("# %s: agreed %lu, mismatched %lu, refused %lu, excused %lu\n", t->name,
	       t->agreed, t->mismatched, t->refused, excused_total(t));
	for (i = EX_NONE + 1; i < NR_EXCUSES; i++)
		if (t->excused[i])
			printf("# %s:   %lu excused: %s (%s)\n", t->name, t->excused[i],
			       excuses[i].what, excuses[i].why);
	if (t->ours_only) {
		printf("# %s: first decoded by ours only:", t->name);
		for (i = 0; i < 15; i++)
			printf(" %02x", t->ours_example[i]);
		printf("\n");
	}
}

/* Map the vmlinux and find .text through the ELF section headers. */
static const u8 *vmlinux_text(const char *path, size_t *size, u64 *addr)
{
	const struct elf64_hdr *eh;
	const struct elf64_shdr *sh;
	const char *names;
	struct stat st;
	const u8 *img;
	unsigned int i;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || (size_t)st.st_size < sizeof(*eh))
		return NULL;
	img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return NULL;
	eh = (const struct elf64_hdr *)img;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_machine != EM_X86_64 || eh->e_shoff + (u64)eh->e_shnum * sizeof(*sh) >
	    (u64)st.st_size || eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const struct elf64_shdr *)(img + eh->e_shoff);
	names = (const char *)img + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++) {
		if (strcmp(names + sh[i].sh_name, ".text") ||
		    sh[i].sh_offset + sh[i].sh_size > (u64)st.st_size)
			continue;
		*size = sh[i].sh_size;
		*addr = sh[i].sh_addr;
		return img + sh[i].sh_offset;
	}
	return NULL;
}

static void test_vmlinux(const char *path)
{
	struct tally t = { .name = "vmlinux .text" };
	unsigned long other;
	const u8 *text;
	size_t size = 0;
	u64 addr = 0;

	text = vmlinux_text(path, &size, &addr);
	unit_check(text, "vmlinux_text_found", "no .text in %s", path);
	if (!text) {
		unit_check(false, "vmlinux_lengths_and_targets_agree", "no text");
		unit_check(false, "vmlinux_no_refusals", "no text");
		return;
	}
	printf("# %s: %zu bytes at %#llx\n", t.name, size, (unsigned long long)addr);
	walk(&t, text, size, addr, 0);
	report(&t);
	/* only capstone's ud1/ud0 defect and the emulate prefix may differ */
	other = excused_total(&t) - t.excused[EX_UD01_MODRM] - t.excused[EX_EMULATE_PREFIX];
	unit_check(!t.mismatched && !other && t.oracle_decoded > 1000000,
		   "vmlinux_lengths_and_targets_agree",
		   "%lu mismatched, %lu other excuses, of %lu", t.mismatched, other,
		   t.oracle_decoded);
	unit_check(!t.refused, "vmlinux_no_refusals", "%lu refused", t.refused);
}

static u64 xorshift64(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_random(void)
{
	struct tally t = { .name = "random bytes" };
	u64 seed = RANDOM_SEED;
	size_t i;
	u8 *buf = malloc(RANDOM_BYTES);

	if (!buf) {
		unit_check(false, "random_lengths_and_targets_agree", "out of memory");
		unit_check(false, "random_no_refusals", "out of memory");
		return;
	}
	for (i = 0; i < RANDOM_BYTES; i++)
		buf[i] = xorshift64(&seed) >> 56;
	printf("# random bytes: xorshift64 seeded %#llx, until capstone decodes %lu\n",
	       RANDOM_SEED, RANDOM_INSNS);
	walk(&t, buf, RANDOM_BYTES, 0x1000, RANDOM_INSNS);
	report(&t);
	unit_check(!t.mismatched && t.oracle_decoded == RANDOM_INSNS,
		   "random_lengths_and_targets_agree", "%lu mismatched of %lu", t.mismatched,
		   t.oracle_decoded);
	unit_check(!t.refused && excused_total(&t) * 1000000 <= t.oracle_decoded *
		   RANDOM_EXCUSED_PPM, "random_no_refusals",
		   "%lu refused, %lu excused (at most %u ppm)", t.refused, excused_total(&t),
		   RANDOM_EXCUSED_PPM);
	free(buf);
}

/* ModRM forms: [rax], SIB, RIP-relative, disp8, disp32, two registers */
static const u8 sweep_modrm[] = { 0x00, 0x04, 0x05, 0x44, 0x84, 0xc0, 0xc1 };

/* Prefix and escape bytes of one encoding of @op in @map; returns their count. */
static unsigned int sweep_head(u8 *b, unsigned int kind, unsigned int col, unsigned int map,
			       unsigned int variant)
{
	static const u8 legacy_col[4] = { 0, 0x66, 0xf3, 0xf2 };
	static const u8 evex_p2[] = { 0x08, 0x28, 0x48, 0x18, 0x49 };
	unsigned int n = 0;

	switch (kind) {
	case 0:		/* legacy */
		if (legacy_col[col])
			b[n++] = legacy_col[col];
		if (map)
			b[n++] = 0x0f;
		if (map >= 2)
			b[n++] = map == 2 ? 0x38 : 0x3a;
		break;
	case 1:		/* VEX3: W and L from @variant, vvvv = 1111 */
		b[n++] = 0xc4;
		b[n++] = 0xe0 | map;
		b[n++] = (variant & 1 ? 0x80 : 0) | 0x78 | (variant & 2 ? 0x04 : 0) | col;
		break;
	default:	/* EVEX: W and P2 from @variant */
		b[n++] = 0x62;
		b[n++] = 0xf0 | map;
		b[n++] = (variant & 1 ? 0x80 : 0) | 0x7c | col;
		b[n++] = evex_p2[variant >> 1];
		break;
	}
	return n;
}

static bool sweep_skip(unsigned int kind, unsigned int map, unsigned int op)
{
	if (kind || map > 1)
		return false;
	if (map == 1)		/* the 0f 38 and 0f 3a escapes */
		return op == 0x38 || op == 0x3a;
	/* prefixes, REX and escapes, which the other encodings cover */
	return op == 0x0f || op == 0x26 || op == 0x2e || op == 0x36 || op == 0x3e ||
	       (op >= 0x40 && op <= 0x4f) || (op >= 0x64 && op <= 0x67) || op == 0xf0 ||
	       op == 0xf2 || op == 0xf3 || op == 0xc4 || op == 0xc5 || op == 0x62 ||
	       op == 0x8f;
}

/* Every opcode of @map in one encoding, with each ModRM form and reg field. */
static void sweep_map(struct tally *t, unsigned int kind, unsigned int variant,
		      unsigned int col, unsigned int map)
{
	unsigned int op, reg, m, n, i;
	u8 b[32];

	for (op = 0; op < 256; op++) {
		if (sweep_skip(kind, map, op))
			continue;
		for (reg = 0; reg < 8; reg++) {
			for (m = 0; m < ARRAY_SIZE(sweep_modrm); m++) {
				n = sweep_head(b, kind, col, map, variant);
				b[n++] = op;
				b[n++] = (sweep_modrm[m] & 0xc7) | reg << 3;
				for (i = 0; i < 12; i++)	/* SIB, displacement, immediates */
					b[n++] = 0x10 + i;
				compare_one(t, b, n, 0x1000);
			}
		}
	}
}

static void test_sweep(void)
{
	/* legacy: one; VEX: W x L; EVEX: W x five P2 (L'L, b, aaa) */
	static const unsigned int variants[3] = { 1, 4, 10 };
	struct tally t = { .name = "opcode sweep" };
	unsigned int kind, variant, col, map;

	for (kind = 0; kind < 3; kind++) {
		for (variant = 0; variant < variants[kind]; variant++) {
			for (col = 0; col < 4; col++) {
				for (map = kind ? 1 : 0; map < 4; map++)
					sweep_map(&t, kind, variant, col, map);
			}
		}
	}
	report(&t);
	unit_check(!t.mismatched, "sweep_lengths_agree", "%lu mismatched of %lu", t.mismatched,
		   t.oracle_decoded);
	unit_check(!t.refused, "sweep_no_refusals", "%lu refused of %lu", t.refused,
		   t.oracle_decoded);
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s VMLINUX\n", argv[0]);
		return 2;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK &&
	    cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) == CS_ERR_OK)
		ci = cs_malloc(cs);
	if (!ci) {
		fprintf(stderr, "%s: cannot open capstone\n", argv[0]);
		return 2;
	}
	unit_plan(ARRAY_SIZE(cases) + 8);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_case(&cases[i]);
	test_falls_through();
	test_vmlinux(argv[1]);
	test_random();
	test_sweep();
	cs_free(ci, 1);
	cs_close(&cs);
	return unit_status();
}
