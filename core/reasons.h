/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a probe was refused, or why its site is not optimized: a name each
 * (enum op_reason) and one text (op_reason_text(), what optprobe_reason()
 * returns and every pr_warn prints).  reason-list.h lists the core's and,
 * from the backend's reasons-arch.h, the backend's.  Tests and the
 * benchmark compare names (op_probe_reason() in exports.h), never texts.
 */
#ifndef OPTPROBE_REASONS_H
#define OPTPROBE_REASONS_H

/* one byte in struct op_site (site.h) */
enum __packed op_reason {
	OP_R_NONE,	/* "": optimized, or nothing refused */
#define OP_REASON(name, text) OP_R_##name,
#include "reason-list.h"
#undef OP_REASON
	OP_R_COUNT
};

const char *op_reason_text(enum op_reason reason);

#endif /* OPTPROBE_REASONS_H */
