"""Go rules on small hand-built positions with exact, hand-checked verdicts: suicide, captures,
ko, positional superko, seki, area scoring, the playout policy's eye rule, notation, handicap
placement, and the incremental board bookkeeping checked against a from-scratch recount.

Diagrams are drawn with row 1 at the bottom, as on a real board: ``X`` black, ``O`` white."""
import numpy as np
import pytest

import games
from games.go import kernels as go, board as gb, count as go_count, notation as go_notation
from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.go import Go
from games.rng import new_rng


def position(game, diagram, to_play=0):
    """State for ``diagram`` (rows from the top, cells separated by spaces), one setup step."""
    rows = [r.split() for r in diagram.strip().splitlines()]
    n = game.size
    assert len(rows) == n and all(len(r) == n for r in rows), "diagram size"
    black = [r * n + c for r in range(n) for c in range(n) if rows[r][c] == "X"]
    white = [r * n + c for r in range(n) for c in range(n) if rows[r][c] == "O"]
    state = game.initial_state()
    game.set_up(state, black=black, white=white, next_player=to_play)
    return state


def v(game, vertex):
    return game.vertex_to_action(vertex)


def kernel_legal(game, state):
    out = np.empty(game.num_actions, dtype=np.int32)
    return set(out[:go.legal_actions(state, out)].tolist())


def play_all(game, state, moves):
    for m in moves.split():
        assert game.play(state, game.parse_move(m, state)) == ONGOING, m


# -- captures and suicide ------------------------------------------------------------------------

def test_empty_5x5_board_has_25_points_and_pass():
    g = Go(5)
    s = g.initial_state()
    assert kernel_legal(g, s) == set(range(26))
    assert g.legal_actions(s).tolist() == list(range(26))


def test_single_stone_suicide_is_illegal():
    g = Go(5)
    s = position(g, """
        . . . . .
        . . . . .
        . . . . .
        O . . . .
        . O . . .""")
    before = s.copy()
    assert go.move_check(s, v(g, "A1")) == go.SUICIDE
    assert go.apply_action(s, v(g, "A1")) == ILLEGAL
    assert np.array_equal(s, before)
    assert v(g, "A1") not in kernel_legal(g, s)
    with pytest.raises(ValueError, match="suicide"):
        g.parse_move("A1", s)
    s[gb.F_TOMOVE] = 1                       # White may fill its own point
    assert go.move_check(s, v(g, "A1")) == go.OK


def test_multi_stone_suicide_is_illegal():
    g = Go(5)
    s = position(g, """
        . . . . .
        . . . . .
        O O . . .
        X O . . .
        . O . . .""")
    # Black A1 would make the group A1-A2 with no liberty, and the white group has five.
    assert go.move_check(s, v(g, "A1")) == go.SUICIDE
    assert go.apply_action(s.copy(), v(g, "A1")) == ILLEGAL
    s[gb.F_TOMOVE] = 1                       # White A1 captures A2 instead
    assert g.play(s, v(g, "A1")) == ONGOING
    assert g.captures(s) == (0, 1)
    assert g.board(s)[3, 0] == 0


def test_a_capture_is_not_suicide():
    g = Go(5)
    s = position(g, """
        . . . . .
        . . . . .
        X . . . .
        O X . . .
        . O X . .""")
    # A1 has no empty neighbour, but it takes the last liberty of A2 and of B1.
    assert go.move_check(s, v(g, "A1")) == go.OK
    g.play(s, v(g, "A1"))
    assert g.captures(s) == (2, 0)
    b = g.board(s)
    assert b[4, 0] == 1 and b[3, 0] == 0 and b[4, 1] == 0
    assert g.area(s) == (25, 0)


# -- ko and superko ------------------------------------------------------------------------------

KO = """
    . . . . .
    . . X O .
    . X O . O
    . . X O .
    . . . . ."""


def test_ko_retake_must_wait_one_move():
    g = Go(5)
    s = position(g, KO)
    play_all(g, s, "D3")                      # Black takes C3
    assert g.captures(s) == (1, 0)
    c3 = v(g, "C3")
    assert go.move_check(s, c3) == go.KO
    assert c3 not in kernel_legal(g, s)
    with pytest.raises(ValueError, match="ko"):
        g.parse_move("C3", s)
    assert go.apply_action(s.copy(), c3) == ILLEGAL
    play_all(g, s, "A1 E5")                   # a ko threat and its answer
    assert go.move_check(s, c3) == go.OK      # now White may retake
    play_all(g, s, "C3")
    assert g.captures(s) == (1, 1)
    assert go.move_check(s, v(g, "D3")) == go.KO  # and Black must wait in turn


