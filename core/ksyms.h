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
 * Every function among them is called through its pointer: where the
 * kernel enforces indirect-branch tracking (x86 IBT), each must start
 * with an ENDBR the kernel did not seal.  The arch backend checks that
 * at load (op_arch_ksym_callable()); a symbol that is only an address
 * (data, a label) is marked addr_only and not checked.
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

struct op_ksyms {
	/* found through a kprobe, then used to find the others */
	typeof(op_ptr_to(kallsyms_lookup_name)) kallsyms_lookup_name;
	/* sweeps over every function */
	typeof(op_ptr_to(kallsyms_on_each_symbol)) kallsyms_on_each_symbol;
	/* the function around an address, to decode from its start */
	typeof(op_ptr_to(kallsyms_lookup_size_offset)) kallsyms_lookup_size_offset;
	/* address validation: text, and what other text users own */
	typeof(op_ptr_to(core_kernel_text)) core_kernel_text;
	typeof(op_ptr_to(__module_text_address)) __module_text_address;
	typeof(op_ptr_to(within_kprobe_blacklist)) within_kprobe_blacklist;
	typeof(op_ptr_to(get_kprobe)) get_kprobe;
	typeof(op_ptr_to(ftrace_location)) ftrace_location;
	typeof(op_ptr_to(search_exception_tables)) search_exception_tables;
	/* executable slots near kernel and module text (wrap-execmem.h) */
	typeof(op_ptr_to(OP_EXECMEM_ALLOC)) execmem_alloc;
	typeof(op_ptr_to(OP_EXECMEM_FREE)) execmem_free;
	/* a dying task's last call: no return probe there (retprobe.c) */
	typeof(op_ptr_to(do_task_dead)) do_task_dead;
	/* RCU watching around handlers hit where it does not (dispatch.c) */
	typeof(op_ptr_to(ct_nmi_enter)) ct_nmi_enter;
	typeof(op_ptr_to(ct_nmi_exit)) ct_nmi_exit;
	/* whether a MOD:SYM event's module is there (events/module.c) */
	typeof(op_ptr_to(find_module)) find_module;
#if OP_BTF_ARGS
	/* functions' prototypes from BTF, as kprobe events type arguments (events/btf.c) */
	typeof(op_ptr_to(btf_find_func_proto)) btf_find_func_proto;
	typeof(op_ptr_to(btf_type_skip_modifiers)) btf_type_skip_modifiers;
	typeof(op_ptr_to(btf_name_by_offset)) btf_name_by_offset;
	typeof(op_ptr_to(btf_put)) btf_put;
#endif
	struct op_arch_ksyms arch;
};

extern struct op_ksyms op_ksyms;

/* One symbol to resolve: its name and where its address goes. */
struct op_ksym {
	const char *name;
	void **slot;
	bool addr_only;		/* never called: data, or a label */
};

#define OP_KSYM(sym) { .name = #sym, .slot = (void **)&op_ksyms.sym }
#define OP_KSYM_ADDR(sym) { .name = #sym, .slot = (void **)&op_ksyms.sym, .addr_only = true }
#define OP_ARCH_KSYM(sym) { .name = #sym, .slot = (void **)&op_ksyms.arch.sym }
#define OP_ARCH_KSYM_ADDR(sym) { .name = #sym, .slot = (void **)&op_ksyms.arch.sym, \
				 .addr_only = true }
/* A member whose kernel symbol a wrapper names (wrap-*.h) */
#define OP_KSYM_AS(member, sym) { .name = __stringify(sym), .slot = (void **)&op_ksyms.member }

/* The arch backend's entries, one for each member of struct op_arch_ksyms. */
extern const struct op_ksym op_arch_ksym_table[];
extern const unsigned int op_arch_ksym_count;

int op_ksyms_init(void);
const char *op_arch_ksym_callable(unsigned long addr);
int op_ksyms_resolve(const struct op_ksym *table, unsigned int n);
const struct op_ksym *op_ksym_at(unsigned int i);

#endif /* OPTPROBE_KSYMS_H */
