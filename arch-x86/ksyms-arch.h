/* SPDX-License-Identifier: GPL-2.0 */
/* x86_64 symbols reached through kallsyms; see core/ksyms.h. */
#ifndef OPTPROBE_KSYMS_ARCH_H
#define OPTPROBE_KSYMS_ARCH_H

#include <linux/memory.h>
#include <linux/static_call.h>
#include <asm/alternative.h>
#include <asm/insn.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>

#define OP_ARCH_KSYMS(X)						\
	X(text_poke)			/* single writes: slots, int3 */ \
	X(text_poke_bp)							\
	X(text_poke_sync)						\
	X(text_poke_queue)		/* batched int3-protected patching */ \
	X(text_poke_finish)						\
	X(text_mutex)			/* held around every text write */ \
	X(insn_decode)			/* cross-check of our decoder */ \
	X(alternatives_text_reserved)	/* addresses owned by alternatives */ \
	X(static_call_text_reserved)	/* ...by static calls */	\
	X(set_memory_ro)		/* slot pages: RW -> ROX */	\
	X(set_memory_x)

#endif /* OPTPROBE_KSYMS_ARCH_H */
