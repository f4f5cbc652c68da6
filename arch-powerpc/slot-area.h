/* SPDX-License-Identifier: GPL-2.0 */
/* Slot areas in branch reach (slot-area.c), for the detour builder. */
#ifndef OPTPROBE_PPC_SLOT_AREA_H
#define OPTPROBE_PPC_SLOT_AREA_H

#include <linux/sizes.h>
#include <linux/types.h>

/*
 * How far a slot page may start from a probed address: then every word of
 * the page and the instruction after the probed one (at most 8 bytes on)
 * reach each other with a "b" (-32 MB .. 32 MB - 4), both ways.
 */
#define OP_PPC_REACH		((long)(SZ_32M - PAGE_SIZE))

/* The veneer at the start of a slot area that holds stubs; slots follow it. */
#define OP_PPC_VENEER_WORDS	10
#define OP_PPC_VENEER_SIZE	(OP_PPC_VENEER_WORDS * sizeof(u32))

struct op_site;

enum op_reason op_ppc_no_area(const struct op_site *site);

#endif /* OPTPROBE_PPC_SLOT_AREA_H */
