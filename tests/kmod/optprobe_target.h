/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions optprobe's test modules probe, in optprobe_target.ko.
 * Each test has targets of its own, so that a test that fails leaves no
 * probe behind on another test's targets.  Every target is a small leaf
 * function whose result the test checks.
 */
#ifndef OPTPROBE_TARGET_H
#define OPTPROBE_TARGET_H

/* Recorded by optprobe_target_add(): where its last call returned to, and its sp. */
extern unsigned long optprobe_target_add_ret;
extern unsigned long optprobe_target_add_sp;

/* Counts the runs of optprobe_target_redirect()'s own body. */
extern unsigned long optprobe_target_redirect_runs;

int optprobe_target_add(int a, int b, int c, int d, int e, int f);
int optprobe_target_count(int x);
int optprobe_target_aggr(int x);
int optprobe_target_idle(int x);
int optprobe_target_toggle(int x);
int optprobe_target_outer(int x);
int optprobe_target_inner(int x);
int optprobe_target_self(int x);
int optprobe_target_redirect(int a, int b);
int optprobe_target_errno(int x);
int optprobe_target_busy(int x);
int optprobe_target_textpoke(int x);
unsigned long optprobe_target_stress_a(unsigned long seq);
unsigned long optprobe_target_stress_b(unsigned long seq);

#define OPTPROBE_TARGET_NR_MANY	8
int optprobe_target_many0(int x);
int optprobe_target_many1(int x);
int optprobe_target_many2(int x);
int optprobe_target_many3(int x);
int optprobe_target_many4(int x);
int optprobe_target_many5(int x);
int optprobe_target_many6(int x);
int optprobe_target_many7(int x);

#endif /* OPTPROBE_TARGET_H */
