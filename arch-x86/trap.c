// SPDX-License-Identifier: GPL-2.0
/*
 * The x86_64 breakpoint: an int3 on the probed instruction.
 *
 * The kernel's int3 handler (in NMI-like context) offers a kernel-mode
 * int3 to its text-poke and kprobes handlers, then to the die notifier
 * chain as DIE_INT3, where optprobe takes it.  regs->ip is then just past
 * the int3.  Two int3s are ours:
 *
 *   site->addr	  the probe: run the pre handlers with ip = the probed
 *		  address, then emulate the instruction (relative jmp, jcc,
 *		  call, ret) and run the post handlers, or send the CPU to
 *		  the slot holding a copy of it;
 *   slot + len	  the int3 after the copy: the instruction ran; resume after
 *		  the original and run the post handlers.
 *
 * Nothing is kept per CPU between the two: the slot names its site, so a
 * task may be preempted or migrate while it runs the copy.  A breakpoint
 * removed while a CPU was trapping on it is retried by the kernel's own
 * kprobes handler, which finds the original instruction back in place.
 */
#include <linux/irqflags.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/notifier.h>
#include <asm/text-patching.h>

#include "arch.h"
#include "entries.h"
#include "jump-labels.h"
#include "trap.h"

/* Emulate the probed instruction (not OP_X86_OUT_OF_LINE), then the post handlers. */
static __always_inline void op_x86_emulate(struct op_site *site, struct pt_regs *regs)
{
	const struct op_arch_site *arch = &site->arch;
	unsigned long next = site->addr + arch->len;

	switch (arch->emulation) {
	case OP_X86_EMU_JMP:
		int3_emulate_jmp(regs, arch->target);
		break;
	case OP_X86_EMU_JCC:
		int3_emulate_jcc(regs, arch->cc, next, arch->target - next);
		break;
	case OP_X86_EMU_CALL:
		/* the int3 entry code leaves a gap below the stack for this push */
		int3_emulate_push(regs, next);
		int3_emulate_jmp(regs, arch->target);
		break;
	case OP_X86_EMU_RET:
		int3_emulate_ret(regs);
		break;
	}
	op_dispatch_post(site, regs);
}

static int notrace op_x86_int3(struct notifier_block *nb, unsigned long val, void *data)
{
	struct pt_regs *regs = ((struct die_args *)data)->regs;
	unsigned long addr = regs->ip - INT3_INSN_SIZE;
	struct op_site *site;

	if (val != DIE_INT3 || user_mode(regs))
		return NOTIFY_DONE;

	site = op_site_lookup(addr);
	if (site && !site->ftrace && READ_ONCE(site->arch.to_detour)) {
		/* prepared for its jump, not yet patched: the detour does the rest */
		regs->ip = (unsigned long)site->detour;
		return op_dispatch_bp_taken();
	}
	if (site && !site->ftrace) {
		regs->ip = addr;
		if (op_dispatch_pre(site, regs))
			return op_dispatch_bp_taken();
		/* on to the copy in the slot, or emulated here */
		if (likely(site->arch.emulation == OP_X86_OUT_OF_LINE))
			regs->ip = (unsigned long)site->slot;
		else
			op_x86_emulate(site, regs);
		return op_dispatch_bp_taken();
	}

	site = op_slot_owner(addr);
	if (site && addr == (unsigned long)site->slot + site->arch.len) {
		regs->ip = site->addr + site->arch.len;
		op_dispatch_post(site, regs);
		return op_dispatch_bp_taken();
	}

	/*
	 * Until op_arch_commit() syncs every CPU, one may still trap on an
	 * int3 that disarming removed, its site unhashed meanwhile: retry
	 * the original instruction rather than pass the trap on.  Not
	 * counted: nothing tells this int3 from another patcher's, which
	 * the kernel's own handlers declined for the same reason.
	 */
	if (*(u8 *)addr != INT3_INSN_OPCODE) {
		regs->ip = addr;
		return NOTIFY_STOP;
	}
	return NOTIFY_DONE;
}

NOKPROBE_SYMBOL(op_x86_int3);

/*
 * The C halves of the detour's calls (tramp.S).  @regs is saved as the
 * int3 path saves it; its ip is pushed by the detour's head, set by
 * op_x86_detour_post() for the post handlers.  Whether the detour
 * may be freed meanwhile: no, a task inside it holds off the tasks-RCU
 * grace period that precedes freeing.
 */

/*
 * Resume at @ip with the registers in @regs: tramp.S loads regs->sp and
 * returns through the word there.  A handler may move sp up (to return
 * from the function, say), not down into the saved registers below @sp:
 * such a move is not honoured here.
 */
static void op_x86_detour_resume(struct pt_regs *regs, unsigned long sp, unsigned long ip)
{
	if (regs->sp < sp)
		regs->sp = sp;
	regs->sp -= sizeof(unsigned long);
	*(unsigned long *)regs->sp = ip;
}

/* Called by op_x86_detour_redirect: resume where a pre handler redirected. */
void notrace op_x86_detour_leave(struct pt_regs *regs)
{
	op_x86_detour_resume(regs, (unsigned long)(regs + 1), regs->ip);
}

NOKPROBE_SYMBOL(op_x86_detour_leave);

/*
 * A detour masks interrupts before it calls into C, and its popfq unmasks
 * them as the probed code had them (tramp.S): tell the irq-flags tracing
 * (lockdep), as local_irq_save() and local_irq_restore() would.  Nothing
 * to do on a kernel without it.
 */
static __always_inline void op_x86_detour_irqs_off(const struct pt_regs *regs)
{
	if (!raw_irqs_disabled_flags(regs->flags))
		trace_hardirqs_off();
}

