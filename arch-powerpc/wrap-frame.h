/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an interrupt frame keeps its struct pt_regs, from the frame's r1:
 * STACK_FRAME_OVERHEAD (112 on ELFv2) up to 6.1; since 6.3 the ELFv2
 * frames are smaller and the offset is STACK_INT_FRAME_REGS (48), with
 * the regs marker 16 bytes below it on both.  The kernel's interrupt
 * frames and optprobe's detour frames use the same layout.  For C and
 * assembly.
 */
#ifndef OPTPROBE_WRAP_FRAME_H
#define OPTPROBE_WRAP_FRAME_H

#include <asm/ptrace.h>

#ifdef STACK_INT_FRAME_REGS
#define OP_PPC_FRAME_REGS	STACK_INT_FRAME_REGS
#else
#define OP_PPC_FRAME_REGS	STACK_FRAME_OVERHEAD
#endif

#ifndef __ASSEMBLY__
/* Where a pt_regs field is in the frame a detour pushes. */
#define OP_PPC_FRAME_REG(field)	(OP_PPC_FRAME_REGS + offsetof(struct pt_regs, field))
#endif

#endif /* OPTPROBE_WRAP_FRAME_H */
