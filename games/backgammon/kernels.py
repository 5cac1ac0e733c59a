"""Backgammon kernels: the rules of OpenSpiel's ``backgammon`` with its default parameters
(``scoring_type=winloss_scoring``, no doubling cube, ``max_player_turns=500``), written anew
from the rules as OpenSpiel plays them (open_spiel/games/backgammon; checked move for move
against pyspiel by tests/test_backgammon.py).

**State**: ``int32[STATE_LEN]`` (``STATE_LEN`` = 61; the constants and the move generator
are in :mod:`games.backgammon.rules`, the notation in :mod:`games.backgammon.notation`).

======================  ===========================================================
``[0:26]``              player 0 (X) checkers by X's own point number ``r``: ``[0]`` borne
                        off, ``[1..24]`` the points (X's home is 1-6), ``[25]`` the bar
``[26:52]``             player 1 (O) likewise by O's own numbering; O's point ``r`` is X's
                        point ``25 - r``
``[TO_PLAY]``           0, 1, or ``CHANCE`` (-1) when dice are to be rolled
``[DIE_LO]/[DIE_HI]``   the dice of the turn (low, high; 0 before the roll)
``[DOUBLE_HALF]``       1 during the second action of a double, else 0
``[TURNS]``             player turns played (OpenSpiel's ``turns_``; -1 before the opening roll)
``[PREV]``              the player who moved last (-1 before the first move): the next roll is
                        for the other one
``[STATUS]``            ``ONGOING``, ``FIRST_WINS``, ``SECOND_WINS`` or ``DRAW``
``[PLY]``               plies played, chance plies included
``[MAX_TURNS]``         the turn cap (OpenSpiel's ``max_player_turns``)
======================  ===========================================================

OpenSpiel's absolute point ``pos`` (0-23) is X's ``24 - r`` and O's ``r - 1``; its bar is 24.

**Actions** (1352, OpenSpiel's encoding). A player action is up to two checker moves, each
named by the absolute point it starts from (``pos`` 0-23, 24 the bar, 25 none). With
``first`` and ``second`` those digits, ``action = second * 26 + first`` when the first move
uses the higher die, ``676 + second * 26 + first`` when it uses the lower one; the second
move uses the other die. A double is played as two such actions by the same player (two
checker moves each; both use the double's number and the action is always below 676). Two
orders of the same checker moves are two legal actions when both orders are possible. A
turn with one playable checker move is ``25 * 26 + first`` (+676 if the low die); a turn with
none is the pass, 1351. Chance outcomes are actions too: 0-35 index ``ROLLS`` (ordered dice
pairs, each 1/36, so a non-double's dice come from two outcomes); at the opening roll only
0-29 (no doubles, each 1/30), an even outcome making X start, an odd one O, with those dice.

**Rules** (OpenSpiel's legal actions exactly): checkers on the bar enter first; a checker
may land on a point with at most one opposing checker (a blot, which goes to the bar);
bearing off only when all the player's checkers are in the home board, with the exact
number, or a larger one from the player's farthest point; both dice must be used if some
sequence of two checker moves uses both; if only one can be used, the higher one if it can;
no move is a pass. Doubles give two actions of two moves; when the first action plays fewer
than two moves the turn ends. Bearing off all 15 checkers wins (winloss scoring: 1 win, 0
loss). After ``max_player_turns`` + 1 player turns without a winner the game ends in a draw
(OpenSpiel returns 0 each; here 0.5 each: our returns are (OpenSpiel's + 1) / 2).

``legal_actions`` at a chance position lists the roll's outcomes (as OpenSpiel's does);
``apply_action`` refuses (``ILLEGAL``) any action not in OpenSpiel's legal set, without
listing it. ``rollout`` plays uniformly random legal actions, as ``playout_action`` does.
"""
import numpy as np
from numba import njit

from games.backgammon.rules import (CHECKERS, DIE_HI, DIE_LO, DOUBLE_HALF, LOW_FIRST, MAX_TURNS,
                                    NONE_DIGIT, NUM_ACTIONS, OFF, OPENING_OUTCOMES, PLY, PREV,
                                    ROLL_OUTCOMES, ROLLS, SIDE, STATUS, TO_PLAY, TURNS, generate,
                                    is_legal, move, point_of)
from games.contract import CHANCE, DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.rng import draw_outcome, random_below

_OUTCOMES = np.arange(ROLL_OUTCOMES, dtype=np.int32)
_OPENING_PROBS = np.full(OPENING_OUTCOMES, 1.0 / OPENING_OUTCOMES)
_ROLL_PROBS = np.full(ROLL_OUTCOMES, 1.0 / ROLL_OUTCOMES)


@njit(cache=True)
def to_play(state):
    return np.int64(state[TO_PLAY])