def test_ko_ban_lasts_one_move_only_even_after_a_pass():
    g = Go(5)
    s = position(g, KO)
    play_all(g, s, "D3 pass")                 # White passes instead of retaking
    assert int(s[gb.F_KO]) == gb.NO_POINT     # the ban was on White's move, now gone
    play_all(g, s, "A1")
    assert go.move_check(s, v(g, "C3")) == go.OK


# Black sends two stones (C7 with B7) into atari, White takes both at A7, and Black's retake
# of one stone at B7 would recreate the starting position exactly: not a simple ko (White took
# two stones), so simple-ko rules allow it, but positional superko forbids it. GNU Go agrees:
# with --positional-superko it calls B7 illegal, with its default simple ko it allows it.
SEND_TWO = """
    . X . O . . .
    X O O . . . .
    X . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . ."""


def test_send_two_return_one_is_rejected_by_positional_superko():
    g = Go(7)
    s = position(g, SEND_TWO)
    start = g.board(s).copy()
    play_all(g, s, "C7 A7")
    assert g.captures(s) == (0, 2)
    b7 = v(g, "B7")
    assert b7 in kernel_legal(g, s)           # simple ko and suicide allow it ...
    assert g.repeats_position(s, b7)
    assert go.move_check(s, b7) == go.SUPERKO  # ... positional superko does not
    before = s.copy()
    assert go.apply_action(s, b7) == ILLEGAL
    assert np.array_equal(s, before)
    assert b7 not in g.legal_actions(s)
    with pytest.raises(ValueError, match="superko"):
        g.parse_move("B7", s)
    # The position B7 would make really is the start: check by playing it without history.
    t = position(g, """
        O . . O . . .
        X O O . . . .
        X . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""")
    assert g.play(t, b7) == ONGOING
    assert np.array_equal(g.board(t), start)


def test_superko_also_counts_positions_reached_by_moves():
    g = Go(7)
    s = g.initial_state()
    play_all(g, s, "B7 B6 A6 C6 A5 D7 C7 A7")   # the same start, built by moves
    assert go.move_check(s, v(g, "B7")) == go.SUPERKO


def test_search_prunes_the_superko_move():
    from mcts import MCTS, SearchConfig
    g = Go(7)
    s = position(g, SEND_TWO)
    play_all(g, s, "C7 A7")
    result = MCTS(g, SearchConfig(seed=3, capacity=50_000), log=None).search(s, playouts=300)
    moves = {c.move for c in result.children}
    assert "B7" not in moves and "C7" in moves and result.move != "B7"


# -- scoring -------------------------------------------------------------------------------------

def test_empty_board_scores_minus_komi():
    g = Go(9)
    s = g.initial_state()
    play_all(g, s, "pass")
    assert g.status(s) == ONGOING
    assert g.play(s, g.parse_move("pass", s)) == SECOND_WINS
    assert g.score(s) == -7.5 and g.result_string(s) == "W+7.5"
    assert g.result_text_for_state(s) == "White wins (W+7.5)"
    g0 = Go(9, komi=0)
    s0 = g0.initial_state()
    play_all(g0, s0, "pass")
    assert g0.play(s0, g0.parse_move("pass", s0)) == DRAW
    assert g0.result_string(s0) == "0" and g0.area(s0) == (0, 0)
    with pytest.raises(ValueError, match="game is over"):
        g0.parse_move("E5", s0)
    assert go.apply_action(s0, 0) == ILLEGAL


# One eye each (A5 for Black, E5 for White) and one shared liberty C5: whoever fills C5 is left
# with one liberty and is captured, so neither does: seki. Both groups are alive and C5, which
# reaches both colours, belongs to nobody. Black 10 stones + A5 = 11, White 12 stones + E5 = 13.
SEKI = """
    . X . O .
    X X X O O
    X X O O O
    X X O O O
    X X O O O"""


