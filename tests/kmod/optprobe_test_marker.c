// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on the static markers of optprobe_target_marker.ko:
 *  - each is jump-optimized as soon as optprobe_marker_register() returns;
 *  - its handler gets the marker's arguments exactly, wherever the
 *    compiler kept them (registers, a register's low half, the stack,
 *    globals, fields, an array element, constants), each sign- or
 *    zero-extended from its promoted type, a %s one pointing at the
 *    string, a '*' width or precision an argument of its own; and the
 *    registers at the marker's nop, in its function;
 *  - a marker in an inline function fires at both its sites;
 *  - errors: a format not the marker's, an unknown marker, a probe
 *    registered twice, a probe without a handler;
 *  - several probes on one marker run in registration order; disabled
 *    ones do not run, and run again once enabled; optprobe_marker_hits()
 *    counts the handler's runs; nothing runs after unregistering.
 * The probe on tm_inline stays registered until this module is unloaded:
 * optprobe_test_marker.sh reads its sites in debugfs, and compares the
 * hits with the parameters inline_hits_a and inline_hits_b.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include <optprobe-marker.h>

#include "optprobe_target_marker.h"
#include "optprobe_test.h"

#define STR_MAX		32
#define NO_STR		-1

struct tprobe {
	struct optprobe_marker_probe mp;
	const char *fn;			/* the function holding the marker */
	unsigned int nargs;
	int str_arg;			/* the %s argument to copy, or NO_STR */
	char id;			/* written to order_log at each run, if set */

	unsigned int calls;
	u64 args[OPTPROBE_MARKER_ARGS_MAX];
	unsigned long ip;
	char str[STR_MAX];
};

/* The ids of the probes that ran, in order. */
static char order_log[16];
static unsigned int order_len;

static void order_reset(void)
{
	memset(order_log, 0, sizeof(order_log));
	order_len = 0;
}

static void tp_handler(struct optprobe_marker_probe *mp, struct pt_regs *regs, const u64 *args)
{
	struct tprobe *tp = container_of(mp, struct tprobe, mp);

	tp->calls++;
	memcpy(tp->args, args, tp->nargs * sizeof(*args));
	tp->ip = instruction_pointer(regs);
	tp->str[0] = '\0';
	if (tp->str_arg != NO_STR && args[tp->str_arg])
		strscpy(tp->str, (const char *)(unsigned long)args[tp->str_arg], sizeof(tp->str));
	if (tp->id && order_len < sizeof(order_log) - 1)
		order_log[order_len++] = tp->id;
}

#define TPROBE(marker, func, n, s) {						\
	.mp = { .module = TM_MODULE, .name = #marker, .handler = tp_handler },	\
	.fn = "optprobe_target_marker_" #func, .nargs = n, .str_arg = s }

enum {
	P_INT, P_DIRTY, P_SMALL, P_STACK, P_LONG, P_PTR, P_CONST, P_GLOBAL, P_FIELD, P_INDEX,
	P_NOARG, P_FLAGS, P_SIX, NR_VAL
};

static struct tprobe vp[NR_VAL] = {
	[P_INT] = TPROBE(tm_int, int, 1, NO_STR),
	[P_DIRTY] = TPROBE(tm_dirty, dirty, 2, NO_STR),
	[P_SMALL] = TPROBE(tm_small, small, 5, NO_STR),
	[P_STACK] = TPROBE(tm_stack, stack, 2, NO_STR),
	[P_LONG] = TPROBE(tm_long, long, 2, NO_STR),
	[P_PTR] = TPROBE(tm_ptr, ptr, 2, 1),
	[P_CONST] = TPROBE(tm_const, const, 5, 4),
	[P_GLOBAL] = TPROBE(tm_global, global, 3, NO_STR),
	[P_FIELD] = TPROBE(tm_field, field, 3, 2),
	[P_INDEX] = TPROBE(tm_index, index, 1, NO_STR),
	[P_NOARG] = TPROBE(tm_noarg, noarg, 0, NO_STR),
	[P_FLAGS] = TPROBE(tm_flags, flags, 6, 3),
	[P_SIX] = TPROBE(tm_six, six, 6, 5),
};

static const char * const vp_format[NR_VAL] = {
	[P_INT] = TM_INT_FMT, [P_DIRTY] = TM_DIRTY_FMT, [P_SMALL] = TM_SMALL_FMT,
	[P_STACK] = TM_STACK_FMT, [P_LONG] = TM_LONG_FMT, [P_PTR] = TM_PTR_FMT,
	[P_CONST] = TM_CONST_FMT, [P_GLOBAL] = TM_GLOBAL_FMT, [P_FIELD] = TM_FIELD_FMT,
	[P_INDEX] = TM_INDEX_FMT, [P_NOARG] = TM_NOARG_FMT, [P_FLAGS] = TM_FLAGS_FMT,
	[P_SIX] = TM_SIX_FMT,
};

static bool vp_registered[NR_VAL];
static struct ktap t;

/* Does @ip lie in the function @fn (not at its start)? */
static bool ip_in(unsigned long ip, const char *fn)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t n = strlen(fn);

	sprint_symbol(buf, ip);
	return !strncmp(buf, fn, n) && buf[n] == '+' && strncmp(buf + n, "+0x0/", 5);
}