@njit(cache=True)
def status(state):
    return np.int64(state[STATUS])


@njit(cache=True)
def ply(state):
    return np.int64(state[PLY])


@njit(cache=True)
def returns(state, out):
    """Win 1, loss 0; a game stopped by the turn cap 0.5 each."""
    st = state[STATUS]
    if st == FIRST_WINS:
        out[0], out[1] = 1.0, 0.0
    elif st == SECOND_WINS:
        out[0], out[1] = 0.0, 1.0
    else:
        out[0], out[1] = 0.5, 0.5


@njit(cache=True)
def legal_actions(state, out):
    """The mover's legal actions; at a chance position the roll's outcomes (as OpenSpiel's
    LegalActions does; the engine asks ``chance_outcomes`` there)."""
    if state[STATUS] != ONGOING:
        return 0
    if state[TO_PLAY] == CHANCE:
        n = OPENING_OUTCOMES if state[TURNS] < 0 else ROLL_OUTCOMES
        for i in range(n):
            out[i] = i
        return n
    return generate(state, out)


@njit(cache=True)
def chance_outcomes(state, actions, probs):
    """The opening roll: outcomes 0-29, 1/30 each; later rolls: 0-35, 1/36 each."""
    opening = state[TURNS] < 0
    n = OPENING_OUTCOMES if opening else ROLL_OUTCOMES
    for i in range(n):
        actions[i] = i
        probs[i] = _OPENING_PROBS[i] if opening else _ROLL_PROBS[i]
    return n


@njit(cache=True)
def roll(state, outcome):
    """Apply chance ``outcome`` (unchecked)."""
    a, c = ROLLS[outcome, 0], ROLLS[outcome, 1]
    state[DIE_LO] = min(a, c)
    state[DIE_HI] = max(a, c)
    if state[TURNS] < 0:
        state[TO_PLAY] = outcome % 2
        state[TURNS] = 0
    else:
        state[TO_PLAY] = 1 - state[PREV]
    state[PLY] += 1


@njit(cache=True)
def play(state, action):
    """Apply the mover's ``action`` (unchecked); return the new status."""
    p = np.int64(state[TO_PLAY])
    b = SIDE * p
    o = SIDE - b
    lo = np.int64(state[DIE_LO])
    hi = np.int64(state[DIE_HI])
    high_first = action < LOW_FIRST
    x = action if high_first else action - LOW_FIRST
    first, second = x % 26, x // 26
    d1 = hi if high_first else lo
    d2 = lo if high_first else hi
    if first != NONE_DIGIT:
        move(state, b, o, point_of(p, first), d1)
    if second != NONE_DIGIT:
        move(state, b, o, point_of(p, second), d2)
    half = state[DOUBLE_HALF]
    if half == 0:
        state[TURNS] += 1
    state[PREV] = p
    state[PLY] += 1
    if half == 0 and lo == hi and first != NONE_DIGIT and second != NONE_DIGIT:
        state[DOUBLE_HALF] = 1
    else:
        state[DOUBLE_HALF] = 0
        state[TO_PLAY] = CHANCE
        state[DIE_LO] = 0
        state[DIE_HI] = 0
    st = ONGOING
    if state[b + OFF] == CHECKERS:
        st = FIRST_WINS + p
    elif state[TURNS] > state[MAX_TURNS]:
        st = DRAW
    state[STATUS] = st
    return st


@njit(cache=True)
def apply_action(state, action):
    if state[STATUS] != ONGOING or action < 0:
        return ILLEGAL
    if state[TO_PLAY] == CHANCE:
        if action >= (OPENING_OUTCOMES if state[TURNS] < 0 else ROLL_OUTCOMES):
            return ILLEGAL
        roll(state, action)
        return ONGOING
    if not is_legal(state, action):
        return ILLEGAL
    return play(state, action)


@njit(cache=True)
def playout_action(state, rng):
    """A uniform random legal action."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    n = generate(state, buf)
    return np.int64(buf[random_below(rng, n)])


@njit(cache=True)
def rollout(state, rng):
    """Play to the end: rolls drawn with ``draw_outcome``, moves uniformly at random among
    the legal actions (as the ``playout_action`` loop does); leaves the final position."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    st = np.int64(state[STATUS])
    while st == ONGOING:
        if state[TO_PLAY] == CHANCE:
            if state[TURNS] < 0:
                k = draw_outcome(rng, _OUTCOMES, _OPENING_PROBS, OPENING_OUTCOMES)
            else:
                k = draw_outcome(rng, _OUTCOMES, _ROLL_PROBS, ROLL_OUTCOMES)
            roll(state, k)
        else:
            n = generate(state, buf)
            st = play(state, np.int64(buf[random_below(rng, n)]))
    return st

