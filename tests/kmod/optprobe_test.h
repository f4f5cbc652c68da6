/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What optprobe's test modules share: reading a handler's registers the
 * same way on both arches, setting probes up, and finding instruction
 * boundaries through optprobe_register() itself.
 *
 * "Entry" below is a probe on symbol + 0 (the function's ftrace site);
 * "inside" is one on the first instruction boundary after the entry,
 * where, in the leaf targets the tests use, the arguments, the stack
 * pointer and the return address are still those of the call.
 */
#ifndef OPTPROBE_TEST_H
#define OPTPROBE_TEST_H

#include <linux/errno.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include <optprobe.h>

#include "ktap.h"
#include "mode-name.h"

/* The size of the call at a function's ftrace site, which symbol + 0 names. */
#define TEST_ENTRY_INSN_SIZE	MCOUNT_INSN_SIZE

/* Argument @n (from 0) of the call, at a function's entry. */
static inline unsigned long test_arg(struct pt_regs *regs, unsigned int n)
{
#ifdef CONFIG_X86_64
	return regs_get_kernel_argument(regs, n);
#else
	return n < 8 ? regs->gpr[3 + n] : 0;
#endif
}

/* Where the call returns to, at a function's entry. */
static inline unsigned long test_return_address(struct pt_regs *regs)
{
#ifdef CONFIG_X86_64
	return *(unsigned long *)kernel_stack_pointer(regs);
#else
	return regs->link;
#endif
}

/*
 * Make a function's entry continue in @func, which has the same prototype
 * (function override).  On ppc64le @func is entered at its global entry,
 * which computes its TOC pointer from r12.
 */
static inline int test_redirect(struct pt_regs *regs, unsigned long func)
{
#ifdef CONFIG_PPC64
	regs->gpr[12] = func;
#endif
	instruction_pointer_set(regs, func);
	return 1;
}

static inline const char *test_mode_name(enum optprobe_mode mode)
{
	return op_mode_name(mode);
}

/* "@where_@what" in @buf: the KTAP name of one check made at several places. */
#define TEST_NAME_LEN	64
static inline const char *test_name(char *buf, const char *where, const char *what)
{
	scnprintf(buf, TEST_NAME_LEN, "%s_%s", where, what);
	return buf;
}

/*
 * Where a check puts its probe: at the function's entry (ftrace mode), or
 * on the first instruction inside it, with OPTPROBE_F_NOOPT (breakpoint
 * mode) or without (whatever mode the engine picks for it).
 */
struct test_where {
	const char *name;
	bool inside;
	unsigned int flags;
};

static const struct test_where test_wheres[] __maybe_unused = {
	{ "entry", false, 0 },
	{ "inside_noopt", true, OPTPROBE_F_NOOPT },
	{ "inside", true, 0 },
};

/* Is @mode what a probe placed as @w should be in? */
static inline bool test_mode_fits(const struct test_where *w, enum optprobe_mode mode)
{
	if (!w->inside)
		return mode == OPTPROBE_MODE_FTRACE;
	if (w->flags & OPTPROBE_F_NOOPT)
		return mode == OPTPROBE_MODE_TRAP;
	return mode == OPTPROBE_MODE_TRAP || mode == OPTPROBE_MODE_BOOSTED ||
	       mode == OPTPROBE_MODE_OPTIMIZED;
}

/* Zero @p and fill in its public fields, as a caller must before registering. */
static inline void test_probe_init(struct optprobe *p, const char *symbol, unsigned long addr,
				   optprobe_pre_handler_t pre, optprobe_post_handler_t post,
				   unsigned int flags)
{
	memset(p, 0, sizeof(*p));
	p->symbol = symbol;
	p->addr = (void *)addr;
	p->pre_handler = pre;
	p->post_handler = post;
	p->flags = flags;
}

static inline int test_nop_pre(struct optprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* A function's entry: where a probe on @symbol + 0 lands, or 0. */
static inline unsigned long test_entry_of(const char *symbol)
{
	unsigned long entry;
	struct optprobe p;

	test_probe_init(&p, symbol, 0, test_nop_pre, NULL, OPTPROBE_F_DISABLED);
	if (optprobe_register(&p))
		return 0;
	entry = (unsigned long)p.addr;
	optprobe_unregister(&p);
	return entry;
}

/*
 * The first instruction boundary after @addr: the first address above it
 * where optprobe_register() does not say -EILSEQ.  Returns that address,
 * or 0 with *@err set when @addr is 0, when there is none within 15 bytes,
 * or when registering there fails for another reason.
 */
static inline unsigned long test_next_boundary(unsigned long addr, int *err)
{
	struct optprobe p;
	unsigned int off;
	int ret = -EILSEQ;

	if (!addr) {
		*err = -ENOENT;
		return 0;
	}
	for (off = 1; off < 16 && ret == -EILSEQ; off++) {
		test_probe_init(&p, NULL, addr + off, test_nop_pre, NULL, OPTPROBE_F_DISABLED);
		ret = optprobe_register(&p);
		if (!ret)
			optprobe_unregister(&p);
	}
	*err = ret;
	return ret ? 0 : addr + off - 1;
}

/* The first instruction boundary after the entry of @symbol, or 0. */
static inline unsigned long test_inside_of(const char *symbol, int *err)
{
	return test_next_boundary(test_entry_of(symbol), err);
}

/*
 * Probes that write their ids into a shared log when their handlers run,
 * to tell which of the probes on an address ran, and in what order.
 */
struct test_log {
	char pre[16], post[16];
	unsigned int npre, npost;
};

struct test_log_probe {
	struct optprobe p;
	struct test_log *log;
	char id;
	unsigned int hits;	/* runs of its pre handler, or else of its post handler */
};

static inline void test_log_reset(struct test_log *log)
{
	memset(log, 0, sizeof(*log));
}

static inline int test_log_pre(struct optprobe *p, struct pt_regs *regs)
{
	struct test_log_probe *lp = container_of(p, struct test_log_probe, p);
	struct test_log *log = lp->log;

	lp->hits++;
	if (log->npre < sizeof(log->pre) - 1)
		log->pre[log->npre++] = lp->id;
	return 0;
}

static inline void test_log_post(struct optprobe *p, struct pt_regs *regs)
{
	struct test_log_probe *lp = container_of(p, struct test_log_probe, p);
	struct test_log *log = lp->log;

	if (!p->pre_handler)
		lp->hits++;
	if (log->npost < sizeof(log->post) - 1)
		log->post[log->npost++] = lp->id;
}

/* Register @lp at @addr as probe @id, with a pre handler if @pre. */
static inline int test_log_register(struct test_log_probe *lp, struct test_log *log, char id,
				    unsigned long addr, bool pre, unsigned int flags)
{
	test_probe_init(&lp->p, NULL, addr, pre ? test_log_pre : NULL, test_log_post, flags);
	lp->log = log;
	lp->id = id;
	lp->hits = 0;
	return optprobe_register(&lp->p);
}

#endif /* OPTPROBE_TEST_H */
