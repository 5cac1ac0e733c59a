"""Expansion: a leaf gets its children exactly at its second visit (its first playout is
played out from it), and the root at once."""
import numpy as np

import games
from games.contract import ONGOING
from mcts import MCTS, SearchConfig
from mcts.tree import NO_CHILDREN, NOT_PROVEN, ROOT

GO = games.get("go", size=9, komi=7.5)


def test_a_node_is_expanded_exactly_at_its_second_visit():
    engine = MCTS(GO, SearchConfig(seed=2, threads=1), log=None)
    state, _ = GO.play_record("E5 D4")
    engine.search(state, playouts=3_000)
    t = engine.tree
    used = np.arange(1, t.used)
    open_ = (t.status[used] == ONGOING) & (t.proven[used] == NOT_PROVEN)
    expanded = t.first_child[used] != NO_CHILDREN
    assert t.first_child[ROOT] != NO_CHILDREN
    # one thread: the visit that finds one visit already there expands the node
    assert np.array_equal(expanded[open_], t.visits[used][open_] >= 2)
