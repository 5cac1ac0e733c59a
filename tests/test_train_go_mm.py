"""benchmarks/train_go_mm.py on two GNU Go teacher games (tests/data/go_teacher): the positions
it collects, the checkpoint it writes, and that the same data and seed give the same weights."""
import json
from pathlib import Path

import numpy as np
import pytest

import games
from benchmarks import train_go_mm as tg
from mcts.train import Checkpoint, load_weights

DATA = str(Path(__file__).resolve().parent / "data" / "go_teacher")


def meta(path):
    with np.load(path) as f:
        return json.loads(str(f["meta"]))["mm"]


def test_two_games_give_their_teacher_moves_and_a_loadable_checkpoint(tmp_path, capsys):
    """game-0000002: 3 random moves, 56 GNU Go moves of which 2 passes; game-0000006: 3
    random, 23 GNU Go moves of which 2 passes: 54 + 21 teacher positions, every teacher move
    a candidate. Seed 1 holds game 2 out."""
    out = tmp_path / "a.npz"
    assert tg.main(["--data", DATA, "--out", str(out), "--seed", "1"]) == 0
    m = meta(out)
    assert (m["teacher_moves"], m["not_candidates"]) == (75, 0)
    assert (m["train_positions"], m["held_out_positions"]) == (21, 54)
    assert [Path(g).name for g in m["held_out_games"]] == ["game-0000002.sgf"]
    assert m["converged"] and np.all(np.diff(m["objective"]) >= -1e-9)
    w = load_weights(str(out), games.get("go", size=19))    # what --playout-weights reads
    assert w.shape == (8754,) and np.all(w[[5, 8, 9]] == 0) and np.count_nonzero(w) > 20
    assert Checkpoint.load(str(out)).rounds == 0
    assert "2 games (1 to fit, 1 held out), 75 teacher moves" in capsys.readouterr().out


def test_the_same_data_and_seed_give_the_same_weights(tmp_path):
    runs = []
    for name, seed in (("a", 3), ("b", 3), ("c", 2)):
        out = tmp_path / f"{name}.npz"
        assert tg.main(["--data", DATA, "--out", str(out), "--seed", str(seed)]) == 0
        with np.load(out) as f:
            runs.append((f["weights"].tobytes(), meta(out)))
    (wa, ma), (wb, mb), (wc, mc) = runs
    assert wa == wb
    assert {k: v for k, v in ma.items() if k != "command"} == \
        {k: v for k, v in mb.items() if k != "command"}
    assert ma["held_out_games"] != mc["held_out_games"] and wa != wc


EYE = b"(;FF[4]GM[1]SZ[9]KM[7.5];B[ba];W[ii];B[ab];W[hi];B[bb];W[ih];B[aa])"


def test_an_eye_fill_is_no_candidate_and_bad_files_are_one_line(tmp_path, capsys):
    """Black's last move fills its own eye in the corner (a1 of SGF 'aa'): the uniform
    playout never plays it, so it is counted and left out."""
    (tmp_path / "eye.sgf").write_bytes(EYE)
    out = tmp_path / "eye.npz"
    assert tg.main(["--data", str(tmp_path), "--out", str(out)]) == 0
    m = meta(out)
    assert (m["teacher_moves"], m["not_candidates"], m["train_positions"]) == (7, 1, 6)
    (tmp_path / "bad.sgf").write_bytes(b"(;FF[4]SZ[9];B[ee];B[ff])")
    capsys.readouterr()
    assert tg.main(["--data", str(tmp_path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "bad.sgf" in err and err.count("\n") == 1
    assert tg.main(["--data", str(tmp_path / "none"), "--out", str(out)]) == 2
    assert tg.main(["--data", DATA, "--out", str(tmp_path / "no" / "x.npz")]) == 2


def test_a_temperature_divides_the_written_weights(tmp_path):
    """``--temperature 2`` writes exactly half of the fitted weights, records T, and keeps the
    fit's own held-out figures; a temperature out of range is refused in one line."""
    outs = {}
    for t in ("1", "2"):
        outs[t] = tmp_path / f"t{t}.npz"
        assert tg.main(["--data", DATA, "--out", str(outs[t]), "--temperature", t]) == 0
    w1, w2 = (Checkpoint.load(str(outs[t])).weights for t in ("1", "2"))
    assert np.count_nonzero(w1) > 20 and np.array_equal(w2, w1 / 2)
    assert meta(outs["2"])["temperature"] == 2.0
    assert meta(outs["2"])["held_out"] == meta(outs["1"])["held_out"]
    for bad in (["--temperature", "0"], ["--max-iterations", "-3"], ["--tol", "nan"]):
        with pytest.raises(SystemExit) as e:
            tg.main(["--data", DATA, "--out", str(tmp_path / "x.npz")] + bad)
        assert e.value.code == 2
