"""Chinese Checkers for 2, 3, 4 or 6 players: the compiled kernels, with exactly the rules of
OpenSpiel's ``chinese_checkers`` (open-spiel 2.0.2; its source, open_spiel/games/
chinese_checkers, read at commit 112b777 of July 2026; tests/test_chinese_checkers.py plays
1,000 games against it in lockstep).

**Board.** The star of 121 cells numbered 0-120 row by row from the north tip, the six
directions 0 UL, 1 UR, 2 L, 3 R, 4 DL, 5 DR and the six triangles 0 north, 1 north-east, ...
5 north-west (OpenSpiel's numbering): :mod:`games.chinese_checkers.board`.

**Players.** Player ``p`` starts with ten marbles on home triangle ``SLOTS[n][p]`` (2 players:
0 and 3; 3 players: 0, 2, 4; 4 players: 0, 1, 3, 4; 6 players: all six) and wins by filling
the opposite triangle with its own ten marbles. Player 0 moves first, then 1, 2, ... in turn.

**Moves.** A turn moves one marble: either a *step* to an empty adjacent cell, or a *hop* over
an adjacent marble (anyone's, never captured) to the empty cell just beyond it, in line. After
a hop the same marble may hop on: while it can, the same player keeps the move, with the
further hops of that marble (over any marble, to an empty cell not yet visited this turn; the
start cell counts as visited) and a pass that ends the turn. When the marble has no further
hop the turn ends by itself. A player with no step and no hop at the start of a turn must pass.

**End.** After each completed turn, the player who just moved wins if its ten marbles fill
its target triangle. The game also ends, with no winner, once ``max_moves`` turns (of all
players together; a whole hop chain is one turn) have been completed; a win on that last
turn still counts. There is no rule against marbles left in someone's target (a player who
never leaves home can keep another from winning: the game then runs to the limit).

**Actions** (727, OpenSpiel's): ``6 * cell + direction`` (0-725) moves the marble on ``cell``
in ``direction`` (a step if the adjacent cell is empty, else a hop over it); ``PASS`` = 726
ends a hop chain (or passes a blocked turn).

**Returns.** OpenSpiel's are ``n - 1`` for the winner and ``-1`` for each other player, all 0
when ``max_moves`` ends the game. ``returns`` writes ``(r + 1) / n`` of each: 1 the winner, 0
the others, ``1 / n`` each when there is no winner. ``status`` is ``ONGOING`` or ``ENDED``.

**State** (int32, ``(STATE_SIZE,)``): ``[BOARD, BOARD + 121)`` the cells (0 empty, ``p + 1``
a marble of player ``p``); ``[VISITED, VISITED + 121)`` the stamp of the turn whose hop chain
visited the cell (the turn number + 1, so no clearing between turns); ``[PIECES, PIECES +
60)`` player ``p``'s marbles' cells at ``PIECES + 10 p`` (in increasing order, so that
``legal_actions`` lists actions in increasing order, as OpenSpiel does); then ``NPLAYERS``,
``MAX_MOVES``, ``TURN`` (player to move), ``MOVES`` (turns completed), ``HOP_FROM`` (the
hopping marble's cell during a hop chain, else -1), ``WINNER`` (-1 for none), ``PLY``
(actions applied), ``LAST_FROM`` and ``LAST_TO`` (cells of the last step or hop, -1 at the
start or after a pass), ``IN_TARGET + p`` (player ``p``'s marbles in its target), and
``POLICY`` (the playout policy: 4 greedy, 0 uniform; ``playout_action``) and ``PRIORS``
(``prior``'s virtual playouts per new child, 0 for none): 319 entries. A
turn takes at most ``TURN_PLIES`` (37) actions, so a game at most ``37 * max_moves``
(OpenSpiel's ``MaxGameLength``, ``max_moves * (10 n + 2)``, is another bound).

**Playouts.** ``playout_action`` draws, by default (``greedy``), each legal action with weight
``4 ** g``, ``g`` the steps along the board's axes by which it brings its marble nearer the
apex of the mover's target (the pass gains 0), so that playouts end with a win (2 players: in
about 265 plies, against about 1,070 to the move limit for uniform random ones); ``uniform``
draws uniformly among the legal actions (OpenSpiel's random rollouts). ``prior`` gives new
tree nodes virtual playouts worth more for moves that gain distance (``priors``, on by
default): without them a search of a fraction of a second hardly tells the moves apart.
"""
import numpy as np
from numba import njit

from games.chinese_checkers.board import (  # noqa: F401  (the tables, also as this module's)
    APEX, COL, DIR_DELTAS, DIR_NAMES, HOME, JUMP, NEIGHBOR, NUM_ACTIONS, NUM_CELLS, NUM_DIRS,
    PASS, ROW, SLOTS, TARGET, TO_APEX, TRI, TRIANGLE, TRIANGLE_CELLS, TURN_PLIES)
