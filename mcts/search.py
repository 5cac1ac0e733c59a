"""Monte Carlo Tree Search over any game of the contract in :mod:`games.base`.

The select-expand-playout-backpropagate loop runs in compiled batches (see ``uct_template.py``);
Python only sizes the batches, watches the clock between them (nopython code has no clock) and
reads the result out of the tree arrays.
"""
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from games.base import DRAW, FIRST_WINS, ONGOING
from mcts import codegen
from mcts.rng import new_rng

ROOT = 0
NO_CHILDREN = -1
DEFAULT_EXPLORATION = 0.7
DEFAULT_CAPACITY = 2_000_000
_BATCH_SECONDS = 0.02          # a compiled batch lasts about this long, so Ctrl-C stays prompt


def proof_name(proven: int, who: int):
    """'win', 'loss', 'draw' for player ``who`` of a node's proof, or None if unproven."""
    if proven == 0:
        return None
    if proven == DRAW:
        return "draw"
    return "win" if proven == FIRST_WINS + who else "loss"


def choose(children: list) -> dict:
    """The move to play: the fastest proven win; else the most visited move not proven lost
    (``children`` sorted by visits); else, all lost, the slowest loss."""
    wins = [ch for ch in children if ch["proven"] == "win"]
    if wins:
        return min(wins, key=lambda ch: ch["plies"])
    alive = [ch for ch in children if ch["proven"] != "loss"]
    if alive:
        return alive[0]
    return max(children, key=lambda ch: ch["plies"])


class GameOverError(ValueError):
    """Raised when asked to search a position whose game has ended."""


@dataclass
class SearchConfig:
    """Settings of a search.

    exploration: the UCB1 constant c in mean + c * sqrt(ln N / n), rewards in [0, 1]. The
        default 0.7 (below the theoretical sqrt 2) kept the exact outcome most often among
        0.5, 0.7, 1.0 and 1.4 on the solved Connect Four positions in tests/data.
    capacity: tree size in nodes; memory is ``capacity * Tree.NODE_BYTES`` bytes.
    seed: seeds the playouts; every search starts from this seed, so the same position,
        seed and playout budget give the same visit counts.
    solver: MCTS-Solver on (proven wins, losses and draws propagate; a proven root stops the
        search early).
    """
    exploration: float = DEFAULT_EXPLORATION
    capacity: int = DEFAULT_CAPACITY
    seed: int = 0
    solver: bool = True


class Tree:
    """Search tree as preallocated arrays, one entry per node (node 0 is the root).

    parent int32, first_child int32 (``NO_CHILDREN`` until expanded), num_children int32,
    action int32 (move into the node), mover int8 (player who made it), status int8 (game
    status after it, ``ILLEGAL`` once pruned), proven int8 (0, or the final status under best
    play), proven_plies int16 (plies to that end), visits int64, value_sum float64 (sum of
    rewards of ``mover``). All have shape ``(capacity,)``."""

    FIELDS = (("parent", np.int32), ("first_child", np.int32), ("num_children", np.int32),
              ("action", np.int32), ("mover", np.int8), ("status", np.int8),
              ("proven", np.int8), ("proven_plies", np.int16),
              ("visits", np.int64), ("value_sum", np.float64))
    NODE_BYTES = sum(np.dtype(t).itemsize for _, t in FIELDS)

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError("tree capacity must be at least 1 node")
        self.capacity = int(capacity)
        for name, dtype in self.FIELDS:
            setattr(self, name, np.zeros(self.capacity, dtype=dtype))
        self.stats = np.zeros(3, dtype=np.int64)   # nodes used, max depth, playouts

    def reset(self, root_status: int, root_mover: int):
        self.parent[ROOT] = -1
        self.first_child[ROOT] = NO_CHILDREN
        self.num_children[ROOT] = 0
        self.action[ROOT] = -1
        self.mover[ROOT] = root_mover
        self.status[ROOT] = root_status
        self.proven[ROOT] = 0
        self.proven_plies[ROOT] = 0
        self.visits[ROOT] = 0
        self.value_sum[ROOT] = 0.0
        self.stats[:] = (1, 0, 0)

    def arrays(self):
        return tuple(getattr(self, name) for name, _ in self.FIELDS)

    def children(self, node: int) -> range:
        first = int(self.first_child[node])
        return range(0) if first == NO_CHILDREN else range(first, first + int(self.num_children[node]))


@dataclass
class SearchResult:
    """What a search found. ``value`` is the chosen move's win probability for the side to move
    (draws count half; 1, 0.5 or 0 once proven); ``children`` lists every legal move searched,
    most visited first, each with its proof ("win", "loss", "draw" or None) and ``plies``."""
    action: int
    move: str
    value: float
    children: list = field(default_factory=list)   # dicts: action, move, visits, value
    pv: list = field(default_factory=list)          # principal variation, move strings
    playouts: int = 0
    seconds: float = 0.0
    nodes: int = 0
    capacity: int = 0
    max_depth: int = 0
    proven: str = None         # "win", "loss" or "draw" for the side to move once proven
    plies: int = None          # plies to the end under best play, when proven

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        return {"best": self.move, "value": round(self.value, 4), "playouts": self.playouts,
                "seconds": round(self.seconds, 4), "nodes": self.nodes,
                "children": [{"move": c["move"], "visits": c["visits"],
                              "value": round(c["value"], 4),
                              **({"proven": c["proven"], "plies": c["plies"]}
                                 if c["proven"] else {})} for c in self.children],
                "pv": self.pv, **({"proven": self.proven, "plies": self.plies}
                                  if self.proven else {})}


