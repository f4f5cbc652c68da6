// SPDX-License-Identifier: GPL-2.0
/*
 * The powerpc64le breakpoint: a "trap" word on the probed instruction.
 *
 * A trap in kernel mode raises a program check; program_check_exception()
 * offers it to the kernel's kprobes (kprobe_handler()), which declines a
 * "trap" where it has no kprobe, and then to the die notifier chain as
 * DIE_BPT, where optprobe takes it.  regs->nip is the trap's address, and
 * interrupts are soft-masked.  Two traps are ours:
 *
 *   site->addr	  the probe: run the pre handlers, then emulate the
 *		  instruction (emulate_step()) and run the post handlers, or
 *		  send the CPU to a copy of it, in the site's slot or stub;
 *   slot + len	  the trap after the copy: the instruction ran; resume after
 *		  the original and run the post handlers.  A stub's copy is
 *		  followed by its post switch, which is such a trap while
 *		  post handlers run, and else branches back.
 *
 * Nothing is kept per CPU between the two: the slot names its site, so an
 * interrupt may come, and probes may hit, while a CPU runs the copy.
 *
 * A site prepared for jump optimization sends its trap hits to its detour
 * (optimize.c), whose body (tramp.S) calls the C half below; two more
 * traps are ours: a stub's post switch while post handlers run, which
 * then works as the trap after a slot's copy, and op_ppc_detour_redirect,
 * which resumes where a handler in a detour moved the instruction pointer.
 *
 * A trap that another CPU removes while this one takes it is retried:
 * kprobe_handler() does so when it finds the original back in place, and
 * so does op_ppc_trap() for a site unhashed after kprobe_handler() looked.
 */
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/notifier.h>
#include <linux/uaccess.h>
#include <asm/inst.h>
#include <asm/kup.h>
#include <asm/probes.h>

#include "arch.h"
#include "core-cache.h"
#include "core-tail.h"
#include "jump-labels.h"
#include "ksyms.h"
#include "patch.h"
#include "trap.h"
#include "wrap-frame.h"

/* Where the instruction runs out of line: the slot's copy, or the stub's. */
static __always_inline unsigned long op_ppc_copy(const struct op_site *site)
{
	if (site->slot)
		return (unsigned long)site->slot;
	return (unsigned long)site->detour + OP_PPC_STUB_COPY;
}

/* Run the probed instruction: emulated here, or from its copy. */
static void notrace op_ppc_run(struct op_site *site, struct pt_regs *regs)
{
	/*
	 * emulate_step() may decline a load or store (a fault, MSR[FP] off
	 * for a floating-point one, ...) or an instruction it does not know;
	 * the copy runs it then.  A site without a copy holds an instruction
	 * it never declines (copy.c).  It never declines a branch that
	 * op_arch_check_insn() accepts, so a copy never branches away from
	 * what follows it: the trap after a slot's copy, or a stub's post
	 * switch.
	 */
	if (op_kcall(emulate_step)(regs, site->arch.insn) > 0)
		op_dispatch_post(site, regs);
	else
		regs_set_return_ip(regs, op_ppc_copy(site));
}

NOKPROBE_SYMBOL(op_ppc_run);

/*
 * The trap at op_ppc_detour_redirect: the trampoline's frame, with the
 * registers as the handlers left them, is the detour's, at the trapping
 * r1.  Return from the trap with those registers, r1 included: that drops
 * the detour's frame and resumes at their nip.  MSR stays as it is now.
 */
static void notrace op_ppc_detour_resume(struct pt_regs *regs)
{
	const struct pt_regs *saved = (void *)regs->gpr[1] + OP_PPC_FRAME_REGS;

	memcpy(regs->gpr, saved->gpr, sizeof(regs->gpr));
	regs->link = saved->link;
	regs->ctr = saved->ctr;
	regs->xer = saved->xer;
	regs->ccr = saved->ccr;
	regs_set_return_ip(regs, saved->nip);
}

NOKPROBE_SYMBOL(op_ppc_detour_resume);

