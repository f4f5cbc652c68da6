// SPDX-License-Identifier: GPL-2.0
/*
 * The error log of the definitions file: its last OPEV_ERRLOG_MAX refused
 * lines, each as the kernel's tracing/error_log shows one,
 *
 *   [  123.456789] optprobe_events: error: <reason>
 *     Command: <the line>
 *                  ^
 *
 * with the caret under the token the reason is about.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "events.h"

#define OPEV_ERRLOG_MAX		16	/* as the kernel's TRACING_LOG_ERRS_MAX */
#define OPEV_ERRLOG_CMD_MAX	256	/* a longer line is cut */
#define OPEV_ERRLOG_PREFIX	"  Command: "

struct opev_errlog_entry {
	struct list_head list;
	u64 ts;
	unsigned int column;
	const char *reason;
	char cmd[OPEV_ERRLOG_CMD_MAX];
};

static DEFINE_MUTEX(opev_errlog_mutex);
static LIST_HEAD(opev_errlog);
static unsigned int opev_errlog_len;

void opev_log_error(const char *cmd, unsigned int column, const char *reason)
{
	struct opev_errlog_entry *e;

	mutex_lock(&opev_errlog_mutex);
	if (opev_errlog_len == OPEV_ERRLOG_MAX) {
		/* the oldest makes room */
		e = list_first_entry(&opev_errlog, struct opev_errlog_entry, list);
		list_del(&e->list);
	} else {
		e = kmalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			goto out;
		opev_errlog_len++;
	}
	e->ts = local_clock();
	e->reason = reason;
	strscpy(e->cmd, cmd, sizeof(e->cmd));
	e->column = min_t(unsigned int, column, strlen(e->cmd));
	list_add_tail(&e->list, &opev_errlog);
out:
	mutex_unlock(&opev_errlog_mutex);
}

void opev_errlog_clear(void)
{
	struct opev_errlog_entry *e, *tmp;

	mutex_lock(&opev_errlog_mutex);
	list_for_each_entry_safe(e, tmp, &opev_errlog, list)
		kfree(e);
	INIT_LIST_HEAD(&opev_errlog);
	opev_errlog_len = 0;
	mutex_unlock(&opev_errlog_mutex);
}

int opev_errlog_show(struct seq_file *m)
{
	struct opev_errlog_entry *e;
	u32 nsec;
	u64 sec;

	mutex_lock(&opev_errlog_mutex);
	list_for_each_entry(e, &opev_errlog, list) {
		sec = div_u64_rem(e->ts, NSEC_PER_SEC, &nsec);
		seq_printf(m, "[%5llu.%06u] optprobe_events: error: %s\n" OPEV_ERRLOG_PREFIX "%s\n",
			   sec, (unsigned int)(nsec / NSEC_PER_USEC), e->reason, e->cmd);
		seq_printf(m, "%*s^\n", (int)(sizeof(OPEV_ERRLOG_PREFIX) - 1 + e->column), "");
	}
	mutex_unlock(&opev_errlog_mutex);
	return 0;
}
