"""Self-play data: shapes, dtypes, consistency by replay, determinism, .npz, worker processes
and a real Ray run on a local 2-CPU cluster."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import games
from games.contract import ONGOING
from mcts.selfplay import SelfPlayConfig, collect, final_rewards, load_npz, save_npz, summary

ROOT = Path(__file__).parent.parent
C4 = games.get("connect4")
MCTS_CFG = SelfPlayConfig(policy="mcts", playouts=300, temperature=1.0, dirichlet_alpha=0.3)


def check_consistent(game, data):
    """Replaying each episode's actions from the initial state reproduces everything."""
    encode = getattr(game, "observation", lambda s: s)
    n, total = len(data["lengths"]), int(data["lengths"].sum())
    first = encode(game.initial_state())
    s_len = first.shape[0]
    assert data["states"].shape == (total, s_len)
    assert data["states"].dtype == first.dtype
    assert data["actions"].shape == (total,) and data["actions"].dtype == np.int32
    assert data["players"].dtype == np.int8
    assert data["rewards"].shape == (total, 2) and data["rewards"].dtype == np.float32
    assert data["dones"].dtype == bool and data["dones"].sum() == n
    assert data["policy_targets"].shape == (total, game.num_actions)
    np.testing.assert_allclose(data["policy_targets"].sum(axis=1), 1.0, rtol=1e-5)
    assert data["final_states"].shape == (n, s_len)
    for i in range(n):
        start, length = int(data["episode_starts"][i]), int(data["lengths"][i])
        state = game.initial_state()
        for t in range(start, start + length):
            assert np.array_equal(encode(state), data["states"][t])
            assert game.to_play(state) == data["players"][t]
            assert data["policy_targets"][t, data["actions"][t]] > 0
            st = game.play(state, int(data["actions"][t]))
            last = t == start + length - 1
            assert data["dones"][t] == last
            expected = final_rewards(st) if last else (0.0, 0.0)
            assert tuple(data["rewards"][t]) == expected
        assert game.status(state) == data["outcomes"][i] != ONGOING
        assert np.array_equal(encode(state), data["final_states"][i])


@pytest.mark.parametrize("name", ["connect4", "tictactoe", "othello", "go"])
def test_random_episodes_are_consistent(name):
    game = games.get(name, **({"size": 7} if name == "go" else {}))
    data = collect(game, 30, SelfPlayConfig(policy="random"), seed=5)
    check_consistent(game, data)
    assert np.isnan(data["values"]).all()


def test_mcts_episodes_are_consistent_and_carry_search_targets():
    data = collect(C4, 3, MCTS_CFG, seed=2)
    check_consistent(C4, data)
    assert ((data["values"] >= 0) & (data["values"] <= 1)).all()


def test_same_seed_same_data_different_seed_different_data():
    a = collect(C4, 40, seed=9)
    b = collect(C4, 40, seed=9)
    c = collect(C4, 40, seed=10)
    assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)
    assert not np.array_equal(a["lengths"], c["lengths"]) or \
        not np.array_equal(a["actions"], c["actions"])
    m1, m2 = collect(C4, 2, MCTS_CFG, seed=3), collect(C4, 2, MCTS_CFG, seed=3)
    assert all(np.array_equal(m1[k], m2[k], equal_nan=True) for k in m1)


def test_worker_processes_give_the_same_data():
    one = collect(C4, 200, seed=4)
    two = collect(C4, 200, seed=4, workers=2)
    assert all(np.array_equal(one[k], two[k], equal_nan=True) for k in one)


def test_npz_round_trip(tmp_path):
    data = collect(C4, 10, seed=1)
    save_npz(tmp_path / "d.npz", data)
    back = load_npz(tmp_path / "d.npz")
    assert set(back) == set(data)
    assert all(np.array_equal(back[k], data[k], equal_nan=True) for k in data)


def test_summary_counts_every_episode():
    data = collect(C4, 100, seed=1)
    s = summary(data)
    assert s["first_wins"] + s["second_wins"] + s["draws"] == 100
    assert s["mean_length"] == pytest.approx(data["lengths"].mean())


def test_selfplay_command_writes_npz(tmp_path):
    out = tmp_path / "sp.npz"
    p = subprocess.run([sys.executable, "cli.py", "selfplay", "tictactoe", "--episodes", "50",
                        "--out", str(out), "--seed", "3"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "50 episodes" in p.stdout and "written to" in p.stdout
    data = load_npz(out)
    check_consistent(games.get("tictactoe"), data)
    assert np.array_equal(data["seeds"], collect(games.get("tictactoe"), 50, seed=3)["seeds"])


def test_ray_local_cluster_gives_the_same_data():
    ray = pytest.importorskip("ray", reason="Ray not installed (the ray extra)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        local = collect(C4, 60, seed=6)
        remote = collect(C4, 60, seed=6, workers=2, ray_address="auto")
        assert all(np.array_equal(local[k], remote[k], equal_nan=True) for k in local)
        m_local = collect(C4, 2, MCTS_CFG, seed=6)
        m_remote = collect(C4, 2, MCTS_CFG, seed=6, workers=2, ray_address="auto")
        assert all(np.array_equal(m_local[k], m_remote[k], equal_nan=True) for k in m_local)
    finally:
        ray.shutdown()
