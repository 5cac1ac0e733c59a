"""Pachi's 3x3 shapes (games.go_shapes): the table's exact weights, the atari and mover
refinements, the compiled lookup against a recount from the board, and the policy's picks.

Diagrams are drawn with row 1 at the bottom: ``X`` black, ``O`` white."""
import numpy as np

from games import go, go_board as gb, go_shapes as gs
from games.go_game import Go
from games.rng import new_rng
from tests.test_go_policy import picks
from tests.test_go_rules import position

FULL = gs.build_shape_weights()
N_ATARI, W_ATARI, E_ATARI, S_ATARI, WHITE_TO_MOVE = 1, 2, 4, 8, 16


def code_of(rows, x_colour=gb.BLACK):
    """The colour code of a 3x3 diagram (rows from the top; the centre is the move)."""
    chars = {".": gb.EMPTY, "#": gb.BORDER, "X": x_colour, "O": 3 - x_colour}
    cells = [rows[1 + dr][1 + dc] for dr, dc in gs._OFFSETS]
    return sum(chars[ch] << (2 * i) for i, ch in enumerate(cells))


def weight(rows, rest=0, x_colour=gb.BLACK):
    return int(gs.SHAPE_WEIGHTS[gs.SHAPE_CLASS[code_of(rows, x_colour)], rest])


def test_the_split_tables_hold_the_full_table():
    classes = gs.SHAPE_WEIGHTS[gs.SHAPE_CLASS]
    assert classes.shape == FULL.shape and np.array_equal(classes, FULL)
    assert gs.SHAPE_CLASS.nbytes + gs.SHAPE_WEIGHTS.nbytes < 1 << 20     # numba caches them


def test_pachis_weights_for_either_colour_and_any_mover():
    """An enclosing hane weighs 52 and a keima cut 82 (Pachi's gammas), whichever colour is X
    and whoever moves; an empty neighbourhood, 0."""
    for x in (gb.BLACK, gb.WHITE):
        for rest in (0, WHITE_TO_MOVE):
            assert weight(("XOX", "...", "..."), rest, x) == 52
            assert weight(("OX.", "..O", "..."), rest, x) == 82
            assert weight(("...", "...", "..."), rest, x) == 0


def test_a_stone_in_atari_spoils_a_y_or_q_shape_only():
    """The diagonal attachment (O above, X beside, both direct neighbours) asks for both not
    in atari: 37, and 0 when either is; the enclosing hane's O may be in atari."""
    attach = (".O.", "X..", "...")
    assert weight(attach) == 37
    assert weight(attach, N_ATARI) == 0
    assert weight(attach, W_ATARI) == 0
    assert weight(("XOX", "...", "..."), N_ATARI) == 52


def test_the_thin_hane_is_the_movers_shape_only():
    """X O O above the move (nothing else matches it): 22 when X moves, 0 for the other side."""
    thin = ("XOO", "...", "...")
    assert weight(thin, 0, gb.BLACK) == 22                     # Black is X and moves
    assert weight(thin, WHITE_TO_MOVE, gb.BLACK) == 0
    assert weight(thin, WHITE_TO_MOVE, gb.WHITE) == 22         # White is X and moves


def test_the_edge_shapes():
    """On the edge: the eye-making shape 44; a side cut is also a keima cut (and a block
    cut, 20), so it weighs the largest, 82; a chase along the edge 12."""
    assert weight((".X.", "O.X", "###")) == 44
    assert weight((".OX", "X.O", "###")) == 82
    assert weight(("X..", "O..", "###")) == 12


def recount(game, s, p, c):
    """The table weight of empty point ``p`` (padded), from colours and liberties counted
    afresh on the board: an independent reading of the neighbourhood."""
    w = game.size + 2
    colour = lambda q: int(s[gb.at(q, gb.COLOR)])          # noqa: E731
    code = sum(colour(p + d) << (2 * k) for k, d in enumerate(
        (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1)))
    rest = 16 if c == gb.WHITE else 0
    for bit, d in enumerate((-w, -1, 1, w)):
        q = p + d
        if colour(q) in (gb.BLACK, gb.WHITE):
            seen, todo, libs = {q}, [q], set()
            while todo:
                x = todo.pop()
                for e in (1, -1, w, -w):
                    y = x + e
                    if colour(y) == gb.EMPTY:
                        libs.add(y)
                    elif colour(y) == colour(q) and y not in seen:
                        seen.add(y)
                        todo.append(y)
            if len(libs) == 1:
                rest |= 1 << bit
    return int(FULL[code, rest])


def test_the_compiled_lookup_matches_a_recount_on_played_out_boards():
    """At every empty point of positions 30 and 60 moves into seeded playouts, for either
    player, ``shape_weight`` equals the weight recounted from the board."""
    g = Go(9)
    w = g.size + 2
    checked = 0
    for seed in range(6):
        for moves in (30, 60):
            s = g.initial_state()
            rng = new_rng(seed)
            for _ in range(moves):
                a = int(go.playout_action(s, rng))
                if g.play(s, a) != 0:
                    break
            for r in range(1, g.size + 1):
                for col in range(1, g.size + 1):
                    p = r * w + col
                    if s[gb.at(p, gb.COLOR)] != gb.EMPTY:
                        continue
                    for c in (gb.BLACK, gb.WHITE):
                        assert gs.shape_weight(s, w, p, c) == recount(g, s, p, c)
                        checked += 1
    assert checked > 500


# Black C5 and E5, with D5 between them empty; White to play.
APART = """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
"""


def test_the_shapes_policy_answers_with_the_shapes_around_the_last_move():
    """After White D5 between Black C5 and E5, ``shapes`` plays only points around D5 that
    the table weighs (recounted from the board), D4 and D6 (the enclosing hane) among them;
    the MoGo patterns' ``ko`` policy also plays the plain hanes C4 and E4 under C5 and E5."""
    g = Go(7)
    w = g.size + 2
    s = position(g, APART, to_play=1)
    g.play(s, g.parse_move("D5", s))
    around = {"C4", "D4", "E4", "C6", "D6", "E6"}
    shaped = set()
    for vertex in around:
        a = g.parse_move(vertex, s)
        p = (a // g.size + 1) * w + a % g.size + 1
        if recount(g, s, p, gb.BLACK):
            shaped.add(vertex)
    assert {"D4", "D6"} <= shaped
    s[gb.F_POLICY] = go.POLICIES["shapes"]
    assert picks(g, s, draws=300) == shaped
