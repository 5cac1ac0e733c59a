"""The search tree: preallocated arrays with named sentinels, and re-rooting for tree reuse."""
import numpy as np

ROOT = 0              # index of the root node
NO_CHILDREN = -1      # first_child of a node not yet expanded
NO_PARENT = -1        # parent of the root


class Tree:
    """Search tree as preallocated arrays, one entry per node (node 0 is the root).

    parent int32, first_child int32 (``NO_CHILDREN`` until expanded), num_children int32,
    action int32 (move into the node), mover int8 (player who made it), status int8 (game
    status after it, ``ILLEGAL`` once pruned), proven int8 (0, or the final status under best
    play), proven_plies int16 (plies to that end), visits int64, value_sum float64 (sum of
    rewards of ``mover``), amaf_visits int32 and amaf_value float32 (RAVE statistics of the
    node's move). All have shape ``(capacity,)``; a node's children are one block. ``stats``
    is int64[4]: nodes in use, deepest stored depth, playouts of this search, AMAF stamp."""

    FIELDS = (("parent", np.int32), ("first_child", np.int32), ("num_children", np.int32),
              ("action", np.int32), ("mover", np.int8), ("status", np.int8),
              ("proven", np.int8), ("proven_plies", np.int16),
              ("visits", np.int64), ("value_sum", np.float64),
              ("amaf_visits", np.int32), ("amaf_value", np.float32))
    NODE_BYTES = sum(np.dtype(t).itemsize for _, t in FIELDS)

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError("tree capacity must be at least 1 node")
        self.capacity = int(capacity)
        for name, dtype in self.FIELDS:
            setattr(self, name, np.zeros(self.capacity, dtype=dtype))
        self.stats = np.zeros(4, dtype=np.int64)

    @property
    def used(self) -> int:
        return int(self.stats[0])

    def reset(self, root_status: int, root_mover: int):
        """Empty the tree, keeping only a fresh root."""
        for name, _ in self.FIELDS:
            getattr(self, name)[ROOT] = 0
        self.parent[ROOT] = NO_PARENT
        self.first_child[ROOT] = NO_CHILDREN
        self.action[ROOT] = -1
        self.mover[ROOT] = root_mover
        self.status[ROOT] = root_status
        self.stats[:] = (1, 0, 0, 0)

    def arrays(self):
        return tuple(getattr(self, name) for name, _ in self.FIELDS)

    def children(self, node: int) -> range:
        first = int(self.first_child[node])
        return range(0) if first == NO_CHILDREN else range(first, first + int(self.num_children[node]))

    def child_with_action(self, node: int, action: int):
        """Index of the child of ``node`` reached by ``action``, or None."""
        for j in self.children(node):
            if self.action[j] == action and self.status[j] >= 0:
                return j
        return None

    def reroot(self, new_root: int):
        """Make ``new_root`` the root, keeping its subtree and reclaiming every other node.

        The subtree is copied breadth-first to the front of the arrays (children blocks stay
        contiguous), so the capacity freed is exactly the nodes outside it. Vectorised per
        tree level with numpy."""
        order = [np.array([new_root], dtype=np.int64)]
        level = order[0]
        while True:
            firsts = self.first_child[level].astype(np.int64)
            counts = self.num_children[level].astype(np.int64)
            has = firsts != NO_CHILDREN
            firsts, counts = firsts[has], counts[has]
            if not len(firsts):
                break
            starts = np.repeat(firsts - np.cumsum(counts) + counts, counts)
            level = starts + np.arange(int(counts.sum()))
            order.append(level)
        order = np.concatenate(order)
        n = len(order)
        new_index = np.full(self.capacity, -1, dtype=np.int64)
        new_index[order] = np.arange(n)
        for name, _ in self.FIELDS:
            arr = getattr(self, name)
            arr[:n] = arr[order]
        fc = self.first_child[:n]
        fc[fc != NO_CHILDREN] = new_index[fc[fc != NO_CHILDREN]]
        self.parent[1:n] = new_index[self.parent[1:n]]
        self.parent[ROOT] = NO_PARENT
        self.action[ROOT] = -1
        self.stats[0] = n
        self.stats[1] = 0
        self.stats[2] = 0
