/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The powerpc64le text writer (patch.c), for the backend's other files:
 * optprobe's text lock, one instruction or a range written, the kernel's
 * kprobes; a batch of sites written (patch-batch.c).
 */
#ifndef OPTPROBE_PPC_PATCH_H
#define OPTPROBE_PPC_PATCH_H

#include <linux/init.h>
#include <linux/list.h>
#include <linux/types.h>
#include <asm/inst.h>

struct op_site;

bool op_ppc_kprobe_at(unsigned long addr);
void __init op_ppc_kprobe_lock_init(void);
void op_ppc_text_lock(void);
void op_ppc_text_unlock(void);
void op_ppc_patch(unsigned long addr, ppc_inst_t insn);
bool op_ppc_word_is(const struct op_site *site, ppc_inst_t insn);
/* the breakpoint optprobe writes at a site */
ppc_inst_t op_ppc_trap_insn(const struct op_site *site);
void op_ppc_patch_sites(struct list_head *sites, ppc_inst_t (*to)(const struct op_site *site));
void __init op_ppc_batch_init(void);
bool op_ppc_text_lock_holds_kprobes(void);

#endif /* OPTPROBE_PPC_PATCH_H */
