// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction checks for x86_64 probes: is an address an instruction
 * boundary, and can the instruction there be probed, and how.
 *
 * Decoding uses optprobe's own decoder (x86-insn.c), walking from the
 * start of the function, and reads through breakpoints of optprobe's and
 * of the kernel's kprobes to the bytes they replaced.  Whether a copy may
 * jmp back (boost) is op_x86_insn_can_boost()'s to say.
 */
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "decode.h"
#include "ksyms.h"
#include "patch.h"

/* Room for the part of a symbol name op_x86_symbol_prefixed() compares. */
#define OP_X86_SYM_PREFIX_MAX	32

/*
 * Once a detour was built for @site, its region holds the original bytes
 * at its address, whatever the live ones are: its jmp, or int3s, or the
 * original bytes again.  So they are read from there even while its state
 * says no jmp is in the text: the jmp is written before the state moves
 * to optimized, and readers outside op_mutex (kprobe-guard.c) may look
 * in between.
 */
static bool op_x86_region_known(const struct op_site *site)
{
	return site->arch.rlen && !site->ftrace;
}

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
static int op_x86_read_original(unsigned long addr, u8 *buf, size_t len)
{
	u8 window[OP_X86_REGION_MAX - 1 + OP_X86_MAX_INSN_LEN];
	size_t back = OP_X86_REGION_MAX - 1, i;
	struct op_site *site;
	struct kprobe *kp;

	if (WARN_ON_ONCE(len > OP_X86_MAX_INSN_LEN))
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
		if (site && op_x86_region_known(site))
			op_x86_unjump(site, addr, buf, len);
		if (i < back || window[i] != INT3_INSN_OPCODE)
			continue;
		if (site && !site->ftrace) {
			buf[i - back] = site->arch.insn[0];
			continue;
		}
		rcu_read_lock();
		kp = op_kcall(get_kprobe)((void *)(addr - back + i));
		if (kp)
			buf[i - back] = kp->opcode;
		rcu_read_unlock();
	}
	return 0;
}

/* Decode the original instruction at @addr, of at most @end - @addr bytes, into @buf. */
int op_x86_decode(unsigned long addr, unsigned long end, struct op_x86_insn *insn, u8 *buf)
{
	size_t len = min_t(unsigned long, OP_X86_MAX_INSN_LEN, end - addr);

	if (op_x86_read_original(addr, buf, len))
		return -EFAULT;
	return op_x86_insn_decode(buf, len, insn);
}

/*
 * A jmp at @pos (its live first byte) where a kernel kprobe is: the jmp
 * of its optimization (or of one being undone), unless the kprobe sits
 * disarmed on an original jmp (its saved opcode is that jmp's).  The jmp
 * replaced the saved opcode and the four bytes in copied_insn; the bytes
 * after it are the original ones.  Kept in @r for the instructions that
 * start inside it.  With kprobe_mutex held: nothing changes meanwhile.
 */
static void op_x86_kernel_jmp(struct op_x86_reader *r, unsigned long pos)
{
	struct optimized_kprobe *op;
	struct kprobe *kp;

	rcu_read_lock();
	kp = op_kcall(get_kprobe)((void *)pos);
	if (kp && kp->opcode != JMP32_INSN_OPCODE) {
		op = container_of(kp, struct optimized_kprobe, kp);
		r->kjmp = pos;
		r->kbytes[0] = kp->opcode;
		memcpy(r->kbytes + 1, op->optinsn.copied_insn, JMP32_INSN_SIZE - 1);
	}
	rcu_read_unlock();
}

/**
 * op_x86_read_insn() - decode the original instruction at @pos
 * @r:		the walk's reader, op_x86_reader_init()ed; @pos only grows
 * @pos:	an instruction boundary before r->to
 * @insn:	decoded
 * @buf:	its original bytes
 *
 * The live bytes are the original ones but at a breakpoint (int3) or a
 * jmp that stands for others: optprobe's (op_x86_decode() reads through
 * it and, for an optimized site, the rest of its region, up to
 * r->slow_until) or a kernel kprobe's (op_x86_kernel_jmp()).  Decoding
 * the live bytes elsewhere makes a walk several times faster.  Call with
 * kprobe_mutex held, or the kernel's kprobes may change the text.
 *
 * Return: 0, -EFAULT if the text cannot be read, or the decoder's error.
 */
