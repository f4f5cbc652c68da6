/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registers %REG may name, per arch: X("name", field) where field is
 * a struct pt_regs member.  The names and their order are those of the
 * kernel's regs_query_register_offset() (regoffset_table[]: x86_64 in
 * arch/x86/kernel/ptrace.c, ppc64 in arch/powerpc/kernel/ptrace/
 * ptrace-view.c, where GPR_OFFSET_NAME(n) gives "rN" then "gprN"; the
 * same in 6.1 and 6.12).
 *
 * Each list is a whole initializer, braces included, and X ends its
 * entry with a comma:
 *
 *	#define REG_OFFSET(name, field)	offsetof(struct pt_regs, field),
 *	static const unsigned short offsets[] = OPEV_REGS_X86_64(REG_OFFSET);
 *
 * The parser builds its name tables from these lists and the fetch code
 * its offset tables, so an index the parser gives is an index there.
 * (The braces, and X named variadic, keep checkpatch from taking a list
 * for an unparenthesized expression that repeats its argument.)
 * Freestanding: names only, nothing here needs struct pt_regs.
 */
#ifndef OPTPROBE_EVENTS_REGS_H
#define OPTPROBE_EVENTS_REGS_H

#define OPEV_REGS_X86_64(X...)	{	\
	X("r15", r15)		\
	X("r14", r14)		\
	X("r13", r13)		\
	X("r12", r12)		\
	X("r11", r11)		\
	X("r10", r10)		\
	X("r9", r9)		\
	X("r8", r8)		\
	X("bx", bx)		\
	X("cx", cx)		\
	X("dx", dx)		\
	X("si", si)		\
	X("di", di)		\
	X("bp", bp)		\
	X("ax", ax)		\
	X("orig_ax", orig_ax)	\
	X("ip", ip)		\
	X("cs", cs)		\
	X("flags", flags)	\
	X("sp", sp)		\
	X("ss", ss)		\
}

#define OPEV_REGS_PPC64(X...)	{	\
	X("r0", gpr[0])		\
	X("gpr0", gpr[0])	\
	X("r1", gpr[1])		\
	X("gpr1", gpr[1])	\
	X("r2", gpr[2])		\
	X("gpr2", gpr[2])	\
	X("r3", gpr[3])		\
	X("gpr3", gpr[3])	\
	X("r4", gpr[4])		\
	X("gpr4", gpr[4])	\
	X("r5", gpr[5])		\
	X("gpr5", gpr[5])	\
	X("r6", gpr[6])		\
	X("gpr6", gpr[6])	\
	X("r7", gpr[7])		\
	X("gpr7", gpr[7])	\
	X("r8", gpr[8])		\
	X("gpr8", gpr[8])	\
	X("r9", gpr[9])		\
	X("gpr9", gpr[9])	\
	X("r10", gpr[10])	\
	X("gpr10", gpr[10])	\
	X("r11", gpr[11])	\
	X("gpr11", gpr[11])	\
	X("r12", gpr[12])	\
	X("gpr12", gpr[12])	\
	X("r13", gpr[13])	\
	X("gpr13", gpr[13])	\
	X("r14", gpr[14])	\
	X("gpr14", gpr[14])	\
	X("r15", gpr[15])	\
	X("gpr15", gpr[15])	\
	X("r16", gpr[16])	\
	X("gpr16", gpr[16])	\
	X("r17", gpr[17])	\
	X("gpr17", gpr[17])	\
	X("r18", gpr[18])	\
	X("gpr18", gpr[18])	\
	X("r19", gpr[19])	\
	X("gpr19", gpr[19])	\
	X("r20", gpr[20])	\
	X("gpr20", gpr[20])	\
	X("r21", gpr[21])	\
	X("gpr21", gpr[21])	\
	X("r22", gpr[22])	\
	X("gpr22", gpr[22])	\
	X("r23", gpr[23])	\
	X("gpr23", gpr[23])	\
	X("r24", gpr[24])	\
	X("gpr24", gpr[24])	\
	X("r25", gpr[25])	\
	X("gpr25", gpr[25])	\
	X("r26", gpr[26])	\
	X("gpr26", gpr[26])	\
	X("r27", gpr[27])	\
	X("gpr27", gpr[27])	\
	X("r28", gpr[28])	\
	X("gpr28", gpr[28])	\
	X("r29", gpr[29])	\
	X("gpr29", gpr[29])	\
	X("r30", gpr[30])	\
	X("gpr30", gpr[30])	\
	X("r31", gpr[31])	\
	X("gpr31", gpr[31])	\
	X("nip", nip)		\
	X("msr", msr)		\
	X("ctr", ctr)		\
	X("link", link)		\
	X("xer", xer)		\
	X("ccr", ccr)		\
	X("softe", softe)	\
	X("trap", trap)		\
	X("dar", dar)		\
	X("dsisr", dsisr)	\
}

#endif /* OPTPROBE_EVENTS_REGS_H */
