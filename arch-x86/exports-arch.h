/* SPDX-License-Identifier: GPL-2.0 */
/* The x86_64 backend's part of core/exports.h: for the tests only. */
#ifndef OPTPROBE_EXPORTS_ARCH_H
#define OPTPROBE_EXPORTS_ARCH_H

/* ksyms.c: NULL if the function at @addr starts with ENDBR64, else why not */
const char *op_x86_endbr_at(unsigned long addr);

#endif /* OPTPROBE_EXPORTS_ARCH_H */
