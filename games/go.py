"""Go on square boards from 5x5 to 19x19, with area scoring, positional superko and handicaps.

Reading guide
-------------
* The rules are written out below; :class:`Go` (at the bottom) is the Python face: parameters,
  initial state, notation, rendering and helpers (``board``, ``area``, ``score``, ...).
* The compiled contract kernels (see :mod:`games.contract`) are the module-level functions
  ``to_play``, ``status``, ``legal_actions``, ``apply_action``, ``playout_action`` and
  ``rollout``. They are thin: the board machinery (state layout, incremental groups with O(1)
  atari tests, area scoring) lives in :mod:`games.go_board`, whose docstring draws the state
  array. Start there to see how a stone is placed (``place_stone``).
* All vertex notation ("D4", "pass", SGF "dd") is converted in one place: the functions
  ``vertex_to_action``, ``action_to_vertex``, ``sgf_to_action`` and ``action_to_sgf`` below.

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

With no such move either policy passes, so a playout ends with two passes once every group is
settled. ``Go(priors=True)`` (the default) also gives new search-tree nodes prior knowledge
through the contract's ``prior`` kernel (:func:`games.go_policy.point_prior`).
"""
import os
import re

import numpy as np
from numba import njit

from games import go_board as gb
from games import go_policy as gp
from games import go_score
from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS, Game, Param
from games.go_board import (BLACK, BORDER, COLOR, EMPTY, EPOS, F_CAPS_B, F_CAPS_W,
                            F_EMPTY_AT, F_HANDICAP, F_HIST_AT, F_HISTLEN, F_KO, F_KOMI2, F_LAST,
                            F_MAXMOVES, F_MOVES, F_NEMPTY, F_PASSES, F_POLICY, F_PRIORS, F_SIZE,
                            F_STATUS, F_TOMOVE, MAX_SIZE, MIN_SIZE,
                            NO_POINT, at, final_status, hash_after, in_history, is_legal_point,
                            is_own_eye, place_stone, POLICY_PATTERNS, POLICY_UNIFORM,
                            push_history, WHITE)
from games.go_policy import bad_self_atari, local_move, point_prior, saving_moves
from games.rng import below, next_u64, random_below

KERNEL_DEPENDENCIES = (os.path.abspath(gb.__file__), os.path.abspath(gp.__file__))

