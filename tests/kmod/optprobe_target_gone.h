/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OPTPROBE_TARGET_GONE_H
#define OPTPROBE_TARGET_GONE_H

/* In optprobe_target_gone.ko; returns x * 41 + 11. */
int optprobe_target_gone_fn(int x);

#endif /* OPTPROBE_TARGET_GONE_H */
