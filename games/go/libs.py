"""Liberty facts of Go groups and moves, for the playout policies and the tree priors.

Each function reads the state ``s`` (see :mod:`games.go.board`) around one point or group: a
group's liberty when in atari, the liberties a move would leave (counted up to 2 or 3),
self-atari, and the "playable" test shared by the policies (legal by simple ko and suicide,
not the mover's own eye). Group liberties are walked stone by stone, so a call costs the
group's size.
"""
from numba import njit

from games.compiled import nrt_free
from games.go.board import (COLOR, EMPTY, F_KO, GROUP, LIBS, LSUM, NEXT, NO_POINT, at, in_atari,
                            is_legal_point, is_own_eye)


@njit(cache=True, inline="always")
def liberty_of(s, g):
    """The liberty of group ``g``, which must be in atari."""
    return s[at(g, LSUM)] // s[at(g, LIBS)]


@nrt_free
def captures(s, w, p, c):
    """True if a ``c`` stone on ``p`` captures: an enemy neighbour group is in atari."""
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] == 3 - c and in_atari(s, s[at(q, GROUP)]):
            return True
    return False


@nrt_free
def capture_next_to(s, w, g, c):
    """The liberty of an enemy group in atari touching ``c`` group ``g`` that ``c`` may play
    (:func:`playable`), the first met walking ``g``'s stones; NO_POINT if none."""
    x = g
    while True:
        for d in (1, -1, w, -w):
            q = x + d
            if s[at(q, COLOR)] == 3 - c and in_atari(s, s[at(q, GROUP)]):
                lib = liberty_of(s, s[at(q, GROUP)])
                if playable(s, w, lib, c):
                    return lib
        x = s[at(x, NEXT)]
        if x == g:
            return NO_POINT


@nrt_free
def liberties_after(s, w, p, c, most):
    """The liberties a ``c`` stone on empty ``p`` would leave its group, captures aside,
    counted up to ``most`` (2 or 3): the empty neighbours of ``p`` and the liberties of the
    friendly groups it joins, other than ``p``; stones are walked only until ``most`` distinct
    ones are found."""
    first = NO_POINT
    second = NO_POINT
    n = 0
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] == EMPTY and q != first and q != second:
            n += 1
            if n == most:
                return n
            if first == NO_POINT:
                first = q
            else:
                second = q
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] != c:
            continue
        g = s[at(q, GROUP)]
        if in_atari(s, g):
            continue            # its only liberty is p itself
        x = g
        while True:
            for e in (1, -1, w, -w):
                y = x + e
                if y != p and s[at(y, COLOR)] == EMPTY and y != first and y != second:
                    n += 1
                    if n == most:
                        return n
                    if first == NO_POINT:
                        first = y
                    else:
                        second = y
            x = s[at(x, NEXT)]
            if x == g:
                break
    return n


@nrt_free
def two_liberties(s, w, p, c):
    """True if a ``c`` stone on empty ``p`` would leave its group at least two liberties,
    captures aside (:func:`liberties_after`)."""
    return liberties_after(s, w, p, c, 2) >= 2


@nrt_free
def self_atari(s, w, p, c):
    """True if a ``c`` stone on ``p`` leaves its group in atari (or without liberties) and
    captures nothing."""
    return not two_liberties(s, w, p, c) and not captures(s, w, p, c)


@nrt_free
def bad_self_atari(s, w, p, c):
    """:func:`self_atari` for a group of two stones or more (a lone stone may be a throw-in).
    The cheap test first: the stone must join a group of its colour."""
    for d in (1, -1, w, -w):
        if s[at(p + d, COLOR)] == c:
            return self_atari(s, w, p, c)
    return False


@nrt_free
def playable(s, w, p, c):
    """Legal by simple ko and suicide, and not the mover's own eye."""
    return (s[at(p, COLOR)] == EMPTY and p != s[F_KO] and not is_own_eye(s, w, p, c)
            and is_legal_point(s, w, p, c))


@nrt_free
def libs3(s, w, g):
    """``(n, a, b)``: the number of distinct liberties of group ``g`` (3 meaning three or
    more) and the first two of them."""
    a = NO_POINT
    b = NO_POINT
    n = 0
    x = g
    while True:
        for d in (1, -1, w, -w):
            y = x + d
            if s[at(y, COLOR)] == EMPTY and y != a and y != b:
                if n == 0:
                    a = y
                elif n == 1:
                    b = y
                else:
                    return 3, a, b
                n += 1
        x = s[at(x, NEXT)]
        if x == g:
            break
    return n, a, b


@nrt_free
def count_around(s, w, p, v):
    """How many of the four neighbours of ``p`` have colour ``v`` (EMPTY, a colour or BORDER)."""
    n = 0
    for d in (1, -1, w, -w):
        if s[at(p + d, COLOR)] == v:
            n += 1
    return n
