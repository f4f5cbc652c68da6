/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe: jump-optimized dynamic probes for the Linux kernel.
 *
 * The only header probe modules include.  Build a probe module with
 * "make module M=/path/to/it" from the optprobe tree; it links against
 * optprobe.ko's exports.
 *
 * A probe is a struct optprobe naming an instruction in kernel or module
 * text and the handlers to run when that instruction is reached.  Every
 * probe starts as a breakpoint; optprobe upgrades it (boosting, jump
 * optimization, ftrace at function entry) where that is safe, and
 * optprobe_mode() and optprobe_reason() tell what it became and why.
 *
 * What handlers see, in every mode:
 *  - in a pre_handler, instruction_pointer(regs) is the probed address;
 *  - in a post_handler, it is the address of the instruction that runs
 *    next: the one after the probed instruction, or the branch target if
 *    the probed instruction branched;
 *  - at a function's entry (symbol + 0), the argument registers and the
 *    stack pointer are those of the call (x86_64: di, si, dx, ...; sp
 *    pointing at the return address.  ppc64le: gpr[3..], gpr[1], and the
 *    link register holding the return address);
 *  - a jump-optimized hit fills struct pt_regs as the breakpoint would;
 *    only fields that a real trap's entry sets may differ.  x86_64: ss
 *    (__KERNEL_DS from a detour, what int3 pushed from a trap).  ppc64le:
 *    msr (the detour's MSR with the program check's trap reason bit, not
 *    SRR1), and orig_gpr3, dar, dsisr, result, ppr, amr and iamr (0 from
 *    a detour);
 *  - x86_64: a stack trace taken in a handler goes on through the probed
 *    function to its callers, but in the pre handlers of a jump-optimized
 *    probe, where it ends at the detour (as in the kernel's own optimized
 *    kprobes).
 * Handlers run with preemption disabled, possibly in NMI context, and must
 * not sleep.  They run with RCU watching, also where the probed code runs
 * while RCU does not (idle code that is not noinstr): optprobe makes it
 * watch around them, as an NMI there would.  On x86_64 the handlers of
 * breakpoint and jump-optimized probes run with interrupts disabled, as
 * the kernel's int3 handler runs a kprobe's; they must not enable them.
 *
 * The kernel's own kprobes (perf probe, bpftrace, kprobe_events) go where
 * they would without optprobe.  On x86_64 the kernel decides whether an
 * address is an instruction boundary by decoding the function from its
 * start, which optprobe's breakpoints and jumps would mislead; optprobe
 * probes that decision (the kernel's can_probe()) and gives the answer
 * for the original instructions, and refuses an address inside the bytes
 * its jump replaced.  What remains different: the kernel does not
 * jump-optimize a kprobe in a function where optprobe has a breakpoint or
 * a jump (its can_optimize() walk would be misled the same way; the
 * kprobe stays a breakpoint), and a kgdb breakpoint in such a function is
 * read as an instruction.
 */
#ifndef _OPTPROBE_H
#define _OPTPROBE_H

#include <linux/list.h>
#include <linux/types.h>

struct optprobe;
struct optprobe_site;
struct pt_regs;

/**
 * typedef optprobe_pre_handler_t - runs before the probed instruction
 * @p:		the probe that was hit
 * @regs:	the registers at the probed instruction
 *
 * Return: 0 to let the probed instruction run; 1 if the handler set the
 * instruction pointer in @regs (instruction_pointer_set()) and execution
 * must resume there instead, with all other registers as the handler left
 * them.  At a function's entry, redirecting to another function with the
 * same prototype overrides the function; setting it to the return
 * address (and on x86_64 the stack pointer past it) with the return value
 * set returns from the function.  When a pre_handler returns 1, the
 * probed instruction does not run, and no post_handler and no later
 * pre_handler on the same address is called for that hit.
 *
 * A pre handler may move the stack pointer up (past words the probed
 * code no longer needs), never down: optprobe's saved registers may lie
 * below it.  The move is honoured in every mode but one: at a function's
 * entry (ftrace mode) ftrace puts the stack pointer back, except, on
 * x86_64, a redirect to the word at the stack pointer with the stack
 * pointer past it (a return from the function).
 */
typedef int (*optprobe_pre_handler_t)(struct optprobe *p, struct pt_regs *regs);

/**
 * typedef optprobe_post_handler_t - runs after the probed instruction
 * @p:		the probe that was hit
 * @regs:	the registers after the probed instruction ran
 *
 * Changes the handler makes to @regs are kept, in every mode, but for the
 * instruction pointer: execution always goes on at the instruction that
 * was to run next (a jump-optimized probe's detour could not go
 * elsewhere, so no mode does).  To change where execution goes, use a
 * pre_handler.
 */
typedef void (*optprobe_post_handler_t)(struct optprobe *p, struct pt_regs *regs);

/**
 * enum optprobe_mode - how a probe is armed
 * @OPTPROBE_MODE_TRAP:	breakpoint; the probed instruction is run out of
 *			line or emulated
 * @OPTPROBE_MODE_BOOSTED: breakpoint; the copied instruction is followed by
 *			a jump back, so there is no second trap
 * @OPTPROBE_MODE_OPTIMIZED: jump or branch to a detour; no trap at all
 * @OPTPROBE_MODE_FTRACE: a function-entry site driven through ftrace
 * @OPTPROBE_MODE_DISABLED: registered but disarmed (optprobe_disable(), or
 *			everything disarmed through debugfs)
 * @OPTPROBE_MODE_GONE:	the module holding the probed address was unloaded;
 *			the probe never fires again
 * @OPTPROBE_MODE_PENDING: a marker probe waiting for its module to load
 */
enum optprobe_mode {
	OPTPROBE_MODE_TRAP,
	OPTPROBE_MODE_BOOSTED,
	OPTPROBE_MODE_OPTIMIZED,
	OPTPROBE_MODE_FTRACE,
	OPTPROBE_MODE_DISABLED,
	OPTPROBE_MODE_GONE,
	OPTPROBE_MODE_PENDING,
};

/* Register disarmed; optprobe_enable() arms it. */
#define OPTPROBE_F_DISABLED	0x1
/* Never jump-optimize or boost this probe. */
#define OPTPROBE_F_NOOPT	0x2
/*
 * No pr_warn line when registering or unregistering the probe fails: the
 * caller reports it itself (an interface that takes thousands of probes
 * at once, with an error log of its own).
 */
#define OPTPROBE_F_QUIET	0x4

/**
 * struct optprobe - a probe
 * @symbol:	symbol to probe, or NULL to use @addr
 * @offset:	byte offset from @symbol (or from @addr)
 * @addr:	in: the address when @symbol is NULL; out: the probed address,
 *		while registered (optprobe_unregister() puts back what the
 *		caller gave, so the probe can be registered again as it was;
 *		an address moved past an ENDBR64 comes back moved, which
 *		probes the same place)
 * @pre_handler: runs before the probed instruction; may be NULL
 * @post_handler: runs after it; may be NULL, but not both handlers
 * @flags:	OPTPROBE_F_*
 * @nmissed:	hits whose handlers were skipped because an optprobe handler
 *		was already running on that CPU
 * @list:	private: in the site's probes, in registration order
 * @site:	private: the probed site; NULL while not registered
 * @nhit:	private: hits whose handlers ran, per CPU
 * @missed:	private: where its misses count: @nmissed, or the return
 *		probe's whose entry it is
 * @disabled:	private: disarmed by optprobe_disable()
 *
 * Callers zero-initialise the struct and fill in the fields before @list.
 * @symbol + 0 is the function's entry, as with the kernel's kprobes: the
 * fentry site on x86_64, the mprofile-kernel ftrace site past the global
 * entry's TOC setup on ppc64le.  Without an ftrace site: after the
 * ENDBR64 on x86_64 (indirect calls land on it), the local entry point on
 * ppc64le.  @addr is then set to the address chosen.  A function's own
 * address, given as @addr, goes after its ENDBR64 too, as with the
 * kernel's kprobes; on ppc64le it stays where it is.
 */
struct optprobe {
	const char *symbol;
	unsigned int offset;
	void *addr;
	optprobe_pre_handler_t pre_handler;
	optprobe_post_handler_t post_handler;
	unsigned int flags;
	unsigned long nmissed;
	/* private to optprobe from here on; callers zero-initialise the struct */
	struct list_head list;
	struct optprobe_site *site;
	unsigned long __percpu *nhit;
	unsigned long *missed;
	bool disabled;
};

/**
 * optprobe_register() - arm a probe
 * @p:	the probe, zero-initialised apart from its public fields
 *
 * After optprobe_register() returns 0, @p is armed (unless
 * OPTPROBE_F_DISABLED) and fires on every CPU.  Several probes on one
 * address share one armed site; their handlers run in registration order.
 * On failure, one pr_warn line names the probe and nothing is left armed.
 *
 * A module's text may be probed from its MODULE_STATE_COMING on (from a
 * module notifier, before its init runs, or from its own init), and its
 * init text until its init returns: probes there go GONE when it goes
 * live, and all of its probes when it goes, init failed or unloaded.
 *
 * Context: process context; may sleep.
 * Return: 0, or
 *  * -EINVAL: no handler; a flag other than the OPTPROBE_F_* above;
 *    @symbol and @addr both or neither given; the
 *    address is not kernel or module text, or a module's going away or
 *    its init text once its init is done; or it is blacklisted (optprobe
 *    itself, the kernel's kprobe blacklist and entry/noinstr text,
 *    exception-fixup sites, the padding before a function on x86) or the
 *    instruction there cannot be probed;
 *  * -ENOENT: unknown @symbol;
 *  * -EILSEQ: not an instruction boundary (decoded from the function's
 *    start; on powerpc also the second word of a prefixed instruction);
 *  * -EEXIST: @p is already registered;
 *  * -EBUSY: another text-patching user owns the address (a kprobe of the
 *    kernel's, but at an ftrace site, where both go through ftrace; a
 *    jump label, a static call, an alternative);
 *  * -ENOMEM.
 */
int optprobe_register(struct optprobe *p);

/**
 * optprobe_unregister() - disarm and forget a probe
 * @p:	a registered probe (an unknown one is refused with a pr_warn line)
 *
 * When it returns, no handler of @p is running or will run, and @p may be
 * freed or reused.  Other probes on the same address keep firing.  Safe on
 * a probe whose module is gone.
 *
 * Context: process context; sleeps for a grace period.
 */
void optprobe_unregister(struct optprobe *p);

/**
 * optprobe_register_many() - register several probes, all or nothing
 * @ps:	the probes
 * @n:	how many
 *
 * Every address is checked first, then the breakpoints are written
 * together: another text user that takes one of the addresses in between
 * (a kernel kprobe registered meanwhile) fails the call with -EBUSY.  A
 * call that fails may have run some of the probes' handlers meanwhile;
 * none runs once it has returned.
 *
 * Context: process context; may sleep.
 * Return: 0 when all are registered; otherwise the first error as for
 * optprobe_register(), with none of them left registered.
 */
int optprobe_register_many(struct optprobe **ps, unsigned int n);

/**
 * optprobe_register_batch() - optprobe_register_many(), telling which failed
 * @ps:		the probes
 * @n:		how many
 * @failed:	out: on failure, the index in @ps of the probe that failed
 *
 * For an interface that reports each of thousands of probes itself (with
 * OPTPROBE_F_QUIET on them, nothing goes to the kernel log).
 *
 * Context: process context; may sleep.
 * Return: as optprobe_register_many().
 */
int optprobe_register_batch(struct optprobe **ps, unsigned int n, unsigned int *failed);

/**
 * optprobe_unregister_many() - unregister several probes
 * @ps:	the probes
 * @n:	how many
 *
 * As optprobe_unregister() for each, waiting one grace period for all.
 *
 * Context: process context; sleeps for a grace period.
 */
void optprobe_unregister_many(struct optprobe **ps, unsigned int n);

/**
 * optprobe_enable() - re-arm a disabled probe
 * @p:	a registered probe
 *
 * Takes effect on return; the probe keeps its place among the probes on
 * its address.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @p is not registered; -ENOENT if its module is
 * gone.
 */
int optprobe_enable(struct optprobe *p);

/**
 * optprobe_disable() - disarm a probe without unregistering it
 * @p:	a registered probe
 *
 * When it returns, @p's handlers no longer run for new hits.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @p is not registered; -ENOENT if its module is
 * gone.
 */
int optprobe_disable(struct optprobe *p);

/**
 * optprobe_disable_many() - disarm many probes at once
 * @ps:	registered probes
 * @n:	how many
 *
 * As optprobe_disable() on each, with the text changes of all in one
 * batch and one wait for the handlers already running: for an interface
 * that disables thousands of probes at once.
 *
 * Context: process context; may sleep.
 * Return: 0, or the error of the first probe that failed (the others are
 * disabled all the same).
 */
int optprobe_disable_many(struct optprobe **ps, unsigned int n);

/**
 * optprobe_mode() - how a probe is armed now
 * @p:	a registered probe
 *
 * Return: the mode; OPTPROBE_MODE_DISABLED for a probe that is not armed.
 */
enum optprobe_mode optprobe_mode(const struct optprobe *p);

/**
 * optprobe_reason() - why a probe is not optimized
 * @p:	a registered probe
 *
 * Return: a human-readable reason, "" when the probe is optimized.  The
 * string is static; it stays valid after the probe is unregistered.
 */
const char *optprobe_reason(const struct optprobe *p);

/**
 * optprobe_next_insn() - where the instruction after the one at @addr is
 * @addr:	an instruction boundary in kernel or module text, e.g. the
 *		address a registered probe on "symbol + 0" shows
 * @next:	set to the address of the next instruction
 *
 * Decodes the function holding @addr from its start, as registering a
 * probe at @addr would, reading through breakpoints and jumps (optprobe's
 * and the kernel's kprobes') to the original instructions: the way to
 * find where to probe inside a function without trying offsets.  One
 * rate-limited pr_warn line on failure.  In module text, the caller keeps
 * the module from going away (a reference, or its own probe there).
 *
 * Context: process context; may sleep; takes optprobe's lock, and on
 * x86_64 the kernel's kprobe_mutex and text_mutex.
 * Return: 0, or
 *  * -EINVAL: @addr is not kernel or module text, or is optprobe's own,
 *    a module's going away or its init text once its init is done, or no
 *    symbol covers it;
 *  * -EILSEQ: @addr is not an instruction boundary, or the instruction
 *    there cannot be decoded.
 */
int optprobe_next_insn(const void *addr, void **next);

/**
 * optprobe_sync() - wait for optprobe's pending text changes
 *
 * Optimizing and unoptimizing probes is done asynchronously, in batches.
 * optprobe_sync() returns once all such work queued before the call has
 * completed.
 *
 * Context: process context; may sleep.
 */
void optprobe_sync(void);

/*
 * Return probes: an entry handler when a function is called and a handler
 * when that call returns, with data passed from one to the other.
 */
struct optretprobe;
struct op_ret;

/**
 * typedef optretprobe_entry_handler_t - runs when the probed function is called
 * @rp:		the return probe
 * @regs:	the registers at the function's entry, exactly as a pre_handler
 *		there sees them
 * @data:	@rp->data_size bytes for this call, handed to @rp->handler
 *
 * Return: 0 to follow this call (@rp->handler runs once when it returns);
 * non-zero to skip it.
 */
typedef int (*optretprobe_entry_handler_t)(struct optretprobe *rp, struct pt_regs *regs,
					   void *data);

/**
 * typedef optretprobe_handler_t - runs when a followed call returns
 * @rp:		the return probe
 * @regs:	the registers at the return: regs_return_value() is the
 *		function's return value, instruction_pointer() the real return
 *		address in the caller, the stack pointer as the caller sees it
 *		after the return
 * @data:	the data the entry handler got for this call, contents kept
 *
 * Runs on the task that made the call.
 */
typedef void (*optretprobe_handler_t)(struct optretprobe *rp, struct pt_regs *regs, void *data);

/* The most per-call data a return probe may ask for. */
#define OPTRETPROBE_DATA_MAX	256

/**
 * struct optretprobe - a return probe
 * @symbol:	function to probe, or NULL to use @addr
 * @addr:	the function's entry (its start) when @symbol is NULL
 * @entry_handler: runs at every call; may be NULL: then every call is
 *		followed
 * @handler:	runs once per followed call, when it returns; required
 * @data_size:	bytes of per-call data, at most OPTRETPROBE_DATA_MAX
 * @maxactive:	0: optprobe sizes the pool of per-call instances itself and
 *		grows it as needed, off the hit path; N > 0: at most N calls
 *		are followed at once, the others count in @nmissed
 * @flags:	OPTPROBE_F_DISABLED, OPTPROBE_F_NOOPT (for the entry side),
 *		OPTPROBE_F_QUIET
 * @nmissed:	calls not followed: no free instance, or recursion into an
 *		optprobe handler (at the entry, or a return that comes while
 *		an optprobe handler runs on its CPU, whose handler is then
 *		skipped, as the kernel's kretprobes skip one under a kprobe),
 *		or a call made on a dead task on its way out (in its final
 *		__schedule(), which never returns, or by an interrupt there)
 * @priv:	private: optprobe's state while registered, else NULL
 *
 * Callers zero-initialise the struct and fill in the fields before @priv.
 * Accounting is exact: the calls made while the probe is registered and
 * enabled, once they have returned, are the handler runs plus the calls
 * the entry handler skipped plus @nmissed.  A followed call's handler runs
 * when it returns even if the probe was disabled in the meantime (but not
 * after optretprobe_unregister()).  A call whose task exits inside the
 * function never returns: no handler runs, and its instance is reclaimed
 * (powerpc: as the task exits; x86_64: once the task is reaped, when the
 * kernel gives back its rethook nodes, as for its own kretprobes; a
 * @maxactive pool has one instance fewer until then).  powerpc: where the
 * function graph tracer traces the function and its ftrace callback runs
 * after optprobe's, it takes the return address the call came with, and
 * the call returns past optprobe: its handler does not run and its
 * instance stays taken (the kernel's kretprobes lose such calls too).
 *
 * Stack traces taken while calls are in flight (dump_stack() inside the
 * function, /proc/PID/stack of a task sleeping in it) give no unwinder
 * warning.  x86_64: the return goes through the kernel's own return hook
 * (rethook), which the kernel's unwinder sees through: stack_trace_save()
 * and /proc/PID/stack show the real caller; dump_stack() prints the
 * rethook's trampoline (arch_rethook_trampoline, which kallsyms names as
 * the end of the function before it) in the caller's place, then the
 * rest of the chain.  ppc64le: every trace shows optprobe's return
 * trampoline (op_ret_trampoline) in the caller's place, then the rest of
 * the chain.
 */
struct optretprobe {
	const char *symbol;
	void *addr;
	optretprobe_entry_handler_t entry_handler;
	optretprobe_handler_t handler;
	unsigned int data_size;
	int maxactive;
	unsigned int flags;
	unsigned long nmissed;
	/* private to optprobe from here on; callers zero-initialise the struct */
	struct op_ret *priv;
};

/**
 * optretprobe_register() - arm a return probe
 * @rp:	the return probe, zero-initialised apart from its public fields
 *
 * The entry side is an optprobe at the function's entry, in whatever mode
 * that reaches (optretprobe_mode()).  On failure, one pr_warn line names
 * the probe and nothing is left armed.
 *
 * Context: process context; may sleep.
 * Return: 0, or
 *  * -EINVAL: no handler; @maxactive < 0; @symbol and @addr both or
 *    neither given; @addr is not a function's start; the function calls
 *    the sched_process_exit tracepoint's probes (its iterator, where
 *    optprobe learns that a task exits), or is do_task_dead(), which
 *    never returns; or the entry cannot be probed (as for
 *    optprobe_register());
 *  * -ENOENT: unknown @symbol;
 *  * -E2BIG: @data_size > OPTRETPROBE_DATA_MAX;
 *  * -EEXIST: @rp is already registered;
 *  * -EBUSY: another text-patching user owns the entry;
 *  * -ENOSPC: powerpc: the return probes together would have more than
 *    65536 per-call instances (each returns through a stub of its own);
 *  * -ENOMEM.
 */
int optretprobe_register(struct optretprobe *rp);

/**
 * optretprobe_unregister() - disarm and forget a return probe
 * @rp:	a registered return probe
 *
 * May be called while calls are in flight: when it returns, no handler of
 * @rp runs again, @rp may be freed, and every call in flight still returns
 * to its real caller.  optprobe cannot be unloaded until they all have:
 * one pr_warn line then says how many were in flight, and debugfs
 * "retprobes" lists the probe as unregistered, with the calls still to
 * return, until they have.  A call that never returns (a task that stays
 * inside the function and never exits, such as a CPU's idle task in
 * cpu_startup_entry()) keeps optprobe loaded for good.
 *
 * Context: process context; sleeps for grace periods.
 */
void optretprobe_unregister(struct optretprobe *rp);

/**
 * optretprobe_register_many() - register several return probes, all or nothing
 * @rps:	the return probes
 * @n:		how many
 *
 * Context: process context; may sleep.
 * Return: 0 when all are registered; otherwise the first error as for
 * optretprobe_register(), with none of them left registered.
 */
int optretprobe_register_many(struct optretprobe **rps, unsigned int n);

/**
 * optretprobe_register_batch() - optretprobe_register_many(), telling which failed
 * @rps:	the return probes
 * @n:		how many
 * @failed:	out: on failure, the index in @rps of the one that failed
 *
 * As optprobe_register_batch().
 *
 * Context: process context; may sleep.
 * Return: as optretprobe_register_many().
 */
int optretprobe_register_batch(struct optretprobe **rps, unsigned int n, unsigned int *failed);

/**
 * optretprobe_unregister_many() - unregister several return probes
 * @rps:	the return probes
 * @n:		how many
 *
 * As optretprobe_unregister() for each, with one set of grace periods for all.
 *
 * Context: process context; sleeps for grace periods.
 */
void optretprobe_unregister_many(struct optretprobe **rps, unsigned int n);

/**
 * optretprobe_enable() - re-arm a disabled return probe
 * @rp:	a registered return probe
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @rp is not registered; -ENOENT if its module is gone.
 */
int optretprobe_enable(struct optretprobe *rp);

/**
 * optretprobe_disable() - stop following new calls
 * @rp:	a registered return probe
 *
 * When it returns, no new call is followed; calls followed before still
 * run the handler when they return.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @rp is not registered; -ENOENT if its module is gone.
 */
int optretprobe_disable(struct optretprobe *rp);

/**
 * optretprobe_disable_many() - disarm many return probes at once
 * @rps:	registered return probes
 * @n:		how many
 *
 * As optprobe_disable_many(), for return probes.
 *
 * Context: process context; may sleep.
 * Return: 0; -ENOMEM; -EINVAL if one is not registered (the others are
 * disabled all the same); or optprobe_disable_many()'s error.
 */
int optretprobe_disable_many(struct optretprobe **rps, unsigned int n);

/**
 * optretprobe_mode() - how the entry side of a return probe is armed
 * @rp:	a registered return probe
 *
 * Return: the mode, as optprobe_mode() for the probe at the function's
 * entry; OPTPROBE_MODE_DISABLED if @rp is not registered or disabled.
 */
enum optprobe_mode optretprobe_mode(const struct optretprobe *rp);

/*
 * Marker probes: probes on the static markers of include/optprobe-marker.h,
 * found by module and name.
 */
struct optprobe_marker_probe;
struct optprobe_marker;
struct op_marker_hook;

/**
 * typedef optprobe_marker_handler_t - runs when a marker is reached
 * @mp:		the marker probe
 * @regs:	the registers at the marker's nop, as a pre_handler sees them
 * @args:	the marker's arguments, in order, each with the type its
 *		conversion in the format gives it (%d: int, %lu: unsigned
 *		long, ...), sign- or zero-extended to 64 bits; a pointer
 *		for %s and %p; one that could not be read is 0
 *
 * Context: as a pre_handler's: preemption disabled, possibly NMI; must not
 * sleep.
 */
typedef void (*optprobe_marker_handler_t)(struct optprobe_marker_probe *mp,
					  struct pt_regs *regs, const u64 *args);

/**
 * struct optprobe_marker_probe - a probe on a static marker
 * @module:	the name of the module holding the marker
 * @name:	the marker's name
 * @format:	the format the handler expects: the marker's, exactly
 * @handler:	runs at every hit
 * @flags:	OPTPROBE_F_DISABLED, OPTPROBE_F_QUIET
 * @nmissed:	hits whose handler was skipped because an optprobe handler
 *		was already running on that CPU
 * @list:	private: on its marker's probes, or on the probes waiting for
 *		their module
 * @marker:	private: the marker, while its module is loaded
 * @hooks:	private: one probe on each of the marker's sites
 * @nhooks:	private: how many
 * @state:	private: registered, pending, gone
 * @disabled:	private: disarmed by optprobe_marker_disable()
 *
 * Callers zero-initialise the struct and fill in the fields before @list.
 */
struct optprobe_marker_probe {
	const char *module;
	const char *name;
	const char *format;
	optprobe_marker_handler_t handler;
	unsigned int flags;
	unsigned long nmissed;
	/* private to optprobe from here on; callers zero-initialise the struct */
	struct list_head list;
	struct optprobe_marker *marker;
	struct op_marker_hook *hooks;
	unsigned int nhooks;
	unsigned int state;
	bool disabled;
};

/**
 * optprobe_marker_register() - put a probe on a marker
 * @mp:	the probe, zero-initialised apart from its public fields
 *
 * The probe is jump-optimized from the start at every site of the marker:
 * the nop becomes a jump to a detour that runs the handlers of the
 * marker's probes, in registration order, and returns right after the
 * nop.  If @mp->module is not loaded, @mp waits for it and is armed when
 * it comes, before its init runs (OPTPROBE_MODE_PENDING until then); its
 * unload makes the probe OPTPROBE_MODE_GONE.  A site in the module's init
 * text goes as that text does: a breakpoint, as every probe there (it
 * runs once), gone once its init is done.  A probe waiting for a module
 * that comes without the marker, or that cannot be armed in it, is
 * OPTPROBE_MODE_GONE, with a pr_warn line.
 *
 * Context: process context; may sleep.
 * Return: 0, or
 *  * -EINVAL: no module, name, format or handler; @mp->format is not the
 *    marker's (the pr_warn line shows both); or every site of the marker
 *    is in init text that is done;
 *  * -ENOENT: the module is loaded and has no marker of that name;
 *  * -EEXIST: @mp is already registered;
 *  * -ENOMEM;
 *  * an error of optprobe_register() for one of the marker's sites.
 */
int optprobe_marker_register(struct optprobe_marker_probe *mp);

/**
 * optprobe_marker_unregister() - take a probe off its marker
 * @mp:	a registered marker probe (pending and gone ones too)
 *
 * When it returns, @mp's handler is not running and never runs again.
 *
 * Context: process context; may sleep.
 */
void optprobe_marker_unregister(struct optprobe_marker_probe *mp);

/**
 * optprobe_marker_enable() - re-arm a disabled marker probe
 * @mp:	a registered marker probe
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @mp is not registered; or optprobe_enable()'s error.
 */
int optprobe_marker_enable(struct optprobe_marker_probe *mp);

/**
 * optprobe_marker_disable() - disarm a marker probe, keeping it registered
 * @mp:	a registered marker probe
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @mp is not registered; or optprobe_disable()'s error.
 */
int optprobe_marker_disable(struct optprobe_marker_probe *mp);

/**
 * optprobe_marker_mode() - how a marker probe is armed now
 * @mp:	a registered marker probe
 *
 * Return: OPTPROBE_MODE_PENDING while its module is not loaded;
 * OPTPROBE_MODE_GONE once it went (or every site of the marker did);
 * OPTPROBE_MODE_DISABLED when disabled or not registered; otherwise the
 * least optimized mode among its live sites (OPTPROBE_MODE_OPTIMIZED on
 * every site unless optimization is switched off, or a site is in init
 * text that is still there).
 */
enum optprobe_mode optprobe_marker_mode(const struct optprobe_marker_probe *mp);

/**
 * optprobe_marker_hits() - how many times a marker probe's handler ran
 * @mp:	a registered marker probe
 *
 * Return: the sum over the marker's sites.
 */
unsigned long optprobe_marker_hits(const struct optprobe_marker_probe *mp);

#endif /* _OPTPROBE_H */