/* Which arguments a check compares: all but those in @skip (a bitmap). */
static void check_args(struct tprobe *tp, const char *what, unsigned int calls, const u64 *want,
		       unsigned int skip, const char *str)
{
	char name[TEST_NAME_LEN], sym[KSYM_SYMBOL_LEN];
	unsigned int i;

	for (i = 0; i < tp->nargs; i++)
		if (!(skip & BIT(i)) && tp->args[i] != want[i])
			break;
	if (tp->calls != calls) {
		ktap_check(&t, false, test_name(name, tp->mp.name, what),
			   "%u handler runs for %u calls", tp->calls, calls);
	} else if (i < tp->nargs) {
		ktap_check(&t, false, test_name(name, tp->mp.name, what),
			   "argument %u is 0x%llx, not 0x%llx", i + 1, tp->args[i], want[i]);
	} else if (str && strcmp(tp->str, str)) {
		ktap_check(&t, false, test_name(name, tp->mp.name, what),
			   "string argument \"%s\", not \"%s\"", tp->str, str);
	} else {
		sprint_symbol(sym, tp->ip);
		ktap_check(&t, ip_in(tp->ip, tp->fn), test_name(name, tp->mp.name, what),
			   "instruction pointer at %s, not in %s", sym, tp->fn);
	}
}

static const char ptr_str[] = "a string through a pointer";
static const char field_str[] = "a field's string";
static const char six_str[] = "six";
static int ptr_target;

#define S64(x)		((u64)(s64)(x))
#define INT_ARG		-123456
#define DIRTY_ARG	0xdeadbeef80000001UL
#define LONG_ARG	-5000000000L
#define ULONG_ARG	0xfedcba9876543210UL

