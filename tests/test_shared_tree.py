"""Tree parallelisation: atomic updates, one tree grown by several threads, its defaults."""
import threading

import numpy as np
import pytest
from numba import njit

import games
from mcts import MCTS, SearchConfig
from mcts.atomics import atomic_add, atomic_cas, atomic_load, atomic_store
from mcts.search import ROOT
from mcts.tree import EXPANDING

C4 = games.get("connect4")
GO = games.get("go", size=9)


@njit(nogil=True, cache=True)
def _hammer(counts, sums, n):
    for _ in range(n):
        atomic_add(counts, 0, 1)
        atomic_add(sums, 0, 0.5)


def test_atomic_adds_from_two_threads_lose_nothing():
    counts, sums = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.float64)
    _hammer(counts, sums, 10)                 # compile before the threads start
    counts[0], sums[0] = 0, 0.0
    threads = [threading.Thread(target=_hammer, args=(counts, sums, 2_000_000))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts[0] == 4_000_000 and sums[0] == 2_000_000.0


@njit(cache=True)
def _exchange(a):
    first = atomic_cas(a, 1, -1, 7)         # a[1] is -1: exchanged
    second = atomic_cas(a, 1, -1, 9)        # a[1] is 7 now: not exchanged
    atomic_store(a, 2, 5)
    return first, second, atomic_load(a, 1), a[2], atomic_add(a, 0, 3), a[0]


def test_compare_and_swap_exchanges_only_the_expected_value():
    a = np.array([10, -1, 0], dtype=np.int32)
    assert _exchange(a) == (-1, 7, 7, 5, 10, 13)


def check_shared_tree(tree):
    """What holds however the threads interleave: every node's visits cover its children's
    (a node may have several own playouts: threads that found it being expanded played out
    from it), values lie between 0 and the visits, no expansion is left half done, every
    block of children belongs to its parent and the capacity is respected."""
    used = tree.used
    assert used <= tree.capacity
    assert not (tree.first_child[:used] == EXPANDING).any()
    for node in range(used):
        kids = tree.children(node)
        assert 0 <= tree.value_sum[node] <= tree.visits[node] + 1e-9
        if not len(kids):
            continue
        assert all(tree.parent[j] == node for j in kids)
        assert tree.visits[node] >= tree.visits[kids.start:kids.stop].sum()


def test_two_threads_grow_one_tree_and_count_every_playout():
    engine = MCTS(C4, SearchConfig(threads=2, parallel="tree", transpositions=False, seed=3),
                  log=None)
    assert engine.shared and len(engine.trees) == 1
    state, _ = C4.play_record("4453")
    r = engine.search(state, playouts=40_000)
    tree = engine.tree
    assert r.playouts == 40_000 == tree.visits[ROOT] == sum(c.visits for c in r.children)
    assert r.nodes == tree.used
    check_shared_tree(tree)


def test_shared_tree_is_reused_after_a_move():
    engine = MCTS(GO, SearchConfig(threads=2, parallel="tree", seed=2), log=None)
    state = GO.initial_state()
    engine.search(state, playouts=3_000)
    move = GO.parse_move("E5", state)
    engine.advance(move)
    GO.play(state, move)
    r = engine.search(state, playouts=2_000)
    assert r.reused > 0
    check_shared_tree(engine.tree)


def test_shared_tree_finds_the_immediate_win_and_proves_it():
    # From tests/data's README: O to move wins at once in column 2.
    engine = MCTS(C4, SearchConfig(threads=2, parallel="tree", seed=1), log=None)
    state, _ = C4.play_record("15564727745664633327775164234")
    r = engine.search(state, playouts=10_000)
    assert (r.proof, r.plies, r.move) == ("win", 1, "2")


def test_shared_tree_captures_a_group_in_atari():
    # 5x5: the white stones C3 D3 have one liberty, E3: Black to move captures them.
    game = games.get("go", size=5, komi=0.5)
    state = game.initial_state()
    game.set_up(state, black=["B3", "C2", "D2", "C4", "D4"], white=["C3", "D3"],
                next_player="black")
    engine = MCTS(game, SearchConfig(seed=1, threads=2, parallel="tree"), log=None)
    r = engine.search(state, playouts=20_000)
    assert r.move == "E3"
    check_shared_tree(engine.tree)


@pytest.mark.parametrize("game, transpositions, expected", [
    (GO, None, "tree"), (C4, None, "root"), (C4, False, "tree")])
def test_threads_share_one_tree_unless_a_transposition_table_is_in_use(game, transpositions,
                                                                       expected):
    config = SearchConfig(threads=2)
    if transpositions is not None:
        config.transpositions = transpositions
    engine = MCTS(game, config, log=None)
    assert engine.parallel == expected
    assert len(engine.trees) == (1 if expected == "tree" else 2)


def test_an_unknown_way_of_sharing_is_refused():
    with pytest.raises(ValueError, match="parallel must be one of tree, root, got 'leaf'"):
        MCTS(GO, SearchConfig(threads=2, parallel="leaf"), log=None)
