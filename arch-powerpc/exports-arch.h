/* SPDX-License-Identifier: GPL-2.0 */
/* The powerpc64le backend's part of core/exports.h: for the tests only. */
#ifndef OPTPROBE_EXPORTS_ARCH_H
#define OPTPROBE_EXPORTS_ARCH_H

#include <linux/types.h>

/* tcg-rewrite.c: the emulator-only rewrite switch, and its count */
bool op_ppc_set_tcg_rewrite(bool on);
unsigned long op_ppc_tcg_rewrites(void);

/* jump-labels.c: the index of the kernel's jump labels, and both answers */
unsigned long op_ppc_jump_label_code(unsigned int i);
bool op_ppc_jump_label_both(unsigned long first, unsigned long last, bool *kernel);

/* core-cache.c: the kernel's detour cache, as optprobe shares it */
int op_ppc_core_cache_used(unsigned int *optprobe);
int op_ppc_core_set_share(int slots);
int op_ppc_core_set_test_fail(bool fail);

/* patch-batch.c: parts of text-write batches sent to other CPUs */
unsigned long op_ppc_batch_parts_spread(void);

/* decode.c: may @addr be probed (core/arch.h), for the benchmark's sweep */
int op_arch_check_insn(unsigned long func, unsigned long size, unsigned long addr,
		       enum op_reason *reason);

/* core-tail.c: the rest of the kernel's detour area */
int op_ppc_core_tail_set_test_fail(bool fail);

#endif /* OPTPROBE_EXPORTS_ARCH_H */