/* Fire each marker with chosen values; check what its handler got. */
static void check_values(void)
{
	struct optprobe_tm_fields f = { -9, 0xa5a5a5a5a5a5a5a5UL, field_str };
	struct optprobe_tm_fields f6 = { 0, 0x1122334455667788UL, six_str };
	static const unsigned long array[] = { 1, 2, 0xc0ffee00c0ffeeUL, 4 };
	u64 want[OPTPROBE_MARKER_ARGS_MAX];
	int i;

	optprobe_target_marker_int(INT_ARG);
	want[0] = S64(INT_ARG);
	check_args(&vp[P_INT], "int_sign_extended", 1, want, 0, NULL);

	optprobe_target_marker_dirty(DIRTY_ARG);
	want[0] = lower_32_bits(DIRTY_ARG);
	want[1] = S64((s32)lower_32_bits(DIRTY_ARG));
	check_args(&vp[P_DIRTY], "low_half_of_register_extended", 1, want, 0, NULL);

	optprobe_target_marker_small(-100, -2, 0xfff0, 200, 0xfffffff0u);
	want[0] = S64(-100);
	want[1] = S64(-2);
	want[2] = 0xfff0;
	want[3] = 200;
	want[4] = 0xfffffff0u;
	check_args(&vp[P_SMALL], "promoted_types_extended", 1, want, 0, NULL);

	optprobe_target_marker_stack(-5, 0x12345678);
	want[0] = S64(-5);
	want[1] = 0x12345678;
	check_args(&vp[P_STACK], "locals_on_the_stack", 1, want, 0, NULL);

	optprobe_target_marker_long(LONG_ARG, ULONG_ARG);
	want[0] = S64(LONG_ARG);
	want[1] = ULONG_ARG;
	check_args(&vp[P_LONG], "64_bit_values", 1, want, 0, NULL);

	optprobe_target_marker_ptr(&ptr_target, ptr_str);
	want[0] = (unsigned long)&ptr_target;
	want[1] = (unsigned long)ptr_str;
	check_args(&vp[P_PTR], "pointer_and_string", 1, want, 0, ptr_str);

	/* the string's address is the target's: its contents are checked */
	optprobe_target_marker_const();
	want[0] = S64(TM_CONST_1);
	want[1] = TM_CONST_2;
	want[2] = TM_CONST_3;
	want[3] = TM_CONST_4;
	check_args(&vp[P_CONST], "constants", 1, want, BIT(4), TM_CONST_STR);

	optprobe_tm_global_int = -77;
	optprobe_tm_global_ulong = 0x8000000000000001UL;
	optprobe_tm_global_uchar = 0xfe;
	optprobe_target_marker_global();
	want[0] = S64(-77);
	want[1] = 0x8000000000000001UL;
	want[2] = 0xfe;
	check_args(&vp[P_GLOBAL], "globals", 1, want, 0, NULL);
	optprobe_tm_global_int = INT_MAX;
	optprobe_tm_global_ulong = 3;
	optprobe_tm_global_uchar = 1;
	optprobe_target_marker_global();
	want[0] = INT_MAX;
	want[1] = 3;
	want[2] = 1;
	check_args(&vp[P_GLOBAL], "globals_read_at_each_hit", 2, want, 0, NULL);

	optprobe_target_marker_field(&f);
	want[0] = S64(-9);
	want[1] = 0xa5a5a5a5a5a5a5a5UL;
	want[2] = (unsigned long)field_str;
	check_args(&vp[P_FIELD], "fields", 1, want, 0, field_str);

	optprobe_target_marker_index(array, 2);
	want[0] = array[2];
	check_args(&vp[P_INDEX], "array_element", 1, want, 0, NULL);

	for (i = 0; i < 3; i++)
		optprobe_target_marker_noarg();
	check_args(&vp[P_NOARG], "no_argument", 3, want, 0, NULL);

	/* a '*' precision is an int argument of its own */
	optprobe_target_marker_flags(-3, 0xfffffffffffffffeUL, 4, ptr_str, 'A', 0x80000000u);
	want[0] = S64(-3);
	want[1] = 0xfffffffffffffffeUL;
	want[2] = 4;
	want[3] = (unsigned long)ptr_str;
	want[4] = 'A';
	want[5] = 0x80000000u;
	check_args(&vp[P_FLAGS], "flags_width_precision", 1, want, 0, ptr_str);

	optprobe_tm_global_ulong = 0x8000000000000000UL;
	optprobe_target_marker_six(-1, &f6, &ptr_target);
	want[0] = S64(-1);
	want[1] = 7;
	want[2] = 0x8000000000000000UL;
	want[3] = 0x1122334455667788UL;
	want[4] = (unsigned long)&ptr_target;
	want[5] = (unsigned long)six_str;
	check_args(&vp[P_SIX], "six_arguments", 1, want, 0, six_str);
}

/* Every value probe: registered, optimized at once. */
static void register_values(void)
{
	char name[TEST_NAME_LEN];
	enum optprobe_mode mode;
	int i, ret;

	for (i = 0; i < NR_VAL; i++) {
		vp[i].mp.format = vp_format[i];
		ret = optprobe_marker_register(&vp[i].mp);
		vp_registered[i] = !ret;
		mode = ret ? OPTPROBE_MODE_DISABLED : optprobe_marker_mode(&vp[i].mp);
		ktap_check(&t, !ret && mode == OPTPROBE_MODE_OPTIMIZED,
			   test_name(name, vp[i].mp.name, "optimized_on_register"),
			   "register returned %d, mode %s", ret, test_mode_name(mode));
	}
}

