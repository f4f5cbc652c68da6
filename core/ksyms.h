/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols that optprobe reaches through kallsyms because they are
 * not exported.  Every one of them is a member of struct op_ksyms (the
 * arch backend's in its struct op_arch_ksyms) with a table entry naming it;
 * all are resolved once at load, and the load fails, naming the symbol,
 * if one is missing.  Nothing else in optprobe calls kallsyms.
 *
 * Each pointer has the type of &symbol as the kernel headers declare it
 * (op_ptr_to), so a call through op_ksyms is type-checked like a direct call.
 *
 * A function among them is called through a static call of optprobe's,
 * op_kcall(name)(args), never through a pointer: the load sets each to
 * the address kallsyms gives (static_call_update()), and where the kernel
 * has inline static calls (x86) that rewrites every call site into a
 * direct call to the function.  A direct call lands anywhere, so no call
 * of optprobe's depends on an ENDBR64 the kernel may have sealed (x86 IBT);
 * the arch backend proves at load that every site is direct
 * (op_arch_kcall_direct()).  Without arch static calls (powerpc) a static
 * call is a call through the key's pointer.  core/kcalls.h lists them.
 *
 * The other symbols are data, or functions optprobe only compares or
 * hands to the kernel, members of struct op_ksyms.  A table of another
 * module's may also hold function pointers it calls itself: those are
 * checked to be callable so (op_arch_ksym_callable(): an unsealed ENDBR64
 * under x86 IBT).
 */
#ifndef OPTPROBE_KSYMS_H
#define OPTPROBE_KSYMS_H

#include <linux/context_tracking_irq.h>
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/sched/task.h>
#include <linux/static_call.h>
#include <linux/stringify.h>

/* A pointer to @sym; its type is that of &sym as the kernel headers declare it. */
#define op_ptr_to(sym) (&(sym))

#include "wrap-execmem.h"
#include "ksyms-arch.h"

#include "wrap-btf-args.h"
#if OP_BTF_ARGS
#include <linux/btf.h>
/* kernel/trace/trace_btf.h's: the function's BTF_KIND_FUNC_PROTO, a reference on *@btf_p */
const struct btf_type *btf_find_func_proto(const char *func_name, struct btf **btf_p);
#endif

/* Call the kernel function @name (core/kcalls.h): a direct call on x86. */
#define op_kcall(name)		static_call(op_k_##name)
/* Its address, once resolved. */
#define op_kcall_addr(name)	((unsigned long)static_call_query(op_k_##name))

#define OP_KCALL(function) DECLARE_STATIC_CALL(op_k_##function, function)
#include "kcalls.h"
#undef OP_KCALL

struct op_ksyms {
	/* a dying task's last call: no return probe there (retprobe.c) */
	typeof(op_ptr_to(do_task_dead)) do_task_dead;
	struct op_arch_ksyms arch;
};

extern struct op_ksyms op_ksyms;

/*
 * One symbol to resolve: its name, and where its address goes (@slot) or
 * the static call that calls it (@call, with its trampoline @tramp, NULL
 * where the kernel has no arch static calls).
 */
struct op_ksym {
	const char *name;
	void **slot;
	struct static_call_key *call;
	void *tramp;
	bool addr_only;		/* never called: data, a label, or compared only */
};

#define OP_KSYM_ADDR(sym) { .name = #sym, .slot = (void **)&op_ksyms.sym, .addr_only = true }
#define OP_ARCH_KSYM(sym) { .name = #sym, .slot = (void **)&op_ksyms.arch.sym }
#define OP_ARCH_KSYM_ADDR(sym) { .name = #sym, .slot = (void **)&op_ksyms.arch.sym, \
				 .addr_only = true }

/* The arch backend's entries, one for each member of struct op_arch_ksyms. */
extern const struct op_ksym op_arch_ksym_table[];
extern const unsigned int op_arch_ksym_count;

int op_ksyms_init(void);
const char *op_arch_ksym_callable(unsigned long addr);
const char *op_arch_kcall_direct(const struct op_ksym *sym, unsigned long addr);
unsigned long op_ksym_addr(const struct op_ksym *sym);
int op_ksyms_resolve(const struct op_ksym *table, unsigned int n);
const struct op_ksym *op_ksym_at(unsigned int i);

#endif /* OPTPROBE_KSYMS_H */
