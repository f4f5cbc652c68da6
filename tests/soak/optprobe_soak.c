// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel-wide soak: @rounds rounds, each of @sites probes at random
 * instruction boundaries of random functions over all of kernel-core
 * text (seeded by @seed and the round), and a tenth as many in the
 * functions of optprobe_soak_work.ko, registered one by one (those
 * optprobe refuses are skipped), left to the optimizer, held while a
 * workload runs in user space (file system walks, process creation,
 * pipes, signals, timers, and signal frames the kernel cannot build or
 * restore, signal_fault(): scripts/soak puts tests/soak/badframe-ARCH.S
 * in the guest; a busybox shell started with call_usermodehelper()) and
 * a kthread calls those functions, then unregistered in one batch.  Each
 * round must register most of its sites, optimize some, see hits in both
 * texts, get the same results from the module's functions as before any
 * probe, and run its workload to the end; the
 * boot fails on any splat.  scripts/soak boots
 * it alone on single-threaded TCG (random probes on text that a vCPU
 * hammers livelock multi-threaded TCG on a stale translation, an
 * emulator artefact): make check runs the short form (module defaults),
 * make soak a longer one.
 *
 * x86_64 boundaries come from the kernel's own decoder (insn_decode(),
 * through kallsyms), powerpc's every 4 bytes (a boundary inside a
 * prefixed instruction is refused with -EILSEQ, and skipped).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/umh.h>
#ifdef CONFIG_X86_64
#include <asm/insn.h>
#include <asm/text-patching.h>
#endif

#include "exports.h"
#include "optprobe_soak_work.h"
#include "optprobe_test.h"
#include "wrap-kallsyms.h"

MODULE_IMPORT_NS(OPTPROBE_INTERNAL);

static unsigned int rounds = 2;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds of probes and workload (default 2)");

static unsigned int sites = 1000;
module_param(sites, uint, 0444);
MODULE_PARM_DESC(sites, "probes tried per round (default 1000)");

static unsigned int seed = 1;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "the first round's seed; round k uses seed + k (default 1)");

static typeof(op_ptr_to(kallsyms_on_each_symbol)) each_symbol;
static typeof(op_ptr_to(kallsyms_lookup_size_offset)) lookup_size_offset;
static void *text_start, *text_end;
#ifdef CONFIG_X86_64
static typeof(op_ptr_to(insn_decode)) kernel_insn_decode;
#endif

static const struct op_ksym test_ksyms[] = {
	{ .name = "kallsyms_on_each_symbol", .slot = (void **)&each_symbol },
	{ .name = "kallsyms_lookup_size_offset", .slot = (void **)&lookup_size_offset },
	{ .name = "_stext", .slot = &text_start, .addr_only = true },
	{ .name = "_etext", .slot = &text_end, .addr_only = true },
#ifdef CONFIG_X86_64
	{ .name = "insn_decode", .slot = (void **)&kernel_insn_decode },
#endif
};

/* The workload: busybox shell commands, run in turn WORKLOAD_PASSES times. */
static const char * const workload[] = {
	"find / -xdev > /dev/null 2>&1",
	"cat /proc/[0-9]*/stat > /dev/null 2>&1",
	"ls -lR /sys/kernel > /dev/null 2>&1",
	"dd if=/dev/zero bs=4k count=512 2>/dev/null | cat | wc -c > /dev/null",
	"for j in 1 2 3 4; do (sleep 1; echo x > /dev/null) & done; wait",
	"sleep 5 & kill -USR1 $!; kill -TERM $!; usleep 20000; wait; exit 0",
	/* killed by SIGSEGV (status 139) once the frame could not be restored, then built */
	"badframe; r=$?; badframe build; b=$?; [ $r = 139 ] && [ $b = 139 ]",
};

#define WORKLOAD_PASSES	3

/* Run the workload; 0, or the first command's exit status that is not. */
static int run_workload(void)
{
	char *argv[4], *envp[3];
	unsigned int pass, i;
	int status;

	argv[0] = "/bin/sh";
	argv[1] = "-c";
	argv[3] = NULL;
	envp[0] = "PATH=/bin:/sbin";
	envp[1] = "HOME=/";
	envp[2] = NULL;
	for (pass = 0; pass < WORKLOAD_PASSES; pass++) {
		for (i = 0; i < ARRAY_SIZE(workload); i++) {
			argv[2] = (char *)workload[i];
			status = call_usermodehelper(argv[0], argv, envp, UMH_WAIT_PROC);
			if (status)
				return status;
		}
	}
	return 0;
}

