/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the kernel's kprobe events take arguments from BTF, with the
 * lookup optprobe's events read it through (events/btf.c):
 * CONFIG_PROBE_EVENTS_BTF_ARGS came in 6.5, btf_find_func_proto() in 6.8.
 */
#ifndef OPTPROBE_WRAP_BTF_ARGS_H
#define OPTPROBE_WRAP_BTF_ARGS_H

#include <linux/kconfig.h>

#include "wrap-kver.h"

#if IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS) && OP_KERNEL_AT_LEAST(6, 8)
#define OP_BTF_ARGS	1
#else
#define OP_BTF_ARGS	0
#endif

#endif /* OPTPROBE_WRAP_BTF_ARGS_H */
