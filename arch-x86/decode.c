// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction checks for x86_64 probes: is an address an instruction
 * boundary, and can the instruction there be probed, and how.
 *
 * Decoding uses the kernel's own decoder (insn_decode()), walking from the
 * start of the function, and reads through breakpoints of optprobe's and
 * of the kernel's kprobes to the bytes they replaced.
 */
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "ksyms.h"

/* Put back into @buf (the bytes at @addr) what an optimized @site's jmp replaced. */
static void op_x86_unjump(const struct op_site *site, unsigned long addr, u8 *buf, size_t len)
{
	unsigned long from = max(addr, site->addr);
	unsigned long to = min(addr + len, site->addr + site->arch.rlen);

	if (from < to)
		memcpy(buf + (from - addr), site->arch.region + (from - site->addr), to - from);
}

/*
 * The original bytes at @addr: an int3 planted by optprobe or by the
 * kernel's kprobes stands for the first byte of the instruction it covers;
 * the jmp of an optimized site, starting at most OP_X86_REGION_MAX - 1
 * bytes before @addr, for the bytes it replaced.
 */
int op_x86_read_original(unsigned long addr, u8 *buf, size_t len)
{
	u8 window[OP_X86_REGION_MAX - 1 + MAX_INSN_SIZE];
	size_t back = OP_X86_REGION_MAX - 1, i;
	struct op_site *site;
	struct kprobe *kp;

	if (WARN_ON_ONCE(len > MAX_INSN_SIZE))
		return -EINVAL;
	if (copy_from_kernel_nofault(window, (void *)(addr - back), back + len)) {
		back = 0;
		if (copy_from_kernel_nofault(window, (void *)addr, len))
			return -EFAULT;
	}
	memcpy(buf, window + back, len);
	for (i = 0; i < back + len; i++) {
		if (window[i] != JMP32_INSN_OPCODE && window[i] != INT3_INSN_OPCODE)
			continue;
		site = op_site_lookup(addr - back + i);
		if (site && site->opt == OP_OPT_DONE && window[i] == JMP32_INSN_OPCODE)
			op_x86_unjump(site, addr, buf, len);
		if (i < back || window[i] != INT3_INSN_OPCODE)
			continue;
		if (site && site->mode != OPTPROBE_MODE_FTRACE) {
			buf[i - back] = site->arch.insn[0];
			continue;
		}
		rcu_read_lock();
		kp = op_ksyms.get_kprobe((void *)(addr - back + i));
		if (kp)
			buf[i - back] = kp->opcode;
		rcu_read_unlock();
	}
	return 0;
}

int op_x86_decode(unsigned long addr, unsigned long end, struct insn *insn, u8 *buf)
{
	size_t len = min_t(unsigned long, MAX_INSN_SIZE, end - addr);

	if (op_x86_read_original(addr, buf, len))
		return -EFAULT;
	return op_ksyms.arch.insn_decode(insn, buf, len, INSN_MODE_KERN);
}

/* Instructions that cannot run from a slot and are not emulated. */
static const char *op_x86_refusal(const struct insn *insn)
{
	u8 op0 = insn->opcode.bytes[0], op1 = insn->opcode.bytes[1];
	u8 reg = X86_MODRM_REG(insn->modrm.bytes[0]);

	switch (op0) {
	case 0xcc:	/* int3: padding, or another debugger's breakpoint */
	case 0xcd:	/* int n */
	case 0xce:	/* into */
	case 0xcf:	/* iret */
		return "interrupt or interrupt return";
	case 0xc2:	/* ret imm16 */
	case 0xca:	/* far ret */
	case 0xcb:
	case 0xea:	/* far jmp */
	case 0x9a:	/* far call */
		return "far or stack-adjusting return/jump";
	case 0xe0 ... 0xe3:	/* loop, jrcxz: rel8 with a register condition */
		return "loop/jrcxz";
	case 0xf4:
		return "hlt";
	case 0xfb:	/* sti: its one-instruction interrupt shadow would be lost */
		return "sti";
	case 0x8e:	/* mov to a segment register; to ss opens a shadow too */
		return "mov to a segment register";
	case 0xff:	/* indirect call/jmp, near and far */
		if (reg >= 2 && reg <= 5)
			return "indirect jump or call";
		break;
	case 0xc7:	/* xbegin: relative fallback address */
		if (insn->modrm.bytes[0] == 0xf8)
			return "xbegin";
		break;
	case 0x0f:
		switch (op1) {
		case 0x0b:	/* ud2: BUG() sites are found by address */
		case 0xb9:	/* ud1 */
		case 0xff:	/* ud0 */
			return "undefined instruction (a BUG site)";
		case 0x05:	/* syscall, sysret, sysenter, sysexit */
		case 0x07:
		case 0x34:
		case 0x35:
			return "system call or return";
		}
		break;
	}
	return NULL;
}

