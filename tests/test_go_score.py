"""The end of a Go game (games/go/score.py and Go's scoring methods), without any GTP engine:
chains, area, life and death, seki, the score under each rules set, the handicap
compensation, the quick move, and the pure-Python twins of the kernels. The expected values of
the seki and handicap positions are GNU Go 3.8's answers (``--chinese-rules``)."""
from pathlib import Path

import numpy as np
import pytest

from games import pure
from games.go import score as go_score
from games.go import Go
from games.go import board as gb
from games.go.game import komi2

DATA = Path(__file__).parent / "data" / "final_status"

# A seki in the top-left corner: black A8 A7 B7 C7 and white B9 C9 C8 share the liberties A9
# and B8; both are enclosed by living groups. GNU Go: final_status_list seki lists both,
# dead lists nothing, final_score W+54.5 (Black 16, White 63, komi 7.5).
SEKI = """.OOX.X.X.
X.OXXXXXX
XXXOOOOOO
OOOOOOOOO
.........
.........
.........
.........
.........""".split()


def position(rows, rules="chinese", komi=7.5):
    n = len(rows)
    g = Go(size=n, komi=komi, rules=rules)
    s = g.initial_state()
    points = {ch: [r * n + c for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch]
              for ch in "XO"}
    g.set_up(s, points["X"], points["O"])
    return g, s


def statuses(g, s):
    return {(color, " ".join(g.action_to_vertex(p) for p in pts)): st
            for color, pts, st in g.final_status(s)}


def test_seki_is_told_from_life_as_gnu_go_tells_it():
    for rules in ("chinese", "aga"):
        g, s = position(SEKI, rules)
        assert statuses(g, s) == {
            (2, "B9 C9 C8"): "seki",
            (1, "D9 F9 H9 D8 E8 F8 G8 H8 J8"): "alive",
            (1, "A8 A7 B7 C7"): "seki",
            (2, "D7 E7 F7 G7 H7 J7 A6 B6 C6 D6 E6 F6 G6 H6 J6"): "alive"}
        assert g.final_result(s) == "W+54.5"
    g, s = position(SEKI, "tromp-taylor")         # every stone counts: all alive
    assert set(statuses(g, s).values()) == {"alive"} and len(statuses(g, s)) == 4
    assert g.final_result(s) == "W+54.5"


def test_the_area_score_leaves_the_seki_liberties_to_nobody():
    g, s = position(SEKI, "tromp-taylor")
    assert g.area(s) == (16, 63) and g.score(s) == -54.5      # GNU Go's count
    g = Go(size=9, komi=6.5)
    assert g.score(g.initial_state()) == -6.5               # an empty board is nobody's
    g = Go(size=5, komi=0.5)
    s = g.initial_state()
    g.set_up(s, ["C3"])
    assert g.score(s) == 24.5                               # one stone owns the whole board


def test_a_dead_stone_counts_under_tromp_taylor_and_comes_off_under_chinese():
    # A black stone at F3 in White's area, in atari between white E3, G3 and F4.
    rows = SEKI[:5] + [".....O...", "....OXO..", ".........", "........."]
    g, s = position(rows, "chinese")
    assert statuses(g, s)[(1, "F3")] == "dead"
    assert g.final_result(s) == "W+54.5"              # 16 to 63, as without the stone
    g, s = position(rows, "tromp-taylor")
    assert statuses(g, s)[(1, "F3")] == "alive"        # never removed: it counts
    # White's empty region now touches the black stone: it counts for nobody.
    assert go_score.area_of(g.board(s)) == (17, 21)
    assert g.final_result(s) == "W+11.5"               # 17 - 21 - 7.5


