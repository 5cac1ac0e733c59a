"""Monte Carlo Tree Search over any game of the contract in :mod:`games.base`.

The select-expand-playout-backpropagate loop runs in compiled batches (see ``uct_template.py``);
Python only sizes the batches, watches the clock between them (nopython code has no clock) and
reads the result out of the tree arrays.
"""
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from games.base import DRAW, FIRST_WINS, ONGOING
from mcts import codegen
from mcts.rng import new_rng, split_seed
from mcts.tree import NO_CHILDREN, ROOT, Tree  # noqa: F401  (re-exported)

DEFAULT_EXPLORATION = 0.7
DEFAULT_CAPACITY = 4_000_000
_BATCH_SECONDS = 0.02          # a compiled batch lasts about this long, so Ctrl-C stays prompt


def decided(tree, playouts_left: float) -> bool:
    """True if no other root move can reach the most visited one's count in
    ``playouts_left`` more playouts (and the tree has a few hundred playouts to judge)."""
    kids = tree.children(ROOT)
    if len(kids) < 2 or tree.stats[2] < 500:
        return len(kids) == 1 and tree.stats[2] >= 1
    visits = np.sort(tree.visits[kids.start:kids.stop])
    return visits[-1] - visits[-2] > playouts_left


def proof_name(proven: int, who: int):
    """'win', 'loss', 'draw' for player ``who`` of a node's proof, or None if unproven."""
    if proven == 0:
        return None
    if proven == DRAW:
        return "draw"
    return "win" if proven == FIRST_WINS + who else "loss"