struct funcs {
	unsigned long *start;
	unsigned int nr, cap;
};

static int add_func(void *data, const char *name, struct module *mod, unsigned long addr)
{
	struct funcs *f = data;
	unsigned long *grown;

	if (mod || addr < (unsigned long)text_start || addr >= (unsigned long)text_end ||
	    str_has_prefix(name, "__pfx_") || str_has_prefix(name, "__cfi_"))
		return 0;
	if (f->nr == f->cap) {
		f->cap = max(2 * f->cap, 4096U);
		grown = kvmalloc_array(f->cap, sizeof(*grown), GFP_KERNEL);
		if (!grown)
			return -ENOMEM;
		if (f->nr)
			memcpy(grown, f->start, f->nr * sizeof(*grown));
		kvfree(f->start);
		f->start = grown;
	}
	f->start[f->nr++] = addr;
	return 0;
}

/* A random instruction boundary in the function at @func, or 0. */
static unsigned long random_boundary(unsigned long func, struct rnd_state *rnd)
{
	unsigned long size, off, pos;
#ifdef CONFIG_X86_64
	unsigned long last;
	u8 buf[MAX_INSN_SIZE];
	unsigned int k, i;
	struct insn insn;
#endif

	if (!lookup_size_offset(func, &size, &off) || off || size < 8)
		return 0;
#ifdef CONFIG_X86_64
	/* the k-th boundary, or the last one if there are fewer; not an int3 */
	k = prandom_u32_state(rnd) % 64;
	for (pos = func, i = 0, last = 0; pos < func + size; pos += insn.length, i++) {
		off = min_t(unsigned long, sizeof(buf), func + size - pos);
		if (copy_from_kernel_nofault(buf, (void *)pos, off) ||
		    kernel_insn_decode(&insn, buf, off, INSN_MODE_KERN))
			break;
		if (buf[0] == INT3_INSN_OPCODE)
			continue;
		last = pos;
		if (i >= k)
			break;
	}
	return last;
#else
	pos = func + 4 * (prandom_u32_state(rnd) % (size / 4));
	return pos;
#endif
}

/* Sites tried in module text per round: a tenth of the kernel's. */
#define SOAK_MODULE_SITES(sites)	((sites) / 10)

struct soak_worker {
	u32 want;		/* soak_work_pass() without probes */
	atomic_t passes, wrong;
};

static int soak_worker(void *arg)
{
	struct soak_worker *w = arg;

	while (!kthread_should_stop()) {
		if (optprobe_soak_work.pass() != w->want)
			atomic_inc(&w->wrong);
		atomic_inc(&w->passes);
		usleep_range(500, 1000);
	}
	return 0;
}

/* A random instruction boundary in one of optprobe_soak_work's functions, or 0. */
static unsigned long soak_work_site(struct rnd_state *rnd)
{
	u32 i = prandom_u32_state(rnd) % optprobe_soak_work.nr;

	return random_boundary((unsigned long)optprobe_soak_work.fns[i], rnd);
}

