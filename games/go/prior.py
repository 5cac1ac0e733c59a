"""Prior knowledge for Go's search tree: the point rules of the contract's ``prior`` kernel (see
games.go.kernels).

A new child gets virtual playouts, all won or all lost, in units of ``PRIOR_UNIT``, in the
spirit of Gelly and Silver 2007 ("Combining online and offline knowledge in UCT": the
even-game prior) and of the knowledge priors of Pachi (Baudiš and Gailly 2011, "Pachi: State
of the art open source Go program") and Fuego. The groups short of liberties add theirs
(games.go.assess). Where the search counts them (as AMAF playouts or as the move's own) is the
search's setting ``prior_stats`` (mcts.search.SearchConfig).

Functions take the state ``s`` and integers only (see games.go.board).
"""
from numba import njit

from games.go.board import BLACK, COLOR, NO_POINT, WHITE, at, is_own_eye
from games.go.libs import self_atari
from games.go.policy import PATTERN_TABLE, neighbourhood

PRIOR_UNIT = 20


@njit(cache=True)
def _empty_around(s, w, p, radius):
    """True if no stone lies within Manhattan distance ``radius`` of ``p``."""
    n = w - 2
    r0 = p // w - 1
    c0 = p % w - 1
    for dr in range(-radius, radius + 1):
        r = r0 + dr
        if r < 0 or r >= n:
            continue
        span = radius - abs(dr)
        for dc in range(-span, span + 1):
            col = c0 + dc
            if 0 <= col < n:
                v = s[at((r + 1) * w + col + 1, COLOR)]
                if v == BLACK or v == WHITE:
                    return False
    return True


@njit(cache=True)
def point_prior(s, w, p, c, last):
    """Prior ``(virtual playouts, virtual wins)`` of a ``c`` stone on empty, legal ``p`` after
    the opponent's stone on ``last`` (NO_POINT after a pass or at the start); captures and
    saves are left to :mod:`games.go.assess`, which weighs the groups short of liberties:

    * even game: PRIOR_UNIT playouts, half won;
    * filling one's own eye: 2 units lost; a self-atari: 2 units lost for a group of two
      stones or more, 1 unit for a lone stone;
    * a match of MoGo's 3x3 patterns: 1 unit won; within Manhattan distance 2 of ``last``:
      half a unit won;
    * in an empty area (no stone within distance 2): on the first line 1 unit lost, on the
      second line half a unit lost.
    """
    u = PRIOR_UNIT
    h = PRIOR_UNIT // 2
    n = w - 2
    visits = u
    wins = h
    if is_own_eye(s, w, p, c):
        return visits + 2 * u, wins
    if self_atari(s, w, p, c):
        joins = False
        for d in (1, -1, w, -w):
            if s[at(p + d, COLOR)] == c:
                joins = True
        visits += 2 * u if joins else u
    if last != NO_POINT and abs(p // w - last // w) + abs(p % w - last % w) <= 2:
        visits += h
        wins += h
    if PATTERN_TABLE[neighbourhood(s, w, p)]:
        visits += u
        wins += u
    line = min(min(p // w - 1, p % w - 1), min(n - p // w, n - p % w))
    if line <= 1 and _empty_around(s, w, p, 2):
        visits += u if line == 0 else h
    return visits, wins