/* A trap of optprobe's, or one it has just removed, with RCU watching. */
static int notrace op_ppc_trap_watched(struct pt_regs *regs)
{
	unsigned long addr = regs->nip;
	struct op_site *site;
	unsigned int len;
	u32 word;

	site = op_site_lookup(addr);
	if (site && !site->ftrace) {
		/* prepared for its jump, not yet patched: the detour does the rest */
		if (READ_ONCE(site->arch.to_detour))
			regs_set_return_ip(regs, (unsigned long)site->detour);
		else if (!op_dispatch_pre(site, regs))
			op_ppc_run(site, regs);
		return op_dispatch_bp_taken();
	}

	if (addr == (unsigned long)op_ppc_detour_redirect) {
		op_ppc_detour_resume(regs);
		return op_dispatch_bp_taken();
	}

	/* the trap after a slot's copy, or a stub's post switch */
	site = op_slot_owner(addr);
	if (site) {
		len = ppc_inst_len(site->arch.insn);
		if (addr != (unsigned long)site->slot + len &&
		    (!site->detour || addr != (unsigned long)site->detour + site->arch.post_switch))
			return NOTIFY_DONE;
		regs_set_return_ip(regs, site->addr + len);
		op_dispatch_post(site, regs);
		return op_dispatch_bp_taken();
	}

	/*
	 * A site is disarmed before it is unhashed, and patch_instruction()
	 * ends in a sync: a site gone since kprobe_handler() read the trap
	 * has its original back, and the CPU retries that.
	 */
	smp_rmb();
	if (get_kernel_nofault(word, (u32 *)addr) || is_trap(word))
		return NOTIFY_DONE;
	/* not counted: nothing tells it from a trap another patcher removed */
	return NOTIFY_STOP;
}

NOKPROBE_SYMBOL(op_ppc_trap_watched);

/*
 * A program check from idle leaves RCU as it was: where it does not
 * watch, make it watch (dispatch.h) before the site is even looked up.
 */
static int notrace op_ppc_trap(struct notifier_block *nb, unsigned long val, void *data)
{
	struct pt_regs *regs = ((struct die_args *)data)->regs;
	unsigned long flags;
	int ret;

	if (val != DIE_BPT || user_mode(regs))
		return NOTIFY_DONE;
	/* taken in real mode: no probe of optprobe's runs there (as kprobe_handler()) */
	if (!(regs->msr & MSR_IR) || !(regs->msr & MSR_DR))
		return NOTIFY_DONE;
	if (likely(op_rcu_watching()))
		return op_ppc_trap_watched(regs);
	flags = op_dispatch_rcu_enter();
	ret = op_ppc_trap_watched(regs);
	op_dispatch_rcu_exit(flags);
	return ret;
}

NOKPROBE_SYMBOL(op_ppc_trap);

/*
 * Handlers run with user access locked out, as from a trap, whose entry
 * saves the AMR and locks it (KUAP): the probed code may be inside a
 * user-access window (allow_user_access()), where a handler's stray
 * access to a user address must fault as it would anywhere else.  An
 * interrupt meanwhile saves and restores the locked value.
 */
static __always_inline unsigned long op_ppc_kuap_lock(void)
{
	unsigned long amr = get_kuap();

	if (amr != AMR_KUAP_BLOCKED)
		set_kuap(AMR_KUAP_BLOCKED);
	return amr;
}

static __always_inline void op_ppc_kuap_restore(unsigned long amr)
{
	if (amr != AMR_KUAP_BLOCKED)
		set_kuap(amr);
}

/*
 * The C half of the detours' body (tramp.S).  @regs is saved as the trap
 * path saves it but for nip, which is set here; @stub_site, the return
 * address into the stub, holds the site's address.  Preemption is
 * disabled only here; the rest of the detour runs as the probed code
 * would, with interrupts on.  Whether the detour may be freed meanwhile:
 * no.  On a kernel that cannot preempt tasks (Debian's ppc64le kernel is
 * PREEMPT_VOLUNTARY, without tasks-RCU), an interrupt returns to the task
 * inside the detour, which runs it to its end before it can be switched
 * out: it holds off the RCU grace period that precedes freeing.  Where
 * tasks can be preempted inside a detour only a tasks-RCU grace period
 * waits for them; op_quiesce() waits for one there, and optprobe does not
 * load without tasks-RCU (preempt-policy.h).
 *
 * The pre handlers run here, and may redirect; the post handlers from the
 * trap at the stub's post switch (op_ppc_trap()).
 */