/* optprobe_marker_hits() and nmissed of every value probe. */
static void check_value_hits(void)
{
	unsigned long hits = 0;
	int i;

	for (i = 0; i < NR_VAL; i++) {
		hits = optprobe_marker_hits(&vp[i].mp);
		if (hits != vp[i].calls)
			break;
	}
	ktap_check(&t, i == NR_VAL, "hits_count_handler_runs", "%s: %lu hits, %u handler runs",
		   i < NR_VAL ? vp[i].mp.name : "", hits, i < NR_VAL ? vp[i].calls : 0);
	for (i = 0; i < NR_VAL; i++)
		if (vp[i].mp.nmissed)
			break;
	ktap_check(&t, i == NR_VAL, "no_misses", "%s: nmissed %lu",
		   i < NR_VAL ? vp[i].mp.name : "", i < NR_VAL ? vp[i].mp.nmissed : 0);
}

/* tm_inline: one marker, a site in each of two functions. */
static struct optprobe_marker_probe inline_mp;
static bool inline_registered;
static unsigned int inline_calls[3];
static unsigned long inline_sum[3], inline_ip[3];
static unsigned int inline_wrong;

static void inline_handler(struct optprobe_marker_probe *mp, struct pt_regs *regs,
			   const u64 *args)
{
	unsigned long ip = instruction_pointer(regs);

	if (args[0] != 1 && args[0] != 2) {
		inline_wrong++;
		return;
	}
	inline_calls[args[0]]++;
	inline_sum[args[0]] += args[1];
	if (inline_ip[args[0]] && inline_ip[args[0]] != ip)
		inline_wrong++;
	inline_ip[args[0]] = ip;
}

static unsigned int inline_hits_a, inline_hits_b;
module_param(inline_hits_a, uint, 0444);
MODULE_PARM_DESC(inline_hits_a, "runs of the tm_inline probe at its site in inline_a");
module_param(inline_hits_b, uint, 0444);
MODULE_PARM_DESC(inline_hits_b, "runs of the tm_inline probe at its site in inline_b");

static void check_inline(void)
{
	char a[KSYM_SYMBOL_LEN], b[KSYM_SYMBOL_LEN];
	unsigned long hits;
	int ret, i;

	inline_mp.module = TM_MODULE;
	inline_mp.name = "tm_inline";
	inline_mp.format = TM_INLINE_FMT;
	inline_mp.handler = inline_handler;
	ret = optprobe_marker_register(&inline_mp);
	inline_registered = !ret;
	ktap_check(&t, !ret && optprobe_marker_mode(&inline_mp) == OPTPROBE_MODE_OPTIMIZED,
		   "tm_inline_optimized_on_register", "register returned %d, mode %s", ret,
		   test_mode_name(ret ? OPTPROBE_MODE_DISABLED : optprobe_marker_mode(&inline_mp)));
	for (i = 0; i < 3; i++)
		optprobe_target_marker_inline_a(100 + i);
	for (i = 0; i < 2; i++)
		optprobe_target_marker_inline_b(200 + i);
	sprint_symbol(a, inline_ip[1]);
	sprint_symbol(b, inline_ip[2]);
	ktap_check(&t, inline_calls[1] == 3 && inline_calls[2] == 2 && !inline_wrong &&
		   inline_sum[1] == 303 && inline_sum[2] == 401 &&
		   ip_in(inline_ip[1], "optprobe_target_marker_inline_a") &&
		   ip_in(inline_ip[2], "optprobe_target_marker_inline_b"),
		   "tm_inline_fires_at_both_sites",
		   "%u and %u runs (of 3 and 2), sums %lu and %lu (of 303 and 401), %u wrong, at %s and %s",
		   inline_calls[1], inline_calls[2], inline_sum[1], inline_sum[2], inline_wrong, a,
		   b);
	hits = inline_registered ? optprobe_marker_hits(&inline_mp) : 0;
	ktap_check(&t, hits == 5 && !inline_mp.nmissed, "tm_inline_hits_summed_over_sites",
		   "%lu hits, nmissed %lu, for 5 calls", hits, inline_mp.nmissed);
	inline_hits_a = inline_calls[1];
	inline_hits_b = inline_calls[2];
}

/* Register @mp, which must be refused: if it is not, unregister it again. */
static int refused(struct optprobe_marker_probe *mp)
{
	int ret = optprobe_marker_register(mp);

	if (!ret)
		optprobe_marker_unregister(mp);
	return ret;
}

