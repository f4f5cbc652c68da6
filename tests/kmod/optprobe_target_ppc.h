/* SPDX-License-Identifier: GPL-2.0 */
/*
 * powerpc64le targets for optprobe_test_ppc_opt, optprobe_test_ppc_gone and
 * optprobe_test_coexist.
 *
 * optprobe_target_ppc.ko (and optprobe_target_p10.ko, for POWER10's
 * prefixed instructions) hold small functions in assembly, each built
 * around one instruction class, so that a test knows exactly which
 * instruction it probes (the symbol plus an offset) and what it computes.
 * They are not exported: a test finds them by name, where a probe on
 * "symbol + 0" lands (none has an ftrace site or a TOC setup).  All are
 * optprobe_target_ppc_fn; their names and what they do are in the sources.
 *
 * optprobe_target_ppc_call(fn, a, b) calls fn(a, b) with every other
 * register set to a known value: r0, r5-r11 and r14-r31 to 0x1000 + their
 * number, CR to OPTPROBE_TARGET_PPC_CR, XER to OPTPROBE_TARGET_PPC_XER (CA
 * set), CTR and r12 to fn.  Two calls from the same place on the same CPU
 * then enter fn with the same registers, r1, r2, r13 and LR included.
 */
#ifndef OPTPROBE_TARGET_PPC_H
#define OPTPROBE_TARGET_PPC_H

#include <linux/types.h>

typedef unsigned long (*optprobe_target_ppc_fn)(unsigned long a, unsigned long b);
typedef unsigned long (*optprobe_target_ppc_call_fn)(optprobe_target_ppc_fn fn, unsigned long a,
						     unsigned long b);

#define OPTPROBE_TARGET_PPC_CR	0x24842c84UL
#define OPTPROBE_TARGET_PPC_XER	0x20000000UL

/*
 * optprobe_target_ppc_far.ko: fn returns a + b + 9; it lies between the
 * two halves of its module's padding text, [text_start, text_end).
 */
struct optprobe_target_ppc_far {
	optprobe_target_ppc_fn fn;
	const void *text_start, *text_end;
};

extern const struct optprobe_target_ppc_far optprobe_target_ppc_far;

/* its assembly */
unsigned long optprobe_target_ppc_far_fn(unsigned long a, unsigned long b);
extern const u32 optprobe_target_ppc_far_start[], optprobe_target_ppc_far_end[];

/*
 * optprobe_target_ppc_gone.ko, reached by symbol_get() only: fn, the
 * function optprobe_target_ppc_gone_fn, returns a * 43 + 12.
 */
struct optprobe_target_ppc_gone {
	optprobe_target_ppc_fn fn;
};

extern const struct optprobe_target_ppc_gone optprobe_target_ppc_gone;

/* its assembly */
unsigned long optprobe_target_ppc_gone_fn(unsigned long a, unsigned long b);

/*
 * a + b, run with user reads allowed (allow_read_from_user()) around its
 * call of optprobe_target_ppc_kuap_inner(), which leaves in *@amr the AMR
 * it ran with.
 */
unsigned long optprobe_target_ppc_kuap(unsigned long a, unsigned long b, unsigned long *amr);
unsigned long optprobe_target_ppc_kuap_inner(unsigned long a, unsigned long b, unsigned long *amr);

#endif /* OPTPROBE_TARGET_PPC_H */