/*
 * Two-byte (0f xx) opcodes that may run from a slot followed by a jmp
 * back: mainline's twobyte_is_boostable set (cmov, setcc, bt*, shld/shrd,
 * imul, cmpxchg, movzx/movsx, xadd, bswap, some moves and prefetches).
 */
static const u16 op_x86_twobyte_boostable[16] = {
	[0x0] = 0x034c,		/* 0f 02 03 06 08 09 */
	[0x4] = 0xffff,		/* 0f 40..4f cmovcc */
	[0x9] = 0xffff,		/* 0f 90..9f setcc */
	[0xa] = 0xbb3b,		/* 0f a0 a1 a3 a4 a5 a8 a9 ab ac ad af */
	[0xb] = 0xf8ff,		/* 0f b0..b7 bb..bf */
	[0xc] = 0xff03,		/* 0f c0 c1 c8..cf */
};

/*
 * May the instruction run from a slot with a jmp back instead of a trap?
 * Mainline's can_boost() is the reference: nothing that branches, traps
 * or depends on where it runs (but RIP-relative operands, which the copy
 * re-targets), no address-size or CS-override prefix, no x87 escape.
 *
 * One step further than mainline: the group 2 shifts and rotates (c0 c1
 * d0..d3), which mainline refuses with the software interrupts around
 * them in its old opcode ranges.  They compute on a register or memory
 * operand and the flags, every ModRM form is defined, and nothing of them
 * depends on where they run; optprobe_test_x86_opt's "shift" case shows
 * them boosted and optimized with the trap path's registers.
 */
bool op_x86_boostable(const struct insn *insn)
{
	u8 op0 = insn->opcode.bytes[0], op1 = insn->opcode.bytes[1];
	insn_byte_t prefix;
	int i;

	if (insn->opcode.nbytes == 2 && op0 == 0x0f)
		return op_x86_twobyte_boostable[op1 >> 4] & BIT(op1 & 0xf);
	if (insn->opcode.nbytes != 1 || insn->vex_prefix.nbytes)
		return false;
	for_each_insn_prefix(insn, i, prefix)
		if (prefix == 0x2e || prefix == 0x67)
			return false;
	switch (op0) {
	case 0x62:		/* bound */
	case 0x70 ... 0x7f:	/* jcc */
	case 0x9a:		/* far call */
	case 0xc2 ... 0xc3:	/* ret */
	case 0xca ... 0xcf:	/* far ret, int3, int, into, iret */
	case 0xd6:		/* undefined */
	case 0xd8 ... 0xdf:	/* x87 escape */
	case 0xe0 ... 0xe3:	/* loop, jrcxz */
	case 0xe8 ... 0xeb:	/* call, jmp */
	case 0xf0 ... 0xf4:	/* lock, rep prefixes as opcodes, hlt */
	case 0xf6 ... 0xf7:	/* group 3 */
	case 0xfa ... 0xfb:	/* cli, sti */
	case 0x9d:		/* popf */
	case 0x8e:		/* mov to a segment register */
	case 0xfe ... 0xff:	/* group 4, group 5: inc/dec, indirect branches */
		return false;
	default:
		return true;
	}
}

