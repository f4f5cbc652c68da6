/* SPDX-License-Identifier: GPL-2.0 */
/* The x86_64 backend's part of core/kcalls.h: no include guard. */

/* text patching, single and batched (int3-protected) */
OP_KCALL(text_poke)
OP_KCALL(text_poke_bp)
OP_KCALL(text_poke_sync)
OP_KCALL(text_poke_queue)
OP_KCALL(text_poke_finish)
/* tell perf of text that changed, as the kernel's kprobes do */
OP_KCALL(perf_event_text_poke)
/* addresses that alternatives and static calls own */
OP_KCALL(alternatives_text_reserved)
OP_KCALL(static_call_text_reserved)
/* slot pages: RW while filled, then read-only and executable */
OP_KCALL(set_memory_ro)
OP_KCALL(set_memory_x)
/* to have vfree() reset a slot page's permissions */
OP_KCALL(find_vm_area)
/* the kernel's return hook, for return probes (retprobe.c) */
OP_KCALL(rethook_alloc)
OP_KCALL(rethook_free)
OP_KCALL(rethook_try_get)
OP_KCALL(rethook_recycle)
OP_KCALL(rethook_hook)
/* the rest of it, which depends on the kernel (wrap-rethook.h) */
OP_RETHOOK_BY_VERSION_KCALLS
