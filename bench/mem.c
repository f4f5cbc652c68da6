// SPDX-License-Identifier: GPL-2.0
/*
 * Memory in use, for the scale rows' bytes per probe: slab pages
 * (NR_SLAB_*), vmalloc pages (slot and detour pages are vmalloc'ed
 * executable memory) and the per-CPU allocator's populated pages, every
 * CPU's copy counted (optprobe's hit counters: 8 bytes per probe and
 * possible CPU).  The per-CPU differences of the vmstat counters are
 * folded first, through /proc/sys/vm/stat_refresh: they would hide
 * hundreds of pages.  Page granularity: a few pages of noise.
 */
#include <linux/mm.h>
#include <linux/vmstat.h>

#include "bench.h"

#define VM_STAT_REFRESH		"/proc/sys/vm/stat_refresh"

void bench_mem_sample(struct bench_mem *m)
{
	char one[] = "1\n";

	bench_sysctl(VM_STAT_REFRESH, one, 2, true);
	m->slab = global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) +
		  global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B);
	m->vmalloc = bench_ksyms.vmalloc_nr_pages();
	m->percpu = bench_ksyms.pcpu_nr_pages();
}
