"""Ownership from the search (issue 53): the contract's optional ``ownership`` kernel, its sums
in the search (``SearchResult.ownership``), Go's kernel against GNU Go's dead stones, the
kata-analyze stream's map, and final_status_list / final_score from the same statistics."""
import json
from pathlib import Path

import numpy as np
import pytest

from games.go import Go
from games.go import score as go_score
from frontends.go_ownership import FINAL_PLAYOUTS
from frontends.gtp import GtpEngine
from frontends.player import PlayerConfig
from mcts import MCTS, SearchConfig

from conformance_games.numbers import Numbers
from conformance_games.numbers_owned import NumbersOwned
from test_cli import run
from test_gtp_live import drive

DATA = Path(__file__).parent / "data"

# GNU Go 3.8's final_status_list (--chinese-rules) on the finished games of tests/data
# (README there): {file: (alive, dead)}.
GNU_GO = {
    "final_status/sacrifice-nakade.sgf": (
        "A9 B9 C9 D9 E9 D8 E8 F8 E7 E6 G9 A8 B8 C8 B7 J8 J7 D7 C6 D6 C5 G7 G6 F5 G5 G4 H4 A5 "
        "E5 D4 E4 F4 D3 E3 C2 D2 E2 D1 B4 B3 F3 F2 G2 H2 E1 F1 J3 A1 J1",
        "H9 G8 H8 H7 H6 H5 J5 J4 F6"),
    "final_status/sacrifice-throw-in.sgf": (
        "A9 C9 D9 E9 E8 D7 E7 D6 H9 B8 A7 B7 C8 D8 C7 A6 B6 C6 A5 B5 G7 H7 J7 H6 F6 E5 F5 G5 "
        "F4 G4 E3 F3 F2 G2 G1 C4 D3 D2 E2 E1 F1",
        "F9 F8 G8 H8 J8 F7 D5 H5 E4"),
}
# Stones whose GNU Go status the bare ownership does not give: the corner chains that look
# like a seki to the playouts (the fills of games.go.score.resolve_sekis decide them:
# test_go_score), and two white stones of the throw-in game that GNU Go reads as captured
# by D4 (a fight the playouts lose for Black; settle_counts' playouts called them alive too).
NOT_BY_SIGN = {"final_status/sacrifice-nakade.sgf": "H9 G8 H8 H7 H6 H5 J5 J4",
               "final_status/sacrifice-throw-in.sgf": "F9 F8 G8 H8 J8 F7 D5 E4"}


def gtp(path=None, rules="chinese"):
    e = GtpEngine({"size": 9, "rules": rules}, PlayerConfig(threads=1, playouts=300),
                  log=None)
    e.ready.wait()
    if path:
        assert e.handle(f"loadsgf {DATA / path}").startswith("=")
    return e


@pytest.mark.parametrize("name", sorted(GNU_GO))
def test_search_ownership_gives_gnu_gos_dead_and_living_stones(name):
    e = gtp(name)
    g, s = e.session.game, e.session.state
    own, _ = e.session.judge()(s, FINAL_PLAYOUTS, True)
    board = g.board(s)
    skip = set(NOT_BY_SIGN[name].split())
    alive, dead = (set(x.split()) for x in GNU_GO[name])
    assert alive | dead == {g.action_to_vertex(int(a)) for a in np.flatnonzero(board.ravel())}
    for vertex in (alive | dead) - skip:
        r, c = divmod(g.vertex_to_action(vertex), g.size)
        colour = 1.0 if board[r, c] == 1 else -1.0
        want = colour if vertex in alive else -colour
        assert own[r, c] * want > 0.8, (vertex, own[r, c])
    # and the statuses judged from the same statistics are GNU Go's, but for those two stones
    listed = e.handle("final_status_list dead")[2:].split()
    assert set(listed) == dead - ({"D5", "E4"} if "throw-in" in name else set())


def test_final_status_and_final_score_agree_on_a_disputed_game():
    e = gtp("go_disputed/semeai-or-seki.sgf")
    dead = e.handle("final_status_list dead")[2:].split()
    score = e.handle("final_score")[2:]
    g, s = e.session.game, e.session.state
    b, w = go_score.area_of(go_score.without(g.board(s), [g.vertex_to_action(v) for v in dead]))
    assert score == go_score.result_string(b - w - g.effective_komi(s))
    # GNU Go calls the white chain dead (B+33.5); the fills read it as a seki, as before
    assert (score, dead) == ("W+5.5", ["B9", "A6"])
    assert e.handle("final_status_list seki").split()[:3] == ["=", "F9", "G9"]
    assert e.handle("final_status_list dead")[2:].split() == dead     # kept per position


def test_final_status_is_the_same_for_the_same_seed():
    path = DATA / "final_status" / "sacrifice-nakade.sgf"
    answers = set()
    for _ in range(2):
        e = gtp()
        e.handle(f"loadsgf {path}")
        answers.add(e.handle("final_status_list alive"))
    assert len(answers) == 1


