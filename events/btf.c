// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel's kprobe events take beyond 6.1's grammar
 * (parse.h's struct opev_kernel): on 6.12, functions' prototypes from
 * BTF, looked up and read as its trace_probe.c does, so that an
 * argument is named and typed as the kernel's event would have it.
 */
#include <linux/btf.h>

#include "events.h"
#include "ksyms.h"
#include "wrap-btf-args.h"
#include "wrap-probe-args.h"

#if OP_BTF_ARGS
/* BTF_KIND_INT's encoding and bits follow its btf_type */
static u32 opev_btf_int(const struct btf_type *t)
{
	return *(const u32 *)(t + 1);
}

/* fetch_type_from_btf_type(): the type the kernel records @t's values as */
static const char *opev_btf_fetch(const struct btf_type *t)
{
	static const char *const sints[] = { "s8", "s16", "s32", "s64" };
	static const char *const uints[] = { "u8", "u16", "u32", "u64" };
	u32 bits;

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_ENUM:
		return "s32";
	case BTF_KIND_ENUM64:
		return "s64";
	case BTF_KIND_PTR:
		return "x64";
	case BTF_KIND_INT:
		bits = BTF_INT_BITS(opev_btf_int(t));
		if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
			/* a bitfield: the kernel's u64 when unsigned */
			return BTF_INT_ENCODING(opev_btf_int(t)) & BTF_INT_SIGNED ?
			       NULL : "u64";
		if (BTF_INT_ENCODING(opev_btf_int(t)) & BTF_INT_SIGNED)
			return sints[ilog2(bits / 8)];
		return uints[ilog2(bits / 8)];
	}
	return NULL;
}

/*
 * Type @id of @btf as the parser takes it.  char_ptr is the kernel's
 * btf_type_is_char_ptr(): it reads t->type whatever the kind, which for
 * an integer or enum is its size (so a size_t counts as a char pointer
 * there: 8 is an unsigned char's id in Debian's 6.12), and so does this;
 * a struct's size is not taken for an id (the kernel's lookup of a large
 * one would fail on a NULL type).
 */
static void opev_btf_type(const struct btf *btf, u32 id, struct opev_btf_type *out)
{
	const struct btf_type *t, *to;

	*out = (struct opev_btf_type){};
	t = op_kcall(btf_type_skip_modifiers)(btf, id, NULL);
	if (!t)
		return;
	out->fetch = opev_btf_fetch(t);
	if (!btf_type_is_ptr(t) && !btf_type_is_int(t) && !btf_type_is_enum(t))
		return;
	to = op_kcall(btf_type_skip_modifiers)(btf, t->type, NULL);
	out->char_ptr = to && BTF_INFO_KIND(to->info) == BTF_KIND_INT &&
			!(BTF_INT_ENCODING(opev_btf_int(to)) & BTF_INT_SIGNED) &&
			BTF_INT_BITS(opev_btf_int(to)) == 8;
}

/* struct opev_kernel's find_proto: @symbol's prototype, its strings copied */
static int opev_btf_find_proto(const char *symbol, struct opev_proto *proto)
{
	const struct btf_param *params;
	const struct btf_type *t;
	struct btf *btf;
	unsigned int i;
	const char *name;
	int ret = -1;

	t = op_kcall(btf_find_func_proto)(symbol, &btf);
	if (!t)
		return -1;
	/* a variadic function's last, with no name: refused as the kernel does */
	proto->nr_params = btf_type_vlen(t);
	params = btf_params(t);
	if (proto->nr_params > OPEV_PROTO_MAX_PARAMS)
		goto out;
	for (i = 0; i < proto->nr_params; i++) {
		name = op_kcall(btf_name_by_offset)(btf, params[i].name_off);
		strscpy(proto->names[i], name ?: "", sizeof(proto->names[i]));
		opev_btf_type(btf, params[i].type, &proto->params[i]);
	}
	proto->ret_void = !t->type;
	opev_btf_type(btf, t->type, &proto->ret);
	ret = 0;
out:
	op_kcall(btf_put)(btf);
	return ret;
}

#define OPEV_FIND_PROTO		opev_btf_find_proto
#else
#define OPEV_FIND_PROTO		NULL
#endif

static const struct opev_kernel opev_this_kernel = {
	.return_args = OPEV_RETURN_ARGS,
	.find_proto = OPEV_FIND_PROTO,
	/* not the kernel's: m: lines, on every kernel (marker.c) */
	.find_marker = opev_marker_find,
};

/* What the running kernel's kprobe_events takes beyond 6.1's grammar */
const struct opev_kernel *opev_kernel(void)
{
	return &opev_this_kernel;
}
