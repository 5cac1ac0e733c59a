"""A transposition table for the compiled search: position key -> the tree node expanded there.

Used for games whose kernel module defines ``position_key`` (see :mod:`games.contract`). When
the descent reaches a leaf whose position was already expanded at another node (the same
position by another move order), the leaf takes that node's block of children instead of
growing its own: both parents then read and update one set of child statistics, so the tree
becomes a graph over positions, and a proof found under either holds for both. This is the
"shared children" form of UCT on transpositions (Childs, Brodeur and Kocsis 2008,
"Transpositions and move groups in Monte Carlo tree search", their UCT3 keeps the statistics
in the shared nodes), with each parent's own visit count in its UCB term.

The table is open addressing with linear probing over ``keys`` (uint64) and ``nodes`` (int32,
``EMPTY`` where free), both of shape ``(size,)`` with ``size`` a power of two. Keys are whole
64-bit keys (equal keys are taken as the same position); the slot is a mix of the key
(splitmix64's finaliser, Steele, Lea and Flood 2014). A full neighbourhood (``MAX_PROBES``
taken slots) makes an insert a no-op: that position is then simply not shared.
"""
import numpy as np
from numba import njit

from games.compiled import nrt_free

EMPTY = -1
MAX_PROBES = 32


def table_size(capacity: int) -> int:
    """Slots for a tree of ``capacity`` nodes: the power of two at or above capacity / 2 (only
    expanded nodes enter the table, and an expansion adds at least two children in the games
    where transpositions matter), at least 2."""
    return 1 << max(1, int(max(capacity // 2, 2) - 1).bit_length())


@nrt_free
def _slot(key, mask):
    z = key + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64((z ^ (z >> np.uint64(31))) & mask)


@nrt_free
def table_find(keys, nodes, key):
    """The node stored for ``key`` (uint64), or ``EMPTY``."""
    mask = np.uint64(keys.shape[0] - 1)
    i = _slot(key, mask)
    for _ in range(MAX_PROBES):
        n = nodes[i]
        if n == EMPTY:
            return EMPTY
        if keys[i] == key:
            return n
        i = (i + 1) & np.int64(mask)
    return EMPTY


@nrt_free
def table_insert(keys, nodes, key, node):
    """Store ``node`` for ``key`` (replacing an older entry of the same key). Returns False if
    the probe neighbourhood is full (nothing stored)."""
    mask = np.uint64(keys.shape[0] - 1)
    i = _slot(key, mask)
    for _ in range(MAX_PROBES):
        if nodes[i] == EMPTY or keys[i] == key:
            keys[i] = key
            nodes[i] = node
            return True
        i = (i + 1) & np.int64(mask)
    return False


@njit(cache=True)
def table_renumber(keys, nodes, new_index):
    """After the tree was compacted (``new_index``: int64, old node -> new node or -1), keep
    the entries of the surviving nodes under their new numbers and drop the others."""
    n = 0
    old_keys = np.empty(keys.shape[0], dtype=np.uint64)
    old_nodes = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        if nodes[i] != EMPTY and new_index[nodes[i]] >= 0:
            old_keys[n] = keys[i]
            old_nodes[n] = new_index[nodes[i]]
            n += 1
        nodes[i] = EMPTY
    for i in range(n):
        table_insert(keys, nodes, old_keys[i], old_nodes[i])
