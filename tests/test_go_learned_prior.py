"""The learned tree prior of Go (``Go(prior_learned=True)``, games.go_prior) and the script
that fits it (benchmarks/go_prior_fit.py)."""
import json
import math
import os

import numpy as np
import pytest

from benchmarks import go_prior_fit
from frontends.match import GNUGO
from games import go, go_prior as gpr
from games.contract import ILLEGAL
from games.go_features import FEATURE_SLOTS, NUM_FEATURES, move_features
from games.go_game import Go
from mcts.learn import FeatureRows, probabilities
from tests.test_go_policy import priors
from tests.test_go_rules import position

BOARD = """
. . . . . . . . .
. . . . . . . . .
. . X X O . . . .
. . O X O . . . .
. . O X O . . . .
. . . X O . . . .
. . . . . . . . .
. . . . . . . X .
. . . . . . X . X"""          # 14 stones; H1 is Black's own eye and White's suicide


def setup():
    g = Go(9, prior_learned=True)
    return g, position(g, BOARD, to_play=1)


def test_learned_probabilities_are_the_learners_softmax():
    """The compiled softmax gives, for every candidate of ``move_features``, the probability
    mcts.learn.probabilities computes in numpy from the same rows and the shipped weights."""
    g, s = setup()
    cand = np.zeros(82, dtype=np.int64)
    feats = np.full((82, FEATURE_SLOTS), -1, dtype=np.int32)
    m = move_features(s, cand, feats)
    rows = FeatureRows(feats[:m].copy(), np.zeros(m, dtype=np.int64), np.full(m, 1.0 / m))
    expected = probabilities(gpr.LEARNED_WEIGHTS, rows)
    got_cand = np.zeros(82, dtype=np.int64)
    got = np.zeros(82)
    assert gpr.learned_probabilities(s, got_cand, got) == m
    assert list(got_cand[:m]) == list(cand[:m])
    assert np.allclose(got[:m], expected, rtol=0, atol=1e-12)
    assert abs(got[:m].sum() - 1) < 1e-12
    # the 67 empty points less White's suicide on H1; pass is no candidate
    assert m == 66 and g.vertex_to_action("H1") not in set(cand[:m]) and 81 not in set(cand[:m])


def test_learned_prior_adds_sqrt_probability_won_playouts():
    """Each point gains LEARNED_EQEX * sqrt(p) won virtual playouts, rounded, over the same
    game without the learned prior; pass and an own eye (Black's H1, Black to move) gain none."""
    g, s = setup()
    plain = Go(9)
    cand = np.zeros(82, dtype=np.int64)
    probs = np.zeros(82)
    m = gpr.learned_probabilities(s, cand, probs)
    p = {g.action_to_vertex(int(a)): probs[i] for i, a in enumerate(cand[:m])}
    points = ["C7", "E3", "F5", "A1", "J9", "pass"]
    with_it = priors(g, s, points)
    without = priors(plain, position(plain, BOARD, to_play=1), points)
    for v in points:
        gain = math.floor(gpr.LEARNED_EQEX * math.sqrt(p[v]) + 0.5) if v in p else 0
        assert with_it[v][0] - without[v][0] == gain
        assert with_it[v][1] - without[v][1] == gain
    assert with_it["pass"] == without["pass"] == (0, 0.0)
    s_black = position(g, BOARD, to_play=0)
    bonus = np.zeros(82, dtype=np.int64)
    gpr.learned_bonus(s_black, bonus)
    m = gpr.learned_probabilities(s_black, cand, probs)
    expected = np.zeros(82, dtype=np.int64)
    expected[cand[:m]] = np.floor(gpr.LEARNED_EQEX * np.sqrt(probs[:m]) + 0.5)
    assert m == 66 and g.vertex_to_action("H1") not in set(cand[:m])
    assert list(bonus) == list(expected) and bonus[81] == 0


def test_learned_prior_is_off_by_default_and_needs_priors():
    g = Go(9)
    assert g.params["prior_learned"] is False
    s = position(Go(9, prior_learned=True, priors=False), BOARD, to_play=1)
    visits = np.zeros(3, dtype=np.int32)
    value = np.zeros(3, dtype=np.float32)
    go.prior(s, np.array([2, 40, 81], dtype=np.int32), visits, value)
    assert visits.sum() == 0 and value.sum() == 0


