"""Self-atari reading for Go's playouts: which self-ataris are mistakes, and what to play instead.

A move that leaves its own group with one liberty is usually a wasted stone, but not always:
a throw-in that makes an eye false, a sacrifice inside the opponent's eye space that leaves a
dead shape after the capture (nakade), or one that puts the enclosing group in atari (snapback)
are good moves. Pachi's Moggy playouts (Baudiš and Gailly 2011, "Pachi: State of the art open
source Go program"; Pachi's ``tactics/selfatari.c``) read these cases when a random move is a
self-atari and, when the move is bad, play the other liberty of the two-liberty group that made
it a self-atari ("cousin") instead. This module is our version of that reading, with these
simplifications: every capture is accepted, a group with three liberties is never read as
killed by filling one, and a nakade is judged by the dead shape it leaves only
(:func:`dead_shape`), not also by whether the opponent could live without it.

Points are padded indices of the state ``s`` (see games.go_board); ``c`` is the mover's colour
(1 or 2). ``scratch`` is an int64 array of at least ``SCRATCH`` entries. Nothing is allocated.
"""
from games.compiled import nrt_free
from games.go_board import (BORDER, COLOR, EMPTY, GROUP, NEXT, NO_POINT, at, false_eyelike,
                            in_atari)
from games.go_libs import capture_next_to, count_around, liberties_after, libs3
from games.go_nakade import among, vital_point
from games.rng import below, next_u64

SCRATCH = 14        # 4 friendly group ids, up to 6 points of a nakade shape, 4 cousin groups
_SHAPE = 4          # where the shape starts in the scratch
_COUSINS = 10       # and the cousins
MAX_NAKADE = 5      # stones a nakade may sacrifice before the move (Pachi's limit too)
SELFATARI_RATE = 60     # the reading runs for this many random moves of 100 (Moggy: 60)
EYEFILL_RATE = 60       # and the false-eye redirect for this many (Moggy: 60)


@nrt_free
def one_point_eye(s, w, p, owner):
    """True if empty ``p`` is an eye of ``owner``: four neighbours ``owner`` or the edge, and
    not :func:`games.go_board.false_eyelike`."""
    return (count_around(s, w, p, owner) + count_around(s, w, p, BORDER) == 4
            and not false_eyelike(s, w, p, owner))


@nrt_free
def other_liberty(s, w, g, p):
    """The liberty of two-liberty group ``g`` that is not ``p``."""
    _, a, b = libs3(s, w, g)
    return b if a == p else a


@nrt_free
def dead_shape(w, region, size):
    """True if the eye space ``region[:size]`` (padded points) is dead when the side that
    does not own it moves first: three points or fewer, the square four, or a shape with a
    vital point (:func:`games.go_nakade.vital_point`: pyramid four, bulky and crossed five).
    Six points (the rabbity six) are taken as alive."""
    if size <= 3:
        return True
    if size == 4:
        lo = region[0]
        for i in range(4):
            lo = min(lo, region[i])
        hits = 0
        for i in range(4):
            q = region[i]
            hits += q == lo or q == lo + 1 or q == lo + w or q == lo + w + 1
        if hits == 4:
            return True
    return vital_point(w, region, size) != NO_POINT


@nrt_free
def _connect_instead(s, w, p, c, lib, scratch, nf):
    """True if the mover should rather play ``lib`` (the other liberty of one of the groups
    at ``p``): it has an empty neighbour besides ``p``, or touches a friendly group that does
    not touch ``p``."""
    for d in (1, -1, w, -w):
        q = lib + d
        v = s[at(q, COLOR)]
        if v == EMPTY and q != p:
            return True
        if v == c and not among(scratch, nf, s[at(q, GROUP)]):
            return True
    return False


@nrt_free
def _can_escape(s, w, p, c, scratch, nf):
    """True if a friendly two-liberty group at ``p`` could be saved by its other liberty:
    two empty points around it, or :func:`_connect_instead`."""
    for i in range(nf):
        g = scratch[i]
        n, _, _ = libs3(s, w, g)
        if n == 2:
            lib = other_liberty(s, w, g, p)
            if (count_around(s, w, lib, EMPTY) >= 2
                    or _connect_instead(s, w, p, c, lib, scratch, nf)):
                return True
    return False


@nrt_free
def _sacrifice_is_dead(s, w, p, scratch, nf):
    """True if the stones sacrificed (the friendly groups at ``p`` and ``p`` itself) are at
    most MAX_NAKADE + 1 and leave a :func:`dead_shape` once captured."""
    region = scratch[_SHAPE:]
    region[0] = p
    size = 1
    for i in range(nf):
        g = scratch[i]
        x = g
        while True:
            if size > MAX_NAKADE:
                return False
            region[size] = x
            size += 1
            x = s[at(x, NEXT)]
            if x == g:
                break
    return dead_shape(w, region, size)


