/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between optprobe's core and an arch backend (arch-x86/,
 * arch-powerpc/).
 *
 * The core owns policy: which addresses may be probed, which probes share
 * a site, when a site is armed, grace periods, slots' lifetime.  The
 * backend owns instruction bytes: decoding, what a slot holds, the trap
 * handler, writing text.  The core never reads instruction bytes; the
 * backend never decides whether a probe should be armed.
 *
 * Unless noted, the core calls the backend in process context with
 * op_mutex held.
 *
 * A backend is a directory arch-$(SRCARCH)/ with these files, the only
 * ones of it that the core includes or builds by name:
 *
 *   Kbuild.inc       optprobe-arch-y: its objects.
 *   site-arch.h      (through site.h) OP_ARCH_SLOT_SIZE, OP_ARCH_OPT_SPAN,
 *                    OP_ARCH_MOVES_FUNC_START (op_arch_probe_addr()) and
 *                    struct op_arch_site, what a site keeps for it.
 *   ksyms-arch.h     (through ksyms.h) struct op_arch_ksyms: the kernel
 *                    data it resolves; its ksyms.c defines
 *                    op_arch_ksym_table[] and op_arch_ksym_count.
 *   kcalls-arch.h    (through kcalls.h, no include guard) one OP_KCALL()
 *                    per kernel function it calls.
 *   reasons-arch.h   (through reason-list.h, no include guard) one
 *                    OP_REASON() per reason of its own (reasons.h).
 *   ret-arch.h       (through retprobe.h) OP_ARCH_RET_ASIDE, struct
 *                    op_arch_ret and struct op_arch_ret_inst.
 *   ret-hit.h        (through retprobe.h, after its types) the return
 *                    probes' hit path, below.
 *   exports-arch.h   (through exports.h) what it exports for its tests.
 *
 * and defines every op_arch_*() declared here.  Everything else a backend
 * declares is its own, in headers named after the file that defines it
 * (decode.h for decode.c, ...) and in its wrappers (wrap-*.h), which no
 * file of the core includes (make lint checks).  The promises those
 * headers make are checked where the core includes them (the
 * static_assert()s here and in retprobe.h).
 */
#ifndef OPTPROBE_ARCH_H
#define OPTPROBE_ARCH_H

#include <linux/build_bug.h>
#include <linux/types.h>

#include "dispatch.h"

/* Load and unload: hook and unhook the breakpoint trap. */
int op_arch_init(void);
void op_arch_exit(void);

/*
 * Once the core takes probes, and before it stops taking them: the
 * backend's own probes, through the public API (x86_64: kprobe-guard.c),
 * with OP_F_OWN among their flags: they stay armed while debugfs
 * "enabled" disarms every other probe, since they guard the others' text.
 */
int op_arch_own_probes_register(void);
void op_arch_own_probes_unregister(void);

#define OP_F_OWN	0x80000000u
/*
 * A marker probe's hook (core/marker-probes.c): its site is a marker's
 * nop, one instruction, jump-optimized at once (core/optimizer.c), where
 * the backend need not decide anything about the function around it.
 */
#define OP_F_MARKER	0x40000000u

struct optprobe;

/*
 * Register probes whose flags hold the two above, all or none: the public
 * API refuses them (-EINVAL), so that no other module can have them.
 */
int op_register_own(struct optprobe **ps, unsigned int n);

struct dentry;

/* The backend's own files in optprobe's debugfs directory @dir, if any. */
void op_arch_debugfs(struct dentry *dir);

struct mutex;

/**
 * op_arch_event_mutex() - the kernel's event_mutex, found without kallsyms
 *
 * event_mutex is a data symbol, in kallsyms only with KALLSYMS_ALL.  Where
 * kallsyms does not give it, the backend may find it another way
 * (powerpc64le: from the code of two kernel functions that lock it and
 * nothing else, which must agree); one that cannot returns NULL.  Process
 * context; may sleep.
 *
 * Return: the kernel's event_mutex, or NULL.
 */
struct mutex *op_arch_event_mutex(void);

/*
 * Ranges of text the backend adds to optprobe's blacklist (see
 * core/blacklist.c): arch code on the hit path before the recursion guard,
 * and text other users rewrite.  At most OP_ARCH_BLACKLIST_MAX entries.
 */
struct op_blacklist_entry {
	const char *start;	/* symbol */
	const char *end;	/* symbol ending the range, or NULL: the function */
	bool optional;		/* absent when a kernel feature is configured out */
};

