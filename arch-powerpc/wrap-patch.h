/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several instructions written at once: patch_instructions() since 6.8,
 * one temporary mapping of the pages and one cache flush for the whole
 * range; before, one patch_instruction() per instruction.
 *
 * With the radix MMU, patch_instruction() maps the page in a temporary
 * mm of the CPU's own and flushes only that CPU's TLB since 6.2; before,
 * it maps it in kernel space and takes it out with
 * flush_tlb_kernel_range() (patch-batch.c).
 */
#ifndef OPTPROBE_WRAP_PATCH_H
#define OPTPROBE_WRAP_PATCH_H

#include "wrap-kver.h"

#define OP_PATCH_INSTRUCTIONS	OP_KERNEL_AT_LEAST(6, 8)
#define OP_PATCH_RADIX_LOCAL	OP_KERNEL_AT_LEAST(6, 2)

#endif /* OPTPROBE_WRAP_PATCH_H */