# Why a move is refused (see move_check).
OK, GAME_OVER, OFF_BOARD, OCCUPIED, KO, SUICIDE, SUPERKO = range(7)
COLUMNS = "ABCDEFGHJKLMNOPQRST"          # vertex column letters: A-T without I
POLICIES = {"uniform": POLICY_UNIFORM, "patterns": POLICY_PATTERNS}    # playout policies
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
def _local(state, w, c, x):
    """The patterns policy's answer to the last move (games.go_policy rules 1-3): ``(point or
    NO_POINT, rng state)``; NO_POINT also with the uniform policy or after a pass."""
    a = state[F_LAST]
    n = w - 2
    if state[F_POLICY] != POLICY_PATTERNS or a < 0 or a >= n * n:
        return NO_POINT, x
    return local_move(state, w, (a // n + 1) * w + a % n + 1, c, x)


@njit(cache=True)
def playout_action(state, rng):
    """The playout policy's move (see the module docstring); the state is not changed. Pass
    when there is no candidate."""
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    p, rng[0] = _local(state, w, c, rng[0])
    if p != NO_POINT:
        return (p // w - 1) * n + p % w - 1
    patterns = state[F_POLICY] == POLICY_PATTERNS
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
    patterns = state[F_POLICY] == POLICY_PATTERNS
    x = rng[0]
    st = ONGOING
    m = 0
    while st == ONGOING:
        c = state[F_TOMOVE] + 1
        chosen, x = _local(state, w, c, x)
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
    of :func:`games.go_policy.point_prior` for every point; none for pass, and none at all
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


@njit(cache=True)
def settle_counts(state, rng, playouts, alternate, own, dame):
    """Play ``playouts`` playouts of the patterns policy from ``state``, the player to move
    and (if ``alternate``) the other one starting in turn (a finished game is played on as if
    nobody had passed), and add to ``own`` (int64, shape (n*n,), action order) +1 for each point that
    ends Black's (a black stone, or an empty point next to black stones only) and -1 for
    White's, and to ``dame`` (int64, shape (n*n,)) 1 for each point that ends empty next to
    stones of both colours. The statistics behind :mod:`games.go_score`."""
    n = state[F_SIZE]
    w = n + 2
    scratch = np.empty_like(state)
    for i in range(playouts):
        scratch[:] = state
        if scratch[F_MOVES] >= scratch[F_MAXMOVES]:
            return
        scratch[F_STATUS] = ONGOING
        scratch[F_PASSES] = 0
        scratch[F_POLICY] = POLICY_PATTERNS     # it keeps sekis: no self-atari of 2+ stones
        if alternate and i % 2 == 1:
            scratch[F_TOMOVE] = 1 - scratch[F_TOMOVE]
            scratch[F_KO] = NO_POINT
        rollout(scratch, rng)
        for r in range(n):
            for col in range(n):
                p = (r + 1) * w + col + 1
                v = scratch[at(p, COLOR)]
                if v == EMPTY:
                    seen = 0
                    for d in (1, -1, w, -w):
                        q = scratch[at(p + d, COLOR)]
                        if q != BORDER:
                            seen |= q
                    v = seen
                if v == BLACK:
                    own[r * n + col] += 1
                elif v == WHITE:
                    own[r * n + col] -= 1
                elif v == BLACK | WHITE:
                    dame[r * n + col] += 1


# ----------------------------------------------------------------------------------------------
# Notation: the one place that converts vertices, SGF points and actions
# ----------------------------------------------------------------------------------------------

_VERTEX = re.compile(r"([A-Za-z])(\d{1,2})")


def vertex_to_action(text, size):
    """Action for a GTP vertex ("D4", "d4", "pass") on a ``size`` board; ``ValueError`` with a
    one-line reason for garbage or a vertex off the board."""
    t = str(text).strip()
    if t.lower() == "pass":
        return size * size
    m = _VERTEX.fullmatch(t)
    if not m:
        raise ValueError(f"{t!r} is not a vertex: write a column letter and a row number, "
                         f"e.g. D4, or 'pass'")
    letter, row = m.group(1).upper(), int(m.group(2))
    if letter == "I":
        raise ValueError(f"{t!r} is not a vertex: the column letters skip I (A-H, J-T)")
    col = COLUMNS.find(letter)
    if col < 0 or col >= size or not 1 <= row <= size:
        raise ValueError(f"{t!r} is off the board: a {size}x{size} board has columns "
                         f"A-{COLUMNS[size - 1]} and rows 1-{size}")
    return (size - row) * size + col


def action_to_vertex(action, size):
    """GTP vertex ("D4", or "pass") of ``action`` on a ``size`` board."""
    a = int(action)
    if a == size * size:
        return "pass"
    if not 0 <= a < size * size:
        raise ValueError(f"action {a} is out of range for a {size}x{size} board")
    return f"{COLUMNS[a % size]}{size - a // size}"


def sgf_to_action(text, size):
    """Action for an SGF point ("dd": column then row, 'a' = left / top); "" or "tt" (on boards
    up to 19x19) is a pass."""
    t = str(text).strip()
    if t == "" or (t == "tt" and size <= 19):
        return size * size
    if len(t) != 2 or not all("a" <= ch <= "z" for ch in t):
        raise ValueError(f"{t!r} is not an SGF point: two lowercase letters, e.g. 'dd'")
    col, row = ord(t[0]) - ord("a"), ord(t[1]) - ord("a")
    if col >= size or row >= size:
        raise ValueError(f"SGF point {t!r} is off a {size}x{size} board")
    return row * size + col


def action_to_sgf(action, size):
    """SGF point of ``action`` ("dd"); a pass is ""."""
    a = int(action)
    if a == size * size:
        return ""
    if not 0 <= a < size * size:
        raise ValueError(f"action {a} is out of range for a {size}x{size} board")
    return chr(ord("a") + a % size) + chr(ord("a") + a // size)


# ----------------------------------------------------------------------------------------------
# Handicap and star points
# ----------------------------------------------------------------------------------------------

def max_fixed_handicap(size):
    """Most stones GTP ``fixed_handicap`` places on a ``size`` board (0: none allowed)."""
    if size % 2 == 1 and size >= 9:
        return 9
    return 4 if size >= 7 else 0


def fixed_handicap_vertices(size, stones):
    """The vertices of GTP ``fixed_handicap`` for ``stones`` stones; ``ValueError`` if GTP does
    not define that placement on this board size."""
    most = max_fixed_handicap(size)
    if most == 0:
        raise ValueError(f"fixed handicap needs a board of at least 7x7 (GTP), not "
                         f"{size}x{size}; place stones freely with Go.place_stones instead")
    if not 2 <= stones <= most:
        raise ValueError(f"a fixed handicap on {size}x{size} is 2 to {most} stones, not {stones}")
    lo = 3 if size > 11 else 2          # 0-based distance of corner stones from the edge
    hi, mid = size - 1 - lo, size // 2
    corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)]    # (col, row from the bottom)
    sides = [(lo, mid), (hi, mid), (mid, lo), (mid, hi)]
    if stones in (5, 7, 9):
        spots = corners + sides[:stones - 5] + [(mid, mid)]
    else:
        spots = (corners + sides)[:stones]
    return [f"{COLUMNS[c]}{r + 1}" for c, r in spots]


def star_points(size):
    """Actions of the marked points (hoshi): 3-3 or 4-4 corner points (as the handicap), the
    centre on odd boards, and the side points on odd boards from 15x15."""
    if size < 7:
        return set()
    lo = 3 if size > 11 else 2
    hi, mid = size - 1 - lo, size // 2
    spots = {(lo, lo), (lo, hi), (hi, lo), (hi, hi)}
    if size % 2 == 1:
        spots.add((mid, mid))
        if size >= 15:
            spots |= {(lo, mid), (hi, mid), (mid, lo), (mid, hi)}
    return {(size - 1 - r) * size + c for c, r in spots}


# ----------------------------------------------------------------------------------------------
# Python face
# ----------------------------------------------------------------------------------------------

def area(state):
    """``(black_points, white_points)`` by area (Tromp-Taylor) of a state, as it stands."""
    b, w = gb.area(state.copy())        # the count reorders the empty list: use a copy
    return int(b), int(w)


def score(state):
    """Black's area minus White's minus komi."""
    b, w = area(state)
    return b - w - int(state[F_KOMI2]) / 2


def result_string(state_or_score):
    """"B+3.5", "W+0.5" or "0" for a state (counted by area as it stands) or a score."""
    sc = score(state_or_score) if isinstance(state_or_score, np.ndarray) else state_or_score
    sc = float(sc)
    if sc == 0:
        return "0"
    return f"{'B' if sc > 0 else 'W'}+{abs(sc):g}"


_REASONS = {
    GAME_OVER: "the game is over",
    OCCUPIED: "{v} is occupied",
    KO: "{v} retakes the ko at once (simple ko): play elsewhere first",
    SUICIDE: "{v} is suicide: the stone would have no liberties and captures nothing",
    SUPERKO: "{v} would repeat an earlier whole-board position (positional superko)",
    OFF_BOARD: "{v} is off the board",
}


def _player(color):
    """0 (Black) or 1 (White) from 0/1 or a colour name ("b", "black", "w", "white")."""
    if isinstance(color, str):
        c = color.strip().lower()
        if c in ("b", "black"):
            return 0
        if c in ("w", "white"):
            return 1
    elif color in (0, 1):
        return int(color)
    raise ValueError(f"colour {color!r}: use 0 or 'black' for Black, 1 or 'white' for White")


class Go(Game):
    """Go on an n x n board (5 <= n <= 19). Player 0 is Black, player 1 is White."""

    name = "go"
    kernel_module = "games.go"
    players = ("Black", "White")
    move_help = "a vertex like D4, or pass"
    resign_allowed = True
    saves_games = True              # as SGF
    rave_default = True
    exploration_default = 0.2       # plain UCT on Go (see mcts.search.SearchConfig)

    parameters = (
        Param("size", int, 9, "board size", low=MIN_SIZE, high=MAX_SIZE),
        Param("komi", float, 7.5, "komi (points added to White's area count; an integer komi "
              "allows a draw)", low=-1000, high=1000, multiple_of=0.5),
        Param("handicap", int, 0, "handicap stones (0, or 2 to 9 on the fixed points)",
              low=0, high=9),
        Param("playout_policy", str, DEFAULT_POLICY,
              "playout policy: patterns (captures, atari defence, MoGo's 3x3 patterns, no big "
              "self-ataris) or uniform (uniform random moves that keep their own eyes)",
              choices=("patterns", "uniform")),
        Param("priors", bool, True, "prior knowledge for new tree nodes (captures, ataris, "
              "patterns, no self-ataris, edges; seeds the RAVE statistics)"),
        Param("rules", str, "tromp-taylor", "scoring: tromp-taylor (the board as it stands, "
              "every stone counted) or chinese (dead stones removed, White gets a point per "
              "handicap stone, as GNU Go's --chinese-rules)", choices=go_score.RULES),
    )
    # bench's Go figures are for uniform random playouts, like OpenSpiel's, unless the user
    # asks for the patterns policy that play, gtp and match use by default.
    bench_params = {"playout_policy": "uniform"}

    def __init__(self, size=9, komi=7.5, handicap=0, playout_policy=DEFAULT_POLICY, priors=True,
                 rules="tromp-taylor"):
        super().__init__(size=size, komi=komi, handicap=handicap, playout_policy=playout_policy,
                         priors=priors, rules=rules)
        p = self.params                 # checked and normalised by the declarations above
        size_i, komi_f, handicap_i = p["size"], p["komi"], p["handicap"]
        policy, priors = p["playout_policy"], p["priors"]
        if handicap_i == 1:
            raise ValueError(f"handicap must be 0 or at least 2 stones, got {handicap!r} "
                             "(with 1 stone Black simply moves first: use 0)")
        if handicap_i:
            fixed_handicap_vertices(size_i, handicap_i)      # raises for an invalid number
        self.priors, self.rules = priors, p["rules"]
        self.size, self.komi, self.handicap, self.policy = size_i, komi_f, handicap_i, policy
        self.num_actions = size_i * size_i + 1
        self.max_length = int(gb.move_cap(size_i))
        self.pass_action = size_i * size_i

    # -- states ----------------------------------------------------------------------------
    def initial_state(self):
        s = gb.new_state(self.size, int(round(self.komi * 2)))
        s[F_POLICY] = POLICIES[self.policy]
        s[F_PRIORS] = int(self.priors)
        if self.handicap:
            self.place_stones(s, fixed_handicap_vertices(self.size, self.handicap), "black",
                              next_player=1)
            self.set_handicap(s, self.handicap)
        return s

    def set_handicap(self, state, stones):
        """Record that ``stones`` handicap stones were placed (fixed or free): under Chinese
        rules White gets a point for each, included in the komi the search and the count
        use (``state``'s effective komi; :attr:`komi` stays the komi agreed)."""
        state[F_HANDICAP] = int(stones)
        self._refresh_komi(state)

    def set_rules(self, state, rules):
        """Score this game (and ``state``) by ``rules`` (``go_score.RULES``) from now on."""
        go_score.compensation(rules, 0)           # ValueError for unknown rules
        self.rules = self.params["rules"] = rules
        self._refresh_komi(state)

    def _refresh_komi(self, state):
        extra = go_score.compensation(self.rules, int(state[F_HANDICAP]))
        state[F_KOMI2] = int(round((self.komi + extra) * 2))

    def effective_komi(self, state):
        """The komi plus the handicap compensation of the rules: what Black's area must beat."""
        return int(state[F_KOMI2]) / 2

    def place_stones(self, state, points, color, next_player=None):
        """Put setup stones of ``color`` (0 / "black" or 1 / "white") on ``points`` (actions
        or vertices): free handicap placement or any position setup. See :meth:`set_up`."""
        c = _player(color)
        self.set_up(state, black=points if c == 0 else (), white=points if c == 1 else (),
                    next_player=next_player)

    def set_up(self, state, black=(), white=(), next_player=None):
        """Add setup stones (actions or vertices) of both colours as one step, e.g. a position
        from a diagram or SGF AB/AW. No captures happen; ``ValueError`` (state unchanged) if a
        point is off the board, occupied or repeated, or a group would have no liberties. The
        new position joins the superko history; the ko point and the pass count are cleared.
        ``next_player`` (0 / "black" or 1 / "white"), if given, is set to move."""
        if int(state[F_STATUS]) != ONGOING:
            raise ValueError("the game is over: no more stones can be placed")
        n, w = self.size, self.size + 2
        acts, pads, cols = [], [], []
        for points, c in ((black, 1), (white, 2)):
            for p in points:
                a = int(p) if isinstance(p, (int, np.integer)) else vertex_to_action(p, n)
                if not 0 <= a < n * n:
                    raise ValueError(f"cannot place a stone on {p!r}: not a point of the board")
                acts.append(a)
                pads.append((a // n + 1) * w + a % n + 1)
                cols.append(c)
        if not pads:
            if next_player is not None:
                state[F_TOMOVE] = _player(next_player)
            return
        tmp = state.copy()
        code = gb.setup_stones(tmp, np.array(pads, dtype=np.int64),
                               np.array(cols, dtype=np.int64))
        if code > 0:
            raise ValueError(f"cannot place a stone on {self.format_move(acts[code - 1])}: "
                             "the point is occupied")
        if code == -1:
            raise ValueError("these setup stones leave a group without liberties")
        if code == -2:
            raise ValueError("the position history is full: no more setup is possible")
        if next_player is not None:
            tmp[F_TOMOVE] = _player(next_player)
        state[:] = tmp

    # -- notation --------------------------------------------------------------------------
    def vertex_to_action(self, text):
        return vertex_to_action(text, self.size)

    def action_to_vertex(self, action):
        return action_to_vertex(action, self.size)

    def sgf_to_action(self, text):
        return sgf_to_action(text, self.size)

    def action_to_sgf(self, action):
        return action_to_sgf(action, self.size)

    def parse_move(self, text, state):
        if int(state[F_STATUS]) != ONGOING:
            raise ValueError(f"the game is over ({self.result_string(state)})")
        action = vertex_to_action(text, self.size)
        why = int(move_check(state, np.int64(action)))
        if why != OK:
            raise ValueError(_REASONS[why].format(v=action_to_vertex(action, self.size)))
        return action

    def format_move(self, action, state=None):
        return action_to_vertex(action, self.size)

    # -- queries ---------------------------------------------------------------------------
    def legal_actions(self, state):
        """Exactly the legal actions (superko included), int32, in action order, pass last."""
        out = np.empty(self.num_actions, dtype=np.int32)
        return out[:_exact_legal_actions(state, out)].copy()

    def board(self, state):
        """Stones as int8 ``(n, n)``, row 0 at the top: 0 empty, 1 black, 2 white."""
        n = self.size
        return gb.colors(state)[1:n + 1, 1:n + 1].astype(np.int8)

    def area(self, state):
        """``(black_points, white_points)`` by area (Tromp-Taylor): stones plus empty regions
        reaching only that colour."""
        return area(state)

    def score(self, state):
        """Black's area minus White's minus komi (positive: Black is ahead)."""
        return score(state)

    @staticmethod
    def result_string(state_or_score):
        """"B+3.5", "W+0.5" or "0" for a state (counted by area as it stands) or a score."""
        return result_string(state_or_score)

    def captures(self, state):
        """``(stones captured by Black, stones captured by White)``."""
        return int(state[F_CAPS_B]), int(state[F_CAPS_W])

    def moves_played(self, state):
        return int(state[F_MOVES])

    def is_own_eye(self, state, action, player=None):
        """True if ``action`` is an empty point that the playout policy treats as an eye of
        ``player`` (default: the player to move)."""
        p = self.to_play(state) if player is None else _player(player)
        return bool(_own_eye(state, np.int64(action), np.int64(p)))

    def repeats_position(self, state, action):
        """True if stone ``action`` (legal by simple ko and suicide) would recreate a position
        from the game's history: the positional superko test."""
        h = _hash_after_action(state, np.int64(action))
        h0 = int(state[F_HIST_AT])
        return bool(np.any(state[h0:h0 + int(state[F_HISTLEN])] == h))

    def result_text(self, status):
        if status == DRAW:
            return "draw (jigo)"
        return super().result_text(status)

    def ai_should_pass(self, state):
        """Pass without searching when the opponent has just passed and the game, ended now,
        is won by the player to move under the rules in force (:meth:`final_score`)."""
        if int(state[F_STATUS]) != ONGOING or int(state[F_PASSES]) == 0:
            return False
        return self.pass_wins(state)

    def pass_wins(self, state, player=None):
        """Would ``player`` (default: the one to move) win if the game ended now?"""
        sc = self.final_score(state)
        return sc > 0 if (self.to_play(state) if player is None else player) == 0 else sc < 0

    def final_choice(self, state, result):
        """The search's move, unless it fills the mover's own eye (the playout policy's eye
        rule): then the most visited move that does not, or pass. In a decided game every move
        looks alike to the search, and filling one's eyes would kill living groups."""
        a = result.action
        if a == self.pass_action or not self.is_own_eye(state, a):
            return a
        for child in result.children:       # most visited first
            b = child.action
            if b != self.pass_action and not self.is_own_eye(state, b):
                return b
        return self.pass_action

    def score_text(self, state):
        """The count if the game ended now, under the rules in force."""
        count = self.count(state)
        return f"{self._count_text(state, count)}: {go_score.result_string(count[2])}"

    def _count_text(self, state, count):
        """E.g. "Chinese count (2 dead stones removed): Black 45, White 36, komi 7.5"."""
        b, w, _, dead = count
        if self.rules == "tromp-taylor":
            what = "Tromp-Taylor count (every stone counts)"
        else:
            what = f"Chinese count ({dead} dead stones removed)"
        extra = self.effective_komi(state) - self.komi
        komi = f"komi {self.komi:g}" + (f" + {extra:g} for the handicap" if extra else "")
        return f"{what}: Black {b}, White {w}, {komi}"

    def summary(self, state):
        """Final report: result and count."""
        count = self.count(state)
        return f"{self.result_text_for_state(state, count)}: {self._count_text(state, count)}"

    def result_text_for_state(self, state, count=None):
        """E.g. "Black wins (B+3.5)" for a finished game, or the current count if not
        (``count``: :meth:`count` of ``state`` if already made)."""
        sc = (count or self.count(state))[2]
        res = go_score.result_string(sc)
        if int(state[F_STATUS]) == ONGOING:
            return f"game in progress (count now: {res})"
        winner = FIRST_WINS if sc > 0 else SECOND_WINS if sc < 0 else DRAW
        return f"{self.result_text(winner)} ({res})"

    def save_game(self, moves, state, resigned=None, directory="."):
        """Write the game as SGF (FF[4], SZ, KM, HA, AB, RU, RE) in ``directory``; its path."""
        from games import go_sgf
        if resigned is not None:
            result = f"{'WB'[resigned]}+R"
        elif int(state[F_STATUS]) != ONGOING:
            result = self.final_result(state)
        else:
            result = None
        setup = [vertex_to_action(v, self.size)
                 for v in fixed_handicap_vertices(self.size, self.handicap)] if self.handicap else []
        data = go_sgf.to_sgf(self, moves, setup_black=setup, result=result, rules=self.rules,
                             first_player=1 if self.handicap else 0)
        return go_sgf.save(go_sgf.default_path(directory), data)

    def observation(self, state):
        """The position for learning: int8 ``(n * n + 1,)``, the points row by row from the
        top (0 empty, 1 black, 2 white), then the player to move (0 Black, 1 White). Self-play
        data store this instead of the full state (which carries the group machinery)."""
        return np.concatenate([self.board(state).ravel(),
                               np.array([int(state[F_TOMOVE])], dtype=np.int8)])

    # -- control from outside (GTP): either colour may move, a finished game may go on -----
    def set_to_play(self, state, color):
        """Make ``color`` (0 / "black" or 1 / "white") the player to move; if that changes
        who moves, the simple-ko ban (which binds only the next opponent move) is lifted."""
        c = _player(color)
        if int(state[F_TOMOVE]) != c:
            state[F_TOMOVE] = c
            state[F_KO] = NO_POINT

    def reopen(self, state):
        """Let a game that ended by two passes go on (the pass count starts again). False if
        it cannot (the move cap was reached)."""
        if int(state[F_STATUS]) == ONGOING:
            return True
        if int(state[F_MOVES]) >= int(state[F_MAXMOVES]):
            return False
        state[F_STATUS] = ONGOING
        state[F_PASSES] = 0
        return True

    def set_komi(self, state, komi):
        """Change the komi of ``state`` (and of this game) to ``komi`` (a multiple of 0.5)."""
        if float(komi) * 2 != int(float(komi) * 2):
            raise ValueError(f"komi must be a multiple of 0.5, got {komi!r}")
        self.komi = float(komi)
        self.params["komi"] = self.komi
        self._refresh_komi(state)

    def warm_up(self):
        """Compile the helpers that play, GTP and the scoring use beyond the kernels."""
        s = self.initial_state()
        self.set_up(s, [0], [self.size * self.size - 1])
        self.legal_actions(s)
        self.is_own_eye(s, 1)
        self.repeats_position(s, 1)
        self.stone_status(s, playouts=2)
        score(s)

    # -- the end of the game (games.go_score) -----------------------------------------------
    def settle(self, state, playouts=400, seed=0, alternate=True):
        """Playout statistics of the final position: ``(own, dame)``, float ``(n, n)`` each,
        row 0 at the top: the mean final owner of each point in [-1, 1] (+1 Black) and the
        share of playouts in which it ends as dame, from ``playouts`` seeded playouts of the
        patterns policy, each side starting in turn if ``alternate``, else the player to move
        (:func:`settle_counts`)."""
        from games.rng import new_rng
        own = np.zeros(self.size * self.size, dtype=np.int64)
        dame = np.zeros(self.size * self.size, dtype=np.int64)
        settle_counts(state, new_rng(seed), int(playouts), int(alternate), own, dame)
        shape = (self.size, self.size)
        return (own / playouts).reshape(shape), (dame / playouts).reshape(shape)

    def point_ownership(self, state, playouts=400, seed=0):
        """Estimated final owner of every point, float ``(n, n)`` in [-1, 1] (+1 Black)."""
        return self.settle(state, playouts, seed)[0]

    def stone_status(self, state, playouts=400, seed=0):
        """``(colour, points, status)`` for every chain, status alive/dead/seki as estimated
        from the playouts (:func:`games.go_score.classify`), sekis tested by filling their
        shared liberties (:func:`games.go_score.resolve_sekis`), whatever the rules."""
        own, dame = self.settle(state, playouts, seed)
        board = self.board(state)
        statuses = go_score.classify(board, own, dame)
        if not any(st == go_score.SEKI for _, _, st in statuses):
            return statuses

        def try_move(action, colour):
            return self._filling_lines(state, action, colour - 1, playouts // 4, seed, depth=2)
        return go_score.resolve_sekis(board, statuses, own, dame, try_move)

    def _filling_lines(self, state, action, player, playouts, seed, depth):
        """Ownership after ``player`` fills ``action`` of a seki, the opponent to move; and if
        the fill is a self-atari, after the opponent's capture and each reply of ``player``
        on the points emptied (the vital point of a nakade among them). A list of ``(n, n)``
        ownership maps (:meth:`_judged_ownership`); empty if the fill is illegal."""
        after = state.copy()
        self.reopen(after)
        self.set_to_play(after, player)
        if apply_action(after, np.int64(action)) == ILLEGAL:
            return []
        lines = [after]
        board, n = self.board(after), self.size
        chain = next(pts for c, pts in go_score.chains(board) if action in pts)
        libs = {rr * n + cc for p in chain for rr, cc in go_score.neighbours(*divmod(p, n), n)
                if not board[rr, cc]}
        if len(libs) == 1:
            captured = after.copy()
            if apply_action(captured, np.int64(libs.pop())) != ILLEGAL:
                for q in chain:
                    reply = captured.copy()
                    if apply_action(reply, np.int64(q)) != ILLEGAL:
                        lines.append(reply)
        return [self._judged_ownership(s, playouts, seed, depth - 1) for s in lines]

    def _judged_ownership(self, state, playouts, seed, depth):
        """Mean final owner ``(n, n)`` of playouts from ``state`` (the player to move first),
        with the chains of any seki there tested ``depth`` more fills deep and set to +-1 (0
        for a seki that holds)."""
        own, dame = self.settle(state, playouts, seed, alternate=False)
        board = self.board(state)
        statuses = go_score.classify(board, own, dame)
        if depth <= 0 or not any(st == go_score.SEKI for _, _, st in statuses):
            return own
        statuses = go_score.resolve_sekis(
            board, statuses, own, dame,
            lambda a, c: self._filling_lines(state, a, c - 1, playouts, seed, depth))
        own = own.copy()
        for color, points, st in statuses:
            sign = 1.0 if color == 1 else -1.0
            for p in points:
                own[divmod(p, self.size)] = {go_score.ALIVE: sign, go_score.DEAD: -sign,
                                             go_score.SEKI: 0.0}[st]
        return own

    def final_status(self, state, seed=0):
        """Status of every chain at the end of the game (GTP ``final_status_list``), whatever
        the rules: GUIs such as Quarry mark and count dead stones themselves. Under
        Tromp-Taylor :meth:`final_score` still counts every stone."""
        return self.stone_status(state, seed=seed)

    def count(self, state, seed=0):
        """``(black, white, score, dead stones removed)`` of the game ended now under the
        rules in force: Tromp-Taylor, the bare area count; Chinese, the area count with the
        dead stones (:meth:`final_status`) taken off and a point to White per handicap stone.
        The score is Black - White - komi - compensation. The one count behind ``play``,
        ``analyze``, the SGF result and GTP ``final_score``."""
        if self.rules == "tromp-taylor":
            b, w = area(state)
            return b, w, score(state), 0
        dead = [p for _, pts, st in self.final_status(state, seed) if st == go_score.DEAD
                for p in pts]
        b, w = go_score.area_of(go_score.without(self.board(state), dead))
        return b, w, b - w - self.effective_komi(state), len(dead)

    def final_score(self, state, seed=0):
        """The score of :meth:`count`: Black - White - komi - compensation."""
        return self.count(state, seed)[2]

    def final_result(self, state, seed=0):
        """:meth:`final_score` written as a result, ``"B+3.5"``, ``"W+0.5"`` or ``"0"``."""
        return go_score.result_string(self.final_score(state, seed))

    # -- display ---------------------------------------------------------------------------
    def render(self, state, last_action=None):
        n = self.size
        grid = self.board(state)
        stars = star_points(n)
        letters = "   " + " ".join(COLUMNS[:n])
        mark = None
        if last_action is not None and 0 <= int(last_action) < n * n:
            mark = divmod(int(last_action), n)
        lines = [letters]
        for r in range(n):
            num = n - r
            line = f"{num:>2}"
            for c in range(n):
                a = r * n + c
                ch = ".XO"[grid[r, c]]
                if ch == "." and a in stars:
                    ch = "+"
                if mark == (r, c):
                    sep = "("
                elif mark == (r, c - 1):
                    sep = ")"
                else:
                    sep = " "
                line += sep + ch
            line += (")" if mark == (r, n - 1) else " ") + f"{num}"
            lines.append(line)
        lines.append(letters)
        by_b, by_w = self.captures(state)
        lines.append(f"captured stones: by Black (X) {by_b}, by White (O) {by_w}")
        return "\n".join(lines)
