/* SPDX-License-Identifier: GPL-2.0 */
/* The powerpc64le decoder (decode.c), for the copies of instructions: reading, relocating. */
#ifndef OPTPROBE_PPC_DECODE_H
#define OPTPROBE_PPC_DECODE_H

#include <linux/types.h>
#include <asm/inst.h>

int op_ppc_read_insn(unsigned long addr, ppc_inst_t *insn);
bool op_ppc_always_emulated(ppc_inst_t insn);
bool op_ppc_pcrel(ppc_inst_t insn);
s64 op_ppc_disp34(ppc_inst_t insn);
int op_ppc_relocate(ppc_inst_t insn, unsigned long from, unsigned long to, ppc_inst_t *copy);

#endif /* OPTPROBE_PPC_DECODE_H */
