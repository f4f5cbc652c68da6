/* SPDX-License-Identifier: GPL-2.0 */
/* get/put_unaligned(): <asm/unaligned.h> up to 6.11, <linux/unaligned.h> since 6.12. */
#ifndef OPTPROBE_WRAP_UNALIGNED_H
#define OPTPROBE_WRAP_UNALIGNED_H

#include "wrap-kver.h"

#if OP_KERNEL_AT_LEAST(6, 12)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* OPTPROBE_WRAP_UNALIGNED_H */
