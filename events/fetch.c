// SPDX-License-Identifier: GPL-2.0
/*
 * An event's arguments at a hit: each argument's value, from the
 * registers, the stack or memory, stored into the record where its field
 * is, as the kernel's kprobe events store them (trace_probe_tmpl.h):
 * numbers at their field, strings after the fixed part, each field then
 * a __data_loc word (length << 16 | offset from the record's start).
 *
 * Runs in the probe's handler: any context, NMI included, preemption
 * off.  Memory is read only through the nofault accessors; a read that
 * faults leaves 0 in a number and an empty string (printed "(fault)").
 */
#include <linux/kallsyms.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "events.h"
#include "regs.h"

#define OPEV_REG_OFFSET(name, field) offsetof(struct pt_regs, field),

/* pt_regs offsets, in the order of the names parse.c knows */
static const unsigned short opev_reg_offsets[] =
#ifdef CONFIG_X86_64
	OPEV_REGS_X86_64(OPEV_REG_OFFSET);
#else
	OPEV_REGS_PPC64(OPEV_REG_OFFSET);
#endif

#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
#define opev_argument(regs, n)	regs_get_kernel_argument(regs, n)
#else
/* powerpc 6.1 has not the kernel's accessor: the ELFv2 ABI's r3 to r10 */
static unsigned long opev_argument(struct pt_regs *regs, unsigned int n)
{
	return n < 8 ? regs->gpr[3 + n] : 0;
}
#endif

/* A string is read this many bytes at a time, byte by byte where that faults. */
#define OPEV_STRING_CHUNK	16

static int opev_read(void *dst, unsigned long src, size_t size, bool user)
{
	if (user)
		return copy_from_user_nofault(dst, (const void __user *)src, size);
	return copy_from_kernel_nofault(dst, (const void *)src, size);
}

/*
 * The value an argument starts from, before any memory is read.  @args:
 * a return probe's arguments, saved at the entry; NULL at an entry.
 */
static unsigned long opev_base_value(const struct opev_field *f, struct pt_regs *regs,
				     const unsigned long *args)
{
	const struct opev_arg *a = f->arg;

	switch (a->base) {
	case OPEV_BASE_REG:
		return *(unsigned long *)((char *)regs + opev_reg_offsets[a->index]);
	case OPEV_BASE_STACK:
		return regs_get_kernel_stack_nth(regs, a->index);
	case OPEV_BASE_STACKP:
		return kernel_stack_pointer(regs);
	case OPEV_BASE_ARG:
		return args ? args[a->index - 1] : opev_argument(regs, a->index - 1);
	case OPEV_BASE_RETVAL:
		return regs_return_value(regs);
	case OPEV_BASE_SYMBOL:
		return f->symbol_addr;
	default:
		return a->value;
	}
}

/*
 * Follow the argument's dereferences.  True with *@addr the address its
 * value is read from (and *@user whether that is user memory); false with
 * *@val the value itself, read from nowhere.  A fault: true, *@addr 0.
 */
static bool opev_locate(const struct opev_field *f, struct pt_regs *regs,
			const unsigned long *args, unsigned long *addr, bool *user,
			unsigned long *val)
{
	const struct opev_arg *a = f->arg;
	unsigned long v = opev_base_value(f, regs, args);
	/* @ADDR and @SYM name the memory itself */
	bool mem = a->base == OPEV_BASE_ADDR || a->base == OPEV_BASE_SYMBOL;
	unsigned int i;

	*user = false;
	for (i = 0; i < a->nr_derefs; i++) {
		if (mem && opev_read(&v, v, sizeof(v), *user)) {
			*addr = 0;
			return true;
		}
		v += a->derefs[i].offset;
		*user = a->derefs[i].user;
		mem = true;
	}
	if (mem)
		*addr = v;
	else
		*val = v;
	return mem;
}

/*
 * Copy the string at @src, NUL included, into @dst (NULL: only measure),
 * at most @max bytes.  Return: its length with the NUL, 0 on a fault.
 */
static unsigned int opev_string(char *dst, unsigned long src, bool user, unsigned int max)
{
	char chunk[OPEV_STRING_CHUNK];
	unsigned int len = 0, n, i;

	if (!src)
		return 0;
	while (len < max) {
		n = min_t(unsigned int, sizeof(chunk), max - len);
		if (opev_read(chunk, src + len, n, user)) {
			/* the chunk runs into an unmapped page: up to it */
			for (n = 0; n < sizeof(chunk) && len + n < max; n++)
				if (opev_read(&chunk[n], src + len + n, 1, user))
					break;
			if (!memchr(chunk, 0, n))
				return 0;
		}
		for (i = 0; i < n; i++) {
			if (dst)
				dst[len + i] = chunk[i];
			if (!chunk[i])
				return len + i + 1;
		}
		len += n;
	}
	/* cut short: still NUL-terminated */
	if (dst)
		dst[max - 1] = 0;
	return max;
}

