// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of core/symoff.c, the parser that turns a kprobe's
 * address back into a function's start on every arch.
 */
#include "symoff.h"
#include "unit.h"

struct symoff_case {
	const char *s, *name;
	int ret;
	unsigned long off, size;
};

static const struct symoff_case cases[] = {
	/* x86_64: the kprobe sits on the function's first byte */
	{ "kallsyms_lookup_name+0x0/0xd0", "kallsyms_lookup_name", 0, 0x0, 0xd0 },
	/* ppc64le ELFv2: global entry + 8 (local entry) + 4 (ftrace site) */
	{ "kallsyms_lookup_name+0xc/0x140", "kallsyms_lookup_name", 0, 0xc, 0x140 },
	{ "foo+0x10/0x20 [some_module]", "foo", 0, 0x10, 0x20 },
	{ "foo+0xffffffffffffffff/0xffffffffffffffff", "foo", -1, 0, 0 },
	{ "foo+0x1/0x10000000000000000", "foo", -1, 0, 0 },
	{ "foobar+0x0/0x10", "foo", -1, 0, 0 },	/* a longer name */
	{ "fo+0x0/0x10", "foo", -1, 0, 0 },		/* a shorter one */
	{ "bar+0x0/0x10", "foo", -1, 0, 0 },
	{ "0xffffffff81000000", "foo", -1, 0, 0 },	/* raw address: no symbol */
	{ "foo+0x/0x10", "foo", -1, 0, 0 },
	{ "foo+0x4/", "foo", -1, 0, 0 },
	{ "foo+0x4", "foo", -1, 0, 0 },
	{ "foo+12/0x20", "foo", -1, 0, 0 },		/* decimal is not what it prints */
	{ "foo+0x20/0x20", "foo", -1, 0, 0 },		/* offset past the end */
	{ "foo+0x4/0x20junk", "foo", -1, 0, 0 },
	{ "foo+0x4/0x20 [mod]", "foo", 0, 0x4, 0x20 },
	{ "", "foo", -1, 0, 0 },
};

int main(void)
{
	unsigned int i;

	unit_plan(ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct symoff_case *c = &cases[i];
		unsigned long off = ~0UL, size = ~0UL;
		int ret = op_symoff_parse(c->s, c->name, &off, &size);
		char name[128];

		snprintf(name, sizeof(name), "symoff \"%s\"", c->s);
		unit_check(ret == c->ret && (ret || (off == c->off && size == c->size)),
			   name, "got %d off %#lx size %#lx", ret, off, size);
	}
	return unit_status();
}
