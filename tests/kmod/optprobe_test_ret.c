// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes, one behaviour per case: optprobe cannot be unloaded
 * while a call is in flight through a probe already unregistered; by
 * symbol and by address with the exact arguments, return value, return
 * address and stack pointer; data from entry to return; the entry
 * handler's skip; one instance following calls on every CPU in turn;
 * recursion in LIFO order; disable and enable; every
 * errno; a stack trace inside a followed call; a task that exits inside
 * one; a dead task's final __schedule(), which never returns, not
 * followed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>

#include "exports.h"
#include "optprobe_target_ret.h"
#include "optprobe_test.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static struct ktap t;

static void ret_init(struct optretprobe *rp, const char *symbol, void *addr,
		     optretprobe_entry_handler_t entry, optretprobe_handler_t handler)
{
	memset(rp, 0, sizeof(*rp));
	rp->symbol = symbol;
	rp->addr = addr;
	rp->entry_handler = entry;
	rp->handler = handler;
}

/* The stack pointer after the return, from the one at the entry. */
static unsigned long sp_after_return(struct pt_regs *entry_regs)
{
#ifdef CONFIG_X86_64
	return kernel_stack_pointer(entry_regs) + sizeof(long);
#else
	return entry_regs->gpr[1];
#endif
}

/* ---- rmmod optprobe refused while a call is in flight ---- */

static int held_handler(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	return 0;
}

static int held_thread(void *arg)
{
	struct optprobe_target_ret_gate *g = arg;

	if (optprobe_target_ret_sleep_held(g, 4) == OPTPROBE_TARGET_RET_SLEEP(4))
		atomic_inc(&g->done);
	wake_up_all(&g->wq);
	return 0;
}

static void held_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
}

/* optprobe's struct module; __module_address() is not exported. */
static struct module *optprobe_module(void)
{
	typeof(op_ptr_to(__module_address)) module_address;
	const struct op_ksym sym = { "__module_address", (void **)&module_address };
	struct module *mod;

	if (op_ksyms_resolve(&sym, 1))
		return NULL;
	preempt_disable();
	mod = module_address((unsigned long)optretprobe_register);
	preempt_enable();
	return mod;
}

/*
 * try_stop_module() refuses to unload a module whose reference count is
 * not 0 (-EWOULDBLOCK from rmmod): an unregistered probe with a call in
 * flight holds exactly one reference until the call has returned.
 */
static void test_unload_refused(void)
{
	struct module *op = optprobe_module();
	struct optprobe_target_ret_gate g;
	struct optretprobe rp;
	struct task_struct *task;
	int base, inflight, i, ret;

	if (!ktap_check(&t, op, "unload_module", "optprobe's module not found"))
		return;
	optprobe_target_ret_gate_init(&g);
	ret_init(&rp, "optprobe_target_ret_sleep_held", NULL, held_handler, held_ret);
	base = module_refcount(op);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "unload_register", "register: %d", ret))
		return;
	task = kthread_run(held_thread, &g, "ret_held");
	if (IS_ERR(task) || !optprobe_target_ret_gate_wait(&g, 1)) {
		ktap_check(&t, false, "unload_refused_in_flight", "no sleeper");
		optretprobe_unregister(&rp);
		return;
	}
	optretprobe_unregister(&rp);
	inflight = module_refcount(op);
	optprobe_target_ret_gate_open(&g);
	wait_event_timeout(g.wq, atomic_read(&g.done) == 1, 20 * HZ);
	/* the last return frees the probe after a grace period, from a work item */
	for (i = 0; i < 200 && module_refcount(op) != base; i++)
		usleep_range(10000, 20000);
	ktap_check(&t, inflight == base + 1, "unload_refused_in_flight",
		   "refcount %d with the call in flight, %d before", inflight, base);
	ktap_check(&t, module_refcount(op) == base && atomic_read(&g.done) == 1,
		   "unload_allowed_after_return", "refcount %d, %d before; returned %d",
		   module_refcount(op), base, atomic_read(&g.done));
}

/* ---- by symbol and by address: arguments, return value, where it returns ---- */

