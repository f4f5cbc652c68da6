/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the tests, independently of the backend's wrap-patch.h: since 6.2,
 * patch_instruction() with the radix MMU maps the page in a temporary mm
 * of the CPU's own and flushes only that CPU's TLB; before, it takes its
 * kernel mapping out of every CPU's TLB, by interrupting them where
 * tlbie is off.
 */
#ifndef OPTPROBE_TEST_WRAP_RADIX_PATCH_H
#define OPTPROBE_TEST_WRAP_RADIX_PATCH_H

#include "wrap-kver.h"

#define TEST_RADIX_PATCH_LOCAL	OP_KERNEL_AT_LEAST(6, 2)

#endif /* OPTPROBE_TEST_WRAP_RADIX_PATCH_H */
