/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 rules of the kernel's optimized kprobes that changed between
 * the two series the benchmark runs on (read from Debian's 6.1 and 6.12
 * sources).  In 6.12 can_boost() takes the defined forms of groups 2 to 5
 * (a shift or rotate but /6, test but /1, inc and dec of groups 4 and 5),
 * and can_optimize() no longer takes an indirect jump, nor a jump into the
 * retpoline and return thunks, for a sign of a jump table (retpoline and
 * IBT builds have none).  Kernels between hold the 6.1 rules here; the
 * coverage sweep fails if the kernel's verdicts contradict them.
 */
#ifndef OPTPROBE_BENCH_WRAP_KPROBE_RULES_H
#define OPTPROBE_BENCH_WRAP_KPROBE_RULES_H

#include "wrap-kver.h"

#define KRULES_BOOST_GROUPS	OP_KERNEL_AT_LEAST(6, 12)
#define KRULES_INDIRECT_JUMPS	(!OP_KERNEL_AT_LEAST(6, 12))

#endif /* OPTPROBE_BENCH_WRAP_KPROBE_RULES_H */