static struct {
	unsigned long args[6], ret_addr, sp_after, ret, ip, sp;
	unsigned int entries, returns;
	bool same_data;
} seen;

static int add_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	unsigned int i;

	for (i = 0; i < 6; i++)
		seen.args[i] = test_arg(regs, i);
	seen.ret_addr = test_return_address(regs);
	seen.sp_after = sp_after_return(regs);
	*(void **)data = data;
	seen.entries++;
	return 0;
}

static void add_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	seen.ret = regs_return_value(regs);
	seen.ip = instruction_pointer(regs);
	seen.sp = kernel_stack_pointer(regs);
	seen.same_data = *(void **)data == data;
	seen.returns++;
}

static void check_call(const char *how, struct optretprobe *rp, bool args6)
{
	char name[TEST_NAME_LEN];
	unsigned int i;
	long got;
	int ret;

	memset(&seen, 0, sizeof(seen));
	ret = optretprobe_register(rp);
	if (!ktap_check(&t, !ret, test_name(name, how, "register"), "register: %d", ret))
		return;
	ktap_check(&t, optretprobe_mode(rp) == OPTPROBE_MODE_FTRACE, test_name(name, how, "mode"),
		   "entry mode %s", test_mode_name(optretprobe_mode(rp)));
	got = args6 ? optprobe_target_ret_add(1, 2, 3, 4, 5, 6) : optprobe_target_ret_value(7);
	optretprobe_unregister(rp);

	ktap_check(&t, seen.entries == 1 && seen.returns == 1, test_name(name, how, "once"),
		   "entry %u, return %u", seen.entries, seen.returns);
	if (args6) {
		for (i = 0; i < 6 && seen.args[i] == i + 1; i++)
			;
		ktap_check(&t, i == 6, test_name(name, how, "args"), "argument %u is %lu", i,
			   i < 6 ? seen.args[i] : 0);
	} else {
		ktap_check(&t, seen.args[0] == 7, test_name(name, how, "args"), "argument %lu",
			   seen.args[0]);
	}
	ktap_check(&t, got == (args6 ? 21 : 22) && seen.ret == got,
		   test_name(name, how, "return_value"), "caller got %ld, handler saw %lu",
		   got, seen.ret);
	ktap_check(&t, seen.ip == seen.ret_addr, test_name(name, how, "return_address"),
		   "ip %pS, the call's return address %pS", (void *)seen.ip,
		   (void *)seen.ret_addr);
	ktap_check(&t, seen.sp == seen.sp_after, test_name(name, how, "stack_pointer"),
		   "sp %lx, expected %lx", seen.sp, seen.sp_after);
	ktap_check(&t, seen.same_data, test_name(name, how, "data"), "another data pointer");
}

/* ---- data from entry to return ---- */

static unsigned int data_bad, data_runs;

static int data_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	u8 *d = data;
	unsigned int i;

	for (i = 0; i < rp->data_size; i++)
		d[i] = (u8)(test_arg(regs, 0) + i);
	return 0;
}

static void data_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	unsigned long x = (regs_return_value(regs) - 2) / 5;
	u8 *d = data;
	unsigned int i;

	for (i = 0; i < rp->data_size; i++)
		data_bad += d[i] != (u8)(x + i);
	data_runs++;
}

static void test_data(void)
{
	struct optretprobe rp;
	int i, ret;

	ret_init(&rp, "optprobe_target_ret_data", NULL, data_entry, data_ret);
	rp.data_size = OPTRETPROBE_DATA_MAX;
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "data_register", "register: %d", ret))
		return;
	for (i = 0; i < 20; i++)
		optprobe_target_ret_data(i);
	optretprobe_unregister(&rp);
	ktap_check(&t, data_runs == 20 && !data_bad, "data_entry_to_return",
		   "%u runs, %u bytes wrong", data_runs, data_bad);
}

/* ---- the entry handler skips odd arguments ---- */

static unsigned int skip_entries, skip_runs, skip_bad;

static int skip_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	skip_entries++;
	return test_arg(regs, 0) & 1;
}

static void skip_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	skip_bad += (regs_return_value(regs) - 2) / 5 % 2;
	skip_runs++;
}

