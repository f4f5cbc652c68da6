// SPDX-License-Identifier: GPL-2.0
/*
 * Address validation: where a probe asks to be, and whether that address
 * may be probed at all.  Nothing here changes any state but a cache of
 * the last function asked about.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>

#include "arch.h"
#include "internal.h"
#include "ksyms.h"

/**
 * op_probe_address() - the address @p asks for
 * @p:		the probe
 * @addr:	the address, on success
 * @why:	the reason, on failure
 *
 * symbol + 0 is the function's entry: its ftrace site if it has one.  An
 * address is moved only at a function's start, where the arch says
 * indirect branches land on it (op_arch_probe_addr(): an x86 ENDBR64).
 *
 * Return: 0; -ENOENT for an unknown symbol, -EINVAL past its end.
 */
int op_probe_address(const struct optprobe *p, unsigned long *addr, enum op_reason *why)
{
	unsigned long func, size, offset;

	if (!p->symbol) {
		*addr = (unsigned long)p->addr + p->offset;
		/*
		 * where the kernel's kprobes move theirs: at a function's
		 * start; a lookup of module text walks its every symbol
		 */
		if (OP_ARCH_MOVES_FUNC_START &&
		    op_kcall(kallsyms_lookup_size_offset)(*addr, &size, &offset) && !offset)
			*addr = op_arch_probe_addr(*addr);
		return 0;
	}
	func = op_kcall(kallsyms_lookup_name)(p->symbol);
	if (!func) {
		*why = OP_R_UNKNOWN_SYMBOL;
		return -ENOENT;
	}
	if (p->offset) {
		if (!op_kcall(kallsyms_lookup_size_offset)(func, &size, &offset) ||
		    p->offset >= size - offset) {
			*why = OP_R_OFFSET_BEYOND;
			return -EINVAL;
		}
		*addr = func + p->offset;
		return 0;
	}
	*addr = op_func_entry(func);
	return 0;
}

/*
 * Text of the kernel or of a module, and not optprobe's own.  A module is
 * probed from its MODULE_STATE_COMING on (its init has not run yet), as
 * the kernel's kprobes allow, and its init text until its init is done
 * (core/module.c makes those probes GONE when the module goes live).
 * Both are checked under op_mutex, which the module notifier takes.
 */
static int op_check_text(unsigned long addr, struct module **mod, enum op_reason *why)
{
	int ret = 0;

	preempt_disable();
	*mod = op_kcall(__module_text_address)(addr);
	if (!*mod && !op_kcall(core_kernel_text)(addr)) {
		*why = OP_R_NOT_TEXT;
		ret = -EINVAL;
	} else if (*mod == THIS_MODULE) {
		*why = OP_R_OWN_TEXT;
		ret = -EINVAL;
	} else if (*mod && (*mod)->state != MODULE_STATE_LIVE &&
		   (*mod)->state != MODULE_STATE_COMING) {
		*why = OP_R_MODULE_GOING;
		ret = -EINVAL;
	} else if (*mod && within_module_init(addr, *mod) &&
		   (*mod)->state != MODULE_STATE_COMING) {
		*why = OP_R_INIT_DONE;
		ret = -EINVAL;
	}
	preempt_enable();
	return ret;
}

/*
 * The function that held the last address checked in this batch of
 * registrations, and whether the kernel's blacklist holds it.  A batch
 * that probes many instructions of one function (coverage, a function's
 * lines) asks kallsyms once for them all: in module text each question
 * walks every symbol of the module, twice a probe (the blacklist asks
 * for the symbol's name), 50 us of a probe's 68 on 6.1 for the bench's
 * 1,000 functions.  The kernel's blacklist holds whole symbols, and
 * sections of whole functions: its answer is the function's.  Forgotten
 * at each batch's start (op_check_forget()): between batches, a module
 * may go and another come at its address.  Not kept for a module still
 * coming, whose blacklist the kernel's kprobes may be adding meanwhile.
 */
static struct {
	unsigned long start, size;
	bool blacklisted;
} op_check_func;

