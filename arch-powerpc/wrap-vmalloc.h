/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmalloc within an address range, for slot pages within branch reach of
 * module text: __vmalloc_node_range() up to 6.9; since 6.10 (memory
 * allocation profiling) that name is a macro over
 * __vmalloc_node_range_noprof(), the function kallsyms knows.
 */
#ifndef OPTPROBE_WRAP_VMALLOC_H
#define OPTPROBE_WRAP_VMALLOC_H

#include "wrap-kver.h"
#include <linux/vmalloc.h>

#if OP_KERNEL_AT_LEAST(6, 10)
#define OP_VMALLOC_RANGE	__vmalloc_node_range_noprof
#else
#define OP_VMALLOC_RANGE	__vmalloc_node_range
#endif

#define op_vmalloc_range(...)	op_kcall(OP_VMALLOC_RANGE)(__VA_ARGS__)

#endif /* OPTPROBE_WRAP_VMALLOC_H */
