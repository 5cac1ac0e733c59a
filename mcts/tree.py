"""The search tree: preallocated arrays with named sentinels, and re-rooting for tree reuse.

The compiled search receives the tree as one value, a :class:`TreeArrays` named tuple of the
arrays in ``Tree.FIELDS`` plus ``stats``, and its scratch buffers as one :class:`Workspace`;
numba compiles and caches functions over named tuples like over plain arguments, with each
field typed by name, so nothing is tied to argument order. Every slot number and sentinel
used by the search is defined here once.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from games.contract import FIRST_WINS, ILLEGAL, MAX_PLAYERS, ONGOING
from mcts.transpositions import EMPTY, table_renumber, table_size

ROOT = 0              # index of the root node
NO_CHILDREN = -1      # first_child of a node not yet expanded
EXPANDING = -2        # first_child of a node a thread of a shared tree is expanding now
NO_PARENT = -1        # parent of the root
NO_ACTION = -1        # action of the root; the "no pass move" value of Params.no_amaf
NOT_PROVEN = ONGOING  # proven[] of a node whose game-theoretic value is unknown
MAX_PLIES = np.iinfo(np.int16).max     # proven_plies saturates here

# Slots of ``stats`` (int64): nodes in use, deepest stored depth, playouts of this search,
# AMAF stamp (one per simulation, marks the moves seen in it).
S_NODES, S_MAX_DEPTH, S_PLAYOUTS, S_AMAF_STAMP = range(4)
N_STATS = 4
# The node fields, one array each (53 bytes a node).
FIELDS = (("parent", np.int32), ("first_child", np.int32), ("num_children", np.int32),
          ("action", np.int32), ("mover", np.int8), ("status", np.int8),
          ("proven", np.int8), ("proven_plies", np.int16),
          ("visits", np.int64), ("value_sum", np.float64),
          ("amaf_visits", np.int32), ("amaf_value", np.float32),
          ("prior_visits", np.int32), ("prior_value", np.float32))

TreeArrays = namedtuple("TreeArrays", [name for name, _ in FIELDS]
                        + ["stats", "table_keys", "table_nodes", "player_sums"])
TreeArrays.__doc__ = (
    "The tree as the compiled search sees it: one array per field of ``FIELDS``, each of "
    "shape ``(capacity,)``, ``stats`` (int64, ``(N_STATS,)``) and the transposition table "
    "``table_keys`` (uint64) / ``table_nodes`` (int32), shape ``(table size,)``, one unused slot "
    "for a game without ``position_key`` (see mcts.transpositions); ``player_sums`` (float64, "
    "``(MAX_PLAYERS,)``): each player's rewards summed over this search's playouts, for a "
    "game with chance or a ``returns`` kernel (mcts.backup.backpropagate_n).")

Workspace = namedtuple("Workspace", ["state", "buf", "path", "seq_actions", "seq_players",
                                     "mark", "weights", "cand", "feats", "logits",
                                     "solve_table", "solve_state", "probs", "rewards",
                                     "owned", "owned_count", "owned_rng", "table"])
Workspace.__doc__ = (
    "Scratch buffers of one search thread: ``state`` (a copy of the root state, played down "
    "the tree and out), ``buf`` (int32, ``(num_actions,)``, legal actions), ``path`` (int64, "
    "``(max_length + 2,)``, node per depth), ``seq_actions`` (int32) and ``seq_players`` (int8) "
    "(``(max_length + 1,)``, moves of a playout for AMAF), ``mark`` (int64, "
    "``(2 * num_actions,)``, or ``(MAX_PLAYERS * num_actions,)`` for a game "
    "with chance or a ``returns`` kernel, AMAF stamp per player and action); for the learned playout "
    "policy, ``weights`` (float64, ``(num_features,)``, at least one entry), and the scratch "
    "of ``move_features``: ``cand`` (int32, ``(num_actions,)``), ``feats`` (int32, "
    "``(num_actions, feature_slots)``) and ``logits`` (float64, ``(num_actions,)``); the "
    "table of the game's exact solver, ``solve_table`` (uint64, ``(solve_table_size,)``, at "
    "least one entry, emptied with the tree and kept with it when the tree is reused), and "
    "``solve_state``, a second copy of the state for its calls; ``probs`` (float64, "
    "``(num_actions,)``, chance outcomes' probabilities) and ``rewards`` (float64, "
    "``(MAX_PLAYERS,)``, a playout's reward per player); with the ``ownership`` option, the "
    "sums of the game's ``ownership`` kernel over this thread's simulations: ``owned`` "
    "(float64, ``(2, num_actions)``: row 0 the first player's points minus the second's, row "
    "1 the points owned by neither), ``owned_count`` (int64, ``(1,)``: the simulations "
    "counted), emptied when the search starts a new root (:meth:`mcts.search.MCTS.search`), "
    "and ``owned_rng`` (uint64, ``(1,)``), the kernel's random stream (apart from the "
    "search's, so that its draws do not depend on the option); ``table`` (float64, 1-D), the "
    "game's ``learned_rollout`` table for ``weights`` (``Game.playout_table``; one unused entry "
    "for a game without that kernel or without weights).")


def new_workspace(game, weights=None) -> Workspace:
    """Scratch buffers sized for ``game`` (see :class:`Workspace`), with a copy of the
    playout ``weights`` (float64, ``(game.num_features,)``) if given (zeros otherwise)."""
    actions = max(game.num_actions, 1)
    w = np.zeros(max(game.num_features, 1), dtype=np.float64)
    if weights is not None:
        w[:len(weights)] = weights
    table = game.playout_table(w[:game.num_features]) if weights is not None else None
    return Workspace(state=np.empty_like(game.initial_state()),
                     buf=np.empty(actions, dtype=np.int32),
                     path=np.empty(game.max_length + 2, dtype=np.int64),
                     seq_actions=np.empty(game.max_length + 1, dtype=np.int32),
                     seq_players=np.empty(game.max_length + 1, dtype=np.int8),
                     mark=np.full((MAX_PLAYERS if general(game) else 2) * actions, -1,
                                  dtype=np.int64),
                     weights=w, cand=np.empty(actions, dtype=np.int32),
                     feats=np.full((actions, max(game.feature_slots, 1)), -1, dtype=np.int32),
                     logits=np.empty(actions, dtype=np.float64),
                     solve_table=np.zeros(max(game.solve_table_size, 1), dtype=np.uint64),
                     solve_state=np.empty_like(game.initial_state()),
                     probs=np.empty(actions, dtype=np.float64),
                     rewards=np.zeros(MAX_PLAYERS, dtype=np.float64),
                     owned=np.zeros((2, actions), dtype=np.float64),
                     owned_count=np.zeros(1, dtype=np.int64),
                     owned_rng=np.ones(1, dtype=np.uint64),
                     table=np.zeros(1) if table is None else np.array(table, dtype=np.float64))


def set_weights(game, work: Workspace, weights) -> Workspace:
    """``work`` with the playout ``weights`` (float64 ``(game.num_features,)``) in place of its
    own: copied into ``work.weights``, and, for a game with ``Game.playout_table``, a new
    ``table`` (the same arrays otherwise; the caller keeps the returned value)."""
    work.weights[:len(weights)] = weights
    table = game.playout_table(np.asarray(weights, dtype=np.float64))
    if table is None:
        return work
    if work.table.shape == np.shape(table):
        work.table[:] = table
        return work
    return work._replace(table=np.array(table, dtype=np.float64))


def general(game) -> bool:
    """True if ``game`` takes the search's general path (mcts.codegen: GENERAL): it has
    chance positions or a ``returns`` kernel (every game of more than two players)."""
    k = game.kernels
    return hasattr(k, "chance_outcomes") or hasattr(k, "returns")


class Tree:
    """Search tree as preallocated arrays, one entry per node (node 0 is the root).

    parent int32, first_child int32 (``NO_CHILDREN`` until expanded), num_children int32,
    action int32 (move into the node), mover int8 (player who made it), status int8 (game
    status after it, ``ILLEGAL`` once pruned), proven int8 (``NOT_PROVEN``, or the final status
    under best play), proven_plies int16 (plies to that end), visits int64, value_sum float64
    (sum of rewards of ``mover``), amaf_visits int32 and amaf_value float32 (RAVE statistics of
    the node's move), prior_visits int32 and prior_value float32 (the game's prior knowledge
    of the node's move: virtual playouts and their wins for ``mover``). All have
    shape ``(capacity,)``; a node's children are one block.
    ``stats`` is int64 ``(N_STATS,)``, indexed by the ``S_*`` slots."""

    FIELDS = FIELDS
    NODE_BYTES = sum(np.dtype(t).itemsize for _, t in FIELDS)
    TABLE_SLOT_BYTES = 12   # uint64 key + int32 node; at most one slot per node when keyed

    def __init__(self, capacity: int, keyed: bool = False):
        if capacity < 1:
            raise ValueError("tree capacity must be at least 1 node")
        self.capacity = int(capacity)
        for name, dtype in self.FIELDS:
            setattr(self, name, np.zeros(self.capacity, dtype=dtype))
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.player_sums = np.zeros(MAX_PLAYERS, dtype=np.float64)
        size = table_size(self.capacity) if keyed else 1
        self.keyed = keyed
        self.table_keys = np.zeros(size, dtype=np.uint64)
        self.table_nodes = np.full(size, EMPTY, dtype=np.int32)
        self.arrays = TreeArrays(*(getattr(self, name) for name, _ in self.FIELDS), self.stats,
                                 self.table_keys, self.table_nodes, self.player_sums)

    @staticmethod
    def bytes_per_node(keyed: bool) -> float:
        """Bytes per node of capacity (at most), with the transposition table if ``keyed``."""
        return Tree.NODE_BYTES + (Tree.TABLE_SLOT_BYTES if keyed else 0)

    @property
    def used(self) -> int:
        return int(self.stats[S_NODES])

    @property
    def playouts(self) -> int:
        return int(self.stats[S_PLAYOUTS])

    def reset(self, root_status: int, root_mover: int):
        """Empty the tree, keeping only a fresh root."""
        for name, _ in self.FIELDS:
            getattr(self, name)[ROOT] = 0
        self.parent[ROOT] = NO_PARENT
        self.first_child[ROOT] = NO_CHILDREN
        self.action[ROOT] = NO_ACTION
        self.mover[ROOT] = root_mover
        self.status[ROOT] = root_status
        self.stats[:] = 0
        self.player_sums[:] = 0.0
        self.stats[S_NODES] = 1
        self.table_nodes[:] = EMPTY

    def unprove_root(self):
        """Forget the proof of the root, if its children's proofs do not give it, keeping
        their statistics and proofs: a node proven by the game's exact solver has no proven
        move to play, so
        the next search proves the root again by its children (MCTS-Solver). Its visits and
        value become those of its children, plus its first playout."""
        if self.proven[ROOT] == NOT_PROVEN or self.first_child[ROOT] == NO_CHILDREN:
            return
        kids = self.children(ROOT)
        legal = self.status[kids.start:kids.stop] != ILLEGAL
        proofs = self.proven[kids.start:kids.stop][legal]
        win = FIRST_WINS + int(self.mover[kids.start])
        if (proofs == win).any() or (proofs != NOT_PROVEN).all():
            return                  # the children prove it (MCTS-Solver)
        n = int(self.visits[kids.start:kids.stop].sum()) + 1
        self.value_sum[ROOT] *= n / max(int(self.visits[ROOT]), 1)
        self.visits[ROOT] = n
        self.proven[ROOT] = NOT_PROVEN
        self.proven_plies[ROOT] = 0

    def children(self, node: int) -> range:
        first = int(self.first_child[node])
        return range(0) if first < 0 else range(first, first + int(self.num_children[node]))

    def child_with_action(self, node: int, action: int):
        """Index of the child of ``node`` reached by ``action``, or None."""
        for j in self.children(node):
            if self.action[j] == action and self.status[j] >= 0:
                return j
        return None

    def reroot(self, new_root: int):
        """Make ``new_root`` the root, keeping its subtree and reclaiming every other node.

        The subtree is copied breadth-first to the front of the arrays (children blocks stay
        contiguous), so the capacity freed is exactly the nodes outside it. A block of children
        shared by transpositions is copied once. Compiled (:func:`subtree_order`,
        :func:`gather_front`, :func:`relink`): one pass over the subtree per field, and one
        over the nodes in use, instead of numpy's temporaries per tree level."""
        used = self.used
        order = np.empty(used, dtype=np.int32)
        copied = np.zeros(used if self.keyed else 0, dtype=np.bool_)   # by first child
        n = subtree_order(new_root, self.first_child, self.num_children, self.keyed, order,
                          copied)
        order = order[:n]
        for name, _ in self.FIELDS:
            gather_front(getattr(self, name), order)
        new_index = np.empty(used, dtype=np.int32)                      # nodes in use only
        relink(order, self.first_child, self.num_children, self.parent, new_index, self.keyed)
        self.parent[ROOT] = NO_PARENT
        self.action[ROOT] = NO_ACTION
        self.stats[:] = 0
        self.player_sums[:] = 0.0
        self.stats[S_NODES] = n
        if self.keyed:
            table_renumber(self.table_keys, self.table_nodes, new_index)


@njit(cache=True)
def subtree_order(new_root, first_child, num_children, keyed, order, copied):
    """Write the nodes of the subtree of ``new_root`` to ``order`` (int32, at least the nodes
    in use) breadth-first, each node's children as one block after the nodes before them;
    with ``keyed`` (transpositions) a block reached from two parents is taken once
    (``copied``: bool, one entry per node in use, False on entry). Returns the count."""
    order[0] = new_root
    n = 1
    head = 0
    while head < n:
        node = order[head]
        head += 1
        first = first_child[node]
        if first == NO_CHILDREN or (keyed and copied[first]):
            continue
        if keyed:
            copied[first] = True
        for j in range(first, first + num_children[node]):
            order[n] = j
            n += 1
    return n


@njit(cache=True)
def gather_front(arr, order):
    """``arr[:len(order)] = arr[order]`` (``order``: int32 node numbers, each once): through
    a buffer, since a node may move to a slot whose old value is still to be read."""
    tmp = np.empty(order.shape[0], dtype=arr.dtype)
    for i in range(order.shape[0]):
        tmp[i] = arr[order[i]]
    for i in range(order.shape[0]):
        arr[i] = tmp[i]


@njit(cache=True)
def relink(order, first_child, num_children, parent, new_index, dropped):
    """After the subtree in ``order`` was moved to the front: ``new_index`` (int32, one entry
    per node in use) maps old node numbers to new ones (with ``dropped``, -1 for the nodes
    left out, as the transposition table's renumbering needs; else those entries are left
    as they were); each moved node's ``first_child`` is renumbered and its children's
    ``parent`` set to it."""
    if dropped:
        new_index[:] = -1
    for i in range(order.shape[0]):
        new_index[order[i]] = i
    for i in range(order.shape[0]):
        first = first_child[i]
        if first == NO_CHILDREN:
            continue
        first = new_index[first]
        first_child[i] = first
        for j in range(first, first + num_children[i]):
            parent[j] = i
