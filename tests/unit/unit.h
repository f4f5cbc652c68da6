/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal test harness for optprobe's host unit tests: each binary
 * prints KTAP and exits non-zero if any case failed.
 */
#ifndef OPTPROBE_UNIT_H
#define OPTPROBE_UNIT_H

#include <stdio.h>

static unsigned int unit_next = 1, unit_failed;

#define UNIT_PLAN(n) printf("KTAP version 1\n1..%u\n", (unsigned int)(n))

#define UNIT_CHECK(cond, name, fmt, ...)				\
	do {								\
		if (cond) {						\
			printf("ok %u %s\n", unit_next++, name);	\
		} else {						\
			unit_failed++;					\
			printf("not ok %u %s # " fmt "\n", unit_next++,	\
			       name, ##__VA_ARGS__);			\
		}							\
	} while (0)

#define UNIT_EXIT() return unit_failed ? 1 : 0

#endif /* OPTPROBE_UNIT_H */