class MCTS:
    """UCT search for ``game`` (a :class:`games.base.Game`).

    Loading compiles the search kernels on the first run for this game's sources and says so on
    ``log`` (stderr by default); later processes load them from numba's disk cache."""

    def __init__(self, game, config: SearchConfig = None, log=sys.stderr):
        self.game = game
        self.config = config or SearchConfig()
        self.kernels = load_kernels(game, log)
        self.tree = Tree(self.config.capacity)
        state = game.initial_state()
        self._scratch = np.empty_like(state)
        self._buf = np.empty(max(game.num_actions, 1), dtype=np.int32)
        self._path = np.empty(game.max_length + 2, dtype=np.int64)

    def search(self, state, playouts: int = None, seconds: float = None) -> SearchResult:
        """Search ``state`` (not modified) for ``playouts`` playouts or ``seconds`` of wall time
        (whichever is given; both: the first reached). Raises ``GameOverError`` if the game has
        ended and ``ValueError`` for a budget that is not positive."""
        if playouts is None and seconds is None:
            raise ValueError("give a budget: playouts or seconds")
        if (playouts is not None and playouts < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("the search budget must be positive")
        k, g, tree = self.kernels, self.game, self.tree
        st = int(k.status(state))
        if st != ONGOING:
            raise GameOverError(f"the game is over ({g.result_text(st)}): nothing to search")
        root = np.ascontiguousarray(state)
        tree.reset(st, 1 - int(k.to_play(root)))
        rng = new_rng(self.config.seed)
        c = float(self.config.exploration)
        args = tree.arrays() + (tree.stats, self._scratch, self._buf, self._path)
        t0 = time.perf_counter()
        deadline = None if seconds is None else t0 + seconds
        done, batch = 0, 64
        while (playouts is None or done < playouts) and tree.proven[ROOT] == 0:
            n = batch if playouts is None else min(batch, playouts - done)
            done += k.run_playouts(root, n, c, bool(self.config.solver), rng, *args)
            now = time.perf_counter()
            rate = done / max(now - t0, 1e-9)
            if deadline is not None:
                left = deadline - now
                if left <= 0.002 + 1.0 / rate:
                    break
                batch = max(1, int(rate * min(_BATCH_SECONDS, 0.8 * left)))
            else:
                batch = max(64, int(rate * _BATCH_SECONDS))
        return self._result(root, time.perf_counter() - t0)

    def _result(self, root, seconds) -> SearchResult:
        g, tree = self.game, self.tree
        who = int(self.kernels.to_play(root))
        children = []
        for j in tree.children(ROOT):
            if tree.status[j] < 0:
                continue
            n = int(tree.visits[j])
            children.append({"action": int(tree.action[j]),
                             "move": g.format_move(int(tree.action[j]), root), "visits": n,
                             "value": float(tree.value_sum[j] / n) if n else 0.0,
                             "proven": proof_name(int(tree.proven[j]), who),
                             "plies": int(tree.proven_plies[j]) + 1})
        children.sort(key=lambda ch: (-ch["visits"], -ch["value"]))
        best = choose(children)
        value = {"win": 1.0, "draw": 0.5, "loss": 0.0}.get(best["proven"], best["value"])
        root_proof = proof_name(int(tree.proven[ROOT]), who)
        return SearchResult(action=best["action"], move=best["move"], value=value,
                            children=children, pv=self.principal_variation(root),
                            playouts=int(tree.stats[2]), seconds=seconds,
                            nodes=int(tree.stats[0]), capacity=tree.capacity,
                            max_depth=int(tree.stats[1]), proven=root_proof,
                            plies=int(tree.proven_plies[ROOT]) if root_proof else None)

    def principal_variation(self, root) -> list:
        """Moves along the most-visited path from the root (visited nodes only)."""
        tree, state, pv, node = self.tree, root.copy(), [], ROOT
        while True:
            kids = [j for j in tree.children(node) if tree.status[j] >= 0 and tree.visits[j] > 0]
            if not kids:
                return pv
            node = max(kids, key=lambda j: (tree.visits[j], tree.value_sum[j]))
            pv.append(self.game.format_move(int(tree.action[node]), state))
            self.kernels.apply_action(state, int(tree.action[node]))


def load_kernels(game, log=sys.stderr):
    """The compiled search module for ``game``, compiling (and announcing it) on a first run."""
    first = not codegen.is_compiled(game.kernel_module)
    if first and log is not None:
        print("compiling search kernels, first run only …", file=log, flush=True)
    t0 = time.perf_counter()
    k = codegen.load(game.kernel_module)
    _warm_up(k, game)
    if first and log is not None:
        print(f"compiled in {time.perf_counter() - t0:.1f} s", file=log, flush=True)
    return k


def _warm_up(k, game):
    """Run every kernel once on tiny inputs so that compiling or cache loading happens now."""
    tree = Tree(2)
    state = game.initial_state()
    tree.reset(int(k.status(state)), 1 - int(k.to_play(state)))
    buf = np.empty(max(game.num_actions, 1), dtype=np.int32)
    path = np.empty(game.max_length + 2, dtype=np.int64)
    k.run_playouts(state, 1, 1.0, True, new_rng(0), *tree.arrays(), tree.stats, state.copy(), buf,
                   path)
    k.random_playouts(state, 1, new_rng(0), state.copy(), np.zeros(4, dtype=np.int64))
    k.legal_actions(state, buf)
    k.apply_action(state.copy(), int(buf[0]))
