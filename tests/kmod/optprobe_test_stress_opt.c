// SPDX-License-Identifier: GPL-2.0
/* optprobe_test_stress.c with jump-optimized probes: see there. */
#define STRESS_OPTIMIZED	1
#include "optprobe_test_stress.c"