from games.contract import ENDED, ILLEGAL, ONGOING
from games.rng import random_below

BOARD, VISITED, PIECES = 0, NUM_CELLS, 2 * NUM_CELLS
NPLAYERS = PIECES + 6 * TRIANGLE
MAX_MOVES, TURN, MOVES, HOP_FROM, WINNER, PLY, LAST_FROM, LAST_TO, IN_TARGET = range(
    NPLAYERS + 1, NPLAYERS + 10)
POLICY, PRIORS = IN_TARGET + 6, IN_TARGET + 7
STATE_SIZE = PRIORS + 1
# The playout policies (the POLICY entry): 0 uniform random, else the softmax over the distance
# gained with that weight base b (playout_action); POWERS[b, k] = b ** k.
POLICIES = {"greedy": 4, "uniform": 0}
POWERS = np.array([[b ** k for k in range(5)] for b in range(17)], dtype=np.int64)
REJECT_TRIES = 32               # greedy draws by rejection first, then exactly
PRIOR_VISITS, PRIOR_STEP = 20, 0.1      # prior: virtual playouts, reward per step gained


def new_state(players, max_moves, policy="greedy", priors=True):
    """The initial position (int32 ``(STATE_SIZE,)``) of a game of ``players`` players, with
    the playout policy ``policy`` (a key of ``POLICIES``) and ``prior`` on or off."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    s[NPLAYERS], s[MAX_MOVES], s[POLICY] = players, max_moves, POLICIES[policy]
    s[PRIORS] = PRIOR_VISITS if priors else 0
    s[HOP_FROM] = s[WINNER] = s[LAST_FROM] = s[LAST_TO] = -1
    for p in range(players):
        cells = TRIANGLE_CELLS[HOME[players, p]]
        s[BOARD + cells] = p + 1
        s[PIECES + TRIANGLE * p: PIECES + TRIANGLE * (p + 1)] = cells
    return s


@njit(cache=True)
def to_play(state):
    return np.int64(state[TURN])


@njit(cache=True)
def ply(state):
    return np.int64(state[PLY])


@njit(cache=True)
def status(state):
    if state[WINNER] >= 0 or state[MOVES] >= state[MAX_MOVES]:
        return ENDED
    return ONGOING


@njit(cache=True)
def returns(state, out):
    n = state[NPLAYERS]
    w = state[WINNER]
    for p in range(n):
        out[p] = (1.0 if p == w else 0.0) if w >= 0 else 1.0 / n


@njit(cache=True)
def _movable(state, cell, d):
    """Whether the marble on ``cell`` may start a turn by stepping or hopping in ``d``."""
    nb = NEIGHBOR[cell, d]
    if nb < 0:
        return False
    if state[BOARD + nb] == 0:
        return True
    land = JUMP[cell, d]
    return land >= 0 and state[BOARD + land] == 0


@njit(cache=True)
def _hop_on(state, src, d):
    """Whether the hopping marble on ``src`` may hop on in ``d`` (over a marble, to an empty
    cell it has not visited this turn)."""
    nb = NEIGHBOR[src, d]
    if nb < 0 or state[BOARD + nb] == 0:
        return False
    land = JUMP[src, d]
    return land >= 0 and state[BOARD + land] == 0 and state[VISITED + land] != state[MOVES] + 1


@njit(cache=True)
def legal_actions(state, out):
    if status(state) != ONGOING:
        return 0
    n = 0
    src = state[HOP_FROM]
    if src >= 0:                                  # in a hop chain: hop on, or pass
        for d in range(NUM_DIRS):
            if _hop_on(state, src, d):
                out[n] = src * NUM_DIRS + d
                n += 1
    else:
        base = PIECES + TRIANGLE * state[TURN]
        for i in range(TRIANGLE):
            cell = state[base + i]
            for d in range(NUM_DIRS):
                if _movable(state, cell, d):
                    out[n] = cell * NUM_DIRS + d
                    n += 1
        if n > 0:
            return n
    out[n] = PASS                                 # a chain's end, or a blocked turn
    return n + 1


@njit(cache=True)
def _pick(state, k):
    """The ``k``-th action (from 0) that ``legal_actions`` would list; with ``k < 0``, how
    many it would list (of an ongoing game)."""
    n = 0
    src = state[HOP_FROM]
    if src >= 0:
        for d in range(NUM_DIRS):
            if _hop_on(state, src, d):
                if n == k:
                    return src * NUM_DIRS + d
                n += 1
    else:
        base = PIECES + TRIANGLE * state[TURN]
        for i in range(TRIANGLE):
            cell = state[base + i]
            for d in range(NUM_DIRS):
                if _movable(state, cell, d):
                    if n == k:
                        return cell * NUM_DIRS + d
                    n += 1
        if n > 0:
            return n
    return PASS if n == k else n + 1


@njit(cache=True)
def _can_hop_on(state, src):
    for d in range(NUM_DIRS):
        if _hop_on(state, src, d):
            return True
    return False


@njit(cache=True)
def _end_turn(state):
    mover = state[TURN]
    state[HOP_FROM] = -1
    state[TURN] = (mover + 1) % state[NPLAYERS]
    state[MOVES] += 1
    if state[IN_TARGET + mover] == TRIANGLE:
        state[WINNER] = mover
    return status(state)


@njit(cache=True)
def _move_marble(state, mover, src, dst):
    state[BOARD + src] = 0
    state[BOARD + dst] = mover + 1
    base = PIECES + TRIANGLE * mover
    i = 0
    while state[base + i] != src:
        i += 1
    while i > 0 and state[base + i - 1] > dst:      # keep the cells in increasing order
        state[base + i] = state[base + i - 1]
        i -= 1
    while i < TRIANGLE - 1 and state[base + i + 1] < dst:
        state[base + i] = state[base + i + 1]
        i += 1
    state[base + i] = dst
    target = TARGET[state[NPLAYERS], mover]
    state[IN_TARGET + mover] += np.int32(TRI[dst] == target) - np.int32(TRI[src] == target)
    state[LAST_FROM], state[LAST_TO] = src, dst


@njit(cache=True)
def apply_action(state, action):
    if action < 0 or action >= NUM_ACTIONS or status(state) != ONGOING:
        return ILLEGAL
    mover = state[TURN]
    src = state[HOP_FROM]
    if action == PASS:
        if src < 0 and _pick(state, 0) != PASS:
            return ILLEGAL                        # a pass only ends a chain or a blocked turn
        state[PLY] += 1
        state[LAST_FROM] = state[LAST_TO] = -1
        return _end_turn(state)
    cell, d = action // NUM_DIRS, action % NUM_DIRS
    stamp = state[MOVES] + 1
    if src >= 0:                                  # a further hop of the chain's marble
        if cell != src or not _hop_on(state, cell, d):
            return ILLEGAL
    else:
        if state[BOARD + cell] != mover + 1 or not _movable(state, cell, d):
            return ILLEGAL
        nb = NEIGHBOR[cell, d]
        if state[BOARD + nb] == 0:                # a step ends the turn
            _move_marble(state, mover, cell, nb)
            state[PLY] += 1
            return _end_turn(state)
        state[VISITED + cell] = stamp             # a chain starts: its start is visited
    land = JUMP[cell, d]
    _move_marble(state, mover, cell, land)
    state[VISITED + land] = stamp
    state[HOP_FROM] = land
    state[PLY] += 1
    if not _can_hop_on(state, land):
        return _end_turn(state)
    return ONGOING


@njit(cache=True)
def _uniform_action(state, rng):
    """A uniformly random legal action, without a buffer: by rejection among the (marble,
    direction) slots (in a chain: the six directions and the pass), each legal action having
    one slot; after 64 misses, counted and drawn."""
    src = state[HOP_FROM]
    if src >= 0:
        while True:                               # the pass is always legal here
            d = random_below(rng, NUM_DIRS + 1)
            if d == NUM_DIRS:
                return PASS
            if _hop_on(state, src, d):
                return src * NUM_DIRS + d
    base = PIECES + TRIANGLE * state[TURN]
    for _ in range(64):
        k = random_below(rng, TRIANGLE * NUM_DIRS)
        cell, d = state[base + k // NUM_DIRS], k % NUM_DIRS
        if _movable(state, cell, d):
            return cell * NUM_DIRS + d
    return _pick(state, random_below(rng, _pick(state, -1)))


@njit(cache=True)
def _dest(state, cell, d):
    """Where the marble on ``cell`` lands starting a turn in direction ``d``, or -1."""
    nb = NEIGHBOR[cell, d]
    if nb < 0:
        return -1
    if state[BOARD + nb] == 0:
        return nb
    land = JUMP[cell, d]
    if land >= 0 and state[BOARD + land] == 0:
        return land
    return -1


@njit(cache=True)
def _greedy_action(state, rng, b):
    """The softmax over the distance gained (see ``playout_action``) with weight base ``b``:
    at the start of a turn first by rejection (a uniform (marble, direction) slot, kept if
    legal with probability weight / ``b ** 4``; up to ``REJECT_TRIES`` tries), then, as in a
    hop chain, exactly in two passes over the legal actions (their total weight, then the
    drawn one). Either way each legal action's probability is its weight over the total."""
    w = POWERS[b]                                 # w[g + 2] = b ** (g + 2)
    t = TARGET[state[NPLAYERS], state[TURN]]
    src = state[HOP_FROM]
    if src >= 0:                                  # hop on, or pass (gain 0)
        dist = TO_APEX[t, src]
        total = w[2]
        for d in range(NUM_DIRS):
            if _hop_on(state, src, d):
                g = dist - TO_APEX[t, JUMP[src, d]]
                total += w[g + 2]
        r = random_below(rng, total)
        for d in range(NUM_DIRS):
            if _hop_on(state, src, d):
                g = dist - TO_APEX[t, JUMP[src, d]]
                r -= w[g + 2]
                if r < 0:
                    return src * NUM_DIRS + d
        return PASS
    base = PIECES + TRIANGLE * state[TURN]
    top = w[4]
    for _ in range(REJECT_TRIES):   # rejection: a (marble, direction) slot kept w.p. weight / top
        k = random_below(rng, TRIANGLE * NUM_DIRS * top)
        slot, x = k // top, k % top
        cell, d = state[base + slot // NUM_DIRS], slot % NUM_DIRS
        to = _dest(state, cell, d)
        if to >= 0 and x < w[TO_APEX[t, cell] - TO_APEX[t, to] + 2]:
            return cell * NUM_DIRS + d
    total = np.int64(0)                           # else exactly, in two passes
    for i in range(TRIANGLE):
        cell = state[base + i]
        dist = TO_APEX[t, cell]
        for d in range(NUM_DIRS):
            to = _dest(state, cell, d)
            if to >= 0:
                g = dist - TO_APEX[t, to]
                total += w[g + 2]
    if total == 0:
        return PASS                               # a blocked turn
    r = random_below(rng, total)
    for i in range(TRIANGLE):
        cell = state[base + i]
        dist = TO_APEX[t, cell]
        for d in range(NUM_DIRS):
            to = _dest(state, cell, d)
            if to >= 0:
                g = dist - TO_APEX[t, to]
                r -= w[g + 2]
                if r < 0:
                    return cell * NUM_DIRS + d
    return PASS                                   # not reached


@njit(cache=True)
def playout_action(state, rng):
    """The playout policy's action (legal; ``state`` unchanged), by ``state[POLICY]``:

    * ``b > 0`` (``greedy``, ``b`` = 4): a softmax over the distance gained. An action moving
      a marble from ``x`` to ``y`` gains ``g = TO_APEX[t, x] - TO_APEX[t, y]`` (t the mover's
      target triangle: the steps along the board's axes it brings the marble nearer the
      target's apex; -1 to 1 for a step, -2 to 2 for a hop), the pass 0; each legal action
      is drawn with probability proportional to ``b ** g`` (exactly: integer weights ``b **
      (g + 2)``). In a hop chain that is each further hop and the pass; a blocked turn
      passes. No allocation; about 4 times the uniform policy's time per move.
    * 0 (``uniform``): uniformly random over the legal actions.
    """
    b = state[POLICY]
    if b == 0:
        return _uniform_action(state, rng)
    return _greedy_action(state, rng, b)


@njit(cache=True)
def prior(state, actions, visits, value):
    """Prior knowledge of the new children ``actions`` (the contract's optional kernel): each
    gets ``state[PRIORS]`` virtual playouts (none when 0) with the mover's reward ``1 / n +
    PRIOR_STEP * g`` each (clipped to [0, 1]), ``g`` the distance the action gains as in
    ``playout_action`` (-2 to 2; the pass 0)."""
    v = state[PRIORS]
    if v == 0:
        return
    n = state[NPLAYERS]
    t = TARGET[n, state[TURN]]
    for i in range(actions.shape[0]):
        a = actions[i]
        g = 0
        if a != PASS:
            cell, d = a // NUM_DIRS, a % NUM_DIRS
            nb = NEIGHBOR[cell, d]
            g = TO_APEX[t, cell] - TO_APEX[t, nb if state[BOARD + nb] == 0 else JUMP[cell, d]]
        visits[i] += v
        value[i] += v * min(1.0, max(0.0, 1.0 / n + PRIOR_STEP * g))


@njit(cache=True)
def random_plies(state, rng, plies):
    """Play up to ``plies`` uniformly random actions with ``legal_actions`` then
    ``apply_action``, starting again from a copy of ``state`` whenever a game ends; return
    the games finished (the speed figure of the tests and the docs)."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int32)
    s = state.copy()
    done = 0
    for _ in range(plies):
        n = legal_actions(s, buf)
        if apply_action(s, buf[random_below(rng, n)]) != ONGOING:
            s[:] = state
            done += 1
    return done