int op_x86_read_insn(struct op_x86_reader *r, unsigned long pos,
		     struct op_x86_insn *insn, u8 *buf)
{
	size_t len = min_t(unsigned long, OP_X86_MAX_INSN_LEN, r->to - pos), i;
	struct op_site *site;

	if (pos < r->slow_until)
		return op_x86_decode(pos, r->to, insn, buf);
	if (copy_from_kernel_nofault(buf, (void *)pos, len))
		return -EFAULT;
	if (buf[0] == INT3_INSN_OPCODE || buf[0] == JMP32_INSN_OPCODE) {
		site = op_site_lookup(pos);
		if (site && op_x86_region_known(site))
			r->slow_until = pos + site->arch.rlen;
		if (site || (buf[0] == INT3_INSN_OPCODE && op_x86_kprobe_in(pos, pos + 1)))
			return op_x86_decode(pos, r->to, insn, buf);
		if (buf[0] == JMP32_INSN_OPCODE)
			op_x86_kernel_jmp(r, pos);
	}
	for (i = 0; i < len; i++)
		if (pos + i >= r->kjmp && pos + i < r->kjmp + JMP32_INSN_SIZE)
			buf[i] = r->kbytes[pos + i - r->kjmp];
	return op_x86_insn_decode(buf, len, insn);
}

/*
 * Instructions that cannot run from a slot and are not emulated.  Of the
 * interrupt flag changers only sti (whose one-instruction interrupt
 * shadow would be lost), of the privileged instructions only hlt.
 */
static enum op_reason op_x86_refusal(const struct op_x86_insn *insn)
{
	switch (insn->cls) {
	case OP_X86_INT3:
		return OP_R_INSN_INT3;
	case OP_X86_INT:
		return OP_R_INSN_INT;
	case OP_X86_IRET:
		return OP_R_INSN_IRET;
	case OP_X86_FAR:	/* ff /3, ff /5 through memory; far ret */
		return insn->opcode == 0xff ? OP_R_INSN_FAR_JMP : OP_R_INSN_FAR_RET;
	case OP_X86_RET_IMM:
		return OP_R_INSN_RET_IMM;
	case OP_X86_JMP_INDIRECT:
	case OP_X86_CALL_INDIRECT:
		return OP_R_INSN_INDIRECT;
	case OP_X86_LOOP:	/* rel8 with a register condition */
		return OP_R_INSN_LOOP;
	case OP_X86_XBEGIN:	/* relative fallback address */
		return OP_R_INSN_XBEGIN;
	case OP_X86_UD:		/* BUG() sites are found by address */
		return OP_R_INSN_UD;
	case OP_X86_SYSCALL:
		return OP_R_INSN_SYSCALL;
	case OP_X86_SEG_MOV:	/* to ss opens a shadow too */
		return OP_R_INSN_SEG_MOV;
	case OP_X86_IF_CHANGING:
		return insn->opcode == 0xfb ? OP_R_INSN_STI : OP_R_NONE;
	case OP_X86_PRIVILEGED:
		return insn->map == OP_X86_MAP_ONE && insn->opcode == 0xf4 ?
		       OP_R_INSN_HLT : OP_R_NONE;
	default:
		return OP_R_NONE;
	}
}

/* How the instruction runs: emulated in the handler, or from a slot. */
static void op_x86_classify(const struct op_x86_insn *insn, unsigned long addr,
			    struct op_arch_site *arch)
{
	arch->emulation = OP_X86_OUT_OF_LINE;
	switch (insn->cls) {
	case OP_X86_JMP:
		arch->emulation = OP_X86_EMU_JMP;
		break;
	case OP_X86_CALL:
		arch->emulation = OP_X86_EMU_CALL;
		break;
	case OP_X86_RET:
		arch->emulation = OP_X86_EMU_RET;
		break;
	case OP_X86_JCC:	/* 70-7f, 0f 80-8f: the condition in the low nibble */
		arch->emulation = OP_X86_EMU_JCC;
		arch->cc = insn->opcode & 0xf;
		break;
	default:
		break;
	}
	if (insn->has_rel && arch->emulation != OP_X86_OUT_OF_LINE)
		arch->target = addr + insn->len + insn->rel;
}