def test_seki_counts_both_groups_alive_and_the_shared_liberty_for_nobody():
    g = Go(5, komi=0)
    s = position(g, SEKI)
    assert g.area(s) == (11, 13)
    assert g.score(s) == -2 and g.result_string(s) == "W+2"
    assert go.move_check(s, v(g, "C5")) == go.OK         # self-atari is legal
    assert go.move_check(s, v(g, "E5")) == go.SUICIDE    # White's eye
    play_all(g, s, "pass")
    assert g.play(s, g.parse_move("pass", s)) == SECOND_WINS
    filled = position(g, SEKI)
    play_all(g, filled, "C5")                            # Black fills the shared liberty
    play_all(g, filled, "A5")                            # and White captures all eleven
    assert g.captures(filled) == (0, 11)


# Black: 13 stones and two one-point eyes (B5, A3); White: 8 stones, eyes E5 and E3. Every
# empty point is an eye: filling one's own is legal but suicidal in effect, the other side's
# is suicide. The only sensible move is pass; Black, to move, wins by 15 - 10 - 0.5.
TWO_EYES = """
    X . X O .
    X X X O O
    . X X O .
    X X X O O
    X X X O O"""


def test_nothing_left_to_play_but_pass():
    g = Go(5, komi=0.5)
    s = position(g, TWO_EYES)
    assert g.area(s) == (15, 10)
    pas = g.pass_action
    assert kernel_legal(g, s) == {v(g, "B5"), v(g, "A3"), pas}
    for player in (0, 1):
        t = s.copy()
        t[gb.F_TOMOVE] = player
        assert all(g.is_own_eye(t, a) for a in g.legal_actions(t) if a != pas)
        for seed in range(5):
            assert go.playout_action(t, new_rng(seed)) == pas
        r = t.copy()
        assert go.rollout(r, new_rng(1)) == FIRST_WINS and g.moves_played(r) == 2


def test_search_prefers_pass_when_only_own_eyes_are_left():
    from mcts import MCTS, SearchConfig
    g = Go(5, komi=0.5)
    s = position(g, TWO_EYES)
    result = MCTS(g, SearchConfig(seed=7, capacity=100_000), log=None).search(
        s, playouts=2000)
    assert result.move == "pass"
    assert result.children[0].move == "pass" and result.value > 0.9


@pytest.mark.parametrize("diagram, point, eye", [
    # centre, one enemy diagonal (A4): still an eye
    (""". . . . .
        X O . . .
        O . O . .
        . O . . .
        . . . . .""", "B3", True),
    # centre, two enemy diagonals (A4, C2): a false eye, which the policy may fill
    (""". . . . .
        X O . . .
        O . O . .
        . O X . .
        . . . . .""", "B3", False),
    # edge, no enemy diagonal: an eye
    (""". . . . .
        . . . . .
        . . . . .
        . . O . .
        . O . O .""", "C1", True),
    # edge, one enemy diagonal (B2): false
    (""". . . . .
        . . . . .
        . . . . .
        . X O . .
        . O . O .""", "C1", False),
    # corner, enemy on the diagonal: false; an empty diagonal: an eye
    (""". . . . .
        . . . . .
        . . . . .
        O X . . .
        . O . . .""", "A1", False),
    (""". . . . .
        . . . . .
        . . . . .
        O . . . .
        . O . . .""", "A1", True),
    # a neighbour is empty or the enemy's: not an eye
    (""". . . . .
        . . . . .
        . . . . .
        O . . . .
        . X . . .""", "A1", False),
], ids=["centre-one-enemy-diagonal", "centre-two-enemy-diagonals", "edge-clean",
        "edge-one-enemy-diagonal", "corner-enemy-diagonal", "corner-clean", "enemy-neighbour"])
def test_own_eye_rule_of_the_playout_policy(diagram, point, eye):
    g = Go(5)
    s = position(g, diagram, to_play=1)
    assert g.is_own_eye(s, v(g, point)) == eye
    rng = new_rng(0)
    picks = {int(go.playout_action(s, rng)) for _ in range(300)}
    assert (v(g, point) in picks) == (not eye and go.move_check(s, v(g, point)) == go.OK)


# -- the game's end --------------------------------------------------------------------------------

def test_random_games_end_within_max_length_and_repeat_with_the_seed():
    for size in (5, 9, 13):
        g = Go(size)
        for seed in range(20):
            a, b = g.initial_state(), g.initial_state()
            st = go.rollout(a, new_rng(seed))
            assert st in (FIRST_WINS, SECOND_WINS) and go.status(a) == st
            assert go.ply(a) <= g.max_length
            go.rollout(b, new_rng(seed))
            assert np.array_equal(a, b)


