"""The Go playout policy (games.go.policy) and tree priors (games.go.prior) on hand-built
positions with exact, hand-checked answers: capture the last move, save a group in atari, no
big self-ataris, MoGo's 3x3 patterns in every orientation, and the prior of chosen points.

Diagrams are drawn with row 1 at the bottom: ``X`` black, ``O`` white."""
import numpy as np
import pytest

from games.go import kernels as go, board as gb, ladder as go_ladder, libs as gl, policy as gp
from games.contract import ONGOING
from games.go import Go
from games.rng import new_rng
from tests.test_go_rules import kernel_legal, play_all, position


def picks(game, state, draws=60, seed=3):
    """Every move the playout policy chose in ``draws`` draws (the state must not change)."""
    before = state.copy()
    rng = new_rng(seed)
    out = {game.format_move(int(go.playout_action(state, rng))) for _ in range(draws)}
    assert np.array_equal(state, before)
    return out


# White to move into D4 puts a lone stone in atari (its liberty: D3).
SNARE = """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X . X . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."""


def padded(game, vertex):
    a = game.vertex_to_action(vertex)
    n, w = game.size, game.size + 2
    return (a // n + 1) * w + a % n + 1


@pytest.mark.parametrize("policy", ["uniform", "ko"])
def test_policies_pick_only_legal_non_eye_moves(policy):
    """Uniform: exactly the candidates (pass only without one). Ko: a subset of them, and
    pass only when every candidate is a self-atari of two stones or more."""
    g = Go(7, playout_policy=policy)
    rng, pick = np.random.default_rng(2), new_rng(2)
    seen_local = 0
    for _ in range(8):
        s = g.initial_state()
        while g.status(s) == ONGOING:
            legal = kernel_legal(g, s)
            candidates = {a for a in legal if a != g.pass_action and not g.is_own_eye(s, a)}
            before = s.copy()
            chosen = {int(go.playout_action(s, pick)) for _ in range(40)}
            assert np.array_equal(s, before)                 # the state is not touched
            assert chosen <= (candidates | {g.pass_action})
            c = g.to_play(s) + 1
            w = g.size + 2
            sane = {a for a in candidates
                    if not gl.bad_self_atari(s, w, padded(g, g.format_move(a)), c)}
            if policy == "uniform":
                assert chosen <= (candidates or {g.pass_action})
            else:
                assert chosen <= (sane or {g.pass_action})
                seen_local += len(chosen) == 1 and len(sane) > 1
            moves = [a for a in g.legal_actions(s) if a != g.pass_action]
            g.play(s, int(rng.choice(moves)) if moves else g.pass_action)
    if policy != "uniform":
        assert seen_local > 0          # some positions had one forced local answer


def test_ko_policy_captures_the_last_move_in_atari():
    g = Go(7)
    s = position(g, SNARE, to_play=1)
    g.play(s, g.parse_move("D4", s))           # White plays into atari: its liberty is D3
    assert picks(g, s) == {"D3"}


def test_ko_policy_extends_a_group_in_atari():
    g = Go(7)
    s = position(g, """
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""", to_play=1)
    g.play(s, g.parse_move("E4", s))           # ataris D4; D3 gives it three liberties
    assert picks(g, s) == {"D3"}


def test_ko_policy_saves_by_capturing_first():
    g = Go(7)
    s = position(g, """
        . . . . . . .
        . . . . . . .
        . . X O . . .
        . X O X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""", to_play=1)
    g.play(s, g.parse_move("E4", s))           # ataris D4, whose neighbour C4 is in atari too
    assert picks(g, s) == {"C3"}


# White's C4 takes D4 by ko: Black may retake at D4 once one move has been played elsewhere.
KO = """
        . . . . . . .
        . . . . . . .
        . . X O . . .
        . X . X O . .
        . . X O . . .
        . . . . . . .
        . . . . . . ."""


def test_ko_rule_retakes_or_fills_a_fresh_ko():
    """The ko rule's move, drawn for many generator states: the ko point D4 exactly when the
    draw falls in the rule's 40 of 100, and only from the move after the ban to the fourth
    move after the capture; for White, who took the ko, D4 fills it."""
    from games.go import playout as gpl
    from games.rng import below, next_u64
    g = Go(7, playout_policy="ko")
    w = g.size + 2
    s = position(g, KO, to_play=1)
    play_all(g, s, "C4")
    assert g.board(s)[3, 3] == gb.EMPTY                     # D4 was taken: a ko
    states = [new_rng(i)[0] for i in range(200)]
    in_rate = [below(np.uint64(next_u64(x)), 100) < gpl.KO_RATE for x in states]
    assert 50 < sum(in_rate) < 110

    def chosen(state, colour):
        return [gpl.ko_move(state, w, colour, x)[0] == padded(g, "D4") for x in states]

    assert not any(chosen(s, gb.BLACK))                     # banned right after the capture
    play_all(g, s, "G7")                                    # Black's threat: the ban lifts
    assert chosen(s, gb.WHITE) == in_rate                   # White fills
    play_all(g, s, "G1")
    assert chosen(s, gb.BLACK) == in_rate                   # Black retakes
    d4, rng = g.vertex_to_action("D4"), new_rng(5)
    assert sum(int(go.playout_action(s, rng)) == d4 for _ in range(400)) > 140  # 40 % and more
    t = s.copy()
    t[gb.F_POLICY] = gb.POLICY_PATTERNS                    # without the ko rule
    assert sum(int(go.playout_action(t, rng)) == d4 for _ in range(400)) < 40
    play_all(g, s, "A7")                                    # the fourth move after C4
    assert not any(chosen(s, gb.WHITE))


def test_uniform_policy_does_not_answer_the_last_move():

    g = Go(7, playout_policy="uniform")
    s = position(g, SNARE, to_play=1)
    g.play(s, g.parse_move("D4", s))
    assert len(picks(g, s)) > 10


def test_self_atari_tests():
    g = Go(5)
    s = position(g, """
        . . . . .
        . . . . .
        O O O . .
        X X O . .
        . . O . .""")
    w = g.size + 2
    a1, b1, e5 = padded(g, "A1"), padded(g, "B1"), padded(g, "E5")
    for p in (a1, b1):          # Black: three stones left with one liberty
        assert gl.self_atari(s, w, p, gb.BLACK) and gl.bad_self_atari(s, w, p, gb.BLACK)
    # White A1: a lone stone in atari (captures nothing: Black still has B1) - a throw-in
    assert gl.self_atari(s, w, a1, gb.WHITE) and not gl.bad_self_atari(s, w, a1, gb.WHITE)
    # White B1 joins the wall C1-C2-C3-B3-A3, which keeps its liberties D1, D2, D3, A4, ...
    assert not gl.self_atari(s, w, b1, gb.WHITE)
    assert not gl.self_atari(s, w, e5, gb.BLACK)
    assert gl.two_liberties(s, w, padded(g, "D2"), gb.WHITE)   # joins the wall: D3, E2, D1...


def test_pattern_table_matches_a_hane_in_every_orientation():
    """MoGo's enclosing hane (X O X above the move, the row below empty) on a 7x7 board, in
    the four rotations of the diagram, with either colour as X."""
    g = Go(7)
    w = g.size + 2
    layouts = [("C5", "D5", "E5", "D4"), ("E5", "E4", "E3", "D4"),
               ("C3", "D3", "E3", "D4"), ("C5", "C4", "C3", "D4")]
    for x1, o, x2, move in layouts:
        for xs, os_ in (("black", "white"), ("white", "black")):
            s = g.initial_state()
            g.place_stones(s, [x1, x2], xs)
            g.place_stones(s, [o], os_)
            assert gp.PATTERN_TABLE[gp.neighbourhood(s, w, padded(g, move))] == 1
    s = g.initial_state()
    g.place_stones(s, ["C5", "E5"], "black")      # no O stone: not a hane
    assert gp.PATTERN_TABLE[gp.neighbourhood(s, w, padded(g, "D4"))] == 0


def test_no_pattern_matches_fewer_than_two_stones():
    """Every MoGo pattern has at least two stones, so neighbourhoods of open points with at
    most one stone never match."""
    table = gp.PATTERN_TABLE
    for i in range(8):
        for colour in (gb.EMPTY, gb.BLACK, gb.WHITE):
            assert table[colour << (2 * i)] == 0


def priors(game, state, vertices):
    actions = np.array([game.vertex_to_action(v) for v in vertices], dtype=np.int32)
    visits = np.zeros(len(actions), dtype=np.int32)
    value = np.zeros(len(actions), dtype=np.float32)
    go.prior(state, actions, visits, value)
    return {v: (int(n), float(x)) for v, n, x in zip(vertices, visits, value)}


def test_priors_on_an_open_board():
    """After Black E5 on 9x9: an even 20 playouts (10 won) everywhere; the first and second
    lines lose 20 and 10 more where no stone is within distance 2 (A1, B2, and E8 on the second
    line); points within distance 2 of E5 win 10 more; pass has none."""
    g = Go(9)
    s = g.initial_state()
    g.play(s, g.parse_move("E5", s))
    assert priors(g, s, ["A1", "B2", "C3", "E6", "E7", "E8", "D4", "pass"]) == {
        "A1": (40, 10.0), "B2": (30, 10.0), "C3": (20, 10.0), "E6": (30, 20.0),
        "E7": (30, 20.0), "E8": (30, 10.0), "D4": (30, 20.0), "pass": (0, 0.0)}
    g = Go(9, priors=False)
    s = g.initial_state()
    g.play(s, g.parse_move("E5", s))
    assert priors(g, s, ["A1", "E6"]) == {"A1": (0, 0.0), "E6": (0, 0.0)}


def test_priors_of_a_capture():
    g = Go(7)
    s = position(g, SNARE, to_play=1)
    g.play(s, g.parse_move("D4", s))
    # the capture of a lone stone in atari is 2 units won (games.go.assess), over the even
    # 20 (10 won), the 10 of a point next to D4 and the 20 of an enclosing hane
    assert priors(g, s, ["D3"]) == {"D3": (90, 80.0)}


LADDER = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . O . . . . .
        . . O X . . . . .
        . . . . O . . . .
        . . . . . . . . .
        . . . . . . . . ."""


def test_a_group_in_a_ladder_is_not_extended_and_a_ladder_breaker_is_seen():
    # White E4 ataris D4; D3 would give two liberties (C3, D2) and the ladder runs to the
    # lower left edge: D3, C3 (after D2), C2 (after B3), ... captured.
    g = Go(9)
    s = position(g, LADDER, to_play=1)
    g.play(s, g.parse_move("E4", s))
    w = g.size + 2
    assert go_ladder.ladder_captured(s, w, padded(g, "D3"), 1) is True
    board = np.empty(s[gb.F_HIST_AT], dtype=np.int64)
    assert gp.saving_moves(s, w, padded(g, "E4"), 1, board) == (gb.NO_POINT,) * 4  # not forced
    # A black stone on B2 breaks the ladder: D3 is played again.
    rows = LADDER.strip().splitlines()
    rows[7] = "        . X . . . . . . ."
    s = position(g, "\n".join(rows), to_play=1)
    g.play(s, g.parse_move("E4", s))
    assert go_ladder.ladder_captured(s, w, padded(g, "D3"), 1) is False
    assert picks(g, s) == {"D3"}
