// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of core/opt-state.h, the optimizer's table of legal
 * moves: every one of the 9 x 9 moves is tried, legal ones must be made
 * and illegal ones must leave the state as it was; the table must be the
 * one written out below (from the diagram's list of moves, not from the
 * header's array); and the lives a site leads must be walks of legal moves.
 */
#include <string.h>

#include "opt-state.h"
#include "unit.h"

#define S(x)	OP_ST_##x

/* The legal moves, one pair per line, as the design lists them. */
static const struct { enum op_opt_state from, to; } legal[] = {
	{ S(DISARMED), S(ARMED) },	{ S(DISARMED), S(GONE) },
	{ S(DISARMED), S(UNOPTIMIZING) },
	{ S(ARMED), S(DISARMED) },	{ S(ARMED), S(QUEUED) },
	{ S(ARMED), S(PARKED) },	{ S(ARMED), S(GONE) },
	{ S(QUEUED), S(ARMED) },	{ S(QUEUED), S(PREPARED) },
	{ S(QUEUED), S(PARKED) },	{ S(QUEUED), S(REFUSED) },
	{ S(QUEUED), S(GONE) },
	{ S(PREPARED), S(ARMED) },	{ S(PREPARED), S(OPTIMIZED) },
	{ S(PREPARED), S(PARKED) },	{ S(PREPARED), S(GONE) },
	{ S(OPTIMIZED), S(DISARMED) },	{ S(OPTIMIZED), S(ARMED) },
	{ S(OPTIMIZED), S(UNOPTIMIZING) },	{ S(OPTIMIZED), S(GONE) },
	{ S(UNOPTIMIZING), S(DISARMED) },	{ S(UNOPTIMIZING), S(ARMED) },
	{ S(UNOPTIMIZING), S(OPTIMIZED) },	{ S(UNOPTIMIZING), S(GONE) },
	{ S(PARKED), S(DISARMED) },	{ S(PARKED), S(ARMED) },
	{ S(PARKED), S(QUEUED) },	{ S(PARKED), S(GONE) },
	{ S(REFUSED), S(DISARMED) },	{ S(REFUSED), S(GONE) },
};

static int listed(unsigned int from, unsigned int to)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(legal); i++)
		if (legal[i].from == from && legal[i].to == to)
			return 1;
	return 0;
}

/* Lives a site leads, each up to END; each must be a walk of legal moves. */
#define END	OP_ST_NR

static const enum op_opt_state lives[][9] = {
	/* registered, optimized, unregistered */
	{ S(DISARMED), S(ARMED), S(QUEUED), S(PREPARED), S(OPTIMIZED), S(DISARMED), END },
	/* optimized, then a post handler its detour cannot run; disabled */
	{ S(DISARMED), S(ARMED), S(QUEUED), S(PREPARED), S(OPTIMIZED), S(ARMED), S(DISARMED), END },
	/* a kernel kprobe holds the jump of an unregistered site, then leaves */
	{ S(OPTIMIZED), S(UNOPTIMIZING), S(DISARMED), END },
	/* ... of a site still wanted armed */
	{ S(OPTIMIZED), S(UNOPTIMIZING), S(ARMED), S(DISARMED), END },
	/* held, then wanted optimized again */
	{ S(OPTIMIZED), S(UNOPTIMIZING), S(OPTIMIZED), S(GONE), END },
	/* refused for now, retried, optimized */
	{ S(ARMED), S(QUEUED), S(PARKED), S(QUEUED), S(PREPARED), S(OPTIMIZED), END },
	/* its text changed while prepared; disarmed while parked */
	{ S(QUEUED), S(PREPARED), S(PARKED), S(DISARMED), END },
	/* refused for good, disarmed, armed again */
	{ S(ARMED), S(QUEUED), S(REFUSED), S(DISARMED), S(ARMED), END },
	/* a kernel kprobe copied the jump as it was taken out */
	{ S(OPTIMIZED), S(DISARMED), S(UNOPTIMIZING), S(DISARMED), END },
	/* a probe inside its jump: back to the breakpoint, parked */
	{ S(OPTIMIZED), S(ARMED), S(PARKED), S(ARMED), S(DISARMED), END },
};

