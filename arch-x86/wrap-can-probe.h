/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel's can_probe() refuses on an instruction boundary.  6.12
 * refuses INT and UD instructions there (its is_exception_insn()); 6.1
 * takes them.  The releases in between are not supported builds
 * (wrap-supported.h).
 */
#ifndef OPTPROBE_WRAP_CAN_PROBE_H
#define OPTPROBE_WRAP_CAN_PROBE_H

#include "wrap-kver.h"

#define OP_KPROBES_REFUSE_INT_UD	OP_KERNEL_AT_LEAST(6, 12)

#endif /* OPTPROBE_WRAP_CAN_PROBE_H */
