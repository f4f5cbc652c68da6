/* SPDX-License-Identifier: GPL-2.0 */
/* The powerpc64le backend's part of core/kcalls.h: no include guard. */

/* every text write */
OP_KCALL(patch_instruction)
#if OP_PATCH_INSTRUCTIONS
/* slots and the kernel-core tail, a range at a time */
OP_KCALL(patch_instructions)
#endif
/* slot pages read-only and executable (set_memory_ro/x are inlines over it) */
OP_KCALL(change_memory_attr)
/* trap-mode execution of the probed instruction */
OP_KCALL(emulate_step)
/* slot pages within branch range of module text (wrap-vmalloc.h) */
OP_KCALL(OP_VMALLOC_RANGE)
/* slots of the kernel's detour area, through its cache (core-cache.c) */
OP_KCALL(__get_insn_slot)
OP_KCALL(__free_insn_slot)
/* its table, found from it, and the answer the index is checked against (jump-labels.c) */
OP_KCALL(jump_label_text_reserved)
