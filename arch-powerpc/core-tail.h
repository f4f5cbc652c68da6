/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rest of the kernel's detour area past its cache's page
 * (core-tail.c), in page-sized chunks, for the slot areas.
 */
#ifndef OPTPROBE_PPC_CORE_TAIL_H
#define OPTPROBE_PPC_CORE_TAIL_H

#include <linux/init.h>
#include <linux/types.h>

void __init op_ppc_core_tail_init(void);
void *op_ppc_core_tail_get(unsigned long lo, unsigned long hi);
bool op_ppc_core_tail_has(const void *area);
void op_ppc_core_tail_put(void *chunk);
void op_ppc_core_tail_exit(void);
bool op_ppc_core_tail_refused(void);

#endif /* OPTPROBE_PPC_CORE_TAIL_H */
