/* SPDX-License-Identifier: GPL-2.0 */
/* Slots written through an alias (slot-write.c), for the text writer. */
#ifndef OPTPROBE_PPC_SLOT_WRITE_H
#define OPTPROBE_PPC_SLOT_WRITE_H

void op_ppc_slot_write_done(void);

#endif /* OPTPROBE_PPC_SLOT_WRITE_H */
