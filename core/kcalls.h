/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel functions optprobe calls, each through a static call of its
 * own (op_kcall(), ksyms.h), defined with DEFINE_STATIC_CALL_NULL() next
 * to the table that resolves it.  Included with OP_KCALL(function)
 * defined, once to declare the static calls and once to list them for
 * resolution; so no include guard.  A function whose name a wrapper gives
 * is listed by the wrapper's macro, which names its static call.
 */

/* found through a kprobe, then used to find the others */
OP_KCALL(kallsyms_lookup_name)
/* sweeps over every function */
OP_KCALL(kallsyms_on_each_symbol)
/* the function around an address, to decode from its start */
OP_KCALL(kallsyms_lookup_size_offset)
/* address validation: text, and what other text users own */
OP_KCALL(core_kernel_text)
OP_KCALL(__module_text_address)
OP_KCALL(within_kprobe_blacklist)
OP_KCALL(get_kprobe)
OP_KCALL(ftrace_location)
OP_KCALL(ftrace_location_range)
OP_KCALL(search_exception_tables)
/* executable slots near kernel and module text (wrap-execmem.h) */
OP_KCALL(OP_EXECMEM_ALLOC)
OP_KCALL(OP_EXECMEM_FREE)
/* RCU watching around handlers hit where it does not (dispatch.c) */
OP_KCALL(ct_nmi_enter)
OP_KCALL(ct_nmi_exit)
/* whether a MOD:SYM event's module is there (events/module.c) */
OP_KCALL(find_module)
/* static markers of the modules there at load (markers.c) */
OP_KCALL(module_kallsyms_on_each_symbol)
OP_KCALL(__module_address)
#if OP_BTF_ARGS
/* functions' prototypes from BTF, as kprobe events type arguments (events/btf.c) */
OP_KCALL(btf_find_func_proto)
OP_KCALL(btf_type_skip_modifiers)
OP_KCALL(btf_name_by_offset)
OP_KCALL(btf_put)
#endif

#include "kcalls-arch.h"

