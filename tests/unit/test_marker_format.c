// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of core/marker-format.c: the types a marker's format
 * gives its arguments, checked against what printf takes for each
 * conversion after the usual promotions.
 */
#include <string.h>

#include "marker-format.h"
#include "unit.h"

struct format_case {
	const char *format;
	int n;			/* arguments, or -1 */
	const char *types;	/* per argument: size digit, s/u, conversion */
};

static const struct format_case cases[] = {
	{ "", 0, "" },
	{ "no conversions, 100%% sure", 0, "" },
	{ "%d", 1, "4sd" },
	{ "%i %u %x %X %o", 5, "4sd4uu4ux4ux4uo" },
	{ "%ld %lu %lx %lld %llu", 5, "8sd8uu8ux8sd8uu" },
	{ "%zu %zd %td %jx", 4, "8uu8sd8sd8ux" },
	{ "%hd %hhu %c", 3, "4sd4uu4sc" },
	{ "%s:%p", 2, "8us8up" },
	{ "%pS+%pK %p4cc %px", 4, "8up8up8up8up" },
	{ "%-08.3d|%+ #5lx", 2, "4sd8ux" },
	{ "%*d %.*s", 4, "4sd4sd4sd8us" },
	{ "%d %d %d %d %d %d", 6, "4sd4sd4sd4sd4sd4sd" },
	{ "%d %d %d %d %d %d %d", -1, "" },	/* more than the room */
	{ "%f", -1, "" },
	{ "%n", -1, "" },
	{ "%", -1, "" },
	{ "%l", -1, "" },
};

/* "4sd" for one argument */
static void format_types(const struct op_marker_type *t, int n, char *buf)
{
	int i;

	for (i = 0; i < n; i++) {
		*buf++ = '0' + t[i].size;
		*buf++ = t[i].is_signed ? 's' : 'u';
		*buf++ = t[i].conv;
	}
	*buf = '\0';
}

int main(void)
{
	struct op_marker_type types[6];
	char got[3 * 6 + 1];
	unsigned int i;
	int n;

	unit_plan(ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct format_case *c = &cases[i];

		memset(types, 0, sizeof(types));
		n = op_marker_format_types(c->format, types, 6);
		format_types(types, n > 0 ? n : 0, got);
		unit_check(n == c->n && (n < 0 || !strcmp(got, c->types)), c->format,
			   "\"%s\": %d arguments \"%s\", expected %d \"%s\"", c->format, n, got,
			   c->n, c->types);
	}
	return unit_status();
}