static void test_skip(void)
{
	struct optretprobe rp;
	int i, ret;

	ret_init(&rp, "optprobe_target_ret_skip", NULL, skip_entry, skip_ret);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "skip_register", "register: %d", ret))
		return;
	for (i = 0; i < 10; i++)
		optprobe_target_ret_skip(i);
	optretprobe_unregister(&rp);
	ktap_check(&t, skip_entries == 10 && skip_runs == 5 && !skip_bad && !rp.nmissed,
		   "skip_by_entry_handler", "%u entries, %u runs (%u odd), %lu missed",
		   skip_entries, skip_runs, skip_bad, rp.nmissed);
}

/* ---- recursion: LIFO, each level's value and data ---- */

#define DEPTH	10
static struct {
	int depth[DEPTH + 1], value[DEPTH + 1];
	unsigned int n;
} rec;

static int rec_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	*(int *)data = test_arg(regs, 0);
	return 0;
}

static void rec_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	if (rec.n <= DEPTH) {
		rec.depth[rec.n] = *(int *)data;
		rec.value[rec.n] = regs_return_value(regs);
	}
	rec.n++;
}

static void test_recursion(void)
{
	struct optretprobe rp;
	int i, value = 1, got, ret;

	ret_init(&rp, "optprobe_target_ret_recurse", NULL, rec_entry, rec_ret);
	rp.data_size = sizeof(int);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "recursion_register", "register: %d", ret))
		return;
	got = optprobe_target_ret_recurse(DEPTH - 1);
	optretprobe_unregister(&rp);
	for (i = 0; i < DEPTH && rec.n == DEPTH; i++) {
		if (i)
			value = value * 2 + i;
		if (rec.depth[i] != i || rec.value[i] != value)
			break;
	}
	ktap_check(&t, rec.n == DEPTH && i == DEPTH && got == value && !rp.nmissed,
		   "recursion_lifo",
		   "%u runs, level %d: depth %d value %d, caller got %d/%d, %lu missed",
		   rec.n, i, i < DEPTH ? rec.depth[i] : -1, i < DEPTH ? rec.value[i] : -1,
		   got, value, rp.nmissed);
}

/* ---- one instance, calls on every CPU in turn ---- */

static unsigned int cpus_runs, cpus_bad;

static void cpus_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	cpus_bad += regs_return_value(regs) != raw_smp_processor_id() * 5 + 2;
	cpus_runs++;
}

static long cpus_call(void *arg)
{
	int cpu = raw_smp_processor_id();

	return optprobe_target_ret_cpus(cpu) != cpu * 5 + 2;
}

/*
 * maxactive 1, one call at a time: whichever CPU the last call returned
 * on, the next one, on another CPU, finds the instance and is followed.
 */
static void test_cpus(void)
{
	unsigned int calls = 0, wrong = 0;
	struct optretprobe rp;
	int cpu, round, ret;

	ret_init(&rp, "optprobe_target_ret_cpus", NULL, NULL, cpus_ret);
	rp.maxactive = 1;
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "cpus_register", "register: %d", ret))
		return;
	cpus_read_lock();
	for (round = 0; round < 2; round++) {
		for_each_online_cpu(cpu) {
			wrong += work_on_cpu(cpu, cpus_call, NULL) != 0;
			calls++;
		}
	}
	cpus_read_unlock();
	optretprobe_unregister(&rp);
	ktap_check(&t, calls >= 2 && cpus_runs == calls && !cpus_bad && !wrong && !rp.nmissed,
		   "one_instance_follows_calls_on_every_cpu",
		   "%u calls, %u runs (%u on another CPU than called), %u wrong, %lu missed",
		   calls, cpus_runs, cpus_bad, wrong, rp.nmissed);
}

/* ---- disable and enable ---- */

static unsigned int toggle_runs;

static void toggle_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	toggle_runs++;
}

