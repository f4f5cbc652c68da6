// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of op_x86_insn_relocate(), the forms a jump-optimized region's
 * instructions take in their detour, checked against optprobe's decoder
 * (itself checked against capstone by test_x86_insn): each new form is
 * decoded back and must reach what the original reached from where it
 * was.  A jmp or jcc, rel8 or rel32, becomes the rel32 one with the same
 * condition and target; a call becomes push imm32 (its return address)
 * and jmp rel32 (its target); a RIP-relative operand keeps its address; a
 * ret is copied; what cannot run elsewhere is refused.
 */
#include <string.h>

#include "x86-insn.h"
#include "unit.h"

/* Kernel text, and a detour in module space: as far apart as they get */
#define FROM	0xffffffff81234560ULL
#define TO	0xffffffffc0801000ULL

#define B(...)	.bytes = { __VA_ARGS__ }, .n = sizeof((u8[]){ __VA_ARGS__ })

static u8 out[OP_X86_RELOC_MAX];

/* Decode @in, relocate it from @from to @to; the length written, or the error. */
static int relocate(const u8 *bytes, unsigned int n, u64 from, u64 to, struct op_x86_insn *in)
{
	int ret;

	memset(out, 0xcc, sizeof(out));
	if (op_x86_insn_decode(bytes, n, in))
		return -EILSEQ;
	ret = op_x86_insn_relocate(in, bytes, from, to, out);
	if (ret >= 0 && (unsigned int)ret != op_x86_insn_relocated_len(in))
		return -E2BIG;
	return ret;
}

/* Where the relative branch @in at @at goes. */
static u64 target_of(const struct op_x86_insn *in, u64 at)
{
	return at + in->len + (s64)in->rel;
}

static const struct branch_case {
	const char *name;
	u8 bytes[8];
	unsigned int n;
} branches[] = {
	{ "jmp_rel8_forward", B(0xeb, 0x10) },
	{ "jmp_rel8_backward", B(0xeb, 0x80) },
	{ "jmp_rel32", B(0xe9, 0x00, 0x10, 0x00, 0x00) },
	{ "jmp_rel32_backward", B(0xe9, 0x00, 0x00, 0x00, 0xff) },
	{ "jcc_rel8_jo", B(0x70, 0x10) },
	{ "jcc_rel8_jno", B(0x71, 0x10) },
	{ "jcc_rel8_jb", B(0x72, 0x10) },
	{ "jcc_rel8_jae", B(0x73, 0x10) },
	{ "jcc_rel8_je", B(0x74, 0x10) },
	{ "jcc_rel8_jne", B(0x75, 0xf0) },
	{ "jcc_rel8_jbe", B(0x76, 0x10) },
	{ "jcc_rel8_ja", B(0x77, 0x10) },
	{ "jcc_rel8_js", B(0x78, 0x10) },
	{ "jcc_rel8_jns", B(0x79, 0x10) },
	{ "jcc_rel8_jp", B(0x7a, 0x10) },
	{ "jcc_rel8_jnp", B(0x7b, 0x10) },
	{ "jcc_rel8_jl", B(0x7c, 0x10) },
	{ "jcc_rel8_jge", B(0x7d, 0x10) },
	{ "jcc_rel8_jle", B(0x7e, 0x10) },
	{ "jcc_rel8_jg", B(0x7f, 0x80) },
	{ "jcc_rel32_je", B(0x0f, 0x84, 0x00, 0x01, 0x00, 0x00) },
	{ "jcc_rel32_jg_backward", B(0x0f, 0x8f, 0x00, 0xff, 0xff, 0xff) },
	{ "jcc_rel8_with_hint", B(0x3e, 0x74, 0x10) },
};

/* A branch: the same class and condition, rel32, to the same target. */
static void test_branch(const struct branch_case *c)
{
	struct op_x86_insn in, re;
	int ret = relocate(c->bytes, c->n, FROM, TO, &in);
	bool pass = ret > 0 && !op_x86_insn_decode(out, ret, &re) && re.len == ret &&
		    re.cls == in.cls && re.imm_size == 4 && !re.nprefixes &&
		    target_of(&re, TO) == target_of(&in, FROM) &&
		    (in.cls != OP_X86_JCC || (re.opcode & 0xf) == (in.opcode & 0xf));

	unit_check(pass, c->name, "ret %d, class %d -> %d, target %llx -> %llx", ret, in.cls,
		   re.cls, (unsigned long long)target_of(&in, FROM),
		   (unsigned long long)target_of(&re, TO));
}

