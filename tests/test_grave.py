"""GRAVE (Cazenave 2015, "Generalized rapid action value estimation"): a node with few
simulations chooses among its children with the AMAF statistics of a better-sampled ancestor
where the same player moves (mcts.rave.grave_reference and select_child_rave)."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import games
from mcts import MCTS, SearchConfig
from mcts.search import load_kernels
from games.contract import ONGOING

GO = games.get("go", size=9, komi=7.5)
ROOT = pathlib.Path(__file__).resolve().parent.parent
A_COUNT = 3                     # actions 0..2 in these hand-made trees


def _tree():
    """Node 0 (the reference: 1,000 simulations) with children 1 and 2 (actions 0 and 1),
    whose AMAF means are 0.3 and 0.7 over 1,000 samples each; node 3 (10 simulations, the
    same player to move) with children 4, 5, 6 (actions 0, 1, 2), each 10 visits of mean 0.5
    and AMAF means 0.9, 0.1 and 0.6 over 20 samples."""
    i32 = lambda *v: np.array(v, dtype=np.int32)    # noqa: E731
    f32 = lambda *v: np.array(v, dtype=np.float32)  # noqa: E731
    first_child = i32(1, -1, -1, 4, -1, -1, -1)
    num_children = i32(2, 0, 0, 3, 0, 0, 0)
    action = i32(-1, 0, 1, 2, 0, 1, 2)
    mover = np.array([1, 0, 0, 1, 0, 0, 0], dtype=np.int8)
    status = np.full(7, ONGOING, dtype=np.int8)
    visits = np.array([1000, 500, 500, 10, 10, 10, 10], dtype=np.int64)
    value_sum = np.array([500.0, 250.0, 250.0, 5.0, 5.0, 5.0, 5.0])
    amaf_visits = i32(0, 1000, 1000, 0, 20, 20, 20)
    amaf_value = f32(0.0, 300.0, 700.0, 0.0, 18.0, 2.0, 12.0)
    zeros_i, zeros_f = np.zeros(7, dtype=np.int32), np.zeros(7, dtype=np.float32)
    return dict(first_child=first_child, num_children=num_children, action=action,
                mover=mover, status=status, visits=visits, value_sum=value_sum,
                amaf_visits=amaf_visits, amaf_value=amaf_value, prior_visits=zeros_i,
                prior_value=zeros_f, own_mover=zeros_f, own_winner=zeros_f)


def _select(t, ref, ref_child, ref_owner):
    sel = load_kernels(GO, log=None).select_child_rave
    return sel(3, 0.0, 1000.0, False, False, 0.0, 0.0, t["first_child"], t["num_children"],
               t["action"], t["mover"], t["status"], t["status"], t["visits"],
               t["value_sum"], t["amaf_visits"], t["amaf_value"], t["prior_visits"],
               t["prior_value"], t["own_mover"], t["own_winner"], ref, ref_child, ref_owner)


def test_reference_found_and_indexed_per_player():
    """With ref 50: nodes 0 (1,000 simulations) is its own reference and becomes the
    candidate for player 0's moves; node 3 (10) then gets node 0, whose children are indexed
    by action for player 0 only (entries 0 and 1; player 1's half untouched)."""
    k = load_kernels(GO, log=None)
    t = _tree()
    cand = np.full(2, -1, dtype=np.int64)
    filled = np.full(2, -1, dtype=np.int64)
    ref_child = np.zeros(2 * A_COUNT, dtype=np.int64)
    ref_owner = np.full(2 * A_COUNT, -1, dtype=np.int64)
    args = (t["first_child"], t["num_children"], t["action"], t["mover"], t["visits"],
            ref_child, ref_owner)
    assert k.grave_reference(3, 50.0, cand, filled, *args) == -1     # no candidate yet
    assert k.grave_reference(0, 50.0, cand, filled, *args) == -1     # its own statistics
    assert list(cand) == [0, -1]
    assert k.grave_reference(3, 50.0, cand, filled, *args) == 0
    assert list(ref_child[:2]) == [1, 2] and list(ref_owner) == [0, 0, -1, -1, -1, -1]
    assert list(filled) == [0, -1]
    assert k.grave_reference(3, 5.0, cand, filled, *args) == -1      # 10 >= 5: its own


def test_selection_reads_the_reference_amaf_values():
    """Hand schedule, k = 1000: at 10 visits b = sqrt(1000 / 1030) = 0.985, so the AMAF
    means decide. Node 3's own pick action 0 (AMAF 0.9); with node 0 as the reference,
    actions 0 and 1 read 0.3 and 0.7 and action 2, which node 0 lacks, keeps its own 0.6:
    action 1 (child 5)."""
    t = _tree()
    ref_child = np.array([1, 2, 0, 0, 0, 0], dtype=np.int64)
    ref_owner = np.array([0, 0, -1, -1, -1, -1], dtype=np.int64)
    assert _select(t, -1, ref_child, ref_owner) == 4
    assert _select(t, 0, ref_child, ref_owner) == 5
    stale = np.array([7, 7, -1, -1, -1, -1], dtype=np.int64)      # indexed for another node
    assert _select(t, 0, ref_child, stale) == 4


def test_grave_search_finds_the_capture_and_is_reproducible():
    """5x5: White's C3 D3 have one liberty, E3; Black captures with GRAVE as without. The
    same seed gives the same visit counts."""
    game = games.get("go", size=5, komi=0.5)
    state = game.initial_state()
    game.set_up(state, black=["B3", "C2", "D2", "C4", "D4"], white=["C3", "D3"],
                next_player="black")
    runs = [MCTS(game, SearchConfig(seed=1, rave_ref=50, threads=1), log=None)
            .search(state, playouts=5_000) for _ in range(2)]
    assert runs[0].move == "E3"
    assert runs[0].children == runs[1].children


def test_ref_of_one_is_plain_rave():
    """Every node the descent chooses from has at least one simulation, so with ref 1 each
    is its own reference: the same search as without GRAVE, visit for visit."""
    state, _ = GO.play_record("E5 E4 D4")
    plain = MCTS(GO, SearchConfig(seed=5, threads=1), log=None).search(state, playouts=2_000)
    one = MCTS(GO, SearchConfig(seed=5, threads=1, rave_ref=1), log=None).search(
        state, playouts=2_000)
    assert plain.children == one.children


def test_grave_changes_the_search():
    """The reference statistics are read: on the empty 9x9 board the visit counts differ
    from plain RAVE's with the same seed."""
    state = GO.initial_state()
    plain = MCTS(GO, SearchConfig(seed=3, threads=1), log=None).search(state, playouts=3_000)
    grave = MCTS(GO, SearchConfig(seed=3, threads=1, rave_ref=50), log=None).search(
        state, playouts=3_000)
    assert plain.children != grave.children


@pytest.mark.parametrize("bad", [-1, 2.5])
def test_bad_ref_is_refused(bad):
    with pytest.raises(ValueError, match="rave_ref must be a whole number"):
        MCTS(GO, SearchConfig(rave_ref=bad), log=None)


def test_bad_flag_is_one_usage_line():
    p = subprocess.run([sys.executable, "cli.py", "analyze", "go", "--rave-ref", "x"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert "--rave-ref" in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
