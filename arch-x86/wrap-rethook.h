/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's return hook (kernel/trace/rethook.c), which return probes
 * use on x86_64 (retprobe.c).  Up to 6.6 a rethook's pool is a list its
 * owner fills with nodes it allocated (rethook_add_node()), so optprobe's
 * pools can grow.  Since 6.7 the pool is an objpool of a size fixed by
 * rethook_alloc(), nodes allocated by the rethook: rethook_add_node() is
 * gone and the handler gets the return address too.  optprobe's pools
 * are not built on that yet, so return probes are refused there
 * (-EOPNOTSUPP) and the rest of optprobe works.
 */
#ifndef OPTPROBE_WRAP_RETHOOK_H
#define OPTPROBE_WRAP_RETHOOK_H

#include <linux/err.h>
#include <linux/rethook.h>
#include "wrap-kver.h"

#if OP_KERNEL_AT_LEAST(6, 7)
#define OP_RETHOOK_HANDLER(name, node, data, regs) \
	void name(struct rethook_node *node, void *data, unsigned long ret_addr, \
		  struct pt_regs *regs)
#define op_rethook_alloc(data, handler)	((void)(handler), ERR_PTR(-EOPNOTSUPP))
#define op_rethook_add_node(rh, node)	WARN_ON_ONCE(1)
/* no entry: nothing to resolve */
#define OP_RETHOOK_ADD_NODE_MEMBER
#define OP_RETHOOK_ADD_NODE_KSYM
#else
#define OP_RETHOOK_HANDLER(name, node, data, regs) \
	void name(struct rethook_node *node, void *data, struct pt_regs *regs)
#define op_rethook_alloc(data, handler)	op_ksyms.arch.rethook_alloc(data, handler)
#define op_rethook_add_node(rh, node)	op_ksyms.arch.rethook_add_node(rh, node)
#define OP_RETHOOK_ADD_NODE_MEMBER \
	typeof(op_ptr_to(rethook_add_node)) rethook_add_node;
#define OP_RETHOOK_ADD_NODE_KSYM	OP_ARCH_KSYM(rethook_add_node),
#endif

#endif /* OPTPROBE_WRAP_RETHOOK_H */
