/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optprobe's share of the kernel's detour cache near kernel text
 * (core-cache.c), for the slot areas; the pin of its page, for the rest
 * of its area (core-tail.c); and the reading of a function's r3 at its
 * calls, for the text writer's kprobe lock.
 */
#ifndef OPTPROBE_PPC_CORE_CACHE_H
#define OPTPROBE_PPC_CORE_CACHE_H

#include <linux/init.h>
#include <linux/types.h>

struct seq_file;

int op_ppc_refs_in(const char *func, u64 callee, u64 *found, unsigned int max);
u64 op_ppc_same(const u64 *found, int n);
void __init op_ppc_core_cache_init(void);
void *op_ppc_core_slot_get(size_t *size);
void op_ppc_core_slot_put(void *slot);
void *op_ppc_core_page_pin(const char **why, bool *lasting);
enum op_reason op_ppc_core_cache_why(void);
void op_ppc_core_cache_show(struct seq_file *m);

#endif /* OPTPROBE_PPC_CORE_CACHE_H */
