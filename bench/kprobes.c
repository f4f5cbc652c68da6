// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's kprobes as every phase of the benchmark uses them: the
 * handler they run (optprobe's, counted the same way), the mode one
 * reached (the flags of the probe the kernel hashed at the address:
 * nothing is assumed), and the switch of their optimization,
 * debug.kprobes-optimization, written through /proc/sys as root does
 * from a shell, which mem.c also uses to fold the vmstat counters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include <optprobe.h>

#include "bench.h"
#include "optprobe_bench_target.h"

#define KPROBES_OPTIMIZATION	"/proc/sys/debug/kprobes-optimization"

static char kprobes_optimization[8] = "1\n";	/* as found at load */

int bench_sysctl(const char *path, char *buf, size_t len, bool write)
{
	struct file *f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	if (write) {
		ret = kernel_write(f, buf, len, &pos);
	} else {
		ret = kernel_read(f, buf, len - 1, &pos);
		if (ret >= 0)
			buf[ret] = '\0';
	}
	filp_close(f, NULL);
	return ret < 0 ? ret : 0;
}

int bench_kprobes_save(void)
{
	int ret = bench_sysctl(KPROBES_OPTIMIZATION, kprobes_optimization,
			       sizeof(kprobes_optimization), false);

	if (ret)
		pr_err("cannot read %s: %d\n", KPROBES_OPTIMIZATION, ret);
	return ret;
}

void bench_kprobes_restore(void)
{
	bench_sysctl(KPROBES_OPTIMIZATION, kprobes_optimization, strlen(kprobes_optimization),
		     true);
}

int bench_kprobes_optimize(bool on)
{
	char val[] = "0\n";

	val[0] += on;
	return bench_sysctl(KPROBES_OPTIMIZATION, val, 2, true);
}

enum optprobe_mode bench_kprobe_mode(unsigned long addr)
{
	enum optprobe_mode mode = OPTPROBE_MODE_DISABLED;
	struct kprobe *kp;

	rcu_read_lock();
	kp = bench_ksyms.get_kprobe((void *)addr);
	if (kp && kprobe_gone(kp))
		mode = OPTPROBE_MODE_GONE;
	else if (kp && kprobe_disabled(kp))
		mode = OPTPROBE_MODE_DISABLED;
	else if (kp && kprobe_optimized(kp))
		mode = OPTPROBE_MODE_OPTIMIZED;
	else if (kp && kprobe_ftrace(kp))
		mode = OPTPROBE_MODE_FTRACE;
	else if (kp)
		mode = OPTPROBE_MODE_TRAP;
	rcu_read_unlock();
	return mode;
}

int bench_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(optprobe_bench_pre_hits);
	return 0;
}

#ifdef CONFIG_PPC64
/* Is @addr a load-reserve, or after one before its store-conditional, as optprobe sees it? */
static bool bench_in_reserve(unsigned long addr)
{
	unsigned long size, offset;
	enum op_reason why;

	return bench_ksyms.kallsyms_lookup_size_offset(addr, &size, &offset) &&
	       op_arch_check_insn(addr - offset, size, addr, &why) == -EINVAL &&
	       why == OP_R_IN_LARX_STCX;
}
#endif

/*
 * Would the kernel's own kprobe at @addr crash or hang the kernel?  On
 * powerpc, an optimized kprobe on a `bl` crashes it, when the site runs
 * while the probe is being unregistered (seen on Debian's 6.1 and 6.12 on
 * a hot `bl` of the idle path, with nothing of optprobe loaded): the
 * kernel's detour template never stores the instruction pointer into its
 * pt_regs; optimized_callback() sets it only for an enabled probe, and
 * returns early for one already disabled, so emulate_step() then computes
 * the link register from a stale stack word, and the callee returns
 * there.  And a kprobe on a load-reserve, or between one and its
 * store-conditional, hangs the CPU that runs it while it is a trap: the
 * return from the trap clears the reservation, the store-conditional
 * fails and its loop comes back to the trap, for good (optprobe refuses
 * such sites; seen on both series on _raw_read_lock()'s lwarx).  So the
 * coverage sweep leaves those sites out of the kernel's pass.
 */
bool bench_kprobe_crashes(unsigned long addr)
{
#ifdef CONFIG_PPC64
	u32 word;

	if (copy_from_kernel_nofault(&word, (void *)addr, sizeof(word)))
		return false;
	/* b with LK=1, AA=0: bl */
	return (word >> 26 == 18 && (word & 3) == 1) || bench_in_reserve(addr);
#else
	return false;
#endif
}
