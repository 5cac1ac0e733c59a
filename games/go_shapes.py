"""Pachi's 3x3 shapes for Go's playouts: MoGo's patterns refined by whether a stone next to the
move is in atari, with a weight for each shape (the ``shapes`` policies of :mod:`games.go`).

The shapes are those of Pachi's Moggy playout policy (Baudiš and Gailly 2011, "Pachi: State of
the art open source Go program"; ``playout/moggy.c``, ``moggy_patterns_src`` and
``pat3_gammas``), which differ from MoGo's (:data:`games.go_policy.PATTERNS`) in four ways:

* a stone on one of the four direct neighbours can be required *not* to be in atari (``Y`` for
  an X stone, ``Q`` for an O stone): a hane or an attachment at a stone in atari is no shape
  move (capturing or saving it is the atari rules' business);
* two more shapes: the thin hane (only when X is the player to move: ``fixed``) and the edge
  shape that makes an eye; the keima cut asks for no O stone below the move instead of beside
  it;
* each shape has a weight (Pachi's gammas, tuned by CLOP on 15x15, in hundredths): the
  playout draws one matching neighbour with these odds;
* the atari states enter the table index, so a lookup stays one array read.

A neighbourhood is the 16-bit colour code of :func:`games.go_policy.neighbourhood` and a 5-bit
rest: one bit per direct neighbour (N, W, E, S) set when it holds a stone in atari, and one
bit set when White is to move. Its weight (0: no shape) is ``SHAPE_WEIGHTS[SHAPE_CLASS[code],
rest]``: the colour codes fall into a few hundred classes with the same 32 weights, so the two
tables stay small enough for numba to freeze into cached code (a global array over 1 MB would
make the functions that read it uncacheable). Functions take the state ``s`` and integers only
(see :mod:`games.go_board`).
"""
import itertools

import numpy as np

from games.compiled import nrt_free
from games.go_board import BLACK, BORDER, COLOR, EMPTY, GROUP, WHITE, at, in_atari

# Rows from the top; the centre is the move. X, O: a stone of either colour (X the mover's with
# ``fixed``); Y, Q: such a stone not in atari (on a diagonal: any such stone); "." empty; "#"
# off the board; "?" anything; "x": anything but an X stone; "o": anything but an O stone.
SHAPES = {                                          # name: (rows, weight, fixed)
    "hane, enclosing": (("XOX", "...", "???"), 52, False),
    "hane, not cutting": (("YO.", "...", "?.?"), 53, False),
    "hane, magari": (("XO?", "X..", "x.?"), 32, False),
    "hane, thin": (("XOO", "...", "?.?"), 22, True),
    "diagonal attachment": ((".Q.", "Y..", "..."), 37, False),
    "cut, unprotected": (("XO?", "O.o", "?o?"), 28, False),
    "cut, peeped": (("XO?", "O.X", "???"), 21, False),
    "cut, between": (("?X?", "O.O", "ooo"), 19, False),
    "cut, keima": (("OX?", "?.O", "?o?"), 82, False),
    "edge, chase": (("X.?", "O.?", "###"), 12, False),
    "edge, block cut": (("OX?", "X.O", "###"), 20, False),
    "edge, block connection": (("?X?", "x.O", "###"), 11, False),
    "edge, sagari": (("?XQ", "x.x", "###"), 16, False),
    "edge, cut": (("?OY", "Y.O", "###"), 57, False),
    "edge, make eye": (("?X.", "Q.X", "###"), 44, False),
}
_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_DIRECT = {1: 0, 3: 1, 4: 2, 6: 3}      # neighbour index (code order) -> its atari bit


def symmetries(rows):
    """The 8 rotations and reflections of a 3x3 shape (tuples of 3 strings)."""
    grid = [list(r) for r in rows]
    out = []
    for _ in range(4):
        grid = [list(r) for r in zip(*grid[::-1])]
        out.append(tuple("".join(r) for r in grid))
        out.append(tuple("".join(r[::-1]) for r in grid))
    return out


def _colours(ch, x):
    """The colours shape character ``ch`` accepts when X is colour ``x``."""
    o = 3 - x
    return {"?": (EMPTY, BORDER, x, o), ".": (EMPTY,), "#": (BORDER,), "X": (x,), "O": (o,),
            "Y": (x,), "Q": (o,), "x": (EMPTY, BORDER, o), "o": (EMPTY, BORDER, x)}[ch]


_REST = np.arange(32)


def _rests(variant, colours, x, fixed):
    """Boolean ``(32,)``: the rests (atari bits and mover, module docstring) under which the
    colours ``colours`` (one per neighbour, code order) match ``variant``: a direct neighbour
    without a stone, or with a Y or Q, has its atari bit clear."""
    clear = 0
    for k, bit in _DIRECT.items():
        dr, dc = _OFFSETS[k]
        if colours[k] not in (BLACK, WHITE) or variant[1 + dr][1 + dc] in "YQ":
            clear |= 1 << bit
    ok = _REST & clear == 0
    if fixed:
        ok &= (_REST >> 4) == (x == WHITE)
    return ok


def build_shape_weights(shapes=SHAPES):
    """``uint8`` array of shape ``(65536, 32)``, indexed by colour code and rest: the largest
    weight among the shapes the neighbourhood matches (in some rotation or reflection, X
    either colour unless ``fixed``), else 0."""
    table = np.zeros((1 << 16, 32), dtype=np.uint8)
    for rows, weight, fixed in sorted(shapes.values(), key=lambda s: s[1]):
        for variant in set(symmetries(rows)):
            for x in (BLACK, WHITE):
                choices = [_colours(variant[1 + dr][1 + dc], x) for dr, dc in _OFFSETS]
                for colours in itertools.product(*choices):
                    code = sum(v << (2 * k) for k, v in enumerate(colours))
                    table[code, _rests(variant, colours, x, fixed)] = weight
    return table


def split_table(table):
    """``(classes, weights)``: uint8 ``(65536,)`` the class of each colour code, uint8
    ``(n, 32)`` the weights of each class (at most 256) by rest, with
    ``weights[classes[code], rest] == table[code, rest]``."""
    rows = np.ascontiguousarray(table).view(np.dtype((np.void, table.shape[1]))).reshape(-1)
    unique, classes = np.unique(rows, return_inverse=True)
    weights = unique.view(np.uint8).reshape(len(unique), table.shape[1])
    if len(weights) > 256:
        raise ValueError(f"{len(weights)} shape classes: more than a uint8 holds")
    return classes.reshape(-1).astype(np.uint8), np.ascontiguousarray(weights, dtype=np.uint8)


SHAPE_CLASS, SHAPE_WEIGHTS = split_table(build_shape_weights())   # frozen into the compiled code


@nrt_free
def shape_weight(s, w, p, c):
    """The weight of the shape around empty point ``p`` with player ``c`` to move (0: none)."""
    code = 0
    k = 0
    for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
        v = s[at(p + d, COLOR)]
        code |= v << (2 * k)
        k += 1
    rest = 0
    bit = 0
    for d in (-w, -1, 1, w):
        v = s[at(p + d, COLOR)]
        if (v == BLACK or v == WHITE) and in_atari(s, s[at(p + d, GROUP)]):
            rest |= 1 << bit
        bit += 1
    if c == WHITE:
        rest |= 16
    return SHAPE_WEIGHTS[SHAPE_CLASS[code], rest]
