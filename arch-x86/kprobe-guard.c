// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's kprobes, kept from misreading optprobe's text.
 *
 * Where a kernel kprobe may go, its can_probe() decides by decoding the
 * function from its start, reading through the kernel's own breakpoints
 * and ftrace's calls but not through optprobe's: an int3 of optprobe's
 * reads as a one-byte instruction and the bytes after it as code, and
 * optprobe's jmp as a jmp followed by int3s.  A kprobe could then be
 * taken inside an instruction (the kernel writes its int3 there) and one
 * on a real boundary refused.  Whether it may jump-optimize a kprobe,
 * can_optimize() decides by walking the whole function the same way for
 * jumps into the bytes its jmp would replace; misread, the walk could
 * miss one, and optprobe's jmp hides the instructions of its region,
 * whose copies in the detour still jump where the originals did.
 *
 * So optprobe probes both functions (op_x86_guard_place()), with probes
 * of its own that stay armed when debugfs "enabled" disarms the others
 * (OP_F_OWN), and answers for them where its text is in the way, that is
 * where the live first byte of one of its sites (int3 or jmp) lies in the
 * part of the function they walk:
 *
 *  - can_probe(addr): whether @addr is a boundary of the original
 *    instructions, read as op_x86_read_insn() reads them (through
 *    optprobe's sites, the kernel's kprobes and their jmps), and on 6.12
 *    not an INT or UD instruction, as can_probe() checks there (with
 *    clang's CFI, no movl or addl either).  An address in the bytes of a
 *    site's live jmp is refused: the kernel would write its int3 into it.
 *  - can_optimize(addr): false; the kernel's kprobe stays a breakpoint.
 *
 * Elsewhere both run as they are, kgdb's breakpoint check included (a
 * function with a breakpoint of optprobe's and one of kgdb's is read as
 * if kgdb's were an instruction).  Both run from register_kprobe() with
 * kprobe_mutex held, which optprobe holds too whenever it changes text
 * (op_x86_text_lock()): the sites stay as read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <asm/ftrace.h>
#include <asm/text-patching.h>

#include <optprobe.h>

#include "arch.h"
#include "decode.h"
#include "ksyms.h"
#include "patch.h"
#include "wrap-can-probe.h"

#define OP_X86_SCAN_CHUNK	64

/* Is the live first byte of a site of optprobe's (not at ftrace's call) in [@from, @to)? */
static bool op_x86_sites_in(unsigned long from, unsigned long to)
{
	u8 buf[OP_X86_SCAN_CHUNK];
	struct op_site *site;
	unsigned long pos;
	size_t len, i;

	for (pos = from; pos < to; pos += len) {
		len = min_t(unsigned long, sizeof(buf), to - pos);
		if (copy_from_kernel_nofault(buf, (void *)pos, len))
			return true;	/* unreadable: treated as in the way */
		for (i = 0; i < len; i++) {
			if (buf[i] != INT3_INSN_OPCODE && buf[i] != JMP32_INSN_OPCODE)
				continue;
			site = op_site_lookup(pos + i);
			if (site && !site->ftrace)
				return true;
		}
	}
	return false;
}

/*
 * Is @addr past the first byte of the region a site's jmp replaces, with
 * the jmp in the text?  Its displacement bytes tell, whatever its first
 * byte is now: a kernel kprobe on the site keeps the jmp under its own
 * int3 (op_arch_detour_reached()), and a second kprobe inside would
 * write into the displacement.
 */
static bool op_x86_in_region(unsigned long addr)
{
	struct op_site *site;
	unsigned long a;
	s32 live, rel;

	for (a = addr - 1; a > addr - OP_X86_REGION_MAX; a--) {
		site = op_site_lookup(a);
		if (!site || !site->arch.rlen || site->ftrace || !site->detour ||
		    addr >= a + site->arch.rlen)
			continue;
		rel = (long)site->detour - (long)(a + JMP32_INSN_SIZE);
		if (!copy_from_kernel_nofault(&live, (void *)a + 1, sizeof(live)) && live == rel)
			return true;
	}
	return false;
}

/* can_probe()'s answer for @addr in the function [@func, @end), read through everything. */
static bool op_x86_kprobe_may_go(unsigned long func, unsigned long end, unsigned long addr)
{
	u8 buf[OP_X86_MAX_INSN_LEN];
	struct op_x86_reader r;
	struct op_x86_insn insn;
	unsigned long pos;

	if (op_x86_in_region(addr))
		return false;
	op_x86_reader_init(&r, end);
	for (pos = func; pos < addr; pos += insn.len)
		if (op_x86_read_insn(&r, pos, &insn, buf))
			return false;
	if (pos != addr)
		return false;
	if (!OP_KPROBES_REFUSE_INT_UD && !IS_ENABLED(CONFIG_CFI_CLANG))
		return true;
	if (op_x86_read_insn(&r, pos, &insn, buf))
		return false;
	/*
	 * The movl and addl that clang's CFI checks begin with, which the
	 * kernel decodes to tell the expected type: can_probe() refuses
	 * those of CFI checks, which it finds with a check that is not
	 * exported; all of them are refused here.
	 */
	if (IS_ENABLED(CONFIG_CFI_CLANG) && insn.map == OP_X86_MAP_ONE &&
	    (insn.opcode == 0xba || insn.opcode == 0x03))
		return false;
	return !OP_KPROBES_REFUSE_INT_UD ||
	       (insn.cls != OP_X86_INT3 && insn.cls != OP_X86_INT && insn.cls != OP_X86_UD);
}

/* Return @val from the function whose entry @regs are at. */
static int op_x86_return(struct pt_regs *regs, unsigned long val)
{
	regs->ax = val;
	instruction_pointer_set(regs, *(unsigned long *)regs->sp);
	regs->sp += sizeof(unsigned long);
	return 1;
}

/* static bool can_probe(unsigned long paddr) */
static int op_x86_can_probe(struct optprobe *p, struct pt_regs *regs)
{
	unsigned long addr = regs->di, size, offset;

	if (!op_kcall(kallsyms_lookup_size_offset)(addr, &size, &offset) ||
	    !op_x86_sites_in(addr - offset, addr))
		return 0;
	return op_x86_return(regs, op_x86_kprobe_may_go(addr - offset, addr - offset + size, addr));
}

/* static int can_optimize(unsigned long paddr) */
static int op_x86_can_optimize(struct optprobe *p, struct pt_regs *regs)
{
	unsigned long addr = regs->di, size, offset;

	if (!op_kcall(kallsyms_lookup_size_offset)(addr, &size, &offset) ||
	    !op_x86_sites_in(addr - offset, addr - offset + size))
		return 0;
	return op_x86_return(regs, 0);
}

static struct optprobe op_x86_can_probe_guard = {
	.symbol = "can_probe",
	.pre_handler = op_x86_can_probe,
	.flags = OP_F_OWN,
};

static struct optprobe op_x86_can_optimize_guard = {
	.symbol = "can_optimize",
	.pre_handler = op_x86_can_optimize,
	.flags = OP_F_OWN,
};

static struct optprobe *op_x86_guards[] = {
	&op_x86_can_probe_guard,
	&op_x86_can_optimize_guard,
};

/*
 * Each guard goes on the instruction after its function's fentry call,
 * where the argument and the return address are as at the entry, and not
 * on the call itself: ftrace's callbacks stop when ftrace is switched off
 * (sysctl kernel.ftrace_enabled), optprobe's breakpoints and jumps do not.
 */
static int op_x86_guard_place(struct optprobe *p)
{
	unsigned long func = op_kcall(kallsyms_lookup_name)(p->symbol), entry;

	if (!func) {
		pr_err("not loaded: no symbol %s\n", p->symbol);
		return -ENOENT;
	}
	entry = op_kcall(ftrace_location)(func);
	p->addr = (void *)(entry ? entry + MCOUNT_INSN_SIZE : func);
	p->symbol = NULL;
	return 0;
}

int op_arch_own_probes_register(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(op_x86_guards) && !ret; i++)
		ret = op_x86_guard_place(op_x86_guards[i]);
	if (!ret)
		ret = op_register_own(op_x86_guards, ARRAY_SIZE(op_x86_guards));
	if (ret)
		pr_err("not loaded: the kernel's can_probe() and can_optimize() must read through optprobe's breakpoints, and cannot be probed (%d)\n",
		       ret);
	return ret;
}

void op_arch_own_probes_unregister(void)
{
	optprobe_unregister_many(op_x86_guards, ARRAY_SIZE(op_x86_guards));
}
