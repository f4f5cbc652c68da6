/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types of a static marker's arguments, read from its printf format:
 * the compiler checked the arguments against it (include/optprobe-marker.h),
 * so the format is their type, as with the original kernel markers.
 *
 * Freestanding: no kernel or libc headers, so that the host unit tests
 * build exactly this code (tests/unit/test_marker_format.c).
 */
#ifndef OPTPROBE_MARKER_FORMAT_H
#define OPTPROBE_MARKER_FORMAT_H

/* One argument, after the usual promotions. */
struct op_marker_type {
	unsigned char size;	/* in bytes: 4 or 8 */
	unsigned char is_signed;
	char conv;		/* the conversion: d, u, x, o, c, s or p (i is d, X is x) */
};

/**
 * op_marker_format_types() - the arguments a printf format takes
 * @format:	the format, with the kernel's %p extensions (%pS, %pK, ...)
 * @types:	out: one entry per argument, in order
 * @max:	the room in @types
 *
 * A '*' width or precision takes an int argument of its own.
 *
 * Return: how many arguments, or -1 for a conversion that takes no
 * integer or pointer (%f, %n, an unknown one), or more than @max.
 */
int op_marker_format_types(const char *format, struct op_marker_type *types, int max);

#endif /* OPTPROBE_MARKER_FORMAT_H */
