/* SPDX-License-Identifier: GPL-2.0 */
/* Text no CPU runs yet (slot-write.c), for the text writer, slot areas and the core tail. */
#ifndef OPTPROBE_PPC_SLOT_WRITE_H
#define OPTPROBE_PPC_SLOT_WRITE_H

int op_ppc_write_text(void *dst, const void *src, size_t len);
void op_ppc_slot_write_done(void);
void op_ppc_slot_write_forget(void);

#endif /* OPTPROBE_PPC_SLOT_WRITE_H */
