"""The Tromp-Taylor area count of a Go position, compiled: what ends every playout.

A player's points are their stones plus the empty regions that reach only their stones
(Tromp and Taylor, "The logical rules of Go"); the state ``s`` is that of
:mod:`games.go.board`, and nothing is allocated.
"""
from games.compiled import nrt_free
from games.contract import DRAW, FIRST_WINS, SECOND_WINS
from games.go.board import (BLACK, BORDER, COLOR, EMPTY, EPOS, F_EMPTY_AT, F_KOMI2, F_NEMPTY,
                            F_SIZE, F_STONES_B, F_STONES_W, WHITE, at)


@nrt_free
def area(s):
    """Tromp-Taylor area ``(black, white)``: stones plus the empty regions that reach only that
    colour. The regions are found by a breadth-first search done in place in the empty list,
    which gets reordered (nothing is allocated): ``empty[done:tail]`` is the region being
    grown, and an empty point is still unvisited iff its index is ``>= tail``."""
    w = s[F_SIZE] + 2
    e0 = s[F_EMPTY_AT]
    black = s[F_STONES_B]
    white = s[F_STONES_W]
    total = s[F_NEMPTY]
    done = 0
    while done < total:
        head = done
        tail = done + 1
        reach = 0
        while head < tail:
            x = s[e0 + head]
            head += 1
            for d in (1, -1, w, -w):
                q = x + d
                v = s[at(q, COLOR)]
                if v == EMPTY:
                    j = s[at(q, EPOS)]
                    if j >= tail:           # unvisited: swap it to the end of the region
                        r = s[e0 + tail]
                        s[e0 + tail] = q
                        s[at(q, EPOS)] = tail
                        s[e0 + j] = r
                        s[at(r, EPOS)] = j
                        tail += 1
                elif v != BORDER:
                    reach |= v
        if reach == BLACK:
            black += tail - done
        elif reach == WHITE:
            white += tail - done
        done = tail
    return black, white


@nrt_free
def final_status(s):
    """Score the position by area and komi: FIRST_WINS, SECOND_WINS or DRAW."""
    black, white = area(s)
    diff2 = 2 * (black - white) - s[F_KOMI2]
    if diff2 > 0:
        return FIRST_WINS
    if diff2 < 0:
        return SECOND_WINS
    return DRAW


@nrt_free
def add_owners(s, own, dame):
    """Who owns each point of the position ``s`` as it stands, the rule of the area count
    point by point: a stone's point is its colour's, an empty point is the colour of the
    stones next to it if they are all of one colour. Adds to ``own`` (1-D, one entry per
    point in action order, ``n * n`` at least; any numeric dtype) +1 for each point that is
    Black's and -1 for each that is White's, and to ``dame`` (the same) 1 for each empty
    point next to stones of both colours (a shared liberty of a seki, a dame). An empty point
    with no stone next to it adds nothing (at the end of a playout there is none). The
    statistics of :func:`games.go.count.settle_counts` and of the ``ownership`` kernel."""
    n = s[F_SIZE]
    w = n + 2
    for r in range(n):
        for col in range(n):
            p = (r + 1) * w + col + 1
            v = s[at(p, COLOR)]
            if v == EMPTY:                  # the colours next to it (BORDER left out)
                v = 0
                for d in (1, -1, w, -w):
                    q = s[at(p + d, COLOR)]
                    if q != BORDER:
                        v |= q
            if v == BLACK:
                own[r * n + col] += 1
            elif v == WHITE:
                own[r * n + col] -= 1
            elif v == BLACK | WHITE:
                dame[r * n + col] += 1
