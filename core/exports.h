/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What optprobe.ko exports in the symbol namespace OPTPROBE_INTERNAL: for
 * its own test modules and benchmark, which include this header and no
 * other of the core's or a backend's; never for other modules.
 *
 * The kernel-symbol resolver (ksyms.h: op_ksyms_resolve(), op_ksym_addr(),
 * op_ksym_at(), op_arch_ksym_callable(), op_arch_kcall_direct()), so that
 * a test resolves what it reads as optprobe does; reasons by name
 * (reasons.h: op_reason_text()); the counters and switches below; and
 * the backend's own (exports-arch.h).
 */
#ifndef OPTPROBE_EXPORTS_H
#define OPTPROBE_EXPORTS_H

#include <linux/types.h>

#include "ksyms.h"
#include "reasons.h"

struct optprobe;

/* api.c: hits of a registered probe that ran its handlers */
unsigned long op_probe_hits(const struct optprobe *p);
/* api.c: why it is not optimized, OP_R_NONE if it is (optprobe_reason()'s text) */
enum op_reason op_probe_reason(const struct optprobe *p);

/* dispatch.c: breakpoint traps taken, all probes together */
unsigned long op_bp_traps(void);

/* slots.c: slots in use, all areas together (debugfs "slots" per area) */
unsigned int op_slots_used(void);

/* optimizer.c: what debugfs "optimize" and "boost" switch */
void op_set_optimize(bool optimize);
void op_set_boost(bool boost);
/* optimizer.c: called before a register batch's breakpoints are written */
void op_set_arm_hook(void (*hook)(void));

#include "exports-arch.h"

#endif /* OPTPROBE_EXPORTS_H */