/* A call: push imm32 of the return address, then jmp rel32 to the callee. */
static void test_call(const char *name, s32 rel)
{
	u8 call[5] = { 0xe8 };
	struct op_x86_insn in, push, jmp;
	int ret;
	bool pass;

	memcpy(call + 1, &rel, sizeof(rel));
	ret = relocate(call, sizeof(call), FROM, TO, &in);
	pass = ret == OP_X86_PUSH32_LEN + OP_X86_JMP32_LEN &&
	       !op_x86_insn_decode(out, ret, &push) && push.len == OP_X86_PUSH32_LEN &&
	       push.cls == OP_X86_OTHER && push.opcode == 0x68 && push.imm_size == 4 &&
	       (u64)push.imm == FROM + sizeof(call) &&
	       !op_x86_insn_decode(out + push.len, ret - push.len, &jmp) &&
	       jmp.cls == OP_X86_JMP && jmp.len == OP_X86_JMP32_LEN &&
	       target_of(&jmp, TO + push.len) == target_of(&in, FROM);
	unit_check(pass, name, "ret %d, push %llx, jmp to %llx not %llx", ret,
		   (unsigned long long)push.imm, (unsigned long long)target_of(&jmp, TO + push.len),
		   (unsigned long long)target_of(&in, FROM));
}

/* A RIP-relative operand reaches the same address from the copy. */
static void test_rip_relative(void)
{
	static const u8 mov[] = { 0x48, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00 };
	struct op_x86_insn in, re;
	int ret = relocate(mov, sizeof(mov), FROM, TO, &in);
	bool pass = ret == sizeof(mov) && !op_x86_insn_decode(out, ret, &re) &&
		    re.rip_relative && !memcmp(out, mov, 3) &&
		    TO + re.len + re.disp == FROM + in.len + in.disp;

	unit_check(pass, "rip_relative_retargeted", "ret %d", ret);
}

/* A ret and an instruction that does not look at ip: copied as they are. */
static void test_copied(const char *name, const u8 *bytes, unsigned int n)
{
	struct op_x86_insn in;
	int ret = relocate(bytes, n, FROM, TO, &in);

	unit_check(ret == (int)n && !memcmp(out, bytes, n), name, "ret %d", ret);
}

/* Out of reach, or not to be run elsewhere: refused, the length saying so too. */
static void test_refused(const char *name, const u8 *bytes, unsigned int n, u64 from, u64 to,
			 int want)
{
	struct op_x86_insn in;
	int ret = relocate(bytes, n, from, to, &in);

	unit_check(ret == want && (want != -EINVAL || !op_x86_insn_relocated_len(&in)), name,
		   "ret %d, not %d", ret, want);
}

int main(void)
{
	static const u8 ret[] = { 0xc3 }, add[] = { 0x48, 0x01, 0xf0 };
	static const u8 jmp8[] = { 0xeb, 0x10 }, call[] = { 0xe8, 0, 0, 0, 0 };
	static const u8 call_indirect[] = { 0xff, 0xd0 }, loop[] = { 0xe2, 0xfe };
	static const u8 mov_rip[] = { 0x48, 0x8b, 0x05, 0, 0, 0, 0 };
	unsigned int i;

	unit_plan(ARRAY_SIZE(branches) + 3 + 3 + 5);
	for (i = 0; i < ARRAY_SIZE(branches); i++)
		test_branch(&branches[i]);
	test_call("call_forward", 0x1000);
	test_call("call_backward", -0x100000);
	test_call("call_self", -5);
	test_rip_relative();
	test_copied("ret_copied", ret, sizeof(ret));
	test_copied("add_copied", add, sizeof(add));
	test_refused("branch_out_of_reach", jmp8, sizeof(jmp8), FROM, FROM - (3ULL << 30),
		     -ERANGE);
	test_refused("rip_relative_out_of_reach", mov_rip, sizeof(mov_rip), FROM,
		     FROM + (3ULL << 30), -ERANGE);
	test_refused("call_return_address_not_imm32", call, sizeof(call), 0x7fff00000000ULL,
		     0x7fff00001000ULL, -ERANGE);
	test_refused("call_indirect_refused", call_indirect, sizeof(call_indirect), FROM, TO,
		     -EINVAL);
	test_refused("loop_refused", loop, sizeof(loop), FROM, TO, -EINVAL);
	return unit_status();
}
