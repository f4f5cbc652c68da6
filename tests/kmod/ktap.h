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

/* Report one case; the reason is printed only on failure.  Returns @pass. */
static inline __printf(4, 5)
bool ktap_check(struct ktap *t, bool pass, const char *name, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (pass) {
		pr_info("ok %u %s\n", t->next++, name);
		return true;
	}
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("not ok %u %s # %pV\n", t->next++, name, &vaf);
	va_end(args);
	t->failed++;
	return false;
}

static inline void ktap_skip(struct ktap *t, const char *name, const char *reason)
{
	pr_info("ok %u %s # SKIP %s\n", t->next++, name, reason);
}

#endif /* OPTPROBE_KTAP_H */