def test_playout_action_games_end_within_max_length():
    g = Go(7)
    for seed in range(10):
        s, rng = g.initial_state(), new_rng(seed)
        moves = 0
        while g.status(s) == ONGOING:
            a = go.playout_action(s, rng)
            if go.apply_action(s, a) == ILLEGAL:      # superko: the policy does not know it
                assert g.repeats_position(s, a)
                go.apply_action(s, g.pass_action)
            moves += 1
        assert moves <= g.max_length


def test_move_cap_ends_and_scores_the_game():
    g = Go(5)
    rng = np.random.default_rng(11)
    capped = 0
    for _ in range(30):
        s = g.initial_state()
        while g.status(s) == ONGOING:
            moves = [a for a in g.legal_actions(s) if a != g.pass_action]
            a = rng.choice(moves) if moves else g.pass_action
            st = g.play(s, a)
        if g.moves_played(s) == g.max_length:
            capped += 1
            assert st != ONGOING and int(s[gb.F_PASSES]) < 2
        assert g.moves_played(s) <= g.max_length == 75
    assert capped > 0


# -- notation ------------------------------------------------------------------------------------

def test_vertex_notation():
    g = Go(9)
    s = g.initial_state()
    assert g.parse_move("d4", s) == g.parse_move("D4", s) == 5 * 9 + 3
    assert g.parse_move(" pass ", s) == g.parse_move("PASS", s) == 81
    assert g.format_move(0) == "A9" and g.format_move(80) == "J1" and g.format_move(81) == "pass"
    assert g.vertex_to_action("A1") == 72 and g.vertex_to_action("J9") == 8
    for text, why in [("I5", "skip I"), ("i5", "skip I"), ("K5", "off the board"),
                      ("A10", "off the board"), ("A0", "off the board"), ("T19", "off the board"),
                      ("xyz", "'xyz' is not a vertex"), ("", "is not a vertex"),
                      ("D", "not a vertex"), ("4D", "not a vertex"), ("D4.5", "not a vertex")]:
        with pytest.raises(ValueError, match=why):
            g.parse_move(text, s)
    with pytest.raises(ValueError, match=r"skip I \(A-H, J\)$"):      # this board's columns
        g.parse_move("I5", s)
    with pytest.raises(ValueError, match=r"columns A-H, J and rows 1-9$"):
        g.parse_move("K5", s)
    with pytest.raises(ValueError, match=r"columns A-H, J-T and rows 1-19$"):
        Go(19).vertex_to_action("U5")
    play_all(g, s, "D4")
    with pytest.raises(ValueError, match="D4 is occupied"):
        g.parse_move("d4", s)


def test_notation_round_trips_on_19x19():
    g = Go(19)
    for a in range(g.num_actions):
        vx = g.format_move(a)
        assert g.vertex_to_action(vx) == g.vertex_to_action(vx.lower()) == a
        assert g.sgf_to_action(g.action_to_sgf(a)) == a
    assert g.format_move(18) == "T19" and g.format_move(360) == "T1"
    assert g.sgf_to_action("dd") == g.vertex_to_action("D16")
    assert g.sgf_to_action("aa") == g.vertex_to_action("A19")
    assert g.sgf_to_action("") == g.sgf_to_action("tt") == 361
    assert g.action_to_sgf(g.vertex_to_action("Q4")) == "pp"
    with pytest.raises(ValueError):
        g.sgf_to_action("zz")


def test_record_replay():
    g = Go(9)
    s, actions = g.play_record("E5 C3 pass G7")
    assert [g.format_move(a) for a in actions] == ["E5", "C3", "pass", "G7"]
    with pytest.raises(ValueError, match="move 2 .*occupied"):
        g.play_record("E5 E5 E5")


# -- parameters and handicap ---------------------------------------------------------------------

# GTP v2, section 4.1.1 (fixed_handicap), as GNU Go places them.
GTP_19 = {2: "D4 Q16", 3: "D4 Q16 D16", 4: "D4 Q16 D16 Q4", 5: "D4 Q16 D16 Q4 K10",
          6: "D4 Q16 D16 Q4 D10 Q10", 7: "D4 Q16 D16 Q4 D10 Q10 K10",
          8: "D4 Q16 D16 Q4 D10 Q10 K4 K16", 9: "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"}
