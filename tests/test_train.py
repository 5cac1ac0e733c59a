"""The actor-learner loop (mcts.train) and the `train` command, on a game with a known rule."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conformance_games.numbers_features import NumbersWithFeatures
from mcts.train import Checkpoint, TrainConfig, load_weights, new_checkpoint, train

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = dict(playouts=200, episodes=8, steps=300, seed=5)


def run(tmp_path, name, rounds=2, **kwargs):
    ck = new_checkpoint(NumbersWithFeatures(length=3), TrainConfig(**CONFIG))
    return train(ck, str(tmp_path / name), rounds=rounds, **kwargs)


def test_training_learns_the_winning_last_moves_of_numbers(tmp_path):
    """On the first player's last ply, numbers leading to remainder 0 or 1 win (ids 4, 5)
    and 2 or 3 do not (ids 6, 7): the search proves it, and the learner follows."""
    w = run(tmp_path, "w.npz", rounds=3).weights
    assert min(w[4], w[5]) > 2.0 and max(w[6], w[7]) < -2.0, np.round(w, 2)


def test_a_run_is_the_same_in_one_process_in_two_and_resumed(tmp_path):
    one = run(tmp_path, "one.npz", rounds=2)
    two = run(tmp_path, "two.npz", rounds=2, workers=2)
    assert np.array_equal(one.weights, two.weights)
    assert [h["samples"] for h in one.history] == [h["samples"] for h in two.history]
    half = run(tmp_path, "half.npz", rounds=1)
    resumed = train(Checkpoint.load(str(tmp_path / "half.npz")), str(tmp_path / "half.npz"),
                    rounds=1)
    assert resumed.rounds == 2 and np.array_equal(resumed.weights, one.weights)
    assert np.array_equal(load_weights(str(tmp_path / "one.npz"), NumbersWithFeatures()),
                          one.weights)


def test_a_run_on_ray_actors_gives_the_same_weights(tmp_path):
    ray = pytest.importorskip("ray", reason="Ray not installed (the ray extra)")
    local = run(tmp_path, "local.npz", rounds=2)
    try:
        remote = run(tmp_path, "ray.npz", rounds=2, workers=2, ray_address="auto")
    finally:
        ray.shutdown()
    assert np.array_equal(local.weights, remote.weights)


def test_weights_of_another_game_or_a_bad_file_are_one_line_errors(tmp_path):
    run(tmp_path, "numbers.npz", rounds=1)
    from games.tictactoe import TicTacToe
    with pytest.raises(ValueError, match="not for tictactoe"):
        load_weights(str(tmp_path / "numbers.npz"), TicTacToe())
    bad = tmp_path / "bad.npz"
    bad.write_text("not numpy")
    with pytest.raises(ValueError, match="not a playout-weights file"):
        Checkpoint.load(str(bad))


def cli(*argv, timeout=300):
    return subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), *argv],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def one_line_error(proc, *phrases):
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("error")]
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


def test_train_command_errors_are_one_line(tmp_path):
    one_line_error(cli("train", "tictactoe", "--rounds", "1", "--out", str(tmp_path / "t.npz")),
                   "describes no move features")
    one_line_error(cli("train", "connect4", "--rounds", "1", "--out", str(tmp_path / "t")),
                   f"cannot write {tmp_path / 't'}: name a .npz file (e.g. {tmp_path / 't.npz'})")
    one_line_error(cli("train", "connect4", "--resume", "--out", str(tmp_path / "none.npz")),
                   "does not exist")
    one_line_error(cli("train", "connect4", "--minutes", "0"), "must be a positive number")
    bad = tmp_path / "bad.npz"
    bad.write_text("x")
    one_line_error(cli("play", "connect4", "--playout-weights", str(bad)), "--playout-weights",
                   "not a playout-weights file")
    one_line_error(cli("play", "tictactoe", "--playout-weights", str(tmp_path / "no.npz")),
                   f"argument --playout-weights: cannot read {tmp_path / 'no.npz'}: No such file "
                   "or directory")


def test_train_then_analyze_with_the_weights(tmp_path):
    """`train` writes a checkpoint; it refuses to overwrite it without --resume; `analyze`
    plays with its weights and finds Connect Four's immediate wins (columns 3 and 7)."""
    out = str(tmp_path / "c4.npz")
    proc = cli("train", "connect4", "--rounds", "1", "--episodes", "2", "--playouts", "100",
               "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "holds round 1" in proc.stdout and os.path.exists(out)
    one_line_error(cli("train", "connect4", "--rounds", "1", "--out", out), "give --resume")
    proc = cli("train", "connect4", "--rounds", "1", "--episodes", "2", "--resume", "--out", out)
    assert proc.returncode == 0 and "holds round 2" in proc.stdout, proc.stderr
    proc = cli("analyze", "connect4", "--moves", "445566", "--playouts", "2000",
               "--threads", "1", "--playout-weights", out, "--json")
    assert proc.returncode == 0, proc.stderr
    assert '"best": "3"' in proc.stdout or '"best": "7"' in proc.stdout, proc.stdout


def test_sharper_targets_square_the_shares_at_temperature_one_half():
    from mcts.learn import FeatureRows
    from mcts.train import sharpen
    rows = FeatureRows(np.zeros((5, 1), np.int32), np.array([0, 0, 0, 3, 3]),
                       np.array([0.5, 0.3, 0.2, 0.75, 0.25]))
    out = sharpen(rows, 0.5).target
    assert out == pytest.approx([25 / 38, 9 / 38, 4 / 38, 0.9, 0.1])
    assert sharpen(rows, 1.0) is rows


@pytest.mark.parametrize("name, features", [("connect4", 16), ("go", 8754), ("othello", 19)])
def test_the_shipped_weights_load_for_their_game(name, features):
    """games/weights/*.npz were saved before the games moved into folders of their own."""
    import games
    from pathlib import Path
    path = Path(__file__).parent.parent / "games" / "weights" / f"{name}.npz"
    assert load_weights(str(path), games.get(name)).shape == (features,)