void op_check_forget(void)
{
	lockdep_assert_held(&op_mutex);
	op_check_func.size = 0;
}

/*
 * The function that holds @addr, in @mod's text or the kernel's (false
 * if none), and the kernel's blacklist's word on @addr.
 */
static bool op_check_func_of(unsigned long addr, const struct module *mod, unsigned long *size,
			     unsigned long *offset, bool *blacklisted)
{
	lockdep_assert_held(&op_mutex);
	if (addr - op_check_func.start < op_check_func.size) {
		*size = op_check_func.size;
		*offset = addr - op_check_func.start;
		*blacklisted = op_check_func.blacklisted;
		return true;
	}
	*blacklisted = op_kcall(within_kprobe_blacklist)(addr);
	if (!op_kcall(kallsyms_lookup_size_offset)(addr, size, offset))
		return false;
	if (mod && mod->state != MODULE_STATE_LIVE)
		return true;
	op_check_func.start = addr - *offset;
	op_check_func.size = *size;
	op_check_func.blacklisted = *blacklisted;
	return true;
}

/**
 * op_check_address() - may @addr be probed, by a new site?
 * @addr:	the address
 * @mod:	set to the module holding it, NULL for kernel core text
 * @why:	the reason, on failure
 *
 * Return: 0, -EINVAL (never probed there), -EBUSY (another text user
 * owns it) or -EILSEQ (not an instruction boundary).
 */
int op_check_address(unsigned long addr, struct module **mod, enum op_reason *why)
{
	unsigned long size, offset;
	bool busy, blacklisted, func;
	struct kprobe *kp;
	int ret;

	ret = op_check_text(addr, mod, why);
	if (ret)
		return ret;
	func = op_check_func_of(addr, *mod, &size, &offset, &blacklisted);
	if (blacklisted) {
		*why = OP_R_KERNEL_BLACKLIST;
		return -EINVAL;
	}
	if (op_blacklisted(addr)) {
		*why = OP_R_OWN_BLACKLIST;
		return -EINVAL;
	}
	if (op_kcall(search_exception_tables)(addr)) {
		*why = OP_R_EXTABLE;
		return -EINVAL;
	}
	rcu_read_lock();
	kp = op_kcall(get_kprobe)((void *)addr);
	/*
	 * At an ftrace site both go through ftrace, each with its own ops:
	 * neither writes the text, so both can be there.
	 */
	busy = kp && !((kp->flags & KPROBE_FLAG_FTRACE) && op_ftrace_site_at(addr));
	rcu_read_unlock();
	if (busy) {
		*why = OP_R_KPROBE_THERE;
		return -EBUSY;
	}
	if (op_arch_jump_label_in(addr, addr)) {
		*why = OP_R_JUMP_LABEL_THERE;
		return -EBUSY;
	}
	if (!func) {
		*why = OP_R_NO_SYMBOL;
		return -EINVAL;
	}
	return op_arch_check_insn(addr - offset, size, addr, why);
}

/**
 * op_next_insn() - the address of the instruction after the one at @addr
 * @addr:	an instruction boundary in kernel or live module text
 * @next:	set to the next instruction's address
 * @why:	the reason, on failure
 *
 * Decoded as a probe's address is (op_arch_check_insn()): from the start
 * of the function, reading through breakpoints and jumps to the original
 * instructions.
 *
 * Return: 0, -EINVAL (not text optprobe could probe, or no symbol covers
 * it) or -EILSEQ (not an instruction boundary, or not decodable).
 */
int op_next_insn(unsigned long addr, unsigned long *next, enum op_reason *why)
{
	unsigned long size, offset;
	struct module *mod;
	int len;

	len = op_check_text(addr, &mod, why);
	if (len)
		return len;
	if (!op_kcall(kallsyms_lookup_size_offset)(addr, &size, &offset)) {
		*why = OP_R_NO_SYMBOL;
		return -EINVAL;
	}
	len = op_arch_insn_len(addr - offset, size, addr, why);
	if (len < 0)
		return len;
	*next = addr + len;
	return 0;
}
