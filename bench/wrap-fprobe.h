/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's fprobe (kernel/trace/fprobe.c), whose exit handler the
 * return-probe rows (ret.c) measure where the kernel has one: Debian's
 * 6.12 (CONFIG_FPROBE=y on both arches), not its 6.1 (not set on x86_64;
 * ppc64le 6.1 has no rethook, which fprobe needs).  ret.c writes the
 * handlers in the form of 6.5 to 6.13: the entry handler returns whether
 * to follow the call, and both get the caller's return address and a
 * struct pt_regs.  Before 6.5 the entry handler returns nothing and gets
 * no return address; since 6.14 both get a struct ftrace_regs.  On those
 * kernels the fprobe rows are skipped, saying so.
 */
#ifndef OPTPROBE_BENCH_WRAP_FPROBE_H
#define OPTPROBE_BENCH_WRAP_FPROBE_H

#include <linux/fprobe.h>

#include "wrap-kver.h"

#if !IS_ENABLED(CONFIG_FPROBE)
#define BENCH_HAVE_FPROBE	0
#define BENCH_NO_FPROBE		"the kernel has no fprobe (CONFIG_FPROBE is not set)"
#elif !OP_KERNEL_AT_LEAST(6, 5) || OP_KERNEL_AT_LEAST(6, 14)
#define BENCH_HAVE_FPROBE	0
#define BENCH_NO_FPROBE		"fprobe handlers of another form on this kernel: not measured"
#else
#define BENCH_HAVE_FPROBE	1
#define BENCH_NO_FPROBE		NULL
#endif

#endif /* OPTPROBE_BENCH_WRAP_FPROBE_H */
