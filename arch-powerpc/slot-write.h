/* SPDX-License-Identifier: GPL-2.0 */
/* Slots written through an alias (slot-write.c), for the text writer and slot areas. */
#ifndef OPTPROBE_PPC_SLOT_WRITE_H
#define OPTPROBE_PPC_SLOT_WRITE_H

void op_ppc_slot_write_done(void);
void op_ppc_slot_write_forget(void);

#endif /* OPTPROBE_PPC_SLOT_WRITE_H */