#define OP_ARCH_BLACKLIST_MAX	8
extern const struct op_blacklist_entry op_arch_blacklist[];
extern const unsigned int op_arch_blacklist_count;

/*
 * op_arch_local_entry() - where @func's body starts for a probe on
 * "@func + 0" when the function has no ftrace site: after its ENDBR64 on
 * x86 (where indirect calls land), the ELFv2 local entry point on ppc64le.
 */
unsigned long op_arch_local_entry(unsigned long func);

/*
 * op_arch_probe_addr() - where a probe asked for by the address of a
 * function's start (@addr) goes, as the kernel's arch_adjust_kprobe_addr()
 * puts its kprobes: after an
 * ENDBR64 on x86 (indirect branches land on it), @addr itself on ppc64le
 * (a probe on a global entry stays there).  OP_ARCH_MOVES_FUNC_START is
 * 0 where it never moves one: the core then need not ask kallsyms whether
 * an address is a function's start.
 */
unsigned long op_arch_probe_addr(unsigned long addr);

/*
 * op_arch_check_insn() - may @addr, inside the function [@func, @func +
 * @size), be probed?  Decodes from @func (reading past other probes'
 * breakpoints to the original bytes) and checks what the backend knows
 * about: -EILSEQ if @addr is not an instruction boundary, -EBUSY if an
 * arch-specific text user owns it (alternatives, static calls), -EINVAL
 * if the instruction can never be probed, with @reason set.
 */
int op_arch_check_insn(unsigned long func, unsigned long size,
		       unsigned long addr, enum op_reason *reason);

/*
 * op_arch_insn_len() - the length of the original instruction at @addr,
 * inside the function [@func, @func + @size), decoded as
 * op_arch_check_insn() decodes; -EILSEQ with @reason if @addr is not an
 * instruction boundary or the text there cannot be decoded.
 */
int op_arch_insn_len(unsigned long func, unsigned long size,
		     unsigned long addr, enum op_reason *reason);

/*
 * op_arch_jump_label_in() - does the instruction of a jump label (static
 * key) overlap [@first, @last]?  What jump_label_text_reserved() answers,
 * at a cost fit for batches of thousands of probes.
 */
bool op_arch_jump_label_in(unsigned long first, unsigned long last);

/*
 * op_arch_prepare() - set up @site->arch for a breakpoint on site->addr:
 * copy the original instruction, choose emulation or out-of-line
 * execution, and for the latter fill a slot (op_slot_alloc()), or, on
 * powerpc, a detour stub whose copy serves as well.  Sets
 * site->bp_mode: BOOSTED if the copy returns with a jump, which it may
 * when op_boost_enabled(), no post handler needs a trap after it
 * (site->post) and no probe forbids it (site->noopt); else TRAP.  Returns
 * 0 or a negative errno with site->reason set.  The site is not armed yet.
 */
int op_arch_prepare(struct op_site *site);

/* The core's boost and optimize switches (debugfs), for op_arch_prepare(). */
bool op_boost_enabled(void);
bool op_optimize_enabled(void);

/*
 * op_arch_site_flags() - site->post or site->noopt changed: make the
 * breakpoint path (and a detour) run post handlers or stop running them,
 * boost or stop boosting; update site->bp_mode.
 */
void op_arch_site_flags(struct op_site *site);

/*
 * op_arch_ftrace_sp() - a pre handler at an ftrace site redirected and
 * moved the stack pointer from @sp, which ftrace's return puts back (it
 * restores the other registers from @regs): where the arch can, make
 * execution resume at regs' instruction pointer with regs' stack pointer
 * instead.  Returns with the stack pointer in @regs back at @sp, for the
 * ftrace_ops called after optprobe's (a return hook reads it).
 */
void op_arch_ftrace_sp(struct pt_regs *regs, unsigned long sp);