/* Refusals; none of them leaves the probe registered or disturbs tm_int's. */
static void check_errors(void)
{
	struct optprobe_marker_probe mp;
	unsigned int calls = vp[P_INT].calls;
	int ret_fmt, ret_space, ret_unknown, ret_other, ret_dup, ret_nohandler, ret_nofmt;
	int ret_nomod;

	memset(&mp, 0, sizeof(mp));
	mp.module = TM_MODULE;
	mp.name = "tm_int";
	mp.handler = tp_handler;
	mp.format = "%u";
	ret_fmt = refused(&mp);
	mp.format = TM_INT_FMT " ";
	ret_space = refused(&mp);
	ktap_check(&t, ret_fmt == -EINVAL && ret_space == -EINVAL &&
		   optprobe_marker_mode(&mp) == OPTPROBE_MODE_DISABLED,
		   "format_not_the_markers_einval", "\"%%u\": %d, \"%%d \": %d, mode %s", ret_fmt,
		   ret_space, test_mode_name(optprobe_marker_mode(&mp)));

	mp.format = TM_INT_FMT;
	mp.name = "tm_no_such_marker";
	ret_unknown = refused(&mp);
	/* a marker's name is looked up in its module only */
	mp.name = "tm_int";
	mp.module = KBUILD_MODNAME;
	ret_other = refused(&mp);
	ktap_check(&t, ret_unknown == -ENOENT && ret_other == -ENOENT, "unknown_marker_enoent",
		   "unknown name %d, name of another module's marker %d", ret_unknown, ret_other);

	mp.module = TM_MODULE;
	mp.handler = NULL;
	ret_nohandler = refused(&mp);
	mp.handler = tp_handler;
	mp.format = NULL;
	ret_nofmt = refused(&mp);
	mp.format = TM_INT_FMT;
	mp.module = NULL;
	ret_nomod = refused(&mp);
	ktap_check(&t, ret_nohandler == -EINVAL && ret_nofmt == -EINVAL && ret_nomod == -EINVAL,
		   "missing_field_einval", "no handler %d, no format %d, no module %d",
		   ret_nohandler, ret_nofmt, ret_nomod);

	ret_dup = vp_registered[P_INT] ? optprobe_marker_register(&vp[P_INT].mp) : 0;
	optprobe_target_marker_int(INT_ARG);
	ktap_check(&t, ret_dup == -EEXIST && vp[P_INT].calls == calls + 1 &&
		   optprobe_marker_hits(&vp[P_INT].mp) == calls + 1,
		   "registered_twice_eexist_and_still_fires_once",
		   "returned %d; %u handler runs, %lu hits for 1 call", ret_dup,
		   vp[P_INT].calls - calls, optprobe_marker_hits(&vp[P_INT].mp) - calls);
}

/* Probes A, B, C on tm_multi: registration order, disabled, enabled, gone. */
static struct tprobe mp_a = TPROBE(tm_multi, multi, 1, NO_STR);
static struct tprobe mp_b = TPROBE(tm_multi, multi, 1, NO_STR);
static struct tprobe mp_c = TPROBE(tm_multi, multi, 1, NO_STR);

static int multi_register(struct tprobe *tp, char id, unsigned int flags)
{
	tp->mp.format = TM_MULTI_FMT;
	tp->mp.flags = flags;
	tp->id = id;
	return optprobe_marker_register(&tp->mp);
}

static void multi_fire(unsigned int n)
{
	unsigned int i;

	order_reset();
	for (i = 0; i < n; i++)
		optprobe_target_marker_multi(-1000 - i);
}

