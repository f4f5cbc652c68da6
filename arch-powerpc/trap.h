/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The detour's body (tramp.S) and its C half (trap.c), for the slot
 * areas' veneers: the layout site-arch.h draws.
 */
#ifndef OPTPROBE_PPC_TRAP_H
#define OPTPROBE_PPC_TRAP_H

#include <linux/types.h>

struct op_site;
struct pt_regs;

void op_ppc_detour_entry(void);
extern const u32 op_ppc_detour_redirect[];
int op_ppc_detour_pre(struct pt_regs *regs, struct op_site **stub_site);

#endif /* OPTPROBE_PPC_TRAP_H */
