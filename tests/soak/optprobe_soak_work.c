// SPDX-License-Identifier: GPL-2.0
/*
 * Module text for the kernel-wide soak (optprobe_soak.c) to probe, in a
 * module of its own: optprobe takes probes only on a live module's text,
 * and the soak runs from its own module's init.  A kthread of the soak
 * calls optprobe_soak_work.pass() over and over while the workload runs;
 * each function returns a checksum of what it computed, the same with
 * probes as without.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "optprobe_soak_work.h"

#define SOAK_WORK_LEN		16
#define SOAK_WORK_ROUNDS	4

static noinline u32 soak_work_mix(u32 x)
{
	unsigned int i;

	for (i = 0; i < SOAK_WORK_LEN; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b1u + (i & 3 ? i : x % 13);
	return x;
}

static noinline int soak_work_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static noinline u32 soak_work_sort(u32 x)
{
	u32 v[SOAK_WORK_LEN], sum = 0;
	unsigned int i;

	for (i = 0; i < SOAK_WORK_LEN; i++)
		v[i] = soak_work_mix(x + i) % 1000;
	sort(v, SOAK_WORK_LEN, sizeof(v[0]), soak_work_cmp, NULL);
	for (i = 0; i < SOAK_WORK_LEN; i++)
		sum = sum * 31 + v[i];
	return sum;
}

static noinline u32 soak_work_text(u32 x)
{
	char buf[48];
	u32 sum = 0;
	int n, i;

	n = snprintf(buf, sizeof(buf), "%u:%x:%s", x, x * 7, x & 1 ? "odd" : "even");
	for (i = 0; i < n; i++)
		sum = sum * 33 + (buf[i] >= 'a' ? buf[i] - 'a' : buf[i]);
	return sum + strlen(buf) + (strstr(buf, "odd") ? 1 : 0);
}

static noinline u32 soak_work_all(u32 x)
{
	return soak_work_mix(x) ^ soak_work_sort(x) ^ soak_work_text(x);
}

static void * const soak_work_fns[] = {
	soak_work_mix, soak_work_cmp, soak_work_sort, soak_work_text, soak_work_all,
};

/* The checksum of one pass of the work. */
static noinline u32 soak_work_pass(void)
{
	u32 sum = 0, i;

	for (i = 0; i < SOAK_WORK_ROUNDS; i++)
		sum += soak_work_all(i);
	return sum;
}

const struct optprobe_soak_work optprobe_soak_work = {
	.fns = soak_work_fns,
	.nr = ARRAY_SIZE(soak_work_fns),
	.pass = soak_work_pass,
};
EXPORT_SYMBOL_GPL(optprobe_soak_work);

MODULE_DESCRIPTION("optprobe test: module text for the kernel-wide soak");
MODULE_LICENSE("GPL");
