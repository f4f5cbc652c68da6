/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernels optprobe is tested on: Debian's 6.1 and 6.12 (the QEMU
 * matrix), and what lies between, which the wrappers cover.  Outside
 * that range it may build and still be wrong (from 6.13 on, executable
 * memory may come read-only where optprobe writes its slots), so the
 * build stops unless OPTPROBE_UNTESTED_KERNEL=1 is given to make.
 */
#ifndef OPTPROBE_WRAP_SUPPORTED_H
#define OPTPROBE_WRAP_SUPPORTED_H

#include "wrap-kver.h"

#if !defined(OPTPROBE_UNTESTED_KERNEL) && (!OP_KERNEL_AT_LEAST(6, 1) || OP_KERNEL_AT_LEAST(6, 13))
#error "optprobe is tested on 6.1 to 6.12; make OPTPROBE_UNTESTED_KERNEL=1 builds it anyway"
#endif

#endif /* OPTPROBE_WRAP_SUPPORTED_H */