GTP_9 = {2: "C3 G7", 3: "C3 G7 C7", 4: "C3 G7 C7 G3", 5: "C3 G7 C7 G3 E5",
         6: "C3 G7 C7 G3 C5 G5", 7: "C3 G7 C7 G3 C5 G5 E5", 8: "C3 G7 C7 G3 C5 G5 E3 E7",
         9: "C3 G7 C7 G3 C5 G5 E3 E7 E5"}


@pytest.mark.parametrize("size, table", [(9, GTP_9), (19, GTP_19)])
def test_fixed_handicap_matches_the_gtp_lists(size, table):
    for stones, expected in table.items():
        assert set(go_notation.fixed_handicap_vertices(size, stones)) == set(expected.split())
        g = Go(size, handicap=stones)
        s = g.initial_state()
        b = g.board(s)
        placed = {g.format_move(r * size + c) for r in range(size) for c in range(size)
                  if b[r, c] == 1}
        assert placed == set(expected.split()) and (b == 2).sum() == 0
        assert g.to_play(s) == 1 and g.moves_played(s) == 0
        assert g.params == {"size": size, "komi": 7.5, "handicap": stones,
                            "playout_policy": "ko", "priors": True, "rules": "chinese"}


def test_handicap_limits():
    assert go_notation.max_fixed_handicap(7) == 4 and go_notation.max_fixed_handicap(8) == 4
    assert go_notation.max_fixed_handicap(13) == 9 and go_notation.max_fixed_handicap(6) == 0
    with pytest.raises(ValueError, match="7x7"):
        Go(5, handicap=2)
    with pytest.raises(ValueError, match="2 to 4"):
        Go(8, handicap=5)
    with pytest.raises(ValueError, match="handicap must be an integer from 0 to 9"):
        Go(9, handicap=10)
    with pytest.raises(ValueError, match="0 or at least 2"):
        Go(9, handicap=1)


def test_bad_parameters():
    for kwargs, why in [({"size": 4}, "5 to 19"), ({"size": 20}, "5 to 19"),
                        ({"size": "big"}, "integer"), ({"komi": 1000.5}, "-1000 to 1000"),
                        ({"komi": "x"}, "komi must be a number from -1000 to 1000"),
                        ({"komi": "nan"}, "komi must be a number"),
                        ({"handicap": -1}, "handicap must be an integer from 0 to 9")]:
        with pytest.raises(ValueError, match=why):
            Go(**kwargs)
    g = games.get("go", size=13, komi=6, handicap=0, playout_policy="uniform", priors=False)
    assert g.params == {"size": 13, "komi": 6.0, "handicap": 0, "playout_policy": "uniform",
                        "priors": False, "rules": "chinese"}
    with pytest.raises(ValueError, match="playout_policy must be one of ko, uniform"):
        Go(playout_policy="heavy")
    assert g.num_actions == 170 and g.max_length == 3 * 169


def test_free_placement_joins_the_superko_history():
    g = Go(9)
    s = g.initial_state()
    g.place_stones(s, ["C3", "G7", "E5"], "black", next_player=1)
    assert g.to_play(s) == 1 and int(s[gb.F_HISTLEN]) == 2
    with pytest.raises(ValueError, match="occupied"):
        g.place_stones(s, ["E5"], "white")
    t = g.initial_state()
    g.place_stones(t, ["A2", "B1"], "white")
    before = t.copy()
    with pytest.raises(ValueError, match="without liberties"):
        g.place_stones(t, ["A1"], "black")
    assert np.array_equal(t, before)


# -- display and helpers -------------------------------------------------------------------------

def test_render_9x9():
    g = Go(9)
    s = g.initial_state()
    play_all(g, s, "E5 D5")
    lines = g.render(s, last_action=g.vertex_to_action("D5")).splitlines()
    assert lines[0] == lines[10] == "   A B C D E F G H J"
    assert lines[1] == " 9 . . . . . . . . . 9"
    assert lines[3] == " 7 . . + . . . + . . 7"
    assert lines[5] == " 5 . . .(O)X . . . . 5"
    assert lines[7] == " 3 . . + . . . + . . 3"
    assert lines[9] == " 1 . . . . . . . . . 1"
    assert "captured" in lines[11] and "0" in lines[11]
    edge = g.render(s, last_action=g.vertex_to_action("J1")).splitlines()
    assert edge[9] == " 1 . . . . . . . .(.)1"


