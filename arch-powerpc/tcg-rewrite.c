// SPDX-License-Identifier: GPL-2.0
/*
 * tcg_rewrite: an emulator workaround, for the QEMU test matrix only, off
 * by default.  Under QEMU's multi-threaded TCG, a vCPU that translates
 * the page while a text write lands can keep the old instruction for
 * good: a removed trap that kprobe_handler() then retries forever, or a
 * trap that never fires.  With tcg_rewrite, each word is written again
 * once that translation is over, which drops the stale copy: at the
 * operation's end, op_arch_commit() (op_ppc_tcg_rewrite_now()) waits 1-2
 * ms and writes its words a second time.  On hardware that would only
 * cost the wait, and could undo a kernel write landing between the check
 * and the second write, so it stays off there.  The tests switch it with
 * op_ppc_set_tcg_rewrite(); words recorded while it was on are still
 * written again at the next commit.
 *
 * The text writer (patch.c) calls in once per word written,
 * op_ppc_tcg_rewrite_later(), which does nothing unless it is on.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <asm/inst.h>

#include "arch.h"
#include "exports.h"
#include "ksyms.h"
#include "tcg-rewrite.h"

static bool op_ppc_tcg_rewrite;
module_param_named(tcg_rewrite, op_ppc_tcg_rewrite, bool, 0444);
MODULE_PARM_DESC(tcg_rewrite,
		 "Emulator workaround for the QEMU TCG test matrix only (default off): write each text word again 1-2 ms later");

#define OP_PPC_PENDING	256

static struct {
	unsigned long addr;
	ppc_inst_t insn;
} op_ppc_pending[OP_PPC_PENDING];
static unsigned int op_ppc_npending;
static unsigned long op_ppc_rewrites;	/* second writes made, for the tests */

/* @insn was just written at @addr: with tcg_rewrite, write it again at the commit. */
void op_ppc_tcg_rewrite_later(unsigned long addr, ppc_inst_t insn)
{
	lockdep_assert_held(&op_mutex);
	if (!op_ppc_tcg_rewrite)
		return;
	if (op_ppc_npending == OP_PPC_PENDING)
		op_ppc_tcg_rewrite_now();
	op_ppc_pending[op_ppc_npending].addr = addr;
	op_ppc_pending[op_ppc_npending].insn = insn;
	op_ppc_npending++;
}

/*
 * With tcg_rewrite, the second writes: of each word still as written (a
 * later write wins).  Without, nothing was recorded and nothing is done.
 */
void op_ppc_tcg_rewrite_now(void)
{
	unsigned int i;
	u32 now;

	lockdep_assert_held(&op_mutex);
	if (!op_ppc_npending)
		return;
	usleep_range(1000, 2000);
	for (i = 0; i < op_ppc_npending; i++) {
		unsigned long addr = op_ppc_pending[i].addr;
		ppc_inst_t insn = op_ppc_pending[i].insn;

		if (!copy_from_kernel_nofault(&now, (void *)addr, sizeof(now)) &&
		    now == ppc_inst_val(insn)) {
			WARN_ON_ONCE(op_kcall(patch_instruction)((u32 *)addr, insn));
			op_ppc_rewrites++;
		}
	}
	op_ppc_npending = 0;
}

/* For the tests: switch tcg_rewrite; what it was. */
bool op_ppc_set_tcg_rewrite(bool on)
{
	bool was;

	mutex_lock(&op_mutex);
	was = op_ppc_tcg_rewrite;
	op_ppc_tcg_rewrite = on;
	mutex_unlock(&op_mutex);
	return was;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_set_tcg_rewrite, OPTPROBE_INTERNAL);

/* For the tests: how many second writes tcg_rewrite made since load. */
unsigned long op_ppc_tcg_rewrites(void)
{
	unsigned long n;

	mutex_lock(&op_mutex);
	n = op_ppc_rewrites;
	mutex_unlock(&op_mutex);
	return n;
}
EXPORT_SYMBOL_NS_GPL(op_ppc_tcg_rewrites, OPTPROBE_INTERNAL);
