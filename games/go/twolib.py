"""The two-liberty check of Go's tree prior: the moves a group short of liberties suggests.

When a group has exactly two liberties, the player to move may take one of them: an atari on
an enemy group, an extension of its own group (with, for its own group, the capture or the
counter-atari of an enemy group touching it as well). The board-wide assessment
(:mod:`games.go.assess`) gives these moves won virtual playouts. The check follows the "2lib"
check of Pachi's Moggy playouts (Baudiš and Gailly 2011, "Pachi: State of the art open source
Go program"; ``tactics/2lib.c``):

* a group whose two liberties are *miai* is left alone: one liberty joins a friendly group
  that is not in atari and the other does too or has an empty neighbour of its own;
* the defender does not extend where that gains nothing: at a liberty touching no other
  stone of its own and with one empty neighbour, or two of which one is the other liberty
  ("hopeless" defence);
* no move is a self-atari of two stones or more (:func:`games.go.libs.bad_self_atari`);
* of the two liberties, one with three or more neighbours that are the mover's stones or the
  edge ("lumpy") is dropped when the other is not.

Functions take the state ``s`` and integers only (see :mod:`games.go.board`).
"""

from games.compiled import nrt_free
from games.go.board import BORDER, COLOR, EMPTY, GROUP, NEXT, at, in_atari
from games.go.libs import bad_self_atari, count_around, liberty_of, libs3, playable

QUEUE = 16          # candidate slots: at most 2 per group for up to 4 groups and their enemies


@nrt_free
def _joins_safe(s, w, lib, g, c):
    """True if empty ``lib`` touches a ``c`` group other than ``g`` that is not in atari."""
    for d in (1, -1, w, -w):
        q = lib + d
        if s[at(q, COLOR)] == c and s[at(q, GROUP)] != g and not in_atari(s, s[at(q, GROUP)]):
            return True
    return False


@nrt_free
def _open_beside(s, w, lib, other):
    """True if empty ``lib`` has an empty neighbour other than ``other``."""
    for d in (1, -1, w, -w):
        q = lib + d
        if q != other and s[at(q, COLOR)] == EMPTY:
            return True
    return False


@nrt_free
def miai(s, w, g, c, a, b):
    """True if ``c`` group ``g`` with liberties ``a`` and ``b`` cannot be harmed by one move:
    one liberty joins a safe friendly group and the other joins one too or leads out."""
    ja = _joins_safe(s, w, a, g, c)
    jb = _joins_safe(s, w, b, g, c)
    return (ja and (jb or _open_beside(s, w, b, a))) or (jb and _open_beside(s, w, a, b))


@nrt_free
def hopeless(s, w, lib, other, owner):
    """True if ``owner`` extending its group at ``lib`` (its other liberty ``other``) gains
    nothing: ``lib`` touches no other stone of ``owner``'s and has one empty neighbour, or
    two of which one is ``other``."""
    if count_around(s, w, lib, owner) != 1:
        return False
    empty = count_around(s, w, lib, EMPTY)
    if empty == 1:
        return True
    return empty == 2 and (lib - other == 1 or other - lib == 1 or lib - other == w
                           or other - lib == w)


@nrt_free
def _add(queue, n, p):
    for i in range(n):
        if queue[i] == p:
            return n
    if n < queue.shape[0]:
        queue[n] = p
        n += 1
    return n


@nrt_free
def take_liberty(s, w, g, owner, c, a, b, queue, n):
    """Add to ``queue`` (``n`` used) the liberties ``a``, ``b`` of ``owner`` group ``g`` that
    player ``c`` may take (module docstring); return the new count."""
    ok_a = playable(s, w, a, c) and not (c == owner and hopeless(s, w, a, b, owner)) \
        and not bad_self_atari(s, w, a, c)
    ok_b = playable(s, w, b, c) and not (c == owner and hopeless(s, w, b, a, owner)) \
        and not bad_self_atari(s, w, b, c)
    lumpy_a = count_around(s, w, a, c) + count_around(s, w, a, BORDER) >= 3
    lumpy_b = count_around(s, w, b, c) + count_around(s, w, b, BORDER) >= 3
    if ok_a and ok_b and lumpy_a != lumpy_b:
        ok_a = not lumpy_a
        ok_b = not lumpy_b
    if ok_a:
        n = _add(queue, n, a)
    if ok_b:
        n = _add(queue, n, b)
    return n


@nrt_free
def group_check(s, w, g, probe, c, queue, n):
    """The check of the group ``g`` of stone ``probe``, if it has two liberties, for mover
    ``c``: its candidate moves (module docstring) are added to ``queue`` (int64, ``n`` slots
    used; the tree prior passes ``probe = g``); returns the new count. A probe with three
    empty neighbours settles that the group has more liberties, without a walk."""
    if count_around(s, w, probe, EMPTY) >= 3:
        return n
    owner = s[at(g, COLOR)]
    k, a, b = libs3(s, w, g)
    if k != 2 or miai(s, w, g, owner, a, b):
        return n
    n = take_liberty(s, w, g, owner, c, a, b, queue, n)
    if owner != c:
        return n
    x = g                                       # our group: capture or atari its attackers
    while True:
        for d in (1, -1, w, -w):
            y = x + d
            if s[at(y, COLOR)] != 3 - c:
                continue
            h = s[at(y, GROUP)]
            if in_atari(s, h):
                lib = liberty_of(s, h)
                if playable(s, w, lib, c):
                    n = _add(queue, n, lib)
                continue
            k2, a2, b2 = libs3(s, w, h)
            if k2 == 2:
                n = take_liberty(s, w, h, 3 - c, c, a2, b2, queue, n)
        x = s[at(x, NEXT)]
        if x == g:
            break
    return n