/*
 * op_arch_arm() / op_arch_disarm() - write the breakpoint at site->addr
 * (the jump, where site->arm_jump says op_arch_jump_ready() prepared it)
 * / put the original instruction back, at every site of @sites (linked by
 * ->link) in one batch: the kernel's text lock taken once.  Arming
 * checks again, under that lock, that the original instruction is still
 * there and that no kernel kprobe has appeared over it since
 * op_arch_check_insn(): a site where either fails is moved to @failed,
 * nothing written there.  Disarming never writes over a kernel kprobe's
 * breakpoint: one there took the original instruction before optprobe's
 * breakpoint was written, and puts it back itself.
 *
 * op_arch_commit() - make every write since the last commit seen by every
 * CPU.  The core calls it before releasing op_mutex after an operation
 * (op_unlock()), so that what makes writes visible everywhere (a sync of
 * all CPUs, a wait) is paid once per operation, not once per probe; until
 * then, a CPU may run the old or the new text at any site written.
 */
void op_arch_arm(struct list_head *sites, struct list_head *failed);
void op_arch_disarm(struct list_head *sites);
void op_arch_commit(void);

/*
 * Jump optimization, driven by core/optimizer.c.  All called on armed
 * breakpoint sites, linked through ->link where a list is passed.
 *
 * op_arch_opt_prepare() - may the breakpoint at site->addr become a jump
 * to a detour?  If so, write the detour (op_slot_alloc(..., &site->detour,
 * ...)) and have the breakpoint handler send hits to it from now on.  If
 * not, set site->reason and return -EAGAIN when a later attempt may
 * succeed (another probe or a kernel kprobe in the way), another negative
 * errno when it cannot.
 *
 * op_arch_opt_at_once() - after op_arch_opt_prepare(): does the jump
 * replace the probed instruction alone?  Then no task can be inside the
 * bytes it replaces, and it may be patched without a grace period first.
 *
 * op_arch_opt_unprepare() - the breakpoint handler stops using the detour.
 *
 * op_arch_optimize() - replace the breakpoints of prepared @sites by jumps
 * to their detours, in one batch.  The caller guarantees that no task is
 * inside the bytes replaced.  A site whose text changed meanwhile is moved
 * to @failed with site->reason set and stays a breakpoint.
 *
 * op_arch_unoptimize() - put the breakpoints of optimized @sites back, in
 * one batch, or the original instruction where site->unopt_disarm says
 * so (op_arch_disarm() in the same batch).  Their detours stay valid for
 * tasks still inside, and the breakpoint handler sends hits to them until
 * op_arch_opt_unprepare(), which follows.  Under the
 * kernel's text lock, it first looks for kernel kprobes in each site's
 * whole patched region: a site with one there keeps its jump (the
 * kprobe saved it as the instruction it displaced, and writes it back
 * when it goes) and is moved to @held.
 *
 * op_arch_detour_reached() - does a kernel kprobe at site->addr hold a
 * copy of the site's jump, taken out meanwhile, as the instruction it
 * displaced?  It would write it back when it goes: the detour must stay.
 * Asked before a site's detour is freed; the kernel reads a new kprobe's
 * instruction before it can be found, so a look before the jump was taken
 * out cannot rule this out where the kernel's kprobe lock is not
 * reachable.
 *
 * op_arch_opt_covers() - is @addr inside the bytes that @site's jump
 * replaces (other than site->addr)?  The core looks for such sites at most
 * OP_OPT_SPAN - 1 bytes before @addr.
 *
 * op_arch_opt_blocked() - why what @site's probes now ask (site->post)
 * keeps its detour from serving them, or NULL.  The core does not queue
 * such a site, and unoptimizes it if it was optimized.
 *
 * op_arch_jump_ready() - may a disarmed @site be armed with its jump
 * straight away?  Where its detour is written already and the jump
 * replaces the probed instruction alone (op_arch_opt_at_once()): then it
 * is prepared as by op_arch_opt_prepare(), and op_arch_arm() writes the
 * jump where the original is, one text write instead of two, the
 * breakpoint and then the jump.  -EAGAIN, nothing changed, for a site
 * that is not one, another errno as op_arch_opt_prepare()'s.
 */
int op_arch_opt_prepare(struct op_site *site);
bool op_arch_opt_at_once(const struct op_site *site);
void op_arch_opt_unprepare(struct op_site *site);
void op_arch_optimize(struct list_head *sites, struct list_head *failed);
void op_arch_unoptimize(struct list_head *sites, struct list_head *held);
bool op_arch_detour_reached(const struct op_site *site);
bool op_arch_opt_covers(const struct op_site *site, unsigned long addr);
enum op_reason op_arch_opt_blocked(const struct op_site *site);
int op_arch_jump_ready(struct op_site *site);

struct op_marker_loc;

