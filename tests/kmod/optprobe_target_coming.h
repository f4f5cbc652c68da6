/* SPDX-License-Identifier: GPL-2.0 */
/* optprobe_target_coming.ko's functions, and how its init calls them */
#ifndef OPTPROBE_TARGET_COMING_H
#define OPTPROBE_TARGET_COMING_H

#define COMING_MODULE		"optprobe_target_coming"
#define COMING_CORE_FN		"optprobe_target_coming_fn"
#define COMING_INIT_FN		"optprobe_target_coming_init_fn"
/* its init calls each function this many times, with 0, 1, 2... */
#define COMING_CALLS		3

static inline int coming_core_result(int x)
{
	return x * 7 + 3;
}

static inline int coming_init_result(int x)
{
	return x * 5 + 1;
}

int optprobe_target_coming_fn(int x);

#endif /* OPTPROBE_TARGET_COMING_H */
