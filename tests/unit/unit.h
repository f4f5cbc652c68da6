/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal harness for optprobe's host unit tests: each binary prints
 * KTAP and exits non-zero if any case failed.
 */
#ifndef OPTPROBE_UNIT_H
#define OPTPROBE_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static unsigned int unit_next = 1, unit_failed;

static inline void unit_plan(unsigned int n)
{
	printf("KTAP version 1\n1..%u\n", n);
}

/* Report one case; the reason is printed only on failure. */
static inline void unit_check(bool pass, const char *name, const char *fmt, ...)
{
	va_list args;

	if (pass) {
		printf("ok %u %s\n", unit_next++, name);
		return;
	}
	unit_failed++;
	printf("not ok %u %s # ", unit_next++, name);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	printf("\n");
}

/* The exit status of the test binary. */
static inline int unit_status(void)
{
	return unit_failed ? 1 : 0;
}

#endif /* OPTPROBE_UNIT_H */
