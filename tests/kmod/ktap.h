/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP output for optprobe's test modules.  scripts/vm-run and scripts/check
 * read these lines off the console: "KTAP version 1", a plan "1..N", then
 * "ok N name", "not ok N name # reason" or "ok N name # SKIP reason".
 */
#ifndef OPTPROBE_KTAP_H
#define OPTPROBE_KTAP_H

#include <linux/printk.h>

struct ktap {
	unsigned int next;
	unsigned int failed;
};

static inline void ktap_start(struct ktap *t, unsigned int plan)
{
	t->next = 1;
	t->failed = 0;
	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", plan);
}

/* Report one case; returns @pass so callers can stop on a failure. */
#define ktap_check(t, pass, name, fmt, ...)				\
({									\
	bool __pass = (pass);						\
	if (__pass)							\
		pr_info("ok %u %s\n", (t)->next++, name);		\
	else {								\
		(t)->failed++;						\
		pr_info("not ok %u %s # " fmt "\n", (t)->next++, name,	\
			##__VA_ARGS__);					\
	}								\
	__pass;								\
})

#define ktap_skip(t, name, reason)					\
	pr_info("ok %u %s # SKIP %s\n", (t)->next++, name, reason)

#endif /* OPTPROBE_KTAP_H */
