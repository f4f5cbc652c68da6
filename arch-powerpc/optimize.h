/* SPDX-License-Identifier: GPL-2.0 */
/* The detour builder (optimize.c), for the decoder: a stub from the start. */
#ifndef OPTPROBE_PPC_OPTIMIZE_H
#define OPTPROBE_PPC_OPTIMIZE_H

#include <linux/types.h>

struct op_site;

bool op_ppc_stub_for_copy(struct op_site *site);

#endif /* OPTPROBE_PPC_OPTIMIZE_H */
