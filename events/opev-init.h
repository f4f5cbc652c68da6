/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace-event layer's load and unload, called by optprobe's (the only
 * way in from the core: the layer itself uses the public API only).
 */
#ifndef OPTPROBE_EVENTS_INIT_H
#define OPTPROBE_EVENTS_INIT_H

int opev_init(void);
void opev_exit(void);

#endif /* OPTPROBE_EVENTS_INIT_H */