static void test_disable(void)
{
	struct optretprobe rp;
	unsigned int runs[3];
	enum optprobe_mode mode;
	int i, ret;

	ret_init(&rp, "optprobe_target_ret_toggle", NULL, NULL, toggle_ret);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "disable_register", "register: %d", ret))
		return;
	for (i = 0; i < 3; i++)
		optprobe_target_ret_toggle(i);
	runs[0] = toggle_runs;
	ret = optretprobe_disable(&rp);
	mode = optretprobe_mode(&rp);
	for (i = 0; i < 4; i++)
		optprobe_target_ret_toggle(i);
	runs[1] = toggle_runs;
	ret |= optretprobe_enable(&rp);
	for (i = 0; i < 2; i++)
		optprobe_target_ret_toggle(i);
	runs[2] = toggle_runs;
	ktap_check(&t, !ret && mode == OPTPROBE_MODE_DISABLED &&
		   optretprobe_mode(&rp) == OPTPROBE_MODE_FTRACE,
		   "disable_enable_mode", "%d, modes %s then %s", ret, test_mode_name(mode),
		   test_mode_name(optretprobe_mode(&rp)));
	optretprobe_unregister(&rp);
	ktap_check(&t, runs[0] == 3 && runs[1] == 3 && runs[2] == 5 && !rp.nmissed,
		   "disable_enable_runs", "runs %u, %u, %u; %lu missed", runs[0], runs[1],
		   runs[2], rp.nmissed);
	ret = optretprobe_enable(&rp) == -EINVAL && optretprobe_disable(&rp) == -EINVAL;
	ktap_check(&t, ret && optretprobe_mode(&rp) == OPTPROBE_MODE_DISABLED,
		   "disable_enable_unregistered", "not -EINVAL");
}

/* ---- every errno, and nothing left armed ---- */

static unsigned int errno_runs;

static void errno_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	errno_runs++;
}

static void check_errno(const char *what, struct optretprobe *rp, int expect)
{
	char name[TEST_NAME_LEN];
	int ret = optretprobe_register(rp);

	if (!ret)
		optretprobe_unregister(rp);
	optprobe_target_ret_errno(1);
	ktap_check(&t, ret == expect && !rp->priv && !errno_runs, test_name(name, "errno", what),
		   "%d, expected %d; %u runs", ret, expect, errno_runs);
	errno_runs = 0;
}