def test_star_points():
    assert {Go(13).format_move(a) for a in go_notation.star_points(13)} == {"D4", "D10", "K4", "K10",
                                                                   "G7"}
    assert {Go(19).format_move(a) for a in go_notation.star_points(19)} == set(GTP_19[9].split())
    assert {Go(9).format_move(a) for a in go_notation.star_points(9)} == {"C3", "C7", "G3", "G7", "E5"}


def test_board_orientation_and_result_strings():
    g = Go(9)
    s = g.initial_state()
    play_all(g, s, "A9 J1")
    b = g.board(s)
    assert b.dtype == np.int8 and b.shape == (9, 9)
    assert b[0, 0] == 1 and b[8, 8] == 2 and b.sum() == 3
    assert go_count.result_string(3.5) == "B+3.5" and go_count.result_string(-0.5) == "W+0.5"
    assert go_count.result_string(0) == "0" and go_count.result_string(-12) == "W+12"
    assert g.result_text(DRAW) == "draw (jigo)" and g.result_text(FIRST_WINS) == "Black wins"


# -- incremental bookkeeping against a from-scratch recount ---------------------------------------

def recount(state):
    """Check every incremental field of ``state`` against values recomputed from the colours."""
    n = int(state[gb.F_SIZE])
    w = n + 2
    col = gb.colors(state).ravel()
    rec = state[gb.HEADER:gb.HEADER + gb.REC * w * w].reshape(w * w, gb.REC)
    seen = {}
    key = 0
    for p in range(w * w):
        if col[p] in (gb.BLACK, gb.WHITE):
            key ^= int(gb.ZOBRIST[col[p] * gb.MAX_PADDED + p])
        if col[p] not in (gb.BLACK, gb.WHITE) or p in seen:
            continue
        stack, stones = [p], {p}
        while stack:
            x = stack.pop()
            for q in (x + 1, x - 1, x + w, x - w):
                if col[q] == col[p] and q not in stones:
                    stones.add(q)
                    stack.append(q)
        pseudo = [q for x in stones for q in (x + 1, x - 1, x + w, x - w) if col[q] == gb.EMPTY]
        gid = rec[p, gb.GROUP]
        assert gid in stones
        assert all(rec[x, gb.GROUP] == gid for x in stones)
        assert rec[gid, gb.GSIZE] == len(stones)
        assert rec[gid, gb.LIBS] == len(pseudo) > 0
        assert rec[gid, gb.LSUM] == sum(pseudo)
        assert rec[gid, gb.LSQ] == sum(q * q for q in pseudo)
        walk, x = set(), gid                 # the circular list visits exactly the group
        for _ in range(len(stones)):
            walk.add(x)
            x = rec[x, gb.NEXT]
        assert x == gid and walk == stones
        seen.update(dict.fromkeys(stones))
    assert int(state[gb.F_HASH]) == key
    e0, ne = int(state[gb.F_EMPTY_AT]), int(state[gb.F_NEMPTY])
    empties = state[e0:e0 + ne]
    assert sorted(empties.tolist()) == [p for p in range(w * w) if col[p] == gb.EMPTY]
    assert all(rec[empties[i], gb.EPOS] == i for i in range(ne))
    assert state[gb.F_STONES_B] == (col == gb.BLACK).sum()
    assert state[gb.F_STONES_W] == (col == gb.WHITE).sum()
    h0 = int(state[gb.F_HIST_AT])
    assert int(state[h0 + int(state[gb.F_HISTLEN]) - 1]) == key


def test_incremental_groups_match_a_recount():
    rng = np.random.default_rng(5)
    for size in (5, 7, 9):
        g = Go(size)
        for _ in range(6):
            s = g.initial_state()
            while g.status(s) == ONGOING:
                moves = [a for a in g.legal_actions(s) if a != g.pass_action]
                g.play(s, rng.choice(moves) if moves else g.pass_action)
                recount(s)
    for seed in range(20):                      # rollout states, superko not checked there
        s = Go(9).initial_state()
        go.rollout(s, new_rng(seed))
        recount(s)