/* How the instruction runs: emulated in the handler, or from a slot. */
static void op_x86_classify(const struct insn *insn, unsigned long addr,
			    struct op_arch_site *arch)
{
	u8 op0 = insn->opcode.bytes[0], op1 = insn->opcode.bytes[1];
	unsigned long next = addr + insn->length;

	arch->emulation = OP_X86_OUT_OF_LINE;
	if (op0 == 0xeb || op0 == 0xe9) {
		arch->emulation = OP_X86_JMP;
	} else if (op0 == 0xe8) {
		arch->emulation = OP_X86_CALL;
	} else if (op0 == 0xc3) {
		arch->emulation = OP_X86_RET;
	} else if ((op0 & 0xf0) == 0x70) {
		arch->emulation = OP_X86_JCC;
		arch->cc = op0 & 0xf;
	} else if (op0 == 0x0f && (op1 & 0xf0) == 0x80) {
		arch->emulation = OP_X86_JCC;
		arch->cc = op1 & 0xf;
	}
	if (arch->emulation != OP_X86_OUT_OF_LINE && arch->emulation != OP_X86_RET)
		arch->target = next + insn->immediate.value;
}

unsigned long op_arch_local_entry(unsigned long func)
{
	return func;
}

/*
 * The kernel's jump-optimized kprobes replace up to MAX_INSN_SIZE + 4 bytes
 * from their address with a jmp (OP_X86_KPROBE_REACH): an address that
 * close after a kprobe may be inside its jmp, or become so.
 */
/* Is there a kernel kprobe in [start, end)? */
bool op_x86_kprobe_in(unsigned long start, unsigned long end)
{
	unsigned long a;
	bool found = false;

	rcu_read_lock();
	for (a = start; a < end && !found; a++)
		found = op_ksyms.get_kprobe((void *)a);
	rcu_read_unlock();
	return found;
}

/* ...that is, or could become, a jmp over [addr, addr + len)? */
static bool op_x86_near_kprobe(unsigned long addr, unsigned int len)
{
	return op_x86_kprobe_in(addr - OP_X86_KPROBE_REACH, addr + len);
}

/* Called with text_mutex held, so no text_poke_bp() int3 is in the way. */
static int op_x86_check_insn(unsigned long func, unsigned long end,
			     unsigned long addr, const char **reason)
{
	unsigned long pos = func;
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;
	void *last;

	while (pos < addr) {
		if (op_x86_decode(pos, end, &insn, buf)) {
			*reason = "undecodable instruction before it in the function";
			return -EILSEQ;
		}
		/* bytes under an optimized kprobe's jmp cannot be decoded */
		if (buf[0] == JMP32_INSN_OPCODE && op_x86_kprobe_in(pos, pos + 1)) {
			*reason = "an optimized kprobe of the kernel's precedes it";
			return -EBUSY;
		}
		pos += insn.length;
	}
	if (pos != addr) {
		*reason = "not an instruction boundary";
		return -EILSEQ;
	}
	if (op_x86_decode(addr, end, &insn, buf)) {
		*reason = "undecodable instruction";
		return -EINVAL;
	}
	last = (void *)addr + insn.length - 1;
	if (op_ksyms.arch.alternatives_text_reserved((void *)addr, last)) {
		*reason = "an alternative is there";
		return -EBUSY;
	}
	if (op_ksyms.arch.static_call_text_reserved((void *)addr, last)) {
		*reason = "a static call is there";
		return -EBUSY;
	}
	if (op_x86_near_kprobe(addr, insn.length)) {
		*reason = "a kprobe of the kernel's covers it";
		return -EBUSY;
	}
	*reason = op_x86_refusal(&insn);
	return *reason ? -EINVAL : 0;
}

int op_arch_check_insn(unsigned long func, unsigned long size,
		       unsigned long addr, const char **reason)
{
	int ret;

	mutex_lock(op_ksyms.arch.text_mutex);
	ret = op_x86_check_insn(func, func + size, addr, reason);
	mutex_unlock(op_ksyms.arch.text_mutex);
	return ret;
}