def choose(children: list) -> dict:
    """The move to play: the fastest proven win; else the most visited move not proven lost
    (``children`` sorted by visits, proven wins first); else, all lost, the slowest loss."""
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

    exploration: the UCB1 constant c in mean + c * sqrt(ln N / n), rewards in [0, 1]; None
        takes the game's ``exploration_default`` (``DEFAULT_EXPLORATION`` = 0.7 unless the game
        says otherwise: below the theoretical sqrt 2, it kept the exact outcome most often
        among 0.5, 0.7, 1.0 and 1.4 on the solved Connect Four positions in tests/data), or
        with RAVE its ``rave_exploration_default`` (0.05). Go uses 0.2 without RAVE: in
        40-game matches at 2,000 playouts, c = 0.2 beat 0.5 by 33-7, and with RAVE 0.05 beat
        0.2 by 26-14.
    capacity: tree size in nodes; memory is ``capacity * Tree.NODE_BYTES`` bytes.
    seed: seeds the playouts; every search starts from this seed, so the same position,
        seed and playout budget give the same visit counts.
    solver: MCTS-Solver on (proven wins, losses and draws propagate; a proven root stops the
        search early).
    threads: root parallelisation: this many independent trees (each ``capacity / threads``
        nodes, each seeded from ``seed`` and its index) searched at once in threads (the
        compiled loop releases the GIL); their root statistics are summed. With a playout
        budget the result is reproducible for a given seed and thread count.
    reuse: after :meth:`MCTS.advance`, keep the subtree of the moves played.
    early_stop: with a time budget, stop as soon as the most visited move cannot be overtaken
        in the playouts the remaining time allows (the time is better kept for later moves).
    rave: RAVE / all-moves-as-first statistics in selection (Gelly and Silver 2007); None uses
        the game's default (on for Go). rave_k: the equivalence parameter k of the schedule
        b = sqrt(k / (3 n + k)): with n visits, the AMAF value weighs b and the mean value
        1 - b, so AMAF dominates the first few hundred visits of a move and fades after.
    """
    exploration: float = None
    capacity: int = DEFAULT_CAPACITY
    seed: int = 0
    solver: bool = True
    threads: int = 1
    reuse: bool = True
    rave: bool = None
    rave_k: float = 1000.0
    early_stop: bool = True


@dataclass
class SearchResult:
    """What a search found. ``value`` is the chosen move's win probability for the side to move
    (draws count half; 1, 0.5 or 0 once proven); ``children`` lists every legal move searched,
    proven wins first, then most visited first, each with its proof ("win", "loss", "draw" or
    None) and ``plies``."""
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
    reused: int = 0            # nodes kept from the previous search (tree reuse)
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


class _Worker:
    """One tree with its scratch buffers (one per thread)."""

    def __init__(self, game, capacity):
        self.tree = Tree(capacity)
        state = game.initial_state()
        self.scratch = np.empty_like(state)
        self.buf = np.empty(max(game.num_actions, 1), dtype=np.int32)
        self.path = np.empty(game.max_length + 2, dtype=np.int64)
        self.seq_actions = np.empty(game.max_length + 1, dtype=np.int32)
        self.seq_players = np.empty(game.max_length + 1, dtype=np.int8)
        self.mark = np.full(2 * max(game.num_actions, 1), -1, dtype=np.int64)
        self.rng = None

    def args(self):
        return self.tree.arrays() + (self.tree.stats, self.scratch, self.buf, self.path,
                                     self.seq_actions, self.seq_players, self.mark)


class MCTS:
    """UCT search with MCTS-Solver for ``game`` (a :class:`games.base.Game`).

    Loading compiles the search kernels on the first run for this game's sources and says so on
    ``log`` (stderr by default); later processes load them from numba's disk cache. Memory:
    ``config.capacity * Tree.NODE_BYTES`` bytes, whatever the number of threads."""

    def __init__(self, game, config: SearchConfig = None, log=sys.stderr):
        self.game = game
        self.config = config or SearchConfig()
        if self.config.threads < 1:
            raise ValueError("threads must be at least 1")
        self.kernels = load_kernels(game, log)
        t = self.config.threads
        per_tree = self.config.capacity // t
        if per_tree < game.num_actions + 1:
            raise ValueError(f"a tree capacity of {self.config.capacity} nodes is too small for "
                             f"{game.name} with {t} thread(s): give at least "
                             f"{(game.num_actions + 1) * t} nodes")
        self.workers = [_Worker(game, per_tree) for _ in range(t)]
        self._pool = ThreadPoolExecutor(t) if t > 1 else None
        self._root = None          # position of the last search (for tree reuse)
        self._reused = 0           # nodes kept by the last search
        self._moves = []           # moves played since (see advance)

    @property
    def tree(self):
        """The tree of the first (or only) thread."""
        return self.workers[0].tree

    def advance(self, action: int):
        """Tell the engine that ``action`` was played from the current position (by either
        side), so that the next search can start from the subtree already built for it."""
        if self._root is not None:
            self._moves.append(int(action))

    def search(self, state, playouts: int = None, seconds: float = None) -> SearchResult:
        """Search ``state`` (not modified) for ``playouts`` playouts or ``seconds`` of wall time
        (whichever is given; both: the first reached). Stops early once the root is proven.
        Raises ``GameOverError`` if the game has ended and ``ValueError`` for a budget that is
        not positive."""
        if playouts is None and seconds is None:
            raise ValueError("give a budget: playouts or seconds")
        if (playouts is not None and playouts < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("the search budget must be positive")
        k, g = self.kernels, self.game
        st = int(k.status(state))
        if st != ONGOING:
            raise GameOverError(f"the game is over ({g.result_text(st)}): nothing to search")
        root = np.ascontiguousarray(state).copy()
        self._prepare(root, st)
        t0 = time.perf_counter()
        deadline = None if seconds is None else t0 + seconds
        stop = threading.Event()
        n = len(self.workers)
        shares = [None] * n if playouts is None else \
            [playouts // n + (1 if i < playouts % n else 0) for i in range(n)]
        if self._pool is None:
            self._run(self.workers[0], root, shares[0], deadline, stop)
        else:
            jobs = [self._pool.submit(self._run, w, root, shares[i], deadline, stop)
                    for i, w in enumerate(self.workers)]
            try:
                for job in jobs:
                    job.result()
            except BaseException:
                stop.set()
                raise
        return self._result(root, time.perf_counter() - t0)

    def _prepare(self, root, st):
        """Reuse the subtree of the moves played since the last search, or start afresh."""
        k, cfg = self.kernels, self.config
        nodes = None
        if cfg.reuse and self._root is not None and self._moves:
            expected = self._root.copy()
            for a in self._moves:
                k.apply_action(expected, a)
            if np.array_equal(expected, root):
                nodes = []
                for w in self.workers:
                    node = ROOT
                    for a in self._moves:
                        node = w.tree.child_with_action(node, a) if node is not None else None
                    nodes.append(node)
        self._reused = 0
        for i, w in enumerate(self.workers):
            if nodes is not None and nodes[i] is not None:
                w.tree.reroot(nodes[i])
                self._reused += w.tree.used
            else:
                w.tree.reset(st, 1 - int(k.to_play(root)))
            w.rng = new_rng(cfg.seed if i == 0 else split_seed(cfg.seed, i))
        self._root, self._moves = root.copy(), []

    def _run(self, w, root, playouts, deadline, stop):
        """Batches of compiled iterations on worker ``w`` until its budget is spent."""
        k, tree = self.kernels, w.tree
        params = self.params()
        w.mark[:] = -1
        tree.stats[3] = 0
        t0 = time.perf_counter()
        done, batch = 0, 64
        while (playouts is None or done < playouts) and not stop.is_set():
            n = batch if playouts is None else min(batch, playouts - done)
            done += k.run_playouts(root, n, params, w.rng, *w.args())
            if tree.proven[ROOT] != 0:
                stop.set()
                break
            now = time.perf_counter()
            rate = done / max(now - t0, 1e-9)
            if deadline is not None:
                left = deadline - now
                if left <= 0.002 + 1.0 / rate:
                    break
                if self.config.early_stop and decided(tree, rate * left):
                    break
                batch = max(1, int(rate * min(_BATCH_SECONDS, 0.8 * left)))
            else:
                batch = max(64, int(rate * _BATCH_SECONDS))

    @property
    def rave(self) -> bool:
        cfg = self.config
        return bool(self.game.rave_default if cfg.rave is None else cfg.rave)

    def params(self) -> np.ndarray:
        """The float64[5] parameter array of the compiled loop (see uct_template.py); a game's
        ``pass_action``, if it has one, is kept out of the AMAF statistics."""
        cfg = self.config
        return np.array([self.exploration, float(cfg.solver), float(self.rave), cfg.rave_k,
                         float(getattr(self.game, "pass_action", -1))], dtype=np.float64)

    @property
    def exploration(self) -> float:
        """The exploration constant in use: the config's, else the game's default for UCT or
        for RAVE."""
        c = self.config.exploration
        if c is not None:
            return float(c)
        if self.rave:
            return float(getattr(self.game, "rave_exploration_default", 0.05))
        return float(getattr(self.game, "exploration_default", DEFAULT_EXPLORATION))

    def _result(self, root, seconds) -> SearchResult:
        g = self.game
        who = int(self.kernels.to_play(root))
        merged = {}
        for w in self.workers:
            tree = w.tree
            for j in tree.children(ROOT):
                if tree.status[j] < 0:
                    continue
                a = int(tree.action[j])
                ch = merged.setdefault(a, {"action": a, "move": g.format_move(a, root),
                                           "visits": 0, "value_sum": 0.0, "proven": None,
                                           "plies": None})
                ch["visits"] += int(tree.visits[j])
                ch["value_sum"] += float(tree.value_sum[j])
                proof = proof_name(int(tree.proven[j]), who)
                if proof and ch["proven"] is None:
                    ch["proven"], ch["plies"] = proof, int(tree.proven_plies[j]) + 1
        children = []
        for ch in merged.values():
            vs = ch.pop("value_sum")
            ch["value"] = vs / ch["visits"] if ch["visits"] else 0.0
            children.append(ch)
        children.sort(key=lambda ch: (ch["proven"] != "win", -ch["visits"], -ch["value"]))
        best = choose(children)
        value = {"win": 1.0, "draw": 0.5, "loss": 0.0}.get(best["proven"], best["value"])
        proved = [w.tree for w in self.workers if w.tree.proven[ROOT] != 0]
        root_proof = proof_name(int(proved[0].proven[ROOT]), who) if proved else None
        trees = [w.tree for w in self.workers]
        return SearchResult(action=best["action"], move=best["move"], value=value,
                            children=children, pv=self.principal_variation(root, best["action"]),
                            playouts=sum(int(t.stats[2]) for t in trees), seconds=seconds,
                            nodes=sum(t.used for t in trees),
                            capacity=sum(t.capacity for t in trees),
                            max_depth=max(int(t.stats[1]) for t in trees), proven=root_proof,
                            reused=self._reused,
                            plies=int(proved[0].proven_plies[ROOT]) if proved else None)

    def principal_variation(self, root, first_action=None) -> list:
        """Moves along the most-visited path from the root (visited nodes only), starting with
        ``first_action`` if given, in the tree that visited that move most."""
        def visits_of(tree):
            j = tree.child_with_action(ROOT, first_action)
            return tree.visits[j] if j is not None else -1
        tree = max((w.tree for w in self.workers), key=visits_of) if first_action is not None \
            else self.tree
        state, pv, node = root.copy(), [], ROOT
        while True:
            kids = [j for j in tree.children(node) if tree.status[j] >= 0 and tree.visits[j] > 0]
            if node == ROOT and first_action is not None:
                kids = [j for j in kids if tree.action[j] == first_action]
            if not kids:
                return pv
            node = max(kids, key=lambda j: (tree.visits[j], tree.value_sum[j]))
            pv.append(self.game.format_move(int(tree.action[node]), state))
            self.kernels.apply_action(state, int(tree.action[node]))

    def close(self):
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


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
    w = _Worker(game, 2)
    state = game.initial_state()
    w.tree.reset(int(k.status(state)), 1 - int(k.to_play(state)))
    params = np.array([1.0, 1.0, 1.0, 1000.0, -1.0])
    for rave in (1.0, 0.0):
        params[2] = rave
        k.run_playouts(state, 1, params, new_rng(0), *w.args())
    k.random_playouts(state, 1, new_rng(0), state.copy(), np.zeros(4, dtype=np.int64))
    k.legal_actions(state, w.buf)
    k.apply_action(state.copy(), int(w.buf[0]))