static int hit_pre(struct optprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int cmp_addr(const void *a, const void *b)
{
	unsigned long x = (unsigned long)(*(struct optprobe * const *)a)->addr;
	unsigned long y = (unsigned long)(*(struct optprobe * const *)b)->addr;

	return x < y ? -1 : x > y;
}

/*
 * Put a probe at @addr into @probes[*@n] (not registered yet: picking
 * every site first, the picks read text that no probe of the round has
 * changed, which the kernel's decoder cannot read through).
 */
static void soak_pick(struct optprobe *probes, unsigned int *n, unsigned long addr)
{
	if (addr)
		test_probe_init(&probes[(*n)++], NULL, addr, hit_pre, NULL, 0);
}

/* Register @probes[@from, @to) that optprobe takes into @reg, from *@nr on. */
static void soak_register(struct optprobe *probes, unsigned int from, unsigned int to,
			  struct optprobe **reg, unsigned int *nr)
{
	unsigned int i;

	for (i = from; i < to; i++)
		if (!optprobe_register(&probes[i]))
			reg[(*nr)++] = &probes[i];
}

static void soak_round(struct ktap *t, const struct funcs *f, unsigned int round,
		       struct optprobe *probes, struct optprobe **reg, struct soak_worker *w)
{
	unsigned int i, nr = 0, nr_core, optimized = 0, passes, picked = 0, core_picked;
	unsigned long hits = 0, mod_hits = 0;
	struct task_struct *worker;
	char name[TEST_NAME_LEN];
	struct rnd_state rnd;
	int status;

	prandom_seed_state(&rnd, seed + round);
	for (i = 0; i < sites; i++)
		soak_pick(probes, &picked,
			  random_boundary(f->start[prandom_u32_state(&rnd) % f->nr], &rnd));
	core_picked = picked;
	for (i = 0; i < SOAK_MODULE_SITES(sites); i++)
		soak_pick(probes, &picked, soak_work_site(&rnd));
	soak_register(probes, 0, core_picked, reg, &nr);
	nr_core = nr;
	soak_register(probes, core_picked, picked, reg, &nr);
	optprobe_sync();
	for (i = 0; i < nr; i++)
		optimized += optprobe_mode(reg[i]) == OPTPROBE_MODE_OPTIMIZED;
	atomic_set(&w->passes, 0);
	atomic_set(&w->wrong, 0);
	worker = kthread_run(soak_worker, w, "optprobe_soak");
	status = run_workload();
	if (!IS_ERR(worker))
		kthread_stop(worker);
	passes = atomic_read(&w->passes);
	for (i = 0; i < nr; i++)
		*(i < nr_core ? &hits : &mod_hits) += op_probe_hits(reg[i]);
	/* in address order: the optimizer's batches go that way */
	sort(reg, nr, sizeof(*reg), cmp_addr, NULL);
	optprobe_unregister_many(reg, nr);
	pr_info("# round %u (seed %u): %u of %u core sites registered, %u of %u in module text, %u optimized, %lu and %lu hits, workload %d, %u passes of the module's work, %d wrong\n",
		round, seed + round, nr_core, sites, nr - nr_core, SOAK_MODULE_SITES(sites),
		optimized, hits, mod_hits, status, passes, atomic_read(&w->wrong));
	snprintf(name, sizeof(name), "round_%u", round);
	ktap_check(t, nr_core >= sites / 2 && nr - nr_core >= SOAK_MODULE_SITES(sites) / 2 &&
		   optimized && hits && mod_hits && !status && passes && !atomic_read(&w->wrong),
		   name,
		   "%u+%u registered, %u optimized, %lu+%lu hits, workload %d, %u passes, %d wrong",
		   nr_core, nr - nr_core, optimized, hits, mod_hits, status, passes,
		   atomic_read(&w->wrong));
}

static int __init test_soak_init(void)
{
	int resolved = op_ksyms_resolve(test_ksyms, ARRAY_SIZE(test_ksyms));
	struct optprobe *probes = NULL, **reg = NULL;
	struct soak_worker w = {};
	struct funcs f = {};
	unsigned int round;
	struct ktap t;

	ktap_start(&t, rounds + 1);
	if (!resolved)
		op_kallsyms_on_each(each_symbol, add_func, &f);
	if (f.nr) {
		probes = kvcalloc(sites + SOAK_MODULE_SITES(sites), sizeof(*probes), GFP_KERNEL);
		reg = kvcalloc(sites + SOAK_MODULE_SITES(sites), sizeof(*reg), GFP_KERNEL);
	}
	if (!ktap_check(&t, probes && reg, "setup", "resolve %d, %u functions", resolved, f.nr)) {
		for (round = 0; round < rounds; round++)
			ktap_skip(&t, "round", "no setup");
	} else {
		pr_info("# %u functions in kernel-core text\n", f.nr);
		w.want = optprobe_soak_work.pass();
		for (round = 0; round < rounds; round++)
			soak_round(&t, &f, round, probes, reg, &w);
	}
	kvfree(reg);
	kvfree(probes);
	kvfree(f.start);
	return 0;
}

static void __exit test_soak_exit(void)
{
}

module_init(test_soak_init);
module_exit(test_soak_exit);

MODULE_DESCRIPTION("optprobe test: a kernel-wide soak of random probes under a workload");
MODULE_LICENSE("GPL");
