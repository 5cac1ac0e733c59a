"""The "patterns" playout policy for Go: local answers to the last move, before a random move.

Uniform random playouts (the ``uniform`` policy of :mod:`games.go`) misjudge every fight: a
group in atari is as likely to be saved as to be left, and a random move is as likely to
put its own group in atari as not. The ``patterns`` policy plays out games that look more
like Go, following the scheme of MoGo (Gelly, Wang, Munos and Teytaud 2006, "Modification of
UCT with patterns in Monte-Carlo Go", INRIA RR-6062) with the self-atari filter of Fuego
(Enzenberger, Müller et al. 2010, "Fuego - an open-source framework for board games and Go
engine based on Monte Carlo tree search"). For the player to move, with ``L`` the
opponent's last move (a stone), the first rule that gives a move plays it:

1. **Capture**: ``L``'s group is in atari: take it.
2. **Atari defence**: a group of ours next to ``L`` is in atari: capture an enemy group in
   atari that touches it, else extend at its liberty if that leaves it two liberties or more
   and does not run into a ladder (:func:`games.go_ladder.ladder_captured`: with exactly two liberties left,
   the ladder is read out on a copy of the board).
3. **3x3 patterns**: an empty point among ``L``'s eight neighbours matches one of MoGo's
   hane, cut and edge patterns (:data:`PATTERNS`): one such point, uniformly.
   The ``twolib`` policy first plays Pachi's two-liberty rule (:mod:`games.go_twolib`); the
   ``nakade`` policies first play the vital point of a small closed eye space next to
   ``L`` (:mod:`games.go_nakade`); the ``patterns2`` policies, with no match around ``L``,
   look around the mover's own previous stone too (:func:`pattern_move`, called from
   :mod:`games.go`).
   The ``global`` policies, when rules 1-3 give nothing, then look at every group in atari on
   the board (:func:`global_move`, Pachi Moggy's global atari check): starting from a random
   one, the first that gives a move is captured (an enemy group) or saved as in rule 2 (one
   of the mover's).
4. **Random**: uniform over the uniform policy's candidates (legal by simple ko, no suicide,
   not the mover's own eye), without self-ataris of two stones or more that capture nothing
   (a lone stone in atari may be a throw-in that kills an eye).

Every move of rules 1-3 must also be legal by simple ko and suicide and not fill the mover's
own eye; a pattern move (rule 3) must not be a self-atari either. With no move left the policy passes, as the uniform one does (so a seki whose only
moves are self-ataris survives the playout).

The 3x3 test reads one table entry: the colours (2 bits each: empty, black, white, edge) of
the eight neighbours NW, N, NE, W, E, SW, S, SE form a 16-bit code, and ``PATTERN_TABLE[code]``
says whether some pattern matches, in any of the 8 rotations and reflections and with either
colour as X (MoGo's patterns do not depend on who moves).

Functions take the state ``s`` and integers only (see :mod:`games.go_board` for why); the
liberty facts they share with the tree priors (self-atari, liberties after a move) are in
:mod:`games.go_libs`.
"""
import itertools

import numpy as np

from games.compiled import nrt_free
from games.go_board import BLACK, BORDER, COLOR, EMPTY, GROUP, NO_POINT, WHITE, at, in_atari
from games.go_ladder import ladder_escape, read_ladder
from games.go_libs import (capture_next_to, captures, liberties_after, liberty_of, playable,
                           self_atari)
from games.go_nakade import nakade_move
from games.go_shapes import shape_weight, symmetries
from games.go_twolib import two_liberty_move
from games.rng import below, next_u64

LOCAL_RATE = 90     # with the rates: rules 1-2 and the two-liberty rule fire in this many of 100
NAKADE_RATE = 60    # and the nakade rule in this many (Pachi's Moggy on small boards)

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

# Pachi's weights of the same shapes (playout/moggy.c, pat3_gammas: "tuned on 15x15 ... using
# 40000 CLOP games"), in hundredths; the gammas policies draw a pattern move with these odds.
GAMMAS = {"hane, enclosing": 52, "hane, not cutting": 53, "hane, magari": 32,
          "diagonal attachment": 37, "cut, unprotected": 28, "cut, peeped": 21,
          "cut, between": 19, "cut, keima": 82, "edge, chase": 12, "edge, block cut": 20,
          "edge, block connection": 11, "edge, sagari": 16, "edge, cut": 57}


