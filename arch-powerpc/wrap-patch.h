/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several instructions written at once: patch_instructions() since 6.8,
 * one temporary mapping of the pages and one cache flush for the whole
 * range; before, one patch_instruction() per instruction.
 */
#ifndef OPTPROBE_WRAP_PATCH_H
#define OPTPROBE_WRAP_PATCH_H

#include "wrap-kver.h"

#define OP_PATCH_INSTRUCTIONS	OP_KERNEL_AT_LEAST(6, 8)

#endif /* OPTPROBE_WRAP_PATCH_H */