static void check_moves(void)
{
	unsigned int from, to, wrong = 0, unchanged = 0;
	enum op_opt_state state;

	for (from = 0; from < OP_ST_NR; from++) {
		for (to = 0; to < OP_ST_NR; to++) {
			int want = listed(from, to), made;

			state = from;
			made = op_opt_move(&state, to);
			if (made != want || op_opt_move_legal(from, to) != want)
				wrong++;
			if (!made && state != (enum op_opt_state)from)
				unchanged++;
			if (made && state != (enum op_opt_state)to)
				wrong++;
		}
	}
	unit_check(!wrong, "moves_are_exactly_the_listed_ones", "%u moves differ", wrong);
	unit_check(!unchanged, "illegal_moves_change_nothing", "%u changed the state", unchanged);
	state = OP_ST_NR;
	unit_check(!op_opt_move(&state, S(ARMED)) && state == OP_ST_NR &&
		   !op_opt_move_legal(S(ARMED), OP_ST_NR),
		   "out_of_range_states_are_illegal", "state %u", state);
}

static void check_lives(void)
{
	unsigned int i, j, bad = 0;

	for (i = 0; i < ARRAY_SIZE(lives); i++) {
		enum op_opt_state state = lives[i][0];

		for (j = 1; lives[i][j] != END; j++)
			bad += !op_opt_move(&state, lives[i][j]);
	}
	unit_check(!bad, "lives_are_walks_of_legal_moves", "%u illegal steps", bad);
}

static void check_properties(void)
{
	unsigned int s, t, bad_gone = 0, bad_names = 0, bad_jumps = 0, bad_armed = 0;

	for (s = 0; s < OP_ST_NR; s++) {
		bad_gone += s != S(GONE) && !op_opt_move_legal(s, S(GONE));
		bad_gone += op_opt_move_legal(S(GONE), s);
		for (t = 0; t < s; t++)
			bad_names += !strcmp(op_opt_state_name(s), op_opt_state_name(t));
		bad_names += !op_opt_state_names[s];
		bad_jumps += op_opt_state_jumps(s) != (s == S(OPTIMIZED) || s == S(UNOPTIMIZING));
		bad_armed += op_opt_state_armed(s) != (s != S(DISARMED) && s != S(GONE));
	}
	unit_check(!bad_gone, "gone_is_reached_from_everywhere_and_final", "%u", bad_gone);
	unit_check(!bad_names && !strcmp(op_opt_state_name(OP_ST_NR), "?"),
		   "every_state_has_its_own_name", "%u", bad_names);
	unit_check(!bad_jumps, "only_optimized_and_unoptimizing_jump", "%u", bad_jumps);
	unit_check(!bad_armed, "armed_but_disarmed_and_gone", "%u", bad_armed);
	/* the text changes only on the moves that own them */
	unit_check(!op_opt_move_legal(S(DISARMED), S(OPTIMIZED)) &&
		   !op_opt_move_legal(S(QUEUED), S(OPTIMIZED)) &&
		   !op_opt_move_legal(S(ARMED), S(OPTIMIZED)) &&
		   !op_opt_move_legal(S(OPTIMIZED), S(QUEUED)) &&
		   !op_opt_move_legal(S(OPTIMIZED), S(PARKED)) &&
		   !op_opt_move_legal(S(DISARMED), S(PREPARED)),
		   "a_jump_is_only_made_from_prepared_and_undone_to_armed_or_disarmed", "table");
}

int main(void)
{
	unit_plan(9);
	check_moves();
	check_lives();
	check_properties();
	return unit_status();
}
