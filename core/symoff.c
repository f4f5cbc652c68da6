// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing of sprint_symbol() output.  See symoff.h.
 */
#include "symoff.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parse "0x[0-9a-f]+" at *sp, advancing *sp past it. */
static int parse_hex(const char **sp, unsigned long *val)
{
	const char *s = *sp;
	unsigned long v = 0;
	int digits = 0, d;

	if (s[0] != '0' || s[1] != 'x')
		return -1;
	for (s += 2; (d = hex_digit(*s)) >= 0; s++) {
		if (++digits > (int)(2 * sizeof(v)))
			return -1;
		v = v << 4 | d;
	}
	if (!digits)
		return -1;
	*sp = s;
	*val = v;
	return 0;
}

int op_symoff_parse(const char *s, const char *name,
		    unsigned long *off, unsigned long *size)
{
	while (*name && *s == *name) {
		s++;
		name++;
	}
	if (*name || *s++ != '+')
		return -1;
	if (parse_hex(&s, off) || *s++ != '/' || parse_hex(&s, size))
		return -1;
	/* A module symbol is followed by " [module]"; nothing else may be. */
	if (*s && *s != ' ')
		return -1;
	return *off < *size || (*off == 0 && *size == 0) ? 0 : -1;
}