static void test_errno(void)
{
	struct kprobe kp = { .symbol_name = "optprobe_target_ret_errno" };
	struct optretprobe rp, good, bad, *many[2] = { &good, &bad };
	void *func = optprobe_target_ret_errno;
	int ret;

	ret_init(&rp, "optprobe_target_ret_errno", NULL, NULL, NULL);
	check_errno("no_handler", &rp, -EINVAL);
	ret_init(&rp, "optprobe_target_ret_errno", NULL, NULL, errno_ret);
	rp.maxactive = -1;
	check_errno("maxactive_negative", &rp, -EINVAL);
	ret_init(&rp, "optprobe_target_ret_errno", func, NULL, errno_ret);
	check_errno("symbol_and_addr", &rp, -EINVAL);
	ret_init(&rp, NULL, NULL, NULL, errno_ret);
	check_errno("neither", &rp, -EINVAL);
	ret_init(&rp, NULL, func + 4, NULL, errno_ret);
	check_errno("not_function_start", &rp, -EINVAL);
	ret_init(&rp, "optprobe_no_such_function", NULL, NULL, errno_ret);
	check_errno("unknown_symbol", &rp, -ENOENT);
	ret_init(&rp, "optprobe_target_ret_errno", NULL, NULL, errno_ret);
	rp.data_size = OPTRETPROBE_DATA_MAX + 1;
	check_errno("data_size", &rp, -E2BIG);
	/* powerpc: each instance has a stub of its own, 65536 in all (include/optprobe.h) */
	ret_init(&rp, "optprobe_target_ret_errno", NULL, NULL, errno_ret);
	rp.maxactive = 65536 + 1;
	if (IS_ENABLED(CONFIG_PPC64))
		check_errno("too_many_instances", &rp, -ENOSPC);
	else
		ktap_skip(&t, "errno_too_many_instances", "x86_64 has no such limit");
	ret_init(&rp, "optprobe_register", NULL, NULL, errno_ret);
	check_errno("blacklisted", &rp, -EINVAL);
	/* it returns after optprobe's task-exit hook took the task's calls as over */
	ret_init(&rp, "__traceiter_sched_process_exit", NULL, NULL, errno_ret);
	check_errno("exit_tracepoint_caller", &rp, -EINVAL);
	ret_init(&rp, "do_task_dead", NULL, NULL, errno_ret);
	check_errno("never_returns", &rp, -EINVAL);

	ret = register_kprobe(&kp);
	if (ret) {
		ktap_check(&t, false, "errno_kernel_kprobe", "register_kprobe: %d", ret);
	} else {
		/* at the entry's ftrace site both go through ftrace (validate.c) */
		ret_init(&rp, "optprobe_target_ret_errno", NULL, NULL, errno_ret);
		check_errno("kernel_kprobe", &rp, kp.flags & KPROBE_FLAG_FTRACE ? 0 : -EBUSY);
		unregister_kprobe(&kp);
	}

	ret_init(&rp, "optprobe_target_ret_errno", NULL, NULL, errno_ret);
	ret = optretprobe_register(&rp);
	ret = ret ?: optretprobe_register(&rp) == -EEXIST ? 0 : -EINVAL;
	optretprobe_unregister(&rp);
	ktap_check(&t, !ret, "errno_already_registered", "not -EEXIST");

	ret_init(&good, "optprobe_target_ret_errno", NULL, NULL, errno_ret);
	ret_init(&bad, "optprobe_no_such_function", NULL, NULL, errno_ret);
	ret = optretprobe_register_many(many, 2);
	optprobe_target_ret_errno(1);
	ktap_check(&t, ret == -ENOENT && !good.priv && !errno_runs, "errno_many_all_or_nothing",
		   "%d, %u runs", ret, errno_runs);
	bad.symbol = "optprobe_target_ret_errno";
	good.symbol = "optprobe_target_ret_value";
	ret = optretprobe_register_many(many, 2);
	optprobe_target_ret_errno(1);
	optprobe_target_ret_value(1);
	optretprobe_unregister_many(many, 2);
	ktap_check(&t, !ret && errno_runs == 2 && !good.priv && !bad.priv, "many_register",
		   "%d, %u runs", ret, errno_runs);
}

/* ---- a stack trace inside a followed call ---- */

static unsigned int trace_runs;

static void trace_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	trace_runs++;
}

#define TRACE_MAX	32

/* The caller the trace must go through; noinline so that it has a frame of its own. */
static noinline unsigned int trace_call(unsigned long *entries)
{
	unsigned int n = optprobe_target_ret_trace(entries, TRACE_MAX);

	/* no tail call: this frame is the one to find */
	OPTIMIZER_HIDE_VAR(n);
	return n;
}

static bool trace_through(unsigned long *entries, unsigned int n)
{
	char sym[KSYM_SYMBOL_LEN];
	bool through = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sprint_symbol(sym, entries[i]);
		/*
		 * x86_64: the kernel's unwinder recovers the real caller.
		 * ppc64le: optprobe's trampoline stands in its place, and the
		 * caller's caller follows.
		 */
		if (IS_ENABLED(CONFIG_X86_64))
			through |= !!strstr(sym, "trace_call+");
		else
			through |= strstr(sym, "op_ret_trampoline+") && i + 1 < n;
	}
	return through;
}

static void test_trace(void)
{
	unsigned long entries[TRACE_MAX];
	struct optretprobe rp;
	unsigned int n;
	bool through;
	int ret;

	ret_init(&rp, "optprobe_target_ret_trace", NULL, NULL, trace_ret);
	ret = optretprobe_register(&rp);
	if (!ktap_check(&t, !ret, "trace_register", "register: %d", ret))
		return;
	n = trace_call(entries);
	optretprobe_unregister(&rp);
	through = trace_through(entries, n);
	ktap_check(&t, through && trace_runs == 1, "trace_through_followed_call",
		   "trace %s, %u runs", through ? "ok" : "does not go through", trace_runs);
}

/* ---- a task that exits inside ---- */

