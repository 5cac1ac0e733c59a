"""Go on square boards from 5x5 to 19x19, with area scoring, positional superko and handicaps.

Reading guide
-------------
* The rules are written out below. This module holds the compiled kernels only; the Python
  face, :class:`games.go_game.Go` (parameters, initial state, notation, rendering, helpers
  such as ``board``, ``area``, ``score``), is in :mod:`games.go_game`, and the end-of-game
  count (dead stones, sekis, rules) in :mod:`games.go_count`.
* The compiled contract kernels (see :mod:`games.contract`) are the module-level functions
  ``to_play``, ``status``, ``legal_actions``, ``apply_action``, ``playout_action`` and
  ``rollout``. They are thin: the board machinery (state layout, incremental groups with O(1)
  atari tests, area scoring) lives in :mod:`games.go_board`, whose docstring draws the state
  array. Start there to see how a stone is placed (``place_stone``).
* All vertex notation ("D4", "pass", SGF "dd") is converted in one place: the functions
  ``vertex_to_action``, ``action_to_vertex``, ``sgf_to_action`` and ``action_to_sgf`` of
  :mod:`games.go_notation`.

Actions: ``row * n + col`` for the point in row ``row`` counted from the *top* (0) and column
``col`` from the left (0), and ``n * n`` for pass; ``num_actions = n * n + 1``. In vertex
notation columns are the letters A-T without I from the left and rows are numbered from 1 at
the *bottom*, so on 9x9 action 0 is A9 and action 72 is A1. Player 0 is Black, 1 is White.

Rules
-----
* Board sizes 5 to 19 (default 9). Black moves first. Komi defaults to 7.5 and may be any
  multiple of 0.5 (an integer komi allows a draw).
* Handicap: ``handicap=k`` (2 <= k <= 9) puts k black stones on the fixed points of GTP's
  ``fixed_handicap`` command (GTP v2 sections 4.1.1 and 6.3.2; placement as in GNU Go, the
  spec's reference implementation): corner stones on the 3-3 points on boards up to 11x11 and
  on the 4-4 points from 12x12 on, side and centre stones for more than 4 stones; at most 4
  stones on 7x7 and on even sizes, at most 9 on odd sizes from 9x9, none below 7x7 (a clear
  ``ValueError``). :meth:`Go.place_stones` places free handicap or any setup stones. After a
  handicap White moves. Komi is not changed by a handicap.
* A move puts a stone of the mover's colour on an empty point; then enemy groups left without
  liberties are captured. Suicide is illegal: a move whose own group ends up without liberties
  is illegal unless it captures (then it is not suicide, since the capture frees a liberty).
* Simple ko: a single stone that has just captured a single stone and has exactly one liberty
  cannot be recaptured at once.
* Positional superko: a move may not recreate any earlier whole-board position of the game
  (positions from before a search root included; setup positions included). ``apply_action``
  enforces it (returns ``ILLEGAL`` and leaves the state unchanged), so real game moves and the
  tree search both obey it; ``legal_actions`` lists moves by simple ko only and the search
  prunes what ``apply_action`` rejects. Random playouts (``rollout``, ``playout_action``) use
  simple ko only, plus the move cap.
* Pass is always legal. Two consecutive passes end the game. The game also ends at the move
  cap, 3 n² moves (passes included; ``Go.max_length``). Resignation is the CLI's business.
* Scoring is by area (Tromp-Taylor): a player's points are their stones plus the empty regions
  that reach only their stones; all stones on the board count as alive. The score is
  Black - White - komi; Black (FIRST_WINS) wins if it is positive, White (SECOND_WINS) if it is
  negative, and it is a DRAW at 0.

Playout policies (``rollout``, ``playout_action``), chosen by ``Go(playout_policy=...)``:

* ``"uniform"``: uniform random over the legal moves (simple ko, no suicide) that do not fill
  the mover's own eye - an empty point whose four neighbours are the mover's stones or the
  edge, unless it is a false eye (two or more enemy stones on its diagonals in the centre, one
  or more on the edge or in the corner).
* ``"patterns"`` (the default): first an answer to the opponent's last move - capture it,
  save a group it put in atari, or play a MoGo 3x3 pattern next to it - else the uniform
  policy's move without self-ataris of two stones or more (:mod:`games.go_policy`).
* ``"patterns2"``: the same, and when the last move gives nothing, a 3x3 pattern next to the
  mover's own previous stone.
* ``"nakade"``: the patterns policy with, after the atari rules, the vital point of a closed
  eye space of three to five points next to the last move (:mod:`games.go_nakade`);
  ``"patterns2-nakade"`` has both.
* ``"twolib"``: the patterns policy with, after the atari rules, Pachi's two-liberty rule:
  when the last move's group or a group of the mover's next to it has two liberties, take
  one (:mod:`games.go_twolib`).

With no such move either policy passes, so a playout ends with two passes once every group is
settled. ``Go(priors=True)`` (the default) also gives new search-tree nodes prior knowledge
through the contract's ``prior`` kernel (:func:`games.go_prior.point_prior`).
"""
import os