static __always_inline void op_x86_detour_irqs_restore(const struct pt_regs *regs)
{
	if (!raw_irqs_disabled_flags(regs->flags))
		trace_hardirqs_on();
}

static int op_x86_detour_pre_unwatched(struct op_site *site, struct pt_regs *regs);
static void op_x86_detour_post_unwatched(struct pt_regs *regs);

/*
 * Called by the detour's head, interrupts masked: the pre handlers.
 * Every hit runs this, so it keeps nothing across the handlers' calls
 * (one call, with one probe on the site); the detour's tail tests what it
 * returns.
 *
 * Return: nonzero if a pre handler moved ip (op_dispatch_pre()).
 */
int notrace op_x86_detour_pre(struct op_site *site, struct pt_regs *regs)
{
	int redirected;

	if (unlikely(!op_rcu_watching()))
		return op_x86_detour_pre_unwatched(site, regs);
	op_x86_detour_irqs_off(regs);
	redirected = op_dispatch_pre(site, regs);
	op_x86_detour_irqs_restore(regs);
	return redirected;
}

NOKPROBE_SYMBOL(op_x86_detour_pre);

/* op_x86_detour_pre() where RCU is not watching (dispatch.h) */
static noinline int notrace
op_x86_detour_pre_unwatched(struct op_site *site, struct pt_regs *regs)
{
	unsigned long flags = op_dispatch_rcu_enter();
	int redirected = op_x86_detour_pre(site, regs);

	op_dispatch_rcu_exit(flags);
	return redirected;
}

NOKPROBE_SYMBOL(op_x86_detour_pre_unwatched);

/* After the copy of the probed instruction, interrupts masked: the post handlers. */
void notrace op_x86_detour_post(struct pt_regs *regs)
{
	/* the call's return address, into the detour, is just below sp */
	unsigned long sp = regs->sp, from = *(unsigned long *)(sp - sizeof(unsigned long));
	struct op_site *site;

	if (unlikely(!op_rcu_watching())) {
		op_x86_detour_post_unwatched(regs);
		return;
	}
	op_x86_detour_irqs_off(regs);
	site = op_slot_owner(from - CALL_INSN_SIZE);
	regs->ip = site->addr + site->arch.len;
	op_dispatch_post(site, regs);
	op_x86_detour_resume(regs, sp, from);
	op_x86_detour_irqs_restore(regs);
}

NOKPROBE_SYMBOL(op_x86_detour_post);

/* op_x86_detour_post() where RCU is not watching (dispatch.h) */
static noinline void notrace op_x86_detour_post_unwatched(struct pt_regs *regs)
{
	unsigned long flags = op_dispatch_rcu_enter();

	op_x86_detour_post(regs);
	op_dispatch_rcu_exit(flags);
}

NOKPROBE_SYMBOL(op_x86_detour_post_unwatched);

/*
 * ftrace returns from its call at the site with every register from
 * @regs but sp, which it puts back to @sp, where the return address is.
 * A pre handler that returned from the function (ip to that address, sp
 * past it) gets it so: op_x86_ftrace_ret returns to regs->ip from @sp.
 * Other moves are not honoured: ftrace's own frame lies below @sp.
 * Either way regs->sp is @sp again for the ftrace_ops after optprobe's: a
 * return hook there (function graph, a kretprobe) hooks the word at it.
 */
void notrace op_arch_ftrace_sp(struct pt_regs *regs, unsigned long sp)
{
	unsigned long *ret = (unsigned long *)sp;

	if (regs->sp == sp + sizeof(unsigned long)) {
		if (*ret != regs->ip)
			*ret = regs->ip;
		regs->ip = (unsigned long)op_x86_ftrace_ret;
	}
	regs->sp = sp;
}

NOKPROBE_SYMBOL(op_arch_ftrace_sp);

/*
 * First in the chain but for the hardware-breakpoint notifier (registered
 * at boot with the same priority): whatever runs before it must be in the
 * blacklist.
 */
static struct notifier_block op_x86_int3_nb = {
	.notifier_call = op_x86_int3,
	.priority = INT_MAX,
};

const struct op_blacklist_entry op_arch_blacklist[] = {
	/* the die chain's notifiers that may run first (CONFIG_MMIOTRACE) */
	{ "kmmio_die_notifier", NULL, true },
	/* trampolines that static_call_update() rewrites */
	{ "__static_call_text_start", "__static_call_text_end", false },
	/* call sites inside ftrace's trampolines that ftrace rewrites */
	{ "ftrace_caller", "ftrace_caller_end", false },
	{ "ftrace_regs_caller", "ftrace_regs_caller_end", false },
};

static_assert(ARRAY_SIZE(op_arch_blacklist) <= OP_ARCH_BLACKLIST_MAX);
const unsigned int op_arch_blacklist_count = ARRAY_SIZE(op_arch_blacklist);

void op_arch_debugfs(struct dentry *dir)
{
	op_x86_entries_debugfs(dir);
}

int __init op_arch_init(void)
{
	int ret;

	ret = op_x86_jump_labels_init();
	if (ret)
		return ret;
	ret = op_x86_entries_init();
	if (ret)
		goto labels;
	ret = register_die_notifier(&op_x86_int3_nb);
	if (!ret)
		return 0;
	op_x86_entries_exit();
labels:
	op_x86_jump_labels_exit();
	return ret;
}

void op_arch_exit(void)
{
	unregister_die_notifier(&op_x86_int3_nb);
	op_x86_entries_exit();
	op_x86_jump_labels_exit();
}