/**
 * op_arch_marker_loc() - where a marker's argument is (markers.c)
 * @insn:	the instruction its record holds for it, never run
 *		(include/optprobe-marker.h), OPTPROBE_MARKER_LOC_SIZE bytes
 * @at:		@insn's address, for an operand relative to it
 * @loc:	filled in: base and index as register numbers (or
 *		OP_MLOC_NO_REG), scale, mem, off
 *
 * Return: 0, or -EINVAL for an instruction of no form the header writes.
 *
 * op_arch_marker_reg_offset() - where register @reg (as op_arch_marker_loc()
 * numbers it) is in struct pt_regs, in bytes.
 */
int op_arch_marker_loc(const u8 *insn, unsigned long at, struct op_marker_loc *loc);
int op_arch_marker_reg_offset(int reg);
/* op_arch_marker_nop() - is the header's nop at @addr? */
bool op_arch_marker_nop(unsigned long addr);

/* The most bytes a jump replaces: at least the probed instruction's first. */
#define OP_OPT_SPAN	OP_ARCH_OPT_SPAN
static_assert(OP_OPT_SPAN >= 1);

/*
 * Slot areas: executable memory that holds out-of-line copies of probed
 * instructions and detours, cut into OP_SLOT_SIZE slots.
 * op_arch_slot_area_alloc() returns one, in reach of @addr if @near
 * (op_arch_slot_reaches()), or NULL; its slots are the *@nslots from
 * *@slots on, which is OP_SLOT_SIZE-aligned.  @size (whole pages) is what
 * the core would like it to span; a backend whose areas must lie where
 * room is scarce may give less.  RW mappings are not
 * required: slots are written with op_arch_slot_write(), before anything
 * leads to them, through the kernel's own text patching or a writable
 * alias gone by op_arch_commit().  Freed (op_arch_slot_area_free()) only
 * after the grace period.
 */
void *op_arch_slot_area_alloc(unsigned long addr, bool near, size_t size, void **slots,
			      unsigned int *nslots);
bool op_arch_slot_reaches(const void *slot, unsigned long addr);
void op_arch_slot_area_free(void *area);
void op_arch_slot_write(void *dst, const void *src, size_t len);

/* Bytes per slot; a power of two dividing PAGE_SIZE. */
#define OP_SLOT_SIZE	OP_ARCH_SLOT_SIZE
static_assert(!(OP_SLOT_SIZE & (OP_SLOT_SIZE - 1)) && PAGE_SIZE % OP_SLOT_SIZE == 0);

struct op_ret;
struct op_ret_inst;
struct pt_regs;

/*
 * Return probes: the backend's return hook, called by core/retprobe.c
 * (types in retprobe.h).
 *
 * op_arch_ret_prepare() - set up @ret->arch with an empty pool.
 * op_arch_ret_add() - put a new instance into the pool (process context;
 *	the hit path may take from the pool meanwhile); -ENOMEM or -ENOSPC
 *	if the backend has no room for it, which the caller then frees.
 * op_arch_ret_add_now() - the same from a hit on the probe, which must not
 *	sleep (preemption disabled, interrupts maybe, never NMI), while
 *	op_arch_ret_add() and other hits' may run; an error where the
 *	backend has no room without sleeping.
 * op_arch_ret_release() - free the pool and every instance, every call
 *	having returned or its task exited (process context).
 * op_arch_ret_task_exit() - current is exiting: its instances will never
 *	see their return; call op_ret_abandoned() for each, once it is back
 *	in its pool or in the kernel's hands.
 *
 * The hit path's, in the backend's ret-hit.h (inline where the backend
 * can), run with preemption disabled, possibly in NMI:
 *
 * op_arch_ret_get() - take an instance from the pool, or NULL.
 * op_arch_ret_put() - give back an instance that was not hooked.
 * op_arch_ret_hook() - make the call whose entry @regs are return through
 *	the backend's trampoline with @inst.
 * op_arch_regs_irqs_on() - did the probed code run with interrupts
 *	enabled where @regs were saved, by a breakpoint or a jump?
 */
int op_arch_ret_prepare(struct op_ret *ret);
int op_arch_ret_add(struct op_ret *ret, struct op_ret_inst *inst);
int op_arch_ret_add_now(struct op_ret *ret, struct op_ret_inst *inst);
void op_arch_ret_release(struct op_ret *ret);
void op_arch_ret_task_exit(void);

#endif /* OPTPROBE_ARCH_H */