static unsigned int exit_runs;

static void exit_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	exit_runs++;
}

static int exiting_thread(void *arg)
{
	return optprobe_target_ret_exit(arg);
}

/* A thread that exits inside optprobe_target_ret_exit(), and is dead once this returns. */
static int exit_inside(bool wait_dead)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct task_struct *task;
	int i;

	task = kthread_create(exiting_thread, &done, "ret_exit");
	if (IS_ERR(task))
		return PTR_ERR(task);
	get_task_struct(task);
	wake_up_process(task);
	wait_for_completion(&done);
	for (i = 0; wait_dead && i < 2000 && READ_ONCE(task->__state) != TASK_DEAD; i++)
		usleep_range(1000, 2000);
	put_task_struct(task);
	/* the kernel hands a dead task's rethook nodes back after a grace period */
	rcu_barrier();
	return 0;
}

/*
 * With one instance each, a call whose task exits inside holds them until
 * the task is gone; then the next call is followed.  Two probes on the
 * function: the second one's hook takes the first one's return address
 * (on powerpc, a stub of optprobe's trampoline), and both come back.
 */
static void test_task_exit(void)
{
	struct optretprobe rp, rp2, *both[2] = { &rp, &rp2 };
	int ret;

	ret_init(&rp, "optprobe_target_ret_exit", NULL, NULL, exit_ret);
	ret_init(&rp2, "optprobe_target_ret_exit", NULL, NULL, exit_ret);
	rp.maxactive = 1;
	rp2.maxactive = 1;
	ret = optretprobe_register_many(both, 2);
	if (!ktap_check(&t, !ret, "exit_register", "register: %d", ret))
		return;
	ret = exit_inside(true) ?: exit_inside(false);
	optretprobe_unregister_many(both, 2);
	ktap_check(&t, !ret && !exit_runs && !rp.nmissed && !rp2.nmissed, "exit_reclaimed",
		   "%d; %u runs, %lu and %lu missed", ret, exit_runs, rp.nmissed, rp2.nmissed);
}

static int exit_kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static bool exit_kretprobe_over;

/*
 * powerpc: did optprobe hook the call first, so that the kernel's
 * kretprobe took optprobe's stub as the return address?  (x86_64: both
 * ride on the task's rethook nodes, in either order.)
 */
static int exit_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
#ifdef CONFIG_X86_64
	exit_kretprobe_over = true;
#else
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, regs->link);
	exit_kretprobe_over = !!strstr(sym, "op_ret_trampoline+");
#endif
	return 0;
}

/*
 * The same under the kernel's kretprobe, hooked over optprobe's return
 * probe: at an ftrace site, the kernel's kprobes run after optprobe when
 * their ftrace_ops is the older one, which an ftrace kprobe elsewhere
 * makes it; the kernel's kretprobe then takes optprobe's return address
 * and puts its own trampoline in the frame.
 */
static void test_task_exit_kretprobe(void)
{
	struct kprobe older = { .symbol_name = "optprobe_target_ret_value" };
	struct kretprobe krp = {
		.kp.symbol_name = "optprobe_target_ret_exit",
		.entry_handler = exit_kretprobe_entry,
		.handler = exit_kretprobe_ret,
	};
	struct optretprobe rp;
	int ret, oret = -EINVAL, kret = -EINVAL;

	ret_init(&rp, "optprobe_target_ret_exit", NULL, NULL, exit_ret);
	rp.maxactive = 1;
	ret = register_kprobe(&older);
	if (!ret)
		oret = optretprobe_register(&rp);
	if (!oret)
		kret = register_kretprobe(&krp);
	if (ktap_check(&t, !kret, "exit_kretprobe_register",
		       "kprobe %d, optretprobe %d, kretprobe %d", ret, oret, kret)) {
		exit_kretprobe_over = false;
		ret = exit_inside(true);
		if (exit_kretprobe_over) {
			ret = ret ?: exit_inside(false);
			ktap_check(&t, !ret && !exit_runs && !rp.nmissed,
				   "exit_kretprobe_reclaimed", "%d; %u runs, %lu missed", ret,
				   exit_runs, rp.nmissed);
		} else {
			ktap_skip(&t, "exit_kretprobe_reclaimed",
				  "the kernel's kretprobe hooked the call before optprobe");
		}
	}
	if (!kret)
		unregister_kretprobe(&krp);
	if (!oret)
		optretprobe_unregister(&rp);
	unregister_kprobe(&older);
}