def test_chinese_rules_give_white_a_point_per_handicap_stone_as_gnu_go():
    # GNU Go --chinese-rules: the seki position with D9 and F9 placed by set_free_handicap:
    # W+56.5, two points more than without a handicap.
    g, s = position(SEKI, "chinese")
    g.set_handicap(s, 2)
    assert g.effective_komi(s) == 9.5 and g.komi == 7.5
    assert g.final_result(s) == "W+56.5"
    g, s = position(SEKI, "tromp-taylor")
    g.set_handicap(s, 2)
    assert g.final_result(s) == "W+54.5"               # no compensation
    h = Go(size=9, komi=0.5, handicap=3, rules="chinese")
    assert h.effective_komi(h.initial_state()) == 3.5
    g, s = position(SEKI, "aga")                        # AGA: a point a stone after the first
    g.set_handicap(s, 2)
    assert g.effective_komi(s) == 8.5 and g.final_result(s) == "W+55.5"
    h = Go(size=9, komi=0.5, handicap=3, rules="aga")
    assert h.effective_komi(h.initial_state()) == 2.5


def test_a_komi_between_half_points_is_searched_as_the_half_point_and_counted_true():
    # Area counts are whole points: Black wins with komi 6.3 exactly when with 6.5.
    g, s = position(SEKI, "chinese", komi=6.3)
    assert g.komi == 6.3 and g.effective_komi(s) == 6.3
    assert int(s[gb.F_KOMI2]) == 13                     # the kernels' 6.5
    assert g.final_result(s) == "W+53.3"                # 16 - 63 - 6.3
    assert round(g.score(s), 6) == -53.3
    g.set_komi(s, -2.7)
    assert int(s[gb.F_KOMI2]) == -5 and g.effective_komi(s) == -2.7
    for komi, twice in ((7.5, 15), (6, 12), (0.2, 1), (-0.2, -1), (5.9, 11)):
        assert komi2(komi) == twice, komi
    for bad in (float("nan"), float("inf"), 1001):
        with pytest.raises(ValueError, match="komi must be a number from -1000 to 1000"):
            g.set_komi(s, bad)
    assert g.komi == -2.7


def test_rules_can_change_in_a_game_and_unknown_rules_are_refused():
    g = Go(size=9, komi=0.5, handicap=2, rules="tromp-taylor")
    s = g.initial_state()
    assert g.effective_komi(s) == 0.5
    g.set_rules(s, "chinese")
    assert g.effective_komi(s) == 2.5
    g.set_komi(s, 6.5)
    assert g.effective_komi(s) == 8.5
    assert Go().rules == "chinese"                      # the default
    with pytest.raises(ValueError, match="rules must be one of chinese, aga, tromp-taylor"):
        g.set_rules(s, "japanese")
    with pytest.raises(ValueError, match="rules"):
        Go(rules="ing")


def test_classify_from_playout_statistics():
    board = np.array([[1, 0, 2], [1, 0, 2], [0, 0, 2]], dtype=np.int8)
    own = np.array([[1, 0, -1], [1, 0, -1], [0, 0, -1]], dtype=float)
    dame = np.zeros((3, 3))
    assert go_score.classify(board, own, dame) == [(1, [0, 3], "alive"), (2, [2, 5, 8], "alive")]
    own[0, 0] = own[1, 0] = -0.2                     # black ends as White's: dead
    dame[2, 1] = 0.9                                 # not a liberty of either chain
    assert go_score.classify(board, own, dame)[0][2] == "dead"
    dame[1, 1] = 0.5                                 # a shared liberty left empty: seki
    assert go_score.classify(board, own, dame) == [(1, [0, 3], "dead"), (2, [2, 5, 8], "seki")]


def test_chains_regions_and_area():
    board = np.array([[1, 1, 0, 2, 0],
                      [0, 1, 2, 2, 2],
                      [1, 0, 2, 0, 0],
                      [0, 0, 0, 0, 0],
                      [0, 0, 0, 0, 1]], dtype=np.int8)
    assert go_score.chains(board) == [(1, [0, 1, 6]), (2, [3, 7, 8, 9, 12]), (1, [10]),
                                      (1, [24])]
    labels = go_score.empty_regions(board)
    assert labels[0, 0] == -1 and labels[0, 2] != labels[0, 4]
    assert labels[2, 1] == labels[4, 0] == labels[2, 4]
    # (0,4) reaches only white, (1,0) only black, (0,2) and the big region both colours.
    assert go_score.area_of(board) == (5 + 1, 5 + 1)