/* What the first bytes of @func are (decode.h). */
enum op_x86_head op_x86_head(unsigned long func)
{
	static const u8 endbr64[OP_X86_ENDBR_LEN] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const u8 sealed[OP_X86_ENDBR_LEN] = { 0x0f, 0x1f, 0x40, 0xd6 };
	u8 head[OP_X86_ENDBR_LEN];

	if (copy_from_kernel_nofault(head, (void *)func, sizeof(head)))
		return OP_X86_HEAD_UNREADABLE;
	if (!memcmp(head, endbr64, sizeof(head)))
		return OP_X86_HEAD_ENDBR;
	if (!memcmp(head, sealed, sizeof(head)))
		return OP_X86_HEAD_SEALED;
	return OP_X86_HEAD_OTHER;
}

/*
 * After @func's ENDBR64, or the nop the kernel seals one into at boot, as
 * the kernel's kprobes move a probe on "func + 0"
 * (arch_adjust_kprobe_addr()): indirect calls land on it, and where the
 * CPU enforces IBT an int3 or a jump there instead would fault them.
 */
unsigned long op_arch_local_entry(unsigned long func)
{
	switch (op_x86_head(func)) {
	case OP_X86_HEAD_ENDBR:
	case OP_X86_HEAD_SEALED:
		return func + OP_X86_ENDBR_LEN;
	default:
		return func;
	}
}

/* A function's ENDBR64 is where indirect calls land: past it. */
unsigned long op_arch_probe_addr(unsigned long addr)
{
	return op_arch_local_entry(addr);
}

/* Called with text_mutex held, so no text_poke_bp() int3 is in the way. */
static int op_x86_check_insn(unsigned long func, unsigned long end,
			     unsigned long addr, enum op_reason *reason)
{
	unsigned long pos = func;
	u8 buf[OP_X86_MAX_INSN_LEN];
	struct op_x86_insn insn;
	void *last;

	while (pos < addr) {
		if (op_x86_decode(pos, end, &insn, buf)) {
			*reason = OP_R_UNDECODABLE_BEFORE;
			return -EILSEQ;
		}
		/* bytes under an optimized kprobe's jmp cannot be decoded */
		if (buf[0] == JMP32_INSN_OPCODE && op_x86_kprobe_in(pos, pos + 1)) {
			*reason = OP_R_KPROBE_OPT_BEFORE;
			return -EBUSY;
		}
		pos += insn.len;
	}
	if (pos != addr) {
		*reason = OP_R_NOT_BOUNDARY;
		return -EILSEQ;
	}
	if (op_x86_decode(addr, end, &insn, buf)) {
		*reason = OP_R_UNDECODABLE;
		return -EINVAL;
	}
	last = (void *)addr + insn.len - 1;
	if (op_kcall(alternatives_text_reserved)((void *)addr, last)) {
		*reason = OP_R_ALTERNATIVE_THERE;
		return -EBUSY;
	}
	if (op_kcall(static_call_text_reserved)((void *)addr, last)) {
		*reason = OP_R_STATIC_CALL_THERE;
		return -EBUSY;
	}
	/* at an ftrace site the kernel's kprobe goes through ftrace too */
	if (!op_ftrace_site_at(addr) && op_x86_near_kprobe(addr, insn.len)) {
		*reason = OP_R_KPROBE_COVERS;
		return -EBUSY;
	}
	*reason = op_x86_refusal(&insn);
	return *reason ? -EINVAL : 0;
}

/**
 * op_x86_symbol_prefixed() - does the name of the symbol holding @addr
 * start with one of @prefixes?
 * @addr:	an address in kernel or module text
 * @prefixes:	NULL-terminated, each shorter than OP_X86_SYM_PREFIX_MAX
 *
 * One kallsyms lookup, and only the beginning of the name is formatted.
 */
bool op_x86_symbol_prefixed(unsigned long addr, const char * const *prefixes)
{
	char name[OP_X86_SYM_PREFIX_MAX];

	snprintf(name, sizeof(name), "%ps", (void *)addr);
	for (; *prefixes; prefixes++)
		if (str_has_prefix(name, *prefixes))
			return true;
	return false;
}

/*
 * Is the symbol at @func the padding before a function (6.2+ with
 * CONFIG_CALL_PADDING: __pfx_*, or __cfi_* with kCFI)?  Its nops are not
 * the function's code: call-depth tracking puts its accounting thunks
 * there and FineIBT its preamble, which callers then enter; and kallsyms
 * gives them a symbol of their own, so that the function itself is sized
 * without them.
 */