static struct task_struct *dead_task;
static atomic_t dead_entries, dead_returns;

static int quick_exit_thread(void *arg)
{
	return 0;
}

/* Only the dying task's calls are followed: no other task's stay in flight. */
static int dead_entry(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	if (current != READ_ONCE(dead_task))
		return 1;
	atomic_inc(&dead_entries);
	return 0;
}

static void dead_ret(struct optretprobe *rp, struct pt_regs *regs, void *data)
{
	atomic_inc(&dead_returns);
}

/*
 * A dead task's final __schedule() never returns: it is not followed, and
 * nothing stays in flight.  Its other calls on the way out are followed
 * and return.  (do_task_dead(), which calls it, is refused: errno test.)
 */
static void test_task_dead(void)
{
	struct module *op = optprobe_module();
	struct task_struct *task;
	struct optretprobe rp;
	int base, i, ret;

	ret_init(&rp, "__schedule", NULL, dead_entry, dead_ret);
	/*
	 * Every CPU runs __schedule() all the time: under multi-threaded
	 * TCG, rewriting it under the other vCPU can livelock on a stale
	 * translation (doc/testing.md; seen once here, the optimizer's jump
	 * in place and the other vCPU looping on the int3 it replaced).  A
	 * breakpoint alone rewrites it half as often, and jumps are not
	 * what this tests.
	 */
	rp.flags = OPTPROBE_F_NOOPT;
	base = op ? module_refcount(op) : 0;
	task = kthread_create(quick_exit_thread, NULL, "ret_dead");
	ret = IS_ERR(task) ? PTR_ERR(task) : optretprobe_register(&rp);
	if (!ktap_check(&t, op && !ret, "task_dead_register", "register: %d", ret))
		return;
	get_task_struct(task);
	WRITE_ONCE(dead_task, task);
	wake_up_process(task);
	for (i = 0; i < 2000 && READ_ONCE(task->__state) != TASK_DEAD; i++)
		usleep_range(1000, 2000);
	/* past TASK_DEAD it switches away for good, inside __schedule() */
	usleep_range(10000, 20000);
	optretprobe_unregister(&rp);
	WRITE_ONCE(dead_task, NULL);
	put_task_struct(task);
	/* a call in flight would hold optprobe's module past the unregistration */
	for (i = 0; i < 200 && module_refcount(op) != base; i++)
		usleep_range(10000, 20000);
	ktap_check(&t, atomic_read(&dead_returns) == atomic_read(&dead_entries) &&
		   module_refcount(op) == base, "task_dead_schedule_not_followed",
		   "the dying task: %d calls followed, %d returned; refcount %d (%d before)",
		   atomic_read(&dead_entries), atomic_read(&dead_returns), module_refcount(op),
		   base);
}

static int __init optprobe_test_ret_init(void)
{
	struct optretprobe rp;

	ktap_start(&t, 55);
	test_unload_refused();
	ret_init(&rp, "optprobe_target_ret_add", NULL, add_entry, add_ret);
	rp.data_size = sizeof(void *);
	check_call("symbol", &rp, true);
	ret_init(&rp, NULL, optprobe_target_ret_value, add_entry, add_ret);
	rp.data_size = sizeof(void *);
	check_call("addr", &rp, false);
	test_data();
	test_skip();
	test_cpus();
	test_recursion();
	test_disable();
	test_errno();
	test_trace();
	test_task_exit();
	test_task_exit_kretprobe();
	test_task_dead();
	return 0;
}

static void __exit optprobe_test_ret_exit(void)
{
}

module_init(optprobe_test_ret_init);
module_exit(optprobe_test_ret_exit);
MODULE_DESCRIPTION("optprobe return probes: behaviours");
MODULE_LICENSE("GPL");
