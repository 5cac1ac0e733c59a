"""Re-rooting for tree reuse (mcts.tree.Tree.reroot): the kept subtree comes out node for node
as it was, found by walking it before and after, and nothing outside it survives."""
import numpy as np
import pytest

import games
from mcts import MCTS, SearchConfig
from mcts.tree import NO_PARENT, ROOT

FIELDS = ("action", "mover", "status", "proven", "visits", "value_sum", "amaf_visits",
          "amaf_value", "prior_visits", "prior_value")


def walk(tree, node, depth=0):
    """The subtree of ``node`` as nested tuples of its fields, children in block order."""
    own = tuple(getattr(tree, f)[node].item() for f in FIELDS)
    kids = tree.children(node)
    if depth > 60:
        return own, len(kids)
    return own, tuple(walk(tree, j, depth + 1) for j in kids)


def size(tree, node, seen):
    """Nodes of the subtree of ``node``, a block shared by transpositions counted once."""
    kids = tree.children(node)
    if not len(kids) or kids.start in seen:
        return 1
    seen.add(kids.start)
    return 1 + sum(size(tree, j, seen) for j in kids)


@pytest.mark.parametrize("game, transpositions", [
    (games.get("go", size=9, komi=7.5), False), (games.get("connect4"), True)],
    ids=["go", "connect4-transpositions"])
def test_reroot_keeps_the_subtree_exactly_and_only_it(game, transpositions):
    engine = MCTS(game, SearchConfig(seed=5, threads=1, transpositions=transpositions),
                  log=None)
    engine.search(game.initial_state(), playouts=20_000)
    tree = engine.tree
    node = ROOT
    for _ in range(2):                          # the principal variation's second node
        node = max(tree.children(node), key=lambda j: tree.visits[j])
    before = walk(tree, node)
    expected = size(tree, node, set())
    assert 1 < expected < tree.used
    tree.reroot(node)
    assert tree.used == expected
    assert tree.parent[ROOT] == NO_PARENT
    after = walk(tree, ROOT)
    assert after[1] == before[1]                # every node below, field for field
    assert after[0][1:] == before[0][1:]        # the root too, but for its action
    for j in range(1, tree.used):               # every node is a child of its parent
        assert j in tree.children(int(tree.parent[j]))