def test_weights_file_of_the_wrong_shape_is_refused(tmp_path):
    path = tmp_path / "w.npz"
    np.savez(path, weights=np.zeros(NUM_FEATURES - 1))
    with pytest.raises(ValueError, match=f"the features need {NUM_FEATURES}"):
        gpr.load_learned_weights(str(path))
    with pytest.raises(OSError):
        gpr.load_learned_weights(str(tmp_path / "missing.npz"))
    assert gpr.load_learned_weights().shape == (NUM_FEATURES,)


def test_feature_rows_take_the_played_move_as_target():
    """Two moves: E5 on the empty board (81 candidates, E5 the target), then D4 (80)."""
    rows = go_prior_fit.feature_rows([["e5", "d4", "pass"]], 9)
    assert rows.count == 2 and len(rows.group) == 81 + 80
    assert rows.target.sum() == 2 and set(rows.target) == {0.0, 1.0}
    first = rows.feats[:81][rows.target[:81] == 1][0]
    g = Go(9)
    s = g.initial_state()
    cand = np.zeros(82, dtype=np.int64)
    feats = np.full((82, FEATURE_SLOTS), -1, dtype=np.int32)
    move_features(s, cand, feats)
    assert list(first) == list(feats[list(cand[:81]).index(g.vertex_to_action("E5"))])


def test_fit_command_writes_weights_and_refuses_bad_files(tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(json.dumps(m) for m in
                               [["e5", "d4", "d5"], ["c3", "g7", "e5"], ["e5", "e4"]]) + "\n")
    out = tmp_path / "w.npz"
    assert go_prior_fit.main(["fit", str(games), "--out", str(out), "--held-out", "1",
                              "--steps", "20"]) == 0
    assert gpr.load_learned_weights(str(out)).any()
    assert "held-out positions from 1 games" in capsys.readouterr().out
    assert go_prior_fit.main(["fit", str(tmp_path / "none.jsonl"), "--out", str(out)]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[not json\n")
    assert go_prior_fit.main(["fit", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "cannot read" in err


@pytest.mark.skipif(not os.path.exists(GNUGO), reason="GNU Go is not installed")
def test_games_command_records_an_engines_self_play(tmp_path):
    """GNU Go at level 1 plays both colours for 0.05 minutes: every line is a game of GTP
    vertices that replays legally on our board."""
    path = tmp_path / "games.jsonl"
    assert go_prior_fit.main(["games", str(path), "--engine",
                              f"{GNUGO} --mode gtp --level 1 --chinese-rules",
                              "--minutes", "0.05"]) == 0
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert games and all(len(moves) > 10 for moves in games)
    g = Go(9)
    for moves in games:
        s = g.initial_state()
        for vertex in moves:
            assert go.apply_action(s, g.parse_move(vertex.upper(), s)) != ILLEGAL


def test_shipped_weights_are_those_the_committed_games_give(tmp_path):
    """Refitting with the command of benchmarks/data/go_prior/README.md reproduces
    games/weights/go-prior.npz (Adam on the full batch is deterministic)."""
    data = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "data", "go_prior",
                        "pachi5000-selfplay-9x9.jsonl")
    out = tmp_path / "w.npz"
    assert go_prior_fit.main(["fit", data, "--out", str(out)]) == 0
    assert np.allclose(gpr.load_learned_weights(str(out)), gpr.LEARNED_WEIGHTS,
                       rtol=0, atol=1e-6)


def test_fit_refuses_special_files_and_bad_games(tmp_path, capsys):
    """/dev/zero (never read without bound), a folder, a line that is not a list of vertices
    and an off-board vertex each end in one error line and exit code 2."""
    bad_vertex = tmp_path / "v.jsonl"
    bad_vertex.write_text('["e5", "zz"]\n')
    not_list = tmp_path / "d.jsonl"
    not_list.write_text('{"a": 1}\n')
    for path in ["/dev/zero", str(tmp_path), str(bad_vertex), str(not_list)]:
        assert go_prior_fit.main(["fit", path, "--out", str(tmp_path / "w.npz")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("error: ") for line in err)
    assert "not a regular file" in err[0] and "'ZZ' is not a vertex" in err[2]
    assert "not a list of vertices" in err[3]