static void check_multi(void)
{
	int ra, rb, rc, ra2, rc_en;
	enum optprobe_mode mc;
	unsigned long ha, hb;

	ra = multi_register(&mp_a, 'A', 0);
	rb = multi_register(&mp_b, 'B', 0);
	multi_fire(2);
	ha = optprobe_marker_hits(&mp_a.mp);
	hb = optprobe_marker_hits(&mp_b.mp);
	ktap_check(&t, !ra && !rb && !strcmp(order_log, "ABAB") && mp_a.calls == 2 &&
		   mp_b.calls == 2 && ha == 2 && hb == 2 && mp_a.args[0] == S64(-1001) &&
		   mp_b.args[0] == S64(-1001), "two_probes_both_run_in_registration_order",
		   "register %d %d; runs \"%s\" for 2 calls; %lu %lu hits; last arguments %lld %lld",
		   ra, rb, order_log, ha, hb, mp_a.args[0], mp_b.args[0]);

	if (!ra)
		optprobe_marker_unregister(&mp_a.mp);
	multi_fire(1);
	ktap_check(&t, !strcmp(order_log, "B") && mp_a.calls == 2 && mp_b.calls == 3,
		   "other_probe_runs_on_after_unregister", "runs \"%s\"; %u %u handler runs",
		   order_log, mp_a.calls, mp_b.calls);

	ra2 = multi_register(&mp_a, 'A', 0);
	rc = multi_register(&mp_c, 'C', OPTPROBE_F_DISABLED);
	mc = rc ? OPTPROBE_MODE_GONE : optprobe_marker_mode(&mp_c.mp);
	multi_fire(1);
	ktap_check(&t, !ra2 && !rc && mc == OPTPROBE_MODE_DISABLED &&
		   !strcmp(order_log, "BA") && !mp_c.calls &&
		   optprobe_marker_hits(&mp_c.mp) == 0,
		   "registered_again_runs_last_registered_disabled_not",
		   "register %d %d; C's mode %s; runs \"%s\"; C's hits %lu", ra2, rc,
		   test_mode_name(mc), order_log, optprobe_marker_hits(&mp_c.mp));

	rc_en = optprobe_marker_enable(&mp_c.mp);
	mc = optprobe_marker_mode(&mp_c.mp);
	multi_fire(1);
	ktap_check(&t, !rc_en && mc == OPTPROBE_MODE_OPTIMIZED && !strcmp(order_log, "BAC") &&
		   mp_c.calls == 1 && optprobe_marker_hits(&mp_c.mp) == 1,
		   "enabled_probe_runs_in_its_place",
		   "enable %d, mode %s; runs \"%s\"; C: %u runs, %lu hits",
		   rc_en, test_mode_name(mc), order_log, mp_c.calls,
		   optprobe_marker_hits(&mp_c.mp));

	/* A: 2 runs in its first registration, 2 in its second */
	ktap_check(&t, optprobe_marker_hits(&mp_a.mp) == 2 && mp_a.calls == 4 &&
		   optprobe_marker_hits(&mp_b.mp) == 5 && mp_b.calls == 5 &&
		   !mp_a.mp.nmissed && !mp_b.mp.nmissed && !mp_c.mp.nmissed,
		   "hits_per_probe_and_registration",
		   "A: %lu hits, %u runs (2, 4 expected); B: %lu, %u (5, 5); nmissed %lu %lu %lu",
		   optprobe_marker_hits(&mp_a.mp), mp_a.calls, optprobe_marker_hits(&mp_b.mp),
		   mp_b.calls, mp_a.mp.nmissed, mp_b.mp.nmissed, mp_c.mp.nmissed);

	if (!ra2)
		optprobe_marker_unregister(&mp_a.mp);
	if (!rb)
		optprobe_marker_unregister(&mp_b.mp);
	if (!rc)
		optprobe_marker_unregister(&mp_c.mp);
	mp_a.calls = 0;
	mp_b.calls = 0;
	mp_c.calls = 0;
	multi_fire(2);
	ktap_check(&t, !order_len && !mp_a.calls && !mp_b.calls && !mp_c.calls &&
		   optprobe_marker_mode(&mp_a.mp) == OPTPROBE_MODE_DISABLED &&
		   optprobe_marker_mode(&mp_b.mp) == OPTPROBE_MODE_DISABLED,
		   "none_runs_after_all_unregistered", "runs \"%s\"; modes %s %s", order_log,
		   test_mode_name(optprobe_marker_mode(&mp_a.mp)),
		   test_mode_name(optprobe_marker_mode(&mp_b.mp)));
}

/* tm_toggle: disable, enable, and both on a probe not registered. */
static struct tprobe toggle = TPROBE(tm_toggle, toggle, 1, NO_STR);

