/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the optimizer is with a site: one state per site, and the table of
 * the moves between states.  Plain C with no kernel dependency, so that
 * the table is checked on the host (tests/unit/test_opt_state.c);
 * core/optimizer.c makes every move through op_opt_move_legal().
 *
 * A breakpoint site lives like this (an ftrace site only goes DISARMED <->
 * ARMED and to GONE):
 *
 *   DISARMED -arm-> ARMED -queue-> QUEUED -prepare-> PREPARED -patch-> OPTIMIZED
 *      ^  <-disarm-   ^ ^            |                  |                |   ^
 *      |              | '--cancel----+------------------'                |   | wanted again
 *      |              |              v                                   v   |
 *      '-- disarm --  | <--retry-- PARKED, REFUSED       held by a kernel kprobe
 *      |              |                                                  |
 *      |              '----------- unoptimize ---------------- UNOPTIMIZING
 *      '------------------------ unoptimize, not wanted: from either ----'
 *
 * The moves, from a row to a column ("x": legal; anything else is a bug):
 *
 *                 DISARMED ARMED QUEUED PREPARED OPTIMIZED UNOPTIMIZING PARKED REFUSED GONE
 *   DISARMED                 x                               x                         x
 *   ARMED            x              x                                     x            x
 *   QUEUED                   x             x                              x      x     x
 *   PREPARED                 x                     x                      x            x
 *   OPTIMIZED        x       x                               x                         x
 *   UNOPTIMIZING     x       x                     x                                   x
 *   PARKED           x       x      x                                                  x
 *   REFUSED          x                                                                 x
 *   GONE
 *
 * PARKED is refused for now (something else is in the way) and retried;
 * REFUSED is for good, until the site is disarmed.  UNOPTIMIZING is a site
 * that should have its breakpoint back but whose jump a kernel kprobe
 * holds (the kprobe saved the jump as "the original instruction"): the
 * jump and its detour stay until the kprobe leaves, or until the site is
 * wanted optimized again.  A disarmed site goes UNOPTIMIZING too when a
 * kernel kprobe turns out to have copied its jump just before it was
 * taken out (op_arch_detour_reached()).  A site with a jump that is no
 * longer wanted armed goes straight back to its original text, in the
 * same batch that takes the other jumps out.  GONE: the module holding it
 * was unloaded.
 */
#ifndef OPTPROBE_OPT_STATE_H
#define OPTPROBE_OPT_STATE_H

/* one byte in struct op_site (site.h) */
enum __packed op_opt_state {
	OP_ST_DISARMED,
	OP_ST_ARMED,
	OP_ST_QUEUED,
	OP_ST_PREPARED,
	OP_ST_OPTIMIZED,
	OP_ST_UNOPTIMIZING,
	OP_ST_PARKED,
	OP_ST_REFUSED,
	OP_ST_GONE,
	OP_ST_NR
};

#define OP_ST_BIT(state)	(1u << OP_ST_##state)

/* The table above, one bit per state a row may move to. */
static const unsigned int op_opt_moves[OP_ST_NR] = {
	[OP_ST_DISARMED]	= OP_ST_BIT(ARMED) | OP_ST_BIT(UNOPTIMIZING) | OP_ST_BIT(GONE),
	[OP_ST_ARMED]		= OP_ST_BIT(DISARMED) | OP_ST_BIT(QUEUED) | OP_ST_BIT(PARKED) |
				  OP_ST_BIT(GONE),
	[OP_ST_QUEUED]		= OP_ST_BIT(ARMED) | OP_ST_BIT(PREPARED) | OP_ST_BIT(PARKED) |
				  OP_ST_BIT(REFUSED) | OP_ST_BIT(GONE),
	[OP_ST_PREPARED]	= OP_ST_BIT(ARMED) | OP_ST_BIT(OPTIMIZED) | OP_ST_BIT(PARKED) |
				  OP_ST_BIT(GONE),
	[OP_ST_OPTIMIZED]	= OP_ST_BIT(DISARMED) | OP_ST_BIT(ARMED) | OP_ST_BIT(UNOPTIMIZING) |
				  OP_ST_BIT(GONE),
	[OP_ST_UNOPTIMIZING]	= OP_ST_BIT(DISARMED) | OP_ST_BIT(ARMED) | OP_ST_BIT(OPTIMIZED) |
				  OP_ST_BIT(GONE),
	[OP_ST_PARKED]		= OP_ST_BIT(DISARMED) | OP_ST_BIT(ARMED) | OP_ST_BIT(QUEUED) |
				  OP_ST_BIT(GONE),
	[OP_ST_REFUSED]		= OP_ST_BIT(DISARMED) | OP_ST_BIT(GONE),
	[OP_ST_GONE]		= 0,
};

static const char * const op_opt_state_names[OP_ST_NR] = {
	[OP_ST_DISARMED]	= "disarmed",
	[OP_ST_ARMED]		= "armed",
	[OP_ST_QUEUED]		= "queued",
	[OP_ST_PREPARED]	= "prepared",
	[OP_ST_OPTIMIZED]	= "optimized",
	[OP_ST_UNOPTIMIZING]	= "unoptimizing",
	[OP_ST_PARKED]		= "parked",
	[OP_ST_REFUSED]		= "refused",
	[OP_ST_GONE]		= "gone",
};

static inline const char *op_opt_state_name(unsigned int state)
{
	return state < OP_ST_NR ? op_opt_state_names[state] : "?";
}

static inline int op_opt_move_legal(unsigned int from, unsigned int to)
{
	return from < OP_ST_NR && to < OP_ST_NR && (op_opt_moves[from] >> to & 1);
}

/*
 * Make the move @from -> @to in *@state if it is legal.  Returns 1 if it
 * was made; 0, leaving *@state as it was, if not.
 */
static inline int op_opt_move(enum op_opt_state *state, enum op_opt_state to)
{
	if (!op_opt_move_legal(*state, to))
		return 0;
	*state = to;
	return 1;
}

/* Is the jump to the detour in the text? */
static inline int op_opt_state_jumps(enum op_opt_state state)
{
	return state == OP_ST_OPTIMIZED || state == OP_ST_UNOPTIMIZING;
}

/* Is the breakpoint (or the jump that replaced it) in the text? */
static inline int op_opt_state_armed(enum op_opt_state state)
{
	return state != OP_ST_DISARMED && state != OP_ST_GONE;
}

#endif /* OPTPROBE_OPT_STATE_H */
