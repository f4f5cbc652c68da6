/* SPDX-License-Identifier: GPL-2.0 */
/* The emulator-only rewrite (tcg-rewrite.c), for the text writer. */
#ifndef OPTPROBE_PPC_TCG_REWRITE_H
#define OPTPROBE_PPC_TCG_REWRITE_H

#include <asm/inst.h>

void op_ppc_tcg_rewrite_later(unsigned long addr, ppc_inst_t insn);
void op_ppc_tcg_rewrite_now(void);

#endif /* OPTPROBE_PPC_TCG_REWRITE_H */
