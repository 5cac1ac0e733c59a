"""The rules of Go's ``ko`` playout policy after its ko rule: local answers to the last move,
before a random move (the "patterns" policy, ``POLICY_PATTERNS``).

Uniform random playouts (the ``uniform`` policy of :mod:`games.go.kernels`) misjudge every
fight: a group in atari is as likely to be saved as to be left, and a random move is as likely
to put its own group in atari as not. The patterns policy plays out games that look more
like Go, following the scheme of MoGo (Gelly, Wang, Munos and Teytaud 2006, "Modification of
UCT with patterns in Monte-Carlo Go", INRIA RR-6062) with the self-atari filter of Fuego
(Enzenberger, Müller et al. 2010, "Fuego - an open-source framework for board games and Go
engine based on Monte Carlo tree search"). For the player to move, with ``L`` the
opponent's last move (a stone), the first rule that gives a move plays it:

1. **Capture**: ``L``'s group is in atari: take it.
2. **Atari defence**: a group of ours next to ``L`` is in atari: capture an enemy group in
   atari that touches it, else extend at its liberty if that leaves it two liberties or more
   and does not run into a ladder (:func:`games.go.ladder.ladder_captured`: with exactly two
   liberties left, the ladder is read out on a copy of the board).
3. **3x3 patterns**: an empty point among ``L``'s eight neighbours matches one of MoGo's
   hane, cut and edge patterns (:data:`PATTERNS`): one such point, uniformly.
4. **Random**: uniform over the uniform policy's candidates (legal by simple ko, no suicide,
   not the mover's own eye), without self-ataris of two stones or more that capture nothing
   (a lone stone in atari may be a throw-in that kills an eye).

Every move of rules 1-3 must also be legal by simple ko and suicide and not fill the mover's
own eye; a pattern move (rule 3) must not be a self-atari either. With no move left the policy
passes, as the uniform one does (so a seki whose only moves are self-ataris survives the
playout).

The 3x3 test reads one table entry: the colours (2 bits each: empty, black, white, edge) of
the eight neighbours NW, N, NE, W, E, SW, S, SE form a 16-bit code, and ``PATTERN_TABLE[code]``
says whether some pattern matches, in any of the 8 rotations and reflections and with either
colour as X (MoGo's patterns do not depend on who moves).

Functions take the state ``s`` and integers only (see :mod:`games.go.board` for why); the
liberty facts they share with the tree priors (self-atari, liberties after a move) are in
:mod:`games.go.libs`.
"""
import itertools

import numpy as np

from games.compiled import nrt_free
from games.go.board import BLACK, BORDER, COLOR, EMPTY, GROUP, NO_POINT, WHITE, at, in_atari
from games.go.ladder import read_ladder
from games.go.libs import (capture_next_to, captures, liberties_after, liberty_of, playable,
                           self_atari)
from games.rng import below, next_u64

# MoGo's 3x3 patterns, row by row from the top; the centre is the move. X and O are stones of
# the two colours, "." empty, "#" off the board, "?" anything, "x" anything but an X stone,
# "o" anything but an O stone.
PATTERNS = {
    "hane, enclosing": ("XOX", "...", "???"),
    "hane, not cutting": ("XO.", "...", "?.?"),
    "hane, magari": ("XO?", "X..", "x.?"),
    "diagonal attachment": (".O.", "X..", "..."),
    "cut, unprotected": ("XO?", "O.o", "?o?"),
    "cut, peeped": ("XO?", "O.X", "???"),
    "cut, between": ("?X?", "O.O", "ooo"),
    "cut, keima": ("OX?", "o.O", "???"),
    "edge, chase": ("X.?", "O.?", "###"),
    "edge, block cut": ("OX?", "X.O", "###"),
    "edge, block connection": ("?X?", "x.O", "###"),
    "edge, sagari": ("?XO", "x.x", "###"),
    "edge, cut": ("?OX", "X.O", "###"),
}

# The eight neighbours in code order, as (row, column) offsets from the centre.
_NEIGHBOURS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def symmetries(rows):
    """The 8 rotations and reflections of a 3x3 pattern (tuples of 3 strings)."""
    grid = [list(r) for r in rows]
    out = []
    for _ in range(4):
        grid = [list(r) for r in zip(*grid[::-1])]
        out.append(tuple("".join(r) for r in grid))
        out.append(tuple("".join(r[::-1]) for r in grid))
    return out


