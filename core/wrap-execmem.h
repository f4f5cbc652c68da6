/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Executable memory for slot pages: module_alloc()/module_memfree() up to
 * 6.9, execmem_alloc(EXECMEM_MODULE_TEXT)/execmem_free() since 6.10.  Both
 * hand out module-text memory, within reach of kernel and module text, RW
 * and not yet executable.  The only place that knows which one this
 * kernel has (see core/ksyms.h for how the symbols are resolved).
 */
#ifndef OPTPROBE_WRAP_EXECMEM_H
#define OPTPROBE_WRAP_EXECMEM_H

#include "wrap-kver.h"

#if OP_KERNEL_AT_LEAST(6, 10)
#include <linux/execmem.h>

#define OP_EXECMEM_ALLOC	execmem_alloc
#define OP_EXECMEM_FREE		execmem_free
#define op_execmem_alloc(size)	op_kcall(OP_EXECMEM_ALLOC)(EXECMEM_MODULE_TEXT, (size))
#else
#include <linux/moduleloader.h>

#define OP_EXECMEM_ALLOC	module_alloc
#define OP_EXECMEM_FREE		module_memfree
#define op_execmem_alloc(size)	op_kcall(OP_EXECMEM_ALLOC)(size)
#endif

#define op_execmem_free(p)	op_kcall(OP_EXECMEM_FREE)(p)

#endif /* OPTPROBE_WRAP_EXECMEM_H */