import numpy as np
from numba import njit

from games import go_board as gb
from games import go_policy as gp
from games import go_prior as gpr
from games.contract import ILLEGAL, ONGOING
from games.go_board import (COLOR, EMPTY, EPOS, F_EMPTY_AT, F_KO, F_LAST, F_LAST2, F_MAXMOVES,
                            F_MOVES, F_NEMPTY, F_PASSES, F_POLICY, F_PRIORS, F_SIZE, F_STATUS,
                            F_TOMOVE, NO_POINT, POLICY_NAKADE, POLICY_PATTERNS, POLICY_PATTERNS2,
                            POLICY_SECOND, POLICY_TWOLIB, POLICY_UNIFORM, at, final_status,
                            hash_after, in_history, is_legal_point, is_own_eye, place_stone,
                            push_history)
from games.go_nakade import MAX_EYE
from games.go_features import move_features  # noqa: F401  (the contract's kernel)
from games.go_libs import bad_self_atari
from games.go_policy import local_move, pattern_move, saving_moves
from games.go_twolib import QUEUE
from games.go_prior import point_prior
from games.rng import below, next_u64, random_below

KERNEL_DEPENDENCIES = (os.path.abspath(gb.__file__), os.path.abspath(gp.__file__),
                       os.path.abspath(gpr.__file__))

# Why a move is refused (see move_check).
OK, GAME_OVER, OFF_BOARD, OCCUPIED, KO, SUICIDE, SUPERKO = range(7)
POLICIES = {"uniform": POLICY_UNIFORM, "patterns": POLICY_PATTERNS,    # playout policies
            "patterns2": POLICY_PATTERNS2, "nakade": POLICY_PATTERNS | POLICY_NAKADE,
            "patterns2-nakade": POLICY_PATTERNS2 | POLICY_NAKADE,
            "twolib": POLICY_PATTERNS | POLICY_TWOLIB}
DEFAULT_POLICY = "patterns"


# ----------------------------------------------------------------------------------------------
# Contract kernels
# ----------------------------------------------------------------------------------------------

@njit(cache=True)
def to_play(state):
    return state[F_TOMOVE]


@njit(cache=True)
def status(state):
    return state[F_STATUS]


@njit(cache=True)
def ply(state):
    """Moves played so far (passes included, setup stones not)."""
    return state[F_MOVES]


@njit(cache=True)
def legal_actions(state, out):
    """Empty points that are neither suicide nor a simple-ko retake, in action order, then
    pass. Superko is left to ``apply_action``."""
    if state[F_STATUS] != ONGOING:
        return 0
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    ko = state[F_KO]
    k = 0
    for r in range(n):
        p = (r + 1) * w + 1
        for col in range(n):
            if state[at(p, COLOR)] == EMPTY and p != ko and is_legal_point(state, w, p, c):
                out[k] = r * n + col
                k += 1
            p += 1
    out[k] = n * n
    return k + 1


