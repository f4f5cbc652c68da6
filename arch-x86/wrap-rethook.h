/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's return hook (kernel/trace/rethook.c), which return probes
 * use on x86_64.  Up to 6.6 a rethook's pool is a freelist its owner
 * fills with nodes it allocated (rethook_add_node()): optprobe's
 * instances are the nodes (retprobe.c).  Since 6.7 the pool is an objpool
 * of nodes the rethook allocates, of a number fixed by rethook_alloc(),
 * and the handler gets the return address too: optprobe's instances then
 * ride on nodes of a chain of rethooks grown with the instances; a hit
 * that must grow it makes the rethook itself, as rethook_alloc() would
 * without sleeping (retprobe-objpool.c).
 * Kbuild.inc picks the file.
 */
#ifndef OPTPROBE_WRAP_RETHOOK_H
#define OPTPROBE_WRAP_RETHOOK_H

#include <linux/llist.h>
#include <linux/rethook.h>

#include "wrap-kver.h"

#if OP_KERNEL_AT_LEAST(6, 7)
#include <linux/objpool.h>

/* Rethooks of 16, 16, 32, 64, ... nodes: enough for OP_RET_POOL_MAX instances. */
#define OP_X86_RETHOOKS	14

struct op_ret_inst;
struct op_x86_ret_node;

struct op_arch_ret {
	/* filled from the first, each once (cmpxchg), until the probe is freed */
	struct rethook *rh[OP_X86_RETHOOKS];
	atomic_t nodes;			/* their nodes, all told */
	struct llist_head spare;	/* nodes without an instance yet */
	struct llist_head all;		/* every instance, to free them */
};

struct op_arch_ret_inst {
	struct llist_node all;		/* in op_arch_ret.all */
	struct rethook_node *node;	/* the node it rides on */
};

/*
 * Only this kernel range's: what frees a rethook once its last node is
 * dropped (static in kernel/trace/rethook.c), for the rethooks hits
 * allocate themselves (retprobe-objpool.c).
 */
struct op_rethook_by_version {
	objpool_fini_cb rethook_fini_pool;
};

#define OP_RETHOOK_BY_VERSION_KSYM \
	{ .name = "rethook_fini_pool", \
	  .slot = (void **)&op_ksyms.arch.by_version.rethook_fini_pool },
/* and no function of its own to call (kcalls-arch.h) */
#define OP_RETHOOK_BY_VERSION_KCALLS
#else
struct op_arch_ret {
	struct rethook *rh;
};

/* First in struct op_ret_inst: the rethook frees a node with kfree(). */
struct op_arch_ret_inst {
	struct rethook_node node;
};

/* Only this kernel range's: nothing to resolve but a function to call. */
struct op_rethook_by_version {
};

#define OP_RETHOOK_BY_VERSION_KSYM
/* filling a rethook's pool (kcalls-arch.h) */
#define OP_RETHOOK_BY_VERSION_KCALLS OP_KCALL(rethook_add_node)
#endif

#endif /* OPTPROBE_WRAP_RETHOOK_H */
