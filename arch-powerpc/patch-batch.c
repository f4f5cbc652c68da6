// SPDX-License-Identifier: GPL-2.0
/*
 * A batch of live text words, written by several CPUs at once.
 *
 * Each patch_instruction() maps the word's page at a per-CPU address,
 * writes, flushes the caches and takes the mapping out of the TLB: the
 * bulk of putting back 10,000 probes' originals, about 14 us a word under
 * TCG.  The mappings are per-CPU and made with interrupts off, so CPUs
 * can write different words at the same time; a large batch is cut into
 * one part per CPU, up to OP_PPC_BATCH_PARTS, each a run of the list
 * (sites close in the text stay on one CPU).  The caller holds op_mutex
 * and the kernel's text locks throughout and waits for every part, so
 * for everyone else the batch is still one write under those locks.
 *
 * A part is a work item bound to another CPU; it takes no lock, and
 * nothing it waits for can wait for the caller.  The CPUs are held online
 * meanwhile: each CPU's patching mapping is made and taken down by a
 * hotplug step, while the CPU is already or still in cpu_online_mask.
 * Only cpus_read_trylock(): the kernel takes the hotplug lock before
 * text_mutex, which the caller holds.
 *
 * Where patch_instruction() takes its mapping out of every CPU's TLB by
 * interrupting them (radix before 6.2 with tlbie off: on_each_cpu() with
 * interrupts off), two CPUs doing it at once would wait for each other
 * for good: there, one CPU writes (op_ppc_batch_spreads()).
 */
#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <asm/inst.h>
#include <asm/mmu.h>
#include <asm/tlbflush.h>

#include "arch.h"
#include "exports.h"
#include "ksyms.h"
#include "patch.h"
#include "tcg-rewrite.h"
#include "wrap-patch.h"

#define OP_PPC_BATCH_PARTS	8
#define OP_PPC_BATCH_PART_MIN	256	/* fewer words a part than that: not worth a CPU */

struct op_ppc_batch_part {
	struct work_struct work;
	struct op_site *first;		/* the part: @nr sites from @first */
	unsigned int nr;
	ppc_inst_t (*to)(const struct op_site *site);
	bool queued;
	unsigned int failed;
};

static atomic_long_t op_ppc_batch_parts_queued;	/* for the tests */

/*
 * The kernel's tlbie_enabled, which it does not export, where its debugfs
 * switch (powerpc/tlbie_enabled) can turn it off: that file's data.
 */
static bool *op_ppc_tlbie_switch;

void __init op_ppc_batch_init(void)
{
	struct dentry *d;

	if (OP_PATCH_RADIX_LOCAL || !radix_enabled())
		return;
	d = debugfs_lookup("tlbie_enabled", arch_debugfs_dir);
	if (IS_ERR_OR_NULL(d))
		return;
	op_ppc_tlbie_switch = d_inode(d)->i_private;
	dput(d);
}

/*
 * May CPUs write at once: does each patch_instruction() flush its own
 * TLB, or every CPU's with tlbie (the boot option disable_tlbie clears
 * tlbie_capable, the debugfs switch tlbie_enabled alone)?
 */
static bool op_ppc_batch_spreads(void)
{
	if (OP_PATCH_RADIX_LOCAL || !radix_enabled())
		return true;
	return tlbie_capable && (!op_ppc_tlbie_switch || READ_ONCE(*op_ppc_tlbie_switch));
}

static void op_ppc_batch_write(struct op_ppc_batch_part *part)
{
	struct op_site *site = part->first;
	unsigned int i;

	for (i = 0; i < part->nr; i++) {
		part->failed += !!op_kcall(patch_instruction)((u32 *)site->addr, part->to(site));
		site = list_next_entry(site, link);
		cond_resched();
	}
}

static void op_ppc_batch_fn(struct work_struct *work)
{
	op_ppc_batch_write(container_of(work, struct op_ppc_batch_part, work));
}

/* Cut @sites (@nr of them) into @n runs of about the same length. */
static void op_ppc_batch_cut(struct list_head *sites, unsigned int nr, unsigned int n,
			     ppc_inst_t (*to)(const struct op_site *site),
			     struct op_ppc_batch_part *parts)
{
	struct op_site *site;
	unsigned int i = 0, k = 0;

	list_for_each_entry(site, sites, link) {
		if (k == i * nr / n) {
			parts[i] = (struct op_ppc_batch_part){ .first = site, .to = to };
			i++;
		}
		parts[i - 1].nr++;
		k++;
	}
}

/**
 * op_ppc_patch_sites() - write to(site) at each of @sites, by ->link
 * @sites:	sites whose word the caller found as expected, the kernel's
 *		text locks held (op_ppc_text_lock())
 * @to:		the instruction for each
 *
 * A single aligned word changes at each: a CPU fetches the old
 * instruction or the new one.
 */
void op_ppc_patch_sites(struct list_head *sites, ppc_inst_t (*to)(const struct op_site *site))
{
	struct op_ppc_batch_part parts[OP_PPC_BATCH_PARTS];
	unsigned int nr = 0, n = 1, i = 1, self, cpu, failed = 0;
	bool cpus_held = false;
	struct op_site *site;

	lockdep_assert_held(&op_mutex);
	list_for_each_entry(site, sites, link)
		nr++;
	if (!nr)
		return;
	if (nr >= 2 * OP_PPC_BATCH_PART_MIN && op_ppc_batch_spreads())
		cpus_held = cpus_read_trylock();
	if (cpus_held)
		n = clamp(nr / OP_PPC_BATCH_PART_MIN, 1U,
			  min_t(unsigned int, num_online_cpus(), OP_PPC_BATCH_PARTS));
	op_ppc_batch_cut(sites, nr, n, to, parts);
	self = raw_smp_processor_id();
	for_each_online_cpu(cpu) {
		if (i >= n)
			break;
		if (cpu == self)
			continue;
		INIT_WORK_ONSTACK(&parts[i].work, op_ppc_batch_fn);
		parts[i].queued = true;
		queue_work_on(cpu, system_highpri_wq, &parts[i].work);
		atomic_long_inc(&op_ppc_batch_parts_queued);
		i++;
	}
	for (i = 0; i < n; i++)
		if (!parts[i].queued)
			op_ppc_batch_write(&parts[i]);
	for (i = 0; i < n; i++) {
		if (parts[i].queued) {
			flush_work(&parts[i].work);
			destroy_work_on_stack(&parts[i].work);
		}
		failed += parts[i].failed;
	}
	if (cpus_held)
		cpus_read_unlock();
	WARN_ONCE(failed, "optprobe: %u of %u text words not written\n", failed, nr);
	list_for_each_entry(site, sites, link)
		op_ppc_tcg_rewrite_later(site->addr, to(site));
}

/* How many parts went to other CPUs, since load. */
unsigned long op_ppc_batch_parts_spread(void)
{
	return atomic_long_read(&op_ppc_batch_parts_queued);
}
EXPORT_SYMBOL_NS_GPL(op_ppc_batch_parts_spread, OPTPROBE_INTERNAL);
