/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 backend's text writer (patch.c), for the backend's other
 * files: the kernel's text lock and patching, and the kernel's kprobes
 * near a site.
 */
#ifndef OPTPROBE_X86_PATCH_H
#define OPTPROBE_X86_PATCH_H

#include <linux/types.h>
#include <asm/text-patching.h>

#include "x86-insn.h"

/* The kernel's optimized kprobes reach this far before their address. */
#define OP_X86_KPROBE_REACH	(OP_X86_MAX_INSN_LEN + JMP32_INSN_SIZE - 1)

bool op_x86_kprobe_in(unsigned long start, unsigned long end);
bool op_x86_near_kprobe(unsigned long addr, unsigned int len);
void op_x86_poke(void *addr, const void *bytes, size_t len);
void op_x86_poke_text(void *addr, const void *bytes, size_t len);
void op_x86_sync(void);
void op_x86_text_lock(void);
void op_x86_text_unlock(void);

#endif /* OPTPROBE_X86_PATCH_H */