/* A symstr: the symbol of the value, as sprint_symbol() prints it. */
static noinline unsigned int opev_symstr(const struct opev_field *f, struct pt_regs *regs,
					 const unsigned long *args, char *dst,
					 unsigned int max)
{
	/* not in every string fetch's frame: NMI stacks are small */
	char sym[KSYM_SYMBOL_LEN];
	unsigned long addr, val;
	unsigned int len;
	bool user;

	if (opev_locate(f, regs, args, &addr, &user, &val) &&
	    (!addr || opev_read(&val, addr, sizeof(val), user)))
		return 0;
	len = min_t(unsigned int, sprint_symbol(sym, val) + 1, max);
	if (dst) {
		memcpy(dst, sym, len);
		dst[len - 1] = 0;
	}
	return len;
}

/* The text a string field records, copied or measured as opev_string(). */
static unsigned int opev_string_value(const struct opev_field *f, struct pt_regs *regs,
				      const unsigned long *args, char *dst, unsigned int max)
{
	const struct opev_arg *a = f->arg;
	unsigned long addr, val;
	bool user;

	if (a->base == OPEV_BASE_COMM)
		return opev_string(dst, (unsigned long)current->comm, false, max);
	if (a->base == OPEV_BASE_IMM_STRING)
		return opev_string(dst, (unsigned long)a->symbol, false, max);
	if (a->type.kind == OPEV_TYPE_SYMSTR)
		return opev_symstr(f, regs, args, dst, max);
	if (!opev_locate(f, regs, args, &addr, &user, &val))
		addr = val;	/* a register holding the string's address */
	return opev_string(dst, addr, user || a->type.kind == OPEV_TYPE_USTRING, max);
}

/* Bytes the record needs after its fixed part, for its strings. */
unsigned int opev_fetch_dynamic_size(struct opev_event *ev, struct pt_regs *regs,
				     const unsigned long *args)
{
	unsigned int i, size = 0;

	for (i = 0; i < ev->def.nr_args; i++)
		if (ev->fields[i].string)
			size += opev_string_value(&ev->fields[i], regs, args, NULL,
						  OPEV_MAX_STRING);
	return size;
}

/* A bitfield's bits, as the kernel's FETCH_OP_MOD_BF shifts them. */
static u64 opev_bitfield(const struct opev_type *t, u64 v)
{
	unsigned int bits = t->size * BITS_PER_BYTE;

	v <<= 64 - bits;	/* the container's bits at the top */
	v <<= bits - t->bf_width - t->bf_offset;
	return v >> (64 - t->bf_width);
}

static void opev_store_number(void *dst, unsigned int size, u64 v)
{
	switch (size) {
	case 1:
		*(u8 *)dst = v;
		break;
	case 2:
		*(u16 *)dst = v;
		break;
	case 4:
		*(u32 *)dst = v;
		break;
	default:
		*(u64 *)dst = v;
		break;
	}
}

static void opev_store_numbers(const struct opev_field *f, struct pt_regs *regs,
			       const unsigned long *args, void *dst)
{
	const struct opev_type *t = &f->arg->type;
	unsigned long addr, val;
	unsigned int i;
	bool user;
	u64 v;

	if (!opev_locate(f, regs, args, &addr, &user, &val)) {
		/* a value of its own: its low bytes, as the kernel stores it */
		v = t->kind == OPEV_TYPE_BITFIELD ? opev_bitfield(t, val) : val;
		opev_store_number(dst, f->size, v);
		return;
	}
	for (i = 0; i < f->count; i++, dst += f->size) {
		v = 0;
		if (addr && opev_read(&v, addr + i * f->size, f->size, user))
			v = 0;
		/* read into the low bytes of v: little endian on both arches */
		if (t->kind == OPEV_TYPE_BITFIELD)
			v = opev_bitfield(t, v);
		opev_store_number(dst, f->size, v);
	}
}

/*
 * Store every argument into @rec, whose fixed part is ev->fixed_size bytes
 * and which has @dyn_size bytes after it for the strings.
 */
void opev_fetch_store(struct opev_event *ev, struct pt_regs *regs,
		      const unsigned long *args, void *rec, unsigned int dyn_size)
{
	unsigned int i, pos = ev->fixed_size, len;

	for (i = 0; i < ev->def.nr_args; i++) {
		const struct opev_field *f = &ev->fields[i];

		if (!f->string) {
			opev_store_numbers(f, regs, args, rec + f->offset);
			continue;
		}
		/* the string may have grown since it was measured: what fits */
		len = dyn_size > pos - ev->fixed_size ?
		      opev_string_value(f, regs, args, rec + pos,
					ev->fixed_size + dyn_size - pos) : 0;
		/*
		 * As the kernel's: an empty string from user memory has
		 * length 0 (strncpy_from_user_nofault() counts no NUL for
		 * it, and the NUL of any other), so it reads "(fault)".
		 */
		*(u32 *)(rec + f->offset) = (f->user && len == 1 ? 0 : len) << 16 | pos;
		pos += len;
	}
	/* strings shorter than when measured: no stale bytes in the record */
	if (pos < ev->fixed_size + dyn_size)
		memset(rec + pos, 0, ev->fixed_size + dyn_size - pos);
}

/*
 * A return probe's $argN, saved at the function's entry into @args for
 * its return (the kernel's store_trace_entry_data()).
 */
void opev_fetch_entry_args(struct opev_event *ev, struct pt_regs *regs, unsigned long *args)
{
	unsigned int i;

	for (i = 0; i < ev->entry_args; i++)
		args[i] = opev_argument(regs, i);
}
