// SPDX-License-Identifier: GPL-2.0
/*
 * The loops of the static markers' rows (bench/markers.c), in
 * optprobe_bench_target.ko: one body three times, bare, with a marker
 * and with a tracepoint, at the same place with the same two arguments:
 * the iteration and the running value, both live in the loop anyway.
 * noinline and __noipa: each exists once, at its symbol, called through
 * a pointer, so the three compile alike but for what they mark.
 */
#include <linux/compiler.h>
#include <linux/module.h>

#include <optprobe-marker.h>

#include "optprobe_bench_target.h"

#define CREATE_TRACE_POINTS
#include "optprobe_bench_trace.h"

EXPORT_TRACEPOINT_SYMBOL_GPL(optprobe_bench_loop);

noinline __noipa u64 optprobe_bench_loop(u64 n)
{
	u64 i, acc = n;

	for (i = 0; i < n; i++)
		acc = acc * 5 + (i ^ (acc >> 9));
	return acc;
}
EXPORT_SYMBOL_GPL(optprobe_bench_loop);

noinline __noipa u64 optprobe_bench_loop_marker(u64 n)
{
	u64 i, acc = n;

	for (i = 0; i < n; i++) {
		acc = acc * 5 + (i ^ (acc >> 9));
		OPTPROBE_MARKER(optprobe_bench_loop, OPTPROBE_BENCH_MARKER_FORMAT, i, acc);
	}
	return acc;
}
EXPORT_SYMBOL_GPL(optprobe_bench_loop_marker);

noinline __noipa u64 optprobe_bench_loop_tp(u64 n)
{
	u64 i, acc = n;

	for (i = 0; i < n; i++) {
		acc = acc * 5 + (i ^ (acc >> 9));
		trace_optprobe_bench_loop(i, acc);
	}
	return acc;
}
EXPORT_SYMBOL_GPL(optprobe_bench_loop_tp);
