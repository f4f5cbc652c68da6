/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoint of the static markers' rows (bench/markers.c): a module
 * tracepoint of optprobe_bench_target.ko, called at the place in
 * optprobe_bench_loop_tp() where optprobe_bench_loop_marker() has its
 * marker, with the same two arguments.  loops.c creates it
 * (CREATE_TRACE_POINTS) and exports it; optprobe_bench.ko registers a
 * probe on it with register_trace_optprobe_bench_loop().
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM optprobe_bench

#if !defined(_OPTPROBE_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _OPTPROBE_BENCH_TRACE_H

#include <linux/tracepoint.h>
#include <linux/types.h>

TRACE_EVENT(optprobe_bench_loop,
	    TP_PROTO(u64 i, u64 acc),
	    TP_ARGS(i, acc),
	    TP_STRUCT__entry(__field(u64, i)
			     __field(u64, acc)),
	    TP_fast_assign(__entry->i = i;
			   __entry->acc = acc;),
	    TP_printk("i=%llu acc=%llu", __entry->i, __entry->acc)
);

#endif /* _OPTPROBE_BENCH_TRACE_H */

/* loops.c is built with -I$(src): define_trace.h finds this file there */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE optprobe_bench_trace
#include <trace/define_trace.h>
