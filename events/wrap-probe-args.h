/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel's kprobe_events grammar the running kernel has, beyond
 * 6.1's (parse.h's struct opev_kernel).
 */
#ifndef OPTPROBE_EVENTS_WRAP_PROBE_ARGS_H
#define OPTPROBE_EVENTS_WRAP_PROBE_ARGS_H

#include "wrap-kver.h"

/* $argN on a return probe, saved at the function's entry: since 6.9 */
#define OPEV_RETURN_ARGS	OP_KERNEL_AT_LEAST(6, 9)

#endif /* OPTPROBE_EVENTS_WRAP_PROBE_ARGS_H */
