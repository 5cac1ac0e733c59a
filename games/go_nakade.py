"""Nakade for Go's playouts: the vital point of a small enclosed eye space.

An empty region of three to five points enclosed by stones of one colour is one eye or two
depending on a single point, its *vital point*: played by the owner it splits the space into
two eyes, played by the other side it leaves one eye (the group dies, "nakade"). Random
playouts almost never find it, so they let dead groups live and living ones die. Moggy, Pachi's
playout policy, reads it after the last move (Baudiš and Gailly 2011, "Pachi: State of the art
open source Go program"; Pachi's ``nakade_point``); this is a smaller version, written here,
that knows the killable shapes of three to five points:

* three in a row or bent: the middle point (two neighbours in the space);
* four in a T ("pyramid four"): the point with three neighbours;
* five as a cross ("crossed five"): the centre; five as a 2x2 square plus one ("bulky five"):
  the square point next to the extra one (the only point with three neighbours).

Straight and bent fours, squares and other shapes are left alone (alive, or dead already).
Functions take the state ``s``, integers and a small scratch array (see games.go_board).
"""

from games.compiled import nrt_free
from games.go_board import BORDER, COLOR, EMPTY, NO_POINT, at

MAX_EYE = 5


@nrt_free
def among(region, size, q):
    """True if ``q`` is among ``region[:size]``."""
    for i in range(size):
        if region[i] == q:
            return True
    return False


@nrt_free
def eye_region(s, w, start, colour, region):
    """The size of the empty region of empty point ``start``, written to ``region`` (int64,
    at least ``MAX_EYE`` entries), if only ``colour`` stones touch it and it has at most
    ``MAX_EYE`` points; 0 otherwise (the search stops at the first stone of the other colour
    or the point too many)."""
    region[0] = start
    size = 1
    head = 0
    while head < size:
        p = region[head]
        head += 1
        for d in (1, -1, w, -w):
            q = p + d
            v = s[at(q, COLOR)]
            if v == EMPTY:
                if not among(region, size, q):
                    if size == MAX_EYE:
                        return 0
                    region[size] = q
                    size += 1
            elif v != BORDER and v != colour:
                return 0
    return size


@nrt_free
def vital_point(w, region, size):
    """The vital point of the eye space ``region[:size]`` (see the module docstring), or
    NO_POINT if the shape has none."""
    best = NO_POINT
    best_deg = -1
    ties = 0
    square = False
    for i in range(size):
        p = region[i]
        deg = 0
        for d in (1, -1, w, -w):
            if among(region, size, p + d):
                deg += 1
        if deg > best_deg:
            best, best_deg, ties = p, deg, 1
        elif deg == best_deg:
            ties += 1
        if (among(region, size, p + 1) and among(region, size, p + w)
                and among(region, size, p + w + 1)):
            square = True
    if ties != 1:
        return NO_POINT
    if (size == 3 and best_deg == 2) or (size == 4 and best_deg == 3):
        return best
    if size == 5 and (best_deg == 4 or (best_deg == 3 and square)):
        return best
    return NO_POINT


@nrt_free
def nakade_move(s, w, last, region):
    """The vital point of a killable eye space (three to five points enclosed by the colour
    of the stone on ``last``) next to that stone, or NO_POINT: the first such space found
    among its four neighbours. Only a stone with one or two empty neighbours is looked at: a
    stone with more seldom borders a closed space of five points or fewer, and skipping it
    keeps the rule cheap. ``region``: int64 scratch, ``MAX_EYE`` entries. Legality is the
    caller's business."""
    colour = s[at(last, COLOR)]
    open_ = 0
    for d in (1, -1, w, -w):
        if s[at(last + d, COLOR)] == EMPTY:
            open_ += 1
    if open_ == 0 or open_ > 2:
        return NO_POINT
    size = 0
    for d in (1, -1, w, -w):
        q = last + d
        if s[at(q, COLOR)] != EMPTY or among(region, size, q):
            continue                            # a stone, or the space just looked at
        size = eye_region(s, w, q, colour, region)
        if size >= 3:
            v = vital_point(w, region, size)
            if v != NO_POINT:
                return v
    return NO_POINT