def test_quick_moves_are_empty_points_with_an_empty_neighbour():
    board = np.array([[0, 1, 0], [1, 1, 0], [0, 0, 2]], dtype=np.int8)
    # (0,0) is surrounded by black (an eye): never; the others have an empty neighbour.
    assert sorted(go_score.quick_moves(board, 1)) == [2, 5, 6, 7]
    assert go_score.quick_moves(board, 1) == go_score.quick_moves(board, 1)   # seeded


def test_pure_python_twins_play_exactly_the_compiled_rules():
    g = Go(size=7)
    t = pure.twin_game(g)
    rng = np.random.default_rng(5)
    a, b = g.initial_state(), t.initial_state()
    assert np.array_equal(a, b)
    for _ in range(120):
        legal = g.legal_actions(a)
        assert np.array_equal(legal, t.legal_actions(b))
        move = int(rng.choice(legal))
        assert g.play(a, move) == pure.quiet(t.play, b, move)
        assert np.array_equal(a, b)
        if g.status(a) != 0:
            break
    assert type(t.kernels.apply_action).__name__ == "function"     # interpreted, not numba


NO_COMPILED_CODE = """
import numpy as np
import games
from games import pure
from numba.core import dispatcher

def refuse(self, *args, **kw):
    raise SystemExit("a kernel was called: " + self.py_func.__qualname__)
dispatcher.Dispatcher._compile_for_args = refuse      # the first call of any kernel goes here
for name in games.names():
    t = pure.twin_game(games.get(name))
    s = t.initial_state()
    t.render(s), t.score_text(s), t.summary(s), t.ai_should_pass(s)
    a = int(t.legal_actions(s)[0])
    t.parse_move(t.format_move(a, s), s)
    pure.quiet(t.play, s, a)
    t.status(s), t.to_play(s)
print("ok")
"""


def test_twins_reach_no_compiled_code():
    # Plain functions of the game's package that call kernels (Go's ``board.new_state``,
    # ``count.area``) are rebuilt too: a twin never waits for numba (a fresh process, where
    # every kernel's first call is refused).
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", NO_COMPILED_CODE], capture_output=True,
                          text=True, cwd=Path(__file__).parent.parent, timeout=120)
    assert done.stdout == "ok\n", done.stdout + done.stderr


def final_position(name):
    from games.go import sgf as go_sgf
    record = go_sgf.from_sgf((DATA / name).read_bytes())
    g = Go(size=record["size"], komi=record["komi"], rules="chinese")
    s = g.initial_state()
    for player, action in record["moves"]:
        g.set_to_play(s, player)
        g.play(s, action)
    return g, s


@pytest.mark.parametrize("name, dead, alive", [
    ("sacrifice-throw-in.sgf", "F9 F8 G8 H8 J8 F7", "H9"),
    ("sacrifice-nakade.sgf", "H9 G8 H8 H7 H6 H5 J5 J4", "J8 J7")])
def test_a_seki_that_a_sacrifice_breaks_is_no_seki_as_gnu_go_reads_it(name, dead, alive):
    g, s = final_position(name)
    own, dame = g.settle(s)
    plain = go_score.classify(g.board(s), own, dame)        # what the playouts alone say
    assert {st for _, pts, st in plain if g.action_to_vertex(pts[0]) in ("H9", "J8")} == {"seki"}
    found = statuses(g, s)
    assert found[(2, dead)] == "dead" and found[(1, alive)] == "alive"
    assert "seki" not in found.values()