/*
 * Arming, with text_mutex held: the instruction must still be the one
 * prepared, and no kernel kprobe may have arrived over or just before it.
 */
bool op_x86_may_arm(const struct op_site *site)
{
	u8 now;

	if (copy_from_kernel_nofault(&now, (void *)site->addr, 1) || now != site->arch.insn[0])
		return false;
	return !op_x86_near_kprobe(site->addr, site->arch.len);
}

/* A RIP-relative operand of a copy at @slot must reach what @addr's did. */
int op_x86_fixup_riprel(struct insn *insn, unsigned long addr, unsigned long slot, u8 *copy)
{
	s64 disp;
	s32 disp32;

	if (!insn->modrm.nbytes || X86_MODRM_MOD(insn->modrm.bytes[0]) != 0 ||
	    X86_MODRM_RM(insn->modrm.bytes[0]) != 5)
		return 0;
	disp = (s64)insn->displacement.value + (s64)(addr - slot);
	if (disp != (s32)disp)
		return -ERANGE;
	disp32 = disp;
	memcpy(copy + insn_offset_displacement(insn), &disp32, sizeof(disp32));
	return 0;
}

/*
 * The first byte after the copy in a slot: the jmp back of a boosted copy,
 * or an int3 that returns to the handler for the post handlers.
 */
static u8 op_x86_slot_exit(const struct op_site *site)
{
	return site->arch.boostable && !site->post && !site->noopt ?
	       JMP32_INSN_OPCODE : INT3_INSN_OPCODE;
}

static void op_x86_set_bp_mode(struct op_site *site)
{
	site->bp_mode = op_x86_slot_exit(site) == JMP32_INSN_OPCODE ?
			OPTPROBE_MODE_BOOSTED : OPTPROBE_MODE_TRAP;
}

int op_arch_prepare(struct op_site *site)
{
	struct op_arch_site *arch = &site->arch;
	u8 copy[MAX_INSN_SIZE + JMP32_INSN_SIZE];
	unsigned long slot;
	struct insn insn;
	int ret;

	site->bp_mode = OPTPROBE_MODE_TRAP;
	ret = op_x86_decode(site->addr, site->addr + MAX_INSN_SIZE, &insn, arch->insn);
	if (ret) {
		site->reason = "undecodable instruction";
		return -EINVAL;
	}
	arch->len = insn.length;
	op_x86_classify(&insn, site->addr, arch);
	if (arch->emulation != OP_X86_OUT_OF_LINE)
		return 0;

	ret = op_slot_alloc(site, &site->slot, OP_ARCH_SLOT_SIZE, true);
	if (ret)
		return ret;
	slot = (unsigned long)site->slot;
	memcpy(copy, arch->insn, arch->len);
	if (op_x86_fixup_riprel(&insn, site->addr, slot, copy)) {
		site->reason = "RIP-relative operand out of reach of the slot";
		return -EINVAL;
	}
	arch->boostable = op_boost_enabled() && op_x86_boostable(&insn);
	__text_gen_insn(copy + arch->len, JMP32_INSN_OPCODE, (void *)slot + arch->len,
			(void *)site->addr + arch->len, JMP32_INSN_SIZE);
	copy[arch->len] = op_x86_slot_exit(site);
	op_arch_slot_write(site->slot, copy, arch->len + JMP32_INSN_SIZE);
	op_x86_set_bp_mode(site);
	return 0;
}

/*
 * A post handler, or a probe that forbids boosting, came or went: the
 * byte after a boostable copy switches between the jmp back and the int3.
 * A CPU inside the slot meanwhile takes either, both right.  The detour's
 * post call follows.
 */
void op_arch_site_flags(struct op_site *site)
{
	u8 exit = op_x86_slot_exit(site);

	if (site->slot && site->arch.boostable) {
		mutex_lock(op_ksyms.arch.text_mutex);
		op_x86_poke(site->slot + site->arch.len, &exit, 1);
		mutex_unlock(op_ksyms.arch.text_mutex);
	}
	op_x86_set_bp_mode(site);
	op_x86_detour_set_post(site);
}