def _allowed(ch, x_colour):
    """The point colours that pattern character ``ch`` accepts when X is ``x_colour``."""
    o_colour = 3 - x_colour
    everything = (EMPTY, BLACK, WHITE, BORDER)
    return {"?": everything, ".": (EMPTY,), "#": (BORDER,), "X": (x_colour,),
            "O": (o_colour,), "x": tuple(v for v in everything if v != x_colour),
            "o": tuple(v for v in everything if v != o_colour)}[ch]


def build_pattern_table(patterns=PATTERNS):
    """``uint8`` array of shape ``(65536,)``: 1 where the neighbourhood code matches a pattern
    (in some rotation or reflection, with either colour as X)."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    for rows in patterns.values():
        for variant in set(symmetries(rows)):
            for x_colour in (BLACK, WHITE):
                choices = [_allowed(variant[1 + dr][1 + dc], x_colour) for dr, dc in _NEIGHBOURS]
                for colours in itertools.product(*choices):
                    table[sum(v << (2 * i) for i, v in enumerate(colours))] = 1
    return table


PATTERN_TABLE = build_pattern_table()       # 64 kB: frozen into the compiled code

@nrt_free
def neighbourhood(s, w, p):
    """The 16-bit 3x3 code of the eight neighbours of ``p`` (see the module docstring)."""
    code = 0
    k = 0
    for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
        code |= s[at(p + d, COLOR)] << (2 * k)
        k += 1
    return code


@nrt_free
def _save(s, w, g, c, board):
    """A move that saves ``c`` group ``g`` (in atari), or NO_POINT: capture an enemy group in
    atari that touches it, else extend at its liberty if that gives two liberties or more and
    no ladder catches it (``board``: scratch of :func:`read_ladder`)."""
    lib = capture_next_to(s, w, g, c)
    if lib != NO_POINT:
        return lib
    lib = liberty_of(s, g)
    if not playable(s, w, lib, c):
        return NO_POINT
    if captures(s, w, lib, c):
        return lib
    n = liberties_after(s, w, lib, c, 3)
    if n == 3 or (n == 2 and not read_ladder(s, w, lib, c, board)):   # a ladder needs two
        return lib
    return NO_POINT


@nrt_free
def saving_moves(s, w, last, c, board):
    """For each neighbour of ``last`` (in the order right, left, down, up) that is a ``c``
    group in atari, the move :func:`_save` finds for it; NO_POINT elsewhere. A 4-tuple.
    ``board``: scratch of :func:`read_ladder`."""
    out0 = out1 = out2 = out3 = NO_POINT
    k = 0
    for d in (1, -1, w, -w):
        q = last + d
        p = NO_POINT
        if s[at(q, COLOR)] == c and in_atari(s, s[at(q, GROUP)]):
            p = _save(s, w, s[at(q, GROUP)], c, board)
        if k == 0:
            out0 = p
        elif k == 1:
            out1 = p
        elif k == 2:
            out2 = p
        else:
            out3 = p
        k += 1
    return out0, out1, out2, out3


@nrt_free
def local_move(s, w, last, c, x, board):
    """Rules 1-3 of the module docstring for player ``c`` after a stone on padded point
    ``last`` (``board``: the ladders' scratch, :func:`read_ladder`). Returns ``(point or
    NO_POINT, new rng state x)``."""
    g = s[at(last, GROUP)]
    if in_atari(s, g):                                  # 1. capture the last move
        lib = liberty_of(s, g)
        if playable(s, w, lib, c):
            return lib, x
    for p in saving_moves(s, w, last, c, board):       # 2. atari defence
        if p != NO_POINT:
            return p, x
    return pattern_move(s, w, last, c, x)               # 3. patterns


@nrt_free
def pattern_move(s, w, centre, c, x):
    """Rule 3 around padded point ``centre``: an empty neighbour (of the eight) matching a 3x3
    pattern, playable and no self-atari, chosen uniformly; ``(point or NO_POINT, new x)``."""
    found = 0
    chosen = NO_POINT
    for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
        q = centre + d
        if s[at(q, COLOR)] != EMPTY:
            continue
        if (PATTERN_TABLE[neighbourhood(s, w, q)] and playable(s, w, q, c)
                and not self_atari(s, w, q, c)):
            found += 1
            x = next_u64(x)
            if below(x, found) < 1:                     # reservoir sampling
                chosen = q
    return chosen, x
