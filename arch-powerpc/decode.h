/* SPDX-License-Identifier: GPL-2.0 */
/* The powerpc64le decoder (decode.c), for the detour builder: pc-relative copies. */
#ifndef OPTPROBE_PPC_DECODE_H
#define OPTPROBE_PPC_DECODE_H

#include <linux/types.h>
#include <asm/inst.h>

bool op_ppc_pcrel(ppc_inst_t insn);
s64 op_ppc_disp34(ppc_inst_t insn);
int op_ppc_relocate(ppc_inst_t insn, unsigned long from, unsigned long to, ppc_inst_t *copy);

#endif /* OPTPROBE_PPC_DECODE_H */
