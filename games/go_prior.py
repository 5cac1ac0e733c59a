"""Prior knowledge for Go's search tree: the contract's ``prior`` kernel rules (see games.go).

A new child gets virtual playouts, all won or all lost, in units of ``PRIOR_UNIT``, in the
spirit of Gelly and Silver 2007 ("Combining online and offline knowledge in UCT": the
even-game prior) and of the knowledge priors of Pachi (Baudiš and Gailly 2011, "Pachi: State
of the art open source Go program") and Fuego. Where the search counts them (as AMAF playouts
or as the move's own) is the search's setting ``prior_stats`` (mcts.search.SearchConfig).

Functions take the state ``s`` and integers only (see games.go_board).
"""
from numba import njit

from games.go_board import (BLACK, BORDER, COLOR, EMPTY, GROUP, NEXT, NO_POINT, WHITE, at,
                            is_own_eye)
from games.go_libs import captures, self_atari
from games.go_policy import PATTERN_TABLE, neighbourhood

PRIOR_UNIT = 20
# Won virtual playouts at common-fate-graph distance 1, 2 and 3 from the last move: Pachi's
# small-board cfgd prior (45, 40, 15 beside an even prior of 14), scaled to PRIOR_UNIT.
CFGD_BONUS = (0, 45 * PRIOR_UNIT // 14, 40 * PRIOR_UNIT // 14, 15 * PRIOR_UNIT // 14)
CFGD_FAR = 4


@njit(cache=True)
def cfg_distances(s, w, last, dist, queue):
    """Common-fate-graph distance from the stone on ``last`` to every point, up to 3
    (``CFGD_FAR`` beyond): a whole group is one node, so its liberties are at distance 1
    (Graepel, Goutrié, Krüger and Herbrich 2001, "Learning on graphs in the game of Go"; Pachi's
    ``cfgd`` prior). ``dist`` and ``queue``: int64 arrays of ``w * w`` entries, ``dist``
    overwritten, indexed by point."""
    dist[:] = CFGD_FAR
    tail = 0
    x = last
    while True:                         # the last move's group: distance 0
        dist[x] = 0
        queue[tail] = x
        tail += 1
        x = s[at(x, NEXT)]
        if x == last:
            break
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        d = dist[x] + 1
        if d >= CFGD_FAR:
            break
        for e in (1, -1, w, -w):
            y = x + e
            v = s[at(y, COLOR)]
            if v == BORDER or dist[y] <= d:
                continue
            if v == EMPTY:
                dist[y] = d
                queue[tail] = y
                tail += 1
                continue
            z = s[at(y, GROUP)]         # a whole group at once
            g = z
            while True:
                dist[z] = d
                queue[tail] = z
                tail += 1
                z = s[at(z, NEXT)]
                if z == g:
                    break


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
def point_prior(s, w, p, c, last, saves, local, dist):
    """Prior ``(virtual playouts, virtual wins)`` of a ``c`` stone on empty, legal ``p`` after
    the opponent's stone on ``last`` (NO_POINT after a pass or at the start); with ``local``
    (bool) a unit won for a capture and for ``saves`` (the saving moves of a group in atari
    next to ``last``, :func:`games.go_policy.saving_moves`, computed once for all the points),
    else nothing for them (:mod:`games.go_assess` gives the groups short of liberties).
    ``dist``: an empty int64 array, or that of :func:`cfg_distances` from ``last``, which then
    replaces the Manhattan-distance bonus:

    * even game: PRIOR_UNIT playouts, half won;
    * with ``local``: a capture, or a move of ``saves``: 1 unit won each;
    * filling one's own eye: 2 units lost; a self-atari: 2 units lost for a group of two
      stones or more, 1 unit for a lone stone;
    * a match of MoGo's 3x3 patterns: 1 unit won; within Manhattan distance 2 of ``last``:
      half a unit won, or with ``dist`` ``CFGD_BONUS[d]`` won at graph distance d <= 3;
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
    if local and captures(s, w, p, c):
        visits += u
        wins += u
    if local and (p == saves[0] or p == saves[1] or p == saves[2] or p == saves[3]):
        visits += u
        wins += u
    if dist.shape[0] > 0:
        if dist[p] < CFGD_FAR:
            visits += CFGD_BONUS[dist[p]]
            wins += CFGD_BONUS[dist[p]]
    elif last != NO_POINT and abs(p // w - last // w) + abs(p % w - last % w) <= 2:
        visits += h
        wins += h
    if PATTERN_TABLE[neighbourhood(s, w, p)]:
        visits += u
        wins += u
    line = min(min(p // w - 1, p % w - 1), min(n - p // w, n - p % w))
    if line <= 1 and _empty_around(s, w, p, 2):
        visits += u if line == 0 else h
    return visits, wins