static bool op_x86_function_padding(unsigned long func)
{
	static const char * const padding[] = { "__pfx_", "__cfi_", NULL };

	return op_x86_symbol_prefixed(func, padding);
}

int op_arch_check_insn(unsigned long func, unsigned long size,
		       unsigned long addr, enum op_reason *reason)
{
	int ret;

	if (op_x86_function_padding(func)) {
		*reason = OP_R_FUNC_PADDING;
		return -EINVAL;
	}

	op_x86_text_lock();
	ret = op_x86_check_insn(func, func + size, addr, reason);
	op_x86_text_unlock();
	return ret;
}

int op_arch_insn_len(unsigned long func, unsigned long size,
		     unsigned long addr, enum op_reason *reason)
{
	u8 buf[OP_X86_MAX_INSN_LEN];
	struct op_x86_reader r;
	struct op_x86_insn insn;
	unsigned long pos;
	int ret = 0;

	op_x86_text_lock();
	op_x86_reader_init(&r, func + size);
	for (pos = func;; pos += insn.len) {
		if (op_x86_read_insn(&r, pos, &insn, buf)) {
			*reason = OP_R_UNDECODABLE;
			ret = -EILSEQ;
			break;
		}
		if (pos >= addr)
			break;
	}
	op_x86_text_unlock();
	if (!ret && pos != addr) {
		*reason = OP_R_NOT_BOUNDARY;
		ret = -EILSEQ;
	}
	return ret ?: insn.len;
}

/* A RIP-relative operand of a copy at @slot must reach what @addr's did. */
static int op_x86_fixup_riprel(const struct op_x86_insn *insn, unsigned long addr,
			       unsigned long slot, u8 *copy)
{
	s64 disp;
	s32 disp32;

	if (!insn->rip_relative)
		return 0;
	disp = (s64)insn->disp + (s64)(addr - slot);
	if (disp != (s32)disp)
		return -ERANGE;
	disp32 = disp;
	memcpy(copy + insn->disp_off, &disp32, sizeof(disp32));
	return 0;
}

/*
 * The first byte after the copy in a slot: the jmp back of a boosted copy,
 * or an int3 that returns to the handler for the post handlers.
 */
u8 op_x86_slot_exit(const struct op_site *site)
{
	return site->arch.boostable && !site->post && !site->noopt ?
	       JMP32_INSN_OPCODE : INT3_INSN_OPCODE;
}

void op_x86_set_bp_mode(struct op_site *site)
{
	site->bp_mode = op_x86_slot_exit(site) == JMP32_INSN_OPCODE ?
			OPTPROBE_MODE_BOOSTED : OPTPROBE_MODE_TRAP;
}

int op_arch_prepare(struct op_site *site)
{
	struct op_arch_site *arch = &site->arch;
	u8 copy[OP_X86_MAX_INSN_LEN + JMP32_INSN_SIZE];
	unsigned long slot;
	struct op_x86_insn insn;
	int ret;

	site->bp_mode = OPTPROBE_MODE_TRAP;
	ret = op_x86_decode(site->addr, site->addr + OP_X86_MAX_INSN_LEN, &insn, arch->insn);
	if (ret) {
		site->reason = OP_R_UNDECODABLE;
		return -EINVAL;
	}
	arch->len = insn.len;
	op_x86_classify(&insn, site->addr, arch);
	if (arch->emulation != OP_X86_OUT_OF_LINE)
		return 0;

	ret = op_slot_alloc(site, &site->slot, OP_ARCH_SLOT_SIZE, true);
	if (ret)
		return ret;
	slot = (unsigned long)site->slot;
	memcpy(copy, arch->insn, arch->len);
	if (op_x86_fixup_riprel(&insn, site->addr, slot, copy)) {
		site->reason = OP_R_RIPREL_SLOT;
		return -EINVAL;
	}
	arch->boostable = op_boost_enabled() && op_x86_insn_can_boost(&insn);
	__text_gen_insn(copy + arch->len, JMP32_INSN_OPCODE, (void *)slot + arch->len,
			(void *)site->addr + arch->len, JMP32_INSN_SIZE);
	copy[arch->len] = op_x86_slot_exit(site);
	op_arch_slot_write(site->slot, copy, arch->len + JMP32_INSN_SIZE);
	op_x86_set_bp_mode(site);
	return 0;
}
