"""Go's rules and compiled kernels (the package :mod:`games.go` lists its modules).

Reading guide
-------------
* The rules are written out below. This module holds the compiled kernels only; the Python
  face, :class:`games.go.game.Go` (parameters, initial state, notation, rendering, helpers
  such as ``board``, ``area``, ``score``), is in :mod:`games.go.game`, and the end-of-game
  count (dead stones, sekis, rules) in :mod:`games.go.count`.
* The compiled contract kernels (see :mod:`games.contract`) are the module-level functions
  ``to_play``, ``status``, ``legal_actions``, ``apply_action``, ``playout_action``,
  ``rollout`` and ``rollout_record``, and the optional ``prior``, ``move_features``
  (:mod:`games.go.features`) and ``ownership`` (who owns each point where a simulation
  ended). They are thin: the board machinery (state layout, incremental groups with O(1)
  atari tests) lives in :mod:`games.go.board`, whose docstring draws the state
  array, and the area count that ends a playout in :mod:`games.go.area`. Start there to see
  how a stone is placed (``place_stone``).
* All vertex notation ("D4", "pass", SGF "dd") is converted in one place: the functions
  ``vertex_to_action``, ``action_to_vertex``, ``sgf_to_action`` and ``action_to_sgf`` of
  :mod:`games.go.notation`.

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
  or more on the edge or in the corner). ``bench`` measures these playouts, as OpenSpiel's.
* ``"ko"`` (the default): first the ko rule: for a few moves after a ko capture, once its
  ban has lifted, the ko point is played (retaken, or filled by the side that took it) in
  40 % of the moves (Pachi Moggy's ko check; :func:`games.go.playout.ko_move`); else an
  answer to the opponent's last move - capture it, save a group it put in atari, or play a
  MoGo 3x3 pattern next to it (:mod:`games.go.policy`) - else the uniform policy's move
  without self-ataris of two stones or more. Without the ko rule this is the patterns policy
  (``POLICY_PATTERNS``) of the ownership playouts that judge dead stones
  (:func:`games.go.count.settle_counts`).

With no such move either policy passes, so a playout ends with two passes once every group is
settled; the ko policy also ends it by the mercy rule, two passes once one side has captured a
fifth of the board's points more than the other during the playout
(:func:`games.go.playout._playout`). ``Go(priors=True)`` (the default) also gives new
search-tree nodes prior knowledge through the contract's ``prior`` kernel
(:func:`games.go.prior.point_prior`).
"""
import numpy as np
from numba import njit

from games.contract import ILLEGAL, ONGOING
from games.go.board import (COLOR, EMPTY, F_KO, F_LAST, F_MAXMOVES, F_MOVES, F_PASSES,
                            F_POLICY, F_PRIORS, F_SIZE, F_STATUS, F_TOMOVE, NO_POINT,
                            POLICY_FINISH, POLICY_KO, POLICY_PATTERNS, POLICY_TREE,
                            POLICY_UNIFORM, at, is_legal_point,
                            is_own_eye, place_stone)
from games.go.assess import assess_groups
from games.go.history import hash_after, in_history
from games.go.features import move_features  # noqa: F401  (the contract's kernel)
from games.go.learned import learned_rollout  # noqa: F401  (the contract's kernel)
from games.go.area import add_owners
from games.go.playout import (finish_move, playout_action, rollout,  # noqa: F401  (kernels)
                              rollout_record)
from games.go.playout import _random_ok as random_ok
from games.go.playout import playout_settled
from games.go.prior import PRIOR_UNIT, point_prior
from games.go.twolib import QUEUE

# Why a move is refused (see move_check).
OK, GAME_OVER, OFF_BOARD, OCCUPIED, KO, SUICIDE, SUPERKO = range(7)
POLICIES = {"ko": POLICY_PATTERNS | POLICY_KO, "uniform": POLICY_UNIFORM}  # playout policies
DEFAULT_POLICY = "ko"


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
    pass. Superko is left to ``apply_action``. With ``POLICY_TREE`` in the state's policy
    (the ownership searches of :mod:`frontends.go_ownership`), only the points the playout
    policy could choose (no own-eye fill, no self-atari of two stones or more), as Fuego's
    tree leaves out filling one's own eyes: else, in a decided game, where all its moves
    lose alike, the losing side's search fills its own eyes and kills its living groups."""
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
    if state[F_POLICY] & POLICY_TREE:
        k = _policy_candidates(state, out, k)
    out[k] = n * n
    return k + 1


@njit(cache=True)
def _policy_candidates(state, out, k):
    """Keep of the ``k`` points in ``out`` (actions) those the playout policy could choose
    (``POLICY_TREE``, :func:`legal_actions`); returns how many, in the same order. A pass
    of its own, not the loop of ``legal_actions``: the search's usual expansions then run
    the same code as without the option."""
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    m = 0
    for i in range(k):
        a = out[i]
        if random_ok(state, w, (a // n + 1) * w + a % n + 1, c, True):
            out[m] = a
            m += 1
    return m


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
    return finish_move(state, a)


@njit(cache=True)
def prior(state, actions, visits, value):
    """Prior knowledge of new children (the contract's optional kernel): the virtual playouts
    of :func:`games.go.prior.point_prior` for every point plus those the groups short of
    liberties suggest (:func:`games.go.assess.assess_groups`); none for pass, and none at all
    when the game was made with ``priors=False``."""
    if state[F_PRIORS] == 0:
        return
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    a = state[F_LAST]
    last = (a // n + 1) * w + a % n + 1 if 0 <= a < n * n else NO_POINT
    group_visits = np.zeros(w * w, dtype=np.int64)
    group_wins = np.zeros(w * w, dtype=np.int64)
    assess_groups(state, w, c, PRIOR_UNIT, group_visits, group_wins,
                  np.empty(QUEUE, dtype=np.int64))
    for i in range(actions.shape[0]):
        b = actions[i]
        if b < n * n:
            p = (b // n + 1) * w + b % n + 1
            v, won = point_prior(state, w, p, c, last)
            visits[i] += v + group_visits[p]
            value[i] += won + group_wins[p]


@njit(cache=True)
def ownership(state, rng, out):
    """Who owns each point where a simulation ended (the contract's optional kernel). If the
    playout policy still has moves there (:func:`games.go.playout.playout_settled` is false:
    a playout ended by the mercy rule, two passes in the tree with dead stones still on the
    board), the game is played on first, with the policy's playouts to the end (no mercy
    rule; ``rng``: uint64 ``(1,)``), as :func:`games.go.count.settle_counts` plays on from a
    finished game. Then adds to ``out[0]`` (float64, ``(2, n * n + 1)``) +1 for each point
    of Black's and -1 for each of White's, to ``out[1]`` 1 for each empty point next to both
    colours (the area count's rule point by point, :func:`games.go.area.add_owners`), and
    returns 1; 0 at the move cap (nothing counted). Leaving out the playouts ended by the
    mercy rule instead (as Fuego's territory statistics do) would leave out exactly those in
    which a large group dies, and those that end in the tree by two passes, the usual end of
    a search from a finished game."""
    if not playout_settled(state):
        if state[F_MOVES] >= state[F_MAXMOVES]:
            return 0
        state[F_STATUS] = ONGOING
        state[F_PASSES] = 0
        if state[F_POLICY] != POLICY_UNIFORM:
            state[F_POLICY] |= POLICY_FINISH
        rollout(state, rng)
        if state[F_MOVES] >= state[F_MAXMOVES]:
            return 0
    add_owners(state, out[0], out[1])
    return 1


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