def build_gamma_table(patterns=PATTERNS, gammas=GAMMAS):
    """``uint8`` array of shape ``(65536,)``: the largest weight of a pattern the neighbourhood
    code matches, 0 where none does (so it is non-zero exactly where PATTERN_TABLE is)."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    for name in sorted(patterns, key=lambda k: gammas[k]):
        table[np.flatnonzero(build_pattern_table({name: patterns[name]}))] = gammas[name]
    return table


GAMMA_TABLE = build_gamma_table()


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
def _fires(x, rate, rates):
    """Whether a rule fires: always without ``rates``, else in ``rate`` of 100 draws;
    ``(bool, new rng state x)``."""
    if not rates:
        return True, x
    x = next_u64(x)
    return below(x, 100) < rate, x


@nrt_free
def local_move(s, w, last, c, x, nakade, twolib, region, queue, board, second=NO_POINT,
               rates=False, gammas=False, shapes=False):
    """Rules 1-3 of the module docstring for player ``c`` after a stone on padded point
    ``last`` (``board``: the ladders' scratch, :func:`read_ladder`); between rules 2 and 3,
    with ``twolib`` the two-liberty rule (:func:`games.go_twolib.two_liberty_move`, ``queue``
    its scratch), then with ``nakade`` the vital point of a small eye space next to ``last``
    (:func:`games.go_nakade.nakade_move`, ``region`` its scratch). With ``rates`` each rule
    before the patterns fires only at Moggy's rate (rules 1-2 together and the two-liberty
    rule LOCAL_RATE, nakade NAKADE_RATE of 100), else the next is tried; ``second`` (a padded
    point or NO_POINT) widens the patterns, ``gammas`` weighs them and ``shapes`` replaces them
    with Pachi's (:func:`pattern_move`).
    Returns ``(point or NO_POINT, new rng state x)``."""
    fire, x = _fires(x, LOCAL_RATE, rates)
    if fire:
        g = s[at(last, GROUP)]
        if in_atari(s, g):                              # 1. capture the last move
            lib = liberty_of(s, g)
            if playable(s, w, lib, c):
                return lib, x
        for p in saving_moves(s, w, last, c, board):   # 2. atari defence
            if p != NO_POINT:
                return p, x
    if twolib:
        fire, x = _fires(x, LOCAL_RATE, rates)
        if fire:
            p, x = two_liberty_move(s, w, last, c, x, queue)
            if p != NO_POINT:
                return p, x
    if nakade:
        fire, x = _fires(x, NAKADE_RATE, rates)
        if fire:
            p = nakade_move(s, w, last, region)
            if p != NO_POINT and playable(s, w, p, c) and not self_atari(s, w, p, c):
                return p, x
    return pattern_move(s, w, last, c, x, board, second, gammas, shapes)    # 3. patterns


@nrt_free
def pattern_move(s, w, centre, c, x, board, second=NO_POINT, gammas=False, shapes=False):
    """Rule 3 around padded point ``centre``: an empty neighbour (of the eight) matching a 3x3
    pattern, playable and no self-atari, chosen uniformly; ``(point or NO_POINT, new x)``.
    With ``second`` (a padded point), the neighbours of ``second`` that are not neighbours of
    ``centre`` are candidates too (Pachi's Moggy with ``pattern2``). With ``gammas`` a
    candidate is drawn with odds GAMMA_TABLE of its neighbourhood, not uniformly; with
    ``shapes``, with the odds of Pachi's shapes (:func:`games.go_shapes.shape_weight`, which
    replace the patterns) and, as Pachi's shape rule, never a ladder escape
    (:func:`ladder_escape`; ``board``: scratch of :func:`read_ladder`)."""
    found = 0
    chosen = NO_POINT
    for k in range(2 if second != NO_POINT else 1):
        o = centre if k == 0 else second
        for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
            q = o + d
            if k == 1 and abs(q // w - centre // w) <= 1 and abs(q % w - centre % w) <= 1:
                continue                                # seen around centre (or centre)
            if s[at(q, COLOR)] != EMPTY:
                continue
            if shapes:
                weight = shape_weight(s, w, q, c)
            else:
                code = neighbourhood(s, w, q)
                weight = (GAMMA_TABLE[code] if gammas else 1) if PATTERN_TABLE[code] else 0
            if (weight > 0 and playable(s, w, q, c) and not self_atari(s, w, q, c)
                    and not (shapes and ladder_escape(s, w, q, c, board))):
                found += weight
                x = next_u64(x)
                if below(x, found) < weight:            # (weighted) reservoir sampling
                    chosen = q
    return chosen, x


@nrt_free
def scan_atari(s, w, groups):
    """Write the ids of every group in atari on the board to ``groups`` (int64, at least
    n * n entries); return how many."""
    n = w - 2
    k = 0
    for r in range(1, n + 1):
        for p in range(r * w + 1, r * w + n + 1):
            if s[at(p, COLOR)] != EMPTY and s[at(p, GROUP)] == p and in_atari(s, p):
                groups[k] = p
                k += 1
    return k


@nrt_free
def note_atari(s, w, p, groups, k):
    """After a stone on ``p``: add its group and the enemy groups next to it that are now in
    atari to the ``k`` ids of ``groups`` (no duplicates); return the new count. The only
    groups a stone can put in atari are these (a capture only adds liberties)."""
    for d in (0, 1, -1, w, -w):
        q = p + d
        v = s[at(q, COLOR)]
        if (v == BLACK or v == WHITE) and in_atari(s, s[at(q, GROUP)]):
            g = s[at(q, GROUP)]
            seen = False
            for i in range(k):
                if groups[i] == g:
                    seen = True
                    break
            if not seen and k < groups.shape[0]:
                groups[k] = g
                k += 1
    return k


@nrt_free
def global_move(s, w, c, x, groups, k, board):
    """The global atari rule for player ``c``: drop the ids of ``groups[:k]`` that are no
    longer groups in atari, then from a random one on take the first move: the liberty of an
    enemy group if playable, else :func:`_save` for one of ours (``board``: its scratch).
    Returns ``(point or NO_POINT, new x, new k)``."""
    i = 0
    while i < k:
        g = groups[i]
        if s[at(g, COLOR)] != EMPTY and s[at(g, GROUP)] == g and in_atari(s, g):
            i += 1
        else:
            k -= 1
            groups[i] = groups[k]
    if k == 0:
        return NO_POINT, x, k
    x = next_u64(x)
    start = below(x, k)
    for j in range(k):
        g = groups[(start + j) % k]
        if s[at(g, COLOR)] == c:
            p = _save(s, w, g, c, board)
        else:
            p = liberty_of(s, g)
            if not playable(s, w, p, c):
                p = NO_POINT
        if p != NO_POINT:
            return p, x, k
    return NO_POINT, x, k
