// SPDX-License-Identifier: GPL-2.0
/* The one table of reasons' texts (reasons.h), in the order of their names. */
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/kernel.h>

#include "exports.h"

static const char * const op_reason_texts[] = {
	"",
#define OP_REASON(name, text) text,
#include "reason-list.h"
#undef OP_REASON
};

static_assert(ARRAY_SIZE(op_reason_texts) == OP_R_COUNT);

/**
 * op_reason_text() - what a reason says
 * @reason:	the reason
 *
 * Return: its text, static; "" for OP_R_NONE.
 */
const char *op_reason_text(enum op_reason reason)
{
	if (WARN_ON_ONCE((unsigned int)reason >= OP_R_COUNT))
		return "?";
	return op_reason_texts[reason];
}
EXPORT_SYMBOL_NS_GPL(op_reason_text, OPTPROBE_INTERNAL);