@njit(cache=True)
def move_check(state, action):
    """``OK`` if ``action`` is legal for the player to move, else the reason: ``GAME_OVER``,
    ``OFF_BOARD``, ``OCCUPIED``, ``KO``, ``SUICIDE`` or ``SUPERKO``."""
    if state[F_STATUS] != ONGOING:
        return GAME_OVER
    n = state[F_SIZE]
    a = np.int64(action)
    if a < 0 or a > n * n:
        return OFF_BOARD
    if a == n * n:
        return OK
    w = n + 2
    p = (a // n + 1) * w + a % n + 1
    c = state[F_TOMOVE] + 1
    if state[at(p, COLOR)] != EMPTY:
        return OCCUPIED
    if p == state[F_KO]:
        return KO
    if not is_legal_point(state, w, p, c):
        return SUICIDE
    if in_history(state, hash_after(state, w, p, c)):
        return SUPERKO
    return OK


@njit(cache=True)
def _finish_move(state, action):
    """Bookkeeping after a stone or a pass: turn, counters, history, end of game."""
    state[F_LAST2] = state[F_LAST]
    state[F_LAST] = action
    state[F_TOMOVE] = 1 - state[F_TOMOVE]
    state[F_MOVES] += 1
    push_history(state)
    if state[F_PASSES] >= 2 or state[F_MOVES] >= state[F_MAXMOVES]:
        state[F_STATUS] = final_status(state)
    return state[F_STATUS]


@njit(cache=True)
def apply_action(state, action):
    """Play ``action`` (superko included); return the new status, or ``ILLEGAL`` with the
    state unchanged."""
    if move_check(state, action) != OK:
        return ILLEGAL
    n = state[F_SIZE]
    w = n + 2
    a = np.int64(action)
    if a == n * n:
        state[F_PASSES] += 1
        state[F_KO] = NO_POINT
    else:
        p = (a // n + 1) * w + a % n + 1
        state[F_KO] = place_stone(state, w, p, state[F_TOMOVE] + 1, True)
        state[F_PASSES] = 0
    return _finish_move(state, a)


@njit(cache=True)
def _is_candidate(state, w, p, c):
    """Playout policy filter: legal by simple ko and suicide, and not the mover's own eye."""
    return (p != state[F_KO] and not is_own_eye(state, w, p, c)
            and is_legal_point(state, w, p, c))


@njit(cache=True)
def _random_ok(state, w, p, c, patterns):
    """A point the random part of the policy may play: a candidate, and with the patterns
    policy not a self-atari of two stones or more."""
    return _is_candidate(state, w, p, c) and not (patterns and bad_self_atari(state, w, p, c))


@njit(cache=True)
def _local(state, w, c, x, region, queue):
    """The patterns policy's answer to the last move (games.go_policy rules 1-3): ``(point or
    NO_POINT, rng state)``; NO_POINT also with the uniform policy or after a pass. The
    patterns2 policy, when that gives nothing, also tries the 3x3 patterns around the
    mover's own previous stone (MoGo's and Pachi's second pattern point). ``region``: int64
    scratch of the nakade rule (``games.go_nakade.MAX_EYE`` entries), ``queue`` that of the
    two-liberty rule (``games.go_twolib.QUEUE``)."""
    a = state[F_LAST]
    n = w - 2
    if state[F_POLICY] == POLICY_UNIFORM or a < 0 or a >= n * n:
        return NO_POINT, x
    policy = state[F_POLICY]
    p, x = local_move(state, w, (a // n + 1) * w + a % n + 1, c, x,
                      policy & POLICY_NAKADE != 0, policy & POLICY_TWOLIB != 0, region, queue)
    b = state[F_LAST2]
    if p != NO_POINT or policy & POLICY_SECOND == 0 or b < 0 or b >= n * n:
        return p, x
    q = (b // n + 1) * w + b % n + 1
    if state[at(q, COLOR)] != c:
        return NO_POINT, x                      # captured since
    return pattern_move(state, w, q, c, x)


@njit(cache=True)
def playout_action(state, rng):
    """The playout policy's move (see the module docstring); the state is not changed. Pass
    when there is no candidate."""
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    p, rng[0] = _local(state, w, c, rng[0], np.empty(MAX_EYE, dtype=np.int64),
                       np.empty(QUEUE, dtype=np.int64))
    if p != NO_POINT:
        return (p // w - 1) * n + p % w - 1
    patterns = state[F_POLICY] != POLICY_UNIFORM
    e0 = state[F_EMPTY_AT]
    count = 0
    for i in range(state[F_NEMPTY]):
        if _random_ok(state, w, state[e0 + i], c, patterns):
            count += 1
    if count == 0:
        return n * n
    k = random_below(rng, count)
    for i in range(state[F_NEMPTY]):
        p = state[e0 + i]
        if _random_ok(state, w, p, c, patterns):
            if k == 0:
                return (p // w - 1) * n + p % w - 1
            k -= 1
    return n * n


@njit(cache=True)
def _playout(state, rng, record, seq_actions, seq_players):
    """Play the playout policy to the end (two passes or the move cap); return the status and
    the number of moves written to ``seq_actions`` / ``seq_players`` when ``record``.

    A candidate is drawn uniformly from the not-yet-rejected part of the empty list; a rejected
    point is swapped behind that part, so every draw is uniform over the points left and
    nothing is allocated. Simple ko only: no superko test here."""
    if state[F_STATUS] != ONGOING:
        return state[F_STATUS], 0
    n = state[F_SIZE]
    w = n + 2
    e0 = state[F_EMPTY_AT]
    patterns = state[F_POLICY] != POLICY_UNIFORM
    x = rng[0]
    st = ONGOING
    m = 0
    region = np.empty(MAX_EYE, dtype=np.int64)
    queue = np.empty(QUEUE, dtype=np.int64)
    while st == ONGOING:
        c = state[F_TOMOVE] + 1
        chosen = NO_POINT
        if patterns:                            # uniform playouts: no call at all
            chosen, x = _local(state, w, c, x, region, queue)
        k = state[F_NEMPTY] if chosen == NO_POINT else 0
        while k > 0:
            x = next_u64(x)
            i = below(x, k)
            p = state[e0 + i]
            if _random_ok(state, w, p, c, patterns):
                chosen = p
                break
            k -= 1              # reject p: swap it behind the candidates still open
            q = state[e0 + k]
            state[e0 + i] = q
            state[at(q, EPOS)] = i
            state[e0 + k] = p
            state[at(p, EPOS)] = k
        if chosen == NO_POINT:
            state[F_PASSES] += 1
            state[F_KO] = NO_POINT
            action = n * n
        else:
            state[F_KO] = place_stone(state, w, chosen, c, True)
            state[F_PASSES] = 0
            action = (chosen // w - 1) * n + chosen % w - 1
        if record and m < seq_actions.shape[0]:
            seq_actions[m] = action
            seq_players[m] = c - 1
            m += 1
        st = _finish_move(state, action)
    rng[0] = x
    return st, m


@njit(cache=True)
def rollout(state, rng):
    """Play the playout policy to the end (two passes or the move cap); return the status."""
    st, _ = _playout(state, rng, False, state[:0].astype(np.int32), state[:0].astype(np.int8))
    return st


@njit(cache=True)
def rollout_record(state, rng, seq_actions, seq_players):
    """``rollout`` that also records each move and its player (for RAVE); returns
    (status, moves recorded)."""
    return _playout(state, rng, True, seq_actions, seq_players)


@njit(cache=True)
def prior(state, actions, visits, value):
    """Prior knowledge of new children (the contract's optional kernel): the virtual playouts
    of :func:`games.go_prior.point_prior` for every point; none for pass, and none at all
    when the game was made with ``priors=False``."""
    if state[F_PRIORS] == 0:
        return
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    a = state[F_LAST]
    last = (a // n + 1) * w + a % n + 1 if 0 <= a < n * n else NO_POINT
    saves = (NO_POINT, NO_POINT, NO_POINT, NO_POINT)
    if last != NO_POINT:
        saves = saving_moves(state, w, last, c)
    for i in range(actions.shape[0]):
        b = actions[i]
        if b < n * n:
            v, won = point_prior(state, w, (b // n + 1) * w + b % n + 1, c, last, saves)
            visits[i] += v
            value[i] += won


# ----------------------------------------------------------------------------------------------
# Compiled helpers for the Python face
# ----------------------------------------------------------------------------------------------

@njit(cache=True)
def _exact_legal_actions(state, out):
    """``legal_actions`` minus the moves that break positional superko."""
    m = legal_actions(state, out)
    k = 0
    for i in range(m):
        if move_check(state, out[i]) == OK:
            out[k] = out[i]
            k += 1
    return k


@njit(cache=True)
def _own_eye(state, action, player):
    n = state[F_SIZE]
    w = n + 2
    p = (action // n + 1) * w + action % n + 1
    return state[at(p, COLOR)] == EMPTY and is_own_eye(state, w, p, player + 1)


@njit(cache=True)
def _hash_after_action(state, action):
    n = state[F_SIZE]
    w = n + 2
    p = (action // n + 1) * w + action % n + 1
    return hash_after(state, w, p, state[F_TOMOVE] + 1)