static void check_toggle(void)
{
	int ret, dis, en, dis_unreg, en_unreg;
	enum optprobe_mode m_dis, m_en;
	unsigned long h_dis, h_en;

	toggle.mp.format = TM_TOGGLE_FMT;
	ret = optprobe_marker_register(&toggle.mp);
	optprobe_target_marker_toggle(1);
	dis = optprobe_marker_disable(&toggle.mp);
	m_dis = optprobe_marker_mode(&toggle.mp);
	optprobe_target_marker_toggle(2);
	optprobe_target_marker_toggle(3);
	h_dis = optprobe_marker_hits(&toggle.mp);
	ktap_check(&t, !ret && !dis && m_dis == OPTPROBE_MODE_DISABLED && toggle.calls == 1 &&
		   h_dis == 1 && toggle.args[0] == 1, "disabled_probe_does_not_run",
		   "register %d, disable %d, mode %s; %u runs, %lu hits, last argument %lld (1 expected)",
		   ret, dis, test_mode_name(m_dis), toggle.calls, h_dis, toggle.args[0]);

	en = optprobe_marker_enable(&toggle.mp);
	m_en = optprobe_marker_mode(&toggle.mp);
	optprobe_target_marker_toggle(4);
	h_en = optprobe_marker_hits(&toggle.mp);
	ktap_check(&t, !en && m_en == OPTPROBE_MODE_OPTIMIZED && toggle.calls == 2 && h_en == 2 &&
		   toggle.args[0] == 4, "enabled_probe_runs_again_optimized",
		   "enable %d, mode %s; %u runs, %lu hits, last argument %lld (4 expected)", en,
		   test_mode_name(m_en), toggle.calls, h_en, toggle.args[0]);

	if (!ret)
		optprobe_marker_unregister(&toggle.mp);
	dis_unreg = optprobe_marker_disable(&toggle.mp);
	en_unreg = optprobe_marker_enable(&toggle.mp);
	optprobe_target_marker_toggle(5);
	ktap_check(&t, dis_unreg == -EINVAL && en_unreg == -EINVAL && toggle.calls == 2 &&
		   optprobe_marker_mode(&toggle.mp) == OPTPROBE_MODE_DISABLED,
		   "unregistered_probe_refuses_enable_disable",
		   "disable %d, enable %d; %u runs (2 expected), mode %s", dis_unreg, en_unreg,
		   toggle.calls, test_mode_name(optprobe_marker_mode(&toggle.mp)));
}

/* Unregister the value probes; call every function: no handler runs. */
static void check_unregistered(void)
{
	struct optprobe_tm_fields f = { 1, 2, field_str };
	unsigned long array[1] = { 0 };
	unsigned int runs = 0;
	int i;

	for (i = 0; i < NR_VAL; i++) {
		if (vp_registered[i])
			optprobe_marker_unregister(&vp[i].mp);
		vp_registered[i] = false;
		vp[i].calls = 0;
	}
	optprobe_target_marker_int(1);
	optprobe_target_marker_dirty(1);
	optprobe_target_marker_small(1, 1, 1, 1, 1);
	optprobe_target_marker_stack(1, 1);
	optprobe_target_marker_long(1, 1);
	optprobe_target_marker_ptr(NULL, field_str);
	optprobe_target_marker_const();
	optprobe_target_marker_global();
	optprobe_target_marker_field(&f);
	optprobe_target_marker_index(array, 0);
	optprobe_target_marker_noarg();
	optprobe_target_marker_flags(1, 1, 1, field_str, 'a', 1);
	optprobe_target_marker_six(1, &f, NULL);
	for (i = 0; i < NR_VAL; i++)
		runs += vp[i].calls;
	ktap_check(&t, !runs, "no_run_after_unregister", "%u handler runs", runs);
}

#define NR_CHECKS	(NR_VAL + 14 + 2 + 3 + 4 + 6 + 3 + 1)

static int __init test_marker_init(void)
{
	ktap_start(&t, NR_CHECKS);
	register_values();
	check_values();
	check_value_hits();
	check_inline();
	check_errors();
	check_multi();
	check_toggle();
	check_unregistered();
	if (t.next != NR_CHECKS + 1)
		pr_warn("%u results for a plan of %u\n", t.next - 1, NR_CHECKS);
	return 0;
}

static void __exit test_marker_exit(void)
{
	if (inline_registered)
		optprobe_marker_unregister(&inline_mp);
}

module_init(test_marker_init);
module_exit(test_marker_exit);

MODULE_DESCRIPTION("optprobe test: probes on static markers");
MODULE_LICENSE("GPL");