int notrace op_ppc_detour_pre(struct pt_regs *regs, struct op_site **stub_site)
{
	unsigned long flags = 0, amr;
	struct op_site *site;
	bool watched;
	int redirect;

	preempt_disable_notrace();
	watched = op_rcu_watching();
	if (unlikely(!watched))
		flags = op_dispatch_rcu_enter();
	amr = op_ppc_kuap_lock();
	site = READ_ONCE(*stub_site);
	regs->nip = site->addr;
	redirect = op_dispatch_pre(site, regs);
	op_ppc_kuap_restore(amr);
	if (unlikely(!watched))
		op_dispatch_rcu_exit(flags);
	preempt_enable_notrace();
	return redirect;
}

NOKPROBE_SYMBOL(op_ppc_detour_pre);

/*
 * ftrace's return at a function's entry pops its own frame, so r1 stays
 * @sp whatever a pre handler left in regs: not honoured there.  (Returning
 * from the function at its entry needs no r1 move on powerpc: nip = link.)
 * r1 is put back in @regs for the ftrace_ops after optprobe's.
 */
void notrace op_arch_ftrace_sp(struct pt_regs *regs, unsigned long sp)
{
	regs->gpr[1] = sp;
}

NOKPROBE_SYMBOL(op_arch_ftrace_sp);

/*
 * First in the chain but for the notifiers registered at boot with the
 * same priority (hw_breakpoint's, kprobes' own), which the kernel's kprobe
 * blacklist covers.
 */
static struct notifier_block op_ppc_trap_nb = {
	.notifier_call = op_ppc_trap,
	.priority = INT_MAX,
};

/*
 * What every trap runs outside the kernel's kprobe blacklist before
 * op_ppc_trap() (or after it, on the way back): a probe there would trap
 * again before the recursion guard could notice, forever.
 */
const struct op_blacklist_entry op_arch_blacklist[] = {
	/*
	 * program_check_exception()'s entry and body; of the two local
	 * functions named interrupt_enter_prepare, it calls the first
	 */
	{ "interrupt_enter_prepare", NULL, false },
	{ "do_program_check", NULL, false },
	/* kprobe_handler() reads every trap that is not a kprobe's */
	{ "copy_from_kernel_nofault", NULL, false },
	{ "copy_from_kernel_nofault_allowed", NULL, false },
	/* the return from the program check */
	{ "interrupt_exit_kernel_prepare", NULL, false },
	{ "check_return_regs_valid", NULL, true },
	/*
	 * the kernel's detour area: its cache's slots and optprobe's chunks
	 * (core-tail.c), which are written back whole when they go
	 */
	{ "optinsn_slot", NULL, false },
};

static_assert(ARRAY_SIZE(op_arch_blacklist) <= OP_ARCH_BLACKLIST_MAX);
const unsigned int op_arch_blacklist_count = ARRAY_SIZE(op_arch_blacklist);

int __init op_arch_init(void)
{
	int ret;

	ret = op_ppc_jump_labels_init();
	if (ret)
		return ret;
	op_ppc_kprobe_lock_init();
	op_ppc_batch_init();
	op_ppc_core_cache_init();
	op_ppc_core_tail_init();
	ret = register_die_notifier(&op_ppc_trap_nb);
	if (!ret)
		return 0;
	op_ppc_core_tail_exit();
	op_ppc_jump_labels_exit();
	return ret;
}

void op_arch_exit(void)
{
	unregister_die_notifier(&op_ppc_trap_nb);
	op_ppc_core_tail_exit();
	op_ppc_jump_labels_exit();
}

/*
 * No probes of its own: instructions are words, so the kernel's kprobes
 * find every boundary whatever optprobe wrote over one.
 */
int op_arch_own_probes_register(void)
{
	return 0;
}

void op_arch_own_probes_unregister(void)
{
}
