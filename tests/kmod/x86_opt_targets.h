/* SPDX-License-Identifier: GPL-2.0 */
/* The targets in x86_opt_targets.S: long fn(long a, long b). */
#ifndef X86_OPT_TARGETS_H
#define X86_OPT_TARGETS_H

#include <linux/jump_label.h>

typedef long (*target_fn)(long a, long b);

long op_tx86_call(target_fn fn, long a, long b);
long op_tx86_riprel_load(long a, long b);
long op_tx86_riprel_store(long a, long b);
long op_tx86_pushpop(long a, long b);
long op_tx86_flags(long a, long b);
long op_tx86_shift(long a, long b);
long op_tx86_jcc(long a, long b);
long op_tx86_jmp(long a, long b);
long op_tx86_ret42(long a, long b);
long op_tx86_call_in_region(long a, long b);
long op_tx86_jump_into(long a, long b);
long op_tx86_jump_table(long a, long b);
long op_tx86_jmp8(long a, long b);
long op_tx86_jmp_next(long a, long b);
long op_tx86_static_key(long a, long b);
long op_tx86_uaccess(long a, long b);
long op_tx86_df(long a, long b);
long op_tx86_call_end(long a, long b);
long op_tx86_jcc8_end(long a, long b);
long op_tx86_jcc32_end(long a, long b);
long op_tx86_jmp8_end(long a, long b);
long op_tx86_jmp32_end(long a, long b);
long op_tx86_tail_call(long a, long b);
long op_tx86_ret_end(long a, long b);
long op_tx86_table(long a, long b);
/* C, split by gcc (x86_cold_target.c): a < 0 runs its .cold part */
long op_tx86_cold_join(long a, long b);
/* the address of op_tx86_cold_join.cold */
extern const unsigned long op_tx86_cold_part;

/* What op_tx86_callee (which op_tx86_call_end calls) calls first, if set. */
extern void (*op_tx86_callee_hook)(void);

/* The key of op_tx86_static_key's jump label. */
DECLARE_STATIC_KEY_FALSE(op_tx86_key);

/* optprobe_test_coexist's: a + 2b, one per case; push, mov, add, ... */
#define OP_TX86_NR_COEXIST	6
#define OP_TX86_COEXIST_SECOND	1
long op_tx86_coexist0(long a, long b);
long op_tx86_coexist1(long a, long b);
long op_tx86_coexist2(long a, long b);
long op_tx86_coexist3(long a, long b);
long op_tx86_coexist4(long a, long b);
long op_tx86_coexist5(long a, long b);

/*
 * optprobe_test_coexist's boundary case: 0xb848 + 3a + 1.  From its first
 * instruction: the next boundaries, and the end of what its first
 * instruction's second byte starts, mid-instruction.
 */
#define OP_TX86_BOUNDARY_NEXT		5
#define OP_TX86_BOUNDARY_ADD		10
#define OP_TX86_BOUNDARY_MISREAD	11
long op_tx86_boundary(long a, long b);

/* op_tx86_call() leaves here the stack pointer it calls from. */
extern unsigned long op_tx86_call_sp;

/* What optprobe_target_x86 gives the tests. */
struct op_tx86_targets {
	/* call fn(a, b) with every other register set to a known pattern */
	long (*call)(target_fn fn, long a, long b);
	unsigned long *call_sp;
	target_fn riprel_load, riprel_store, pushpop, flags, shift, jcc, jmp, ret42;
	target_fn call_in_region, jump_into, jump_table, jmp8, jmp_next, static_key;
	target_fn uaccess, df;
	target_fn call_end, jcc8_end, jcc32_end, jmp8_end, jmp32_end, tail_call, ret_end, table;
	target_fn cold_join;
	const unsigned long *cold_part;
	/* what op_tx86_callee calls first, if set */
	void (**callee_hook)(void);
	/* turn op_tx86_static_key's key on or off */
	void (*static_key_set)(bool on);
	target_fn coexist[OP_TX86_NR_COEXIST];
	target_fn boundary;
};

extern const struct op_tx86_targets op_tx86_targets;

/* x86_opt_exports.c: a C function without an ftrace site (ENDBR64 first under IBT) */
long op_tx86_endbr(long a, long b);

#endif /* X86_OPT_TARGETS_H */
