// SPDX-License-Identifier: GPL-2.0
/*
 * The types of a marker's arguments from its format.  See marker-format.h.
 */
#include "marker-format.h"

static int op_fmt_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int op_fmt_alnum(char c)
{
	return op_fmt_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int op_fmt_flag(char c)
{
	return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0';
}

/* Append an argument to @types[*n]; -1 if there is no room. */
static int op_fmt_add(struct op_marker_type *types, int *n, int max, unsigned char size,
		      unsigned char is_signed, char conv)
{
	if (*n >= max)
		return -1;
	types[*n].size = size;
	types[*n].is_signed = is_signed;
	types[*n].conv = conv;
	(*n)++;
	return 0;
}

/* A width or a precision at *@f: a '*' is an int argument. */
static int op_fmt_number(const char **f, struct op_marker_type *types, int *n, int max)
{
	if (**f == '*') {
		(*f)++;
		return op_fmt_add(types, n, max, 4, 1, 'd');
	}
	while (op_fmt_digit(**f))
		(*f)++;
	return 0;
}

/* The size a length modifier at *@f gives an integer conversion. */
static unsigned char op_fmt_length(const char **f)
{
	switch (**f) {
	case 'h':
		while (**f == 'h')
			(*f)++;
		return 4;	/* promoted to int */
	case 'l':
		while (**f == 'l')
			(*f)++;
		return 8;
	case 'z':
	case 't':
	case 'j':
		(*f)++;
		return 8;
	default:
		return 4;
	}
}

int op_marker_format_types(const char *f, struct op_marker_type *types, int max)
{
	unsigned char size;
	int n = 0;

	while (*f) {
		if (*f++ != '%')
			continue;
		if (*f == '%') {
			f++;
			continue;
		}
		while (op_fmt_flag(*f))
			f++;
		if (op_fmt_number(&f, types, &n, max))
			return -1;
		if (*f == '.') {
			f++;
			if (op_fmt_number(&f, types, &n, max))
				return -1;
		}
		size = op_fmt_length(&f);
		switch (*f++) {
		case 'd':
		case 'i':
			if (op_fmt_add(types, &n, max, size, 1, 'd'))
				return -1;
			break;
		case 'u':
		case 'o':
			if (op_fmt_add(types, &n, max, size, 0, f[-1]))
				return -1;
			break;
		case 'x':
		case 'X':
			if (op_fmt_add(types, &n, max, size, 0, 'x'))
				return -1;
			break;
		case 'c':
			if (op_fmt_add(types, &n, max, 4, 1, 'c'))
				return -1;
			break;
		case 's':
			if (op_fmt_add(types, &n, max, 8, 0, 's'))
				return -1;
			break;
		case 'p':
			/* the kernel's extensions: letters and digits after it */
			while (op_fmt_alnum(*f))
				f++;
			if (op_fmt_add(types, &n, max, 8, 0, 'p'))
				return -1;
			break;
		default:
			return -1;
		}
	}
	return n;
}