def test_a_search_sums_the_kernels_ownership_exactly():
    # Numbers of one ply: every simulation ends at a child of the root, on the number picked
    # (0, 1 win for the first player, 2 for the second, 3 a draw).
    game = NumbersOwned(actions=4, length=1)
    r = MCTS(game, SearchConfig(seed=1, threads=1, ownership=True, solver=False),
             log=None).search(
        game.initial_state(), playouts=100)
    visits = {c.action: c.visits for c in r.children}
    assert r.ownership_playouts == r.playouts == 100 == sum(visits.values())
    assert r.ownership.tolist() == [visits[0] / 100, visits[1] / 100, -visits[2] / 100, 0.0]
    assert r.neutral.tolist() == [0.0, 0.0, 0.0, visits[3] / 100]
    # a game without the kernel searches as before and reports none
    plain = MCTS(Numbers(actions=4, length=1),
                 SearchConfig(seed=1, threads=1, ownership=True, solver=False),
                 log=None).search(Numbers(actions=4, length=1).initial_state(), playouts=100)
    assert (plain.ownership, plain.neutral, plain.ownership_playouts) == (None, None, 0)
    assert [(c.action, c.visits) for c in plain.children] == \
        [(c.action, c.visits) for c in r.children]


def test_ownership_is_kept_while_resuming_and_emptied_for_a_new_root():
    g = Go(size=9)
    s = g.initial_state()
    e = MCTS(g, SearchConfig(seed=2, threads=1, ownership=True), log=None)
    first = e.search(s, playouts=300)
    more = e.search(s, playouts=200, resume=True)
    assert (first.ownership_playouts, more.ownership_playouts) == (300, 500)
    assert not np.array_equal(first.ownership, more.ownership)
    e.advance(40)                                   # E5, then the reused subtree's root
    after = g.initial_state()
    g.play(after, 40)
    assert e.search(after, playouts=100).ownership_playouts == 100


@pytest.mark.parametrize("size, playouts, best, visits, value", [
    (9, 2000, "B6", [("B6", 130), ("F4", 122), ("D4", 113), ("F3", 101)], 0.446154),
    (19, 500, "P7", [("P7", 11), ("D12", 9), ("R16", 9), ("E12", 7)], 0.636364)])
def test_the_option_changes_nothing_in_the_search(size, playouts, best, visits, value):
    # The figures are those of main before issue 53 (commit a61a230), seed 7, one thread.
    g = Go(size=size)
    s = g.initial_state()
    g.play(s, g.vertex_to_action("E5" if size == 9 else "Q16"))
    for on in (False, True):
        r = MCTS(g, SearchConfig(seed=7, threads=1, ownership=on), log=None).search(
            s, playouts=playouts)
        assert (r.move, [(c.move, c.visits) for c in r.children[:4]], round(r.value, 6)) == \
            (best, visits, value)
        assert r.ownership_playouts == (playouts if on else 0)


def test_kata_analyze_ownership_is_the_searchs_and_grows_line_by_line():
    e = gtp(rules="tromp-taylor")
    session = e.session
    shown = []
    original = session.ownership_of

    def record(result):
        m = original(result)
        shown.append((result.ownership_playouts, result.playouts, m.copy()))
        return m
    session.ownership_of = record
    replies = drive(e, [("play b E5", 0), ("kata-analyze w 10 ownership true", 1.2),
                        ("stop", 0), ("quit", 0)])
    lines = replies[1].split("\n")[1:]
    assert len(lines) >= 3 and len(shown) == len(lines)
    for line, (_, _, m) in zip(lines, shown):        # White to move: signs flipped
        assert line.split(" ownership ")[1] == " ".join(f"{-v:.4f}" for v in m.ravel())
    counted = [c for c, _, _ in shown]
    assert counted == sorted(counted) and counted[0] < counted[-1]    # one tree, growing
    # every playout of the tree counted, but one that reaches the move cap (rare: kos)
    assert all(0.99 * p <= c <= p for c, p, _ in shown)
    assert not np.array_equal(shown[0][2], shown[-1][2])
    assert session.ownership is False                # off again after the stream


def test_mcts_ownership_shows_the_last_searchs_map_or_searches_with_it():
    e = gtp(rules="tromp-taylor")
    e.handle("play b E5")
    e.handle("genmove w")                            # a search without the ownership sums
    assert e.session.last[1].ownership is None
    rows = e.handle("mcts-ownership")[2:].split("\n")
    last = e.session.last[1]
    assert last.ownership_playouts == last.playouts == 300
    assert rows == [" ".join(f"{v:.2f}" for v in row) for row in e.session.ownership_of(last)]


def test_play_analyze_and_gtp_count_alike(tmp_path):
    """One count: `play`'s `score`, `analyze`'s and GTP's `final_score` judge dead stones by
    the same search statistics, the same seed giving the same count (issue 53's trial:
    `play` called a white stone of this sparse opening dead where GTP did not). In so
    unsettled a position a stone's status hangs on the seed: all three take seed 5."""
    moves = "C7 C3 G7 G3 E5 E7 C5 G5"
    flags = ["--playouts", "300", "--threads", "1", "--seed", "5", "--komi", "6.5"]
    script = "".join(f"play {'bw'[i % 2]} {v}\n" for i, v in enumerate(moves.split()))
    g = run("gtp", *flags, stdin=script + "final_status_list dead\nfinal_score\nquit\n")
    replies = g.stdout.split("\n\n")
    dead, score = replies[8][2:].split(), replies[9][2:]
    text = f"({len(dead)} dead stone{'' if len(dead) == 1 else 's'} removed)"
    p = run("play", "go", "--moves", moves, *flags, "--sgf-dir", str(tmp_path),
            stdin="score\nquit\n")
    [line] = [x for x in p.stdout.splitlines() if "Chinese count" in x]
    assert text in line and line.endswith(f": {score}")
    q = run("analyze", "go", "--moves", moves, *flags, "--json")
    counted = json.loads(q.stdout)["score"]
    assert text in counted and counted.endswith(f": {score}")