@nrt_free
def bad_self_atari_read(s, w, p, c, scratch):
    """True if a ``c`` stone on empty, legal ``p`` is a self-atari that is a mistake (see the
    module docstring): it leaves its group one liberty, captures nothing, and is neither a
    throw-in nor a nakade or snapback that leaves a dead shape."""
    if count_around(s, w, p, EMPTY) >= 2:
        return False
    nf = 0
    for d in (1, -1, w, -w):
        v = s[at(p + d, COLOR)]
        if v == 3 - c and in_atari(s, s[at(p + d, GROUP)]):
            return False                                # a capture
        if v == c and not among(scratch, nf, s[at(p + d, GROUP)]):
            scratch[nf] = s[at(p + d, GROUP)]
            nf += 1
    if liberties_after(s, w, p, c, 2) >= 2:
        return False
    lib2 = NO_POINT                 # the other liberty of the enemy groups the move ataris
    split = False                   # two of them that do not share it: no nakade
    for d in (1, -1, w, -w):
        if s[at(p + d, COLOR)] == 3 - c:
            g = s[at(p + d, GROUP)]
            n, _, _ = libs3(s, w, g)
            if n == 2:
                o = other_liberty(s, w, g, p)
                split = split or (lib2 != NO_POINT and o != lib2)
                lib2 = o
    edge = count_around(s, w, p, BORDER)
    if (edge < 2 and count_around(s, w, p, 3 - c) + edge == 3
            and false_eyelike(s, w, p, 3 - c)):         # a throw-in at a false eye
        if nf == 0:
            e = NO_POINT
            for d in (1, -1, w, -w):
                if s[at(p + d, COLOR)] == EMPTY:
                    e = p + d
            if e == NO_POINT or count_around(s, w, e, 3 - c) + count_around(s, w, e, BORDER) >= 2:
                return False
        else:
            g = scratch[0]
            if in_atari(s, g):
                return True
            if s[at(g, NEXT)] == g:
                return False
    if split or _can_escape(s, w, p, c, scratch, nf):
        return True
    if lib2 != NO_POINT and _connect_instead(s, w, p, c, lib2, scratch, nf):
        return True
    if nf == 1 and s[at(scratch[0], NEXT)] == scratch[0]:
        return lib2 == NO_POINT and not in_atari(s, scratch[0])
    if nf == 0:
        return lib2 == NO_POINT                         # a throw-in must atari something
    if lib2 != NO_POINT:
        for i in range(nf):
            n, a, b = libs3(s, w, scratch[i])
            if n == 2 and a != lib2 and b != lib2:
                return True         # a liberty outside the eye space: no nakade
    return not _sacrifice_is_dead(s, w, p, scratch, nf)


@nrt_free
def cousin(s, w, p, c, x, scratch):
    """The move instead of bad self-atari ``p`` (Pachi's ``selfatari_cousin``): from the
    two-liberty groups at ``p``, an enemy one first, a random one otherwise, the capture of an
    enemy group in atari next to it if it is ours, else its other liberty unless that is an
    eye of its owner or itself a bad self-atari. ``(point or NO_POINT, new rng state x)``;
    the point is not checked for legality."""
    groups = scratch[_COUSINS:]
    k = 0
    enemy = False
    for d in (1, -1, w, -w):
        v = s[at(p + d, COLOR)]
        if (v == c or v == 3 - c) and libs3(s, w, s[at(p + d, GROUP)])[0] == 2:
            groups[k] = s[at(p + d, GROUP)]
            k += 1
            enemy = enemy or v == 3 - c
    if k == 0:
        return NO_POINT, x
    x = next_u64(x)
    start = below(x, k)
    while enemy and s[at(groups[start], COLOR)] == c:
        start = (start + 1) % k                         # an enemy group first
    for j in range(k):
        g = groups[(start + j) % k]
        v = s[at(g, COLOR)]
        if v == c:
            lib = capture_next_to(s, w, g, c)     # a capture is never a bad self-atari
            if lib != NO_POINT:
                return lib, x
        lib = other_liberty(s, w, g, p)
        if not one_point_eye(s, w, lib, v) and not bad_self_atari_read(s, w, lib, c, scratch):
            return lib, x
    return NO_POINT, x


@nrt_free
def eyefill_redirect(s, w, p, c, scratch):
    """When ``c`` would fill ``p``, a point its own stones surround (a false eye), a move
    next to it instead (Moggy's eye-fill check): the liberty of a diagonal enemy group in
    atari, else a liberty of a diagonal two-liberty enemy group that is neither its eye nor
    a bad self-atari; NO_POINT if none (or ``p`` is not surrounded)."""
    if count_around(s, w, p, c) + count_around(s, w, p, BORDER) != 4:
        return NO_POINT
    for d in (w + 1, w - 1, 1 - w, -1 - w):
        q = p + d
        if s[at(q, COLOR)] != 3 - c:
            continue
        g = s[at(q, GROUP)]
        n, a, b = libs3(s, w, g)
        if n == 1:
            return a
        if n == 2:
            for lib in (a, b):
                if (not one_point_eye(s, w, lib, 3 - c)
                        and not bad_self_atari_read(s, w, lib, c, scratch)):
                    return lib
    return NO_POINT
