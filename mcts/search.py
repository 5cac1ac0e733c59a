"""Monte Carlo Tree Search over any game of the contract in :mod:`games.contract`.

The select-expand-playout-backpropagate loop runs in compiled batches (see ``uct_template.py``);
Python only sizes the batches, watches the clock between them (nopython code has no clock) and
reads the result out of the tree arrays.
"""
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from games.contract import CHANCE, ONGOING
from games.rng import new_rng, split_seed
from mcts.chance import root_mover
from mcts.checks import check_config, check_weights  # noqa: F401  (re-exported)
from mcts.config import (DEFAULT_CAPACITY, DEFAULT_EXPLORATION, OPTIONS,  # noqa: F401
                         Params, SearchConfig, encode, resolve)
from mcts.loading import _Worker, load_kernels  # noqa: F401  (load_kernels re-exported)
from mcts.results import ChildStats, Proof, SearchResult, choose
from mcts.tree import (NO_ACTION, NO_CHILDREN, NOT_PROVEN, ROOT, S_AMAF_STAMP,  # noqa: F401
                       S_MAX_DEPTH, Tree, set_weights)

_BATCH_SECONDS = 0.02          # a compiled batch lasts about this long, so Ctrl-C stays prompt
_SOLVE_SECONDS = 0.25          # ... and one call of a game's exact solver about at most this
_FIRST_SOLVE_CAP = 10_000.0    # solver nodes of one call in the first batch of a timed search


def decided(tree, playouts_left: float) -> bool:
    """True if no other root move can reach the most visited one's count in
    ``playouts_left`` more playouts (and the tree has a few hundred playouts to judge)."""
    kids = tree.children(ROOT)
    if len(kids) < 2 or tree.playouts < 500:
        return len(kids) == 1 and tree.playouts >= 1
    visits = np.sort(tree.visits[kids.start:kids.stop])
    return visits[-1] - visits[-2] > playouts_left


class GameOverError(ValueError):
    """Raised when asked to search a position whose game has ended."""


class MCTS:
    """UCT search with MCTS-Solver for ``game`` (a :class:`games.contract.Game`).

    Loading compiles the search kernels on the first run for this game's sources and says so on
    ``log`` (stderr by default); later processes load them from numba's disk cache. Memory:
    ``config.capacity * Tree.bytes_per_node(keyed)`` bytes, whatever the number of threads
    (keyed: the game has ``position_key``, so each tree has a transposition table). Raises
    ``ValueError`` for fewer than one thread, a tree too small for one expansion per thread,
    or one larger than 90 % of this machine's RAM."""

    def __init__(self, game, config: SearchConfig = None, log=sys.stderr):
        self.game = game
        self.config = config or SearchConfig()
        check_config(game, self.config)
        self.kernels = load_kernels(game, log)
        self.log = log
        self._said_full = False    # the note that the tree is full is given once
        t = self.config.threads
        keyed = bool(self.kernels.HAS_KEY)
        self.shared = t > 1 and self.parallel == "tree"
        need = self.config.capacity * Tree.bytes_per_node(keyed)
        try:
            if self.shared:
                tree = Tree(self.config.capacity, keyed)
                self.workers = [_Worker(game, 0, keyed, self.config.playout_weights, tree)
                                for _ in range(t)]
            else:
                self.workers = [_Worker(game, self.config.capacity // t, keyed,
                                        self.config.playout_weights) for _ in range(t)]
        except MemoryError:
            raise ValueError(f"cannot allocate a tree of {self.config.capacity:,} nodes "
                             f"({need / 2**30:.1f} GiB): give fewer nodes") from None
        self._pool = ThreadPoolExecutor(t) if t > 1 else None
        self._root = None          # position of the last search (for tree reuse)
        self._reused = 0           # nodes kept by the last search
        self._rate = None          # playouts a second of the last search (None: none yet)
        self._expected = None      # playouts this search is expected to run (None: unknown)
        self._moves = []           # moves played since (see advance)

    @property
    def tree(self):
        """The tree of the first (or only) thread."""
        return self.workers[0].tree

    @property
    def trees(self):
        """The trees searched: one if shared (or one thread), else one per thread."""
        return [self.workers[0].tree] if self.shared else [w.tree for w in self.workers]

    @property
    def parallel(self) -> str:
        """How threads share the search: "tree" or "root" (see SearchConfig.parallel)."""
        if self.config.parallel is not None:
            return self.config.parallel
        keyed = bool(self.kernels.HAS_KEY) and self.config.transpositions
        return "root" if keyed else "tree"

    def forget(self):
        """Drop the tree kept for reuse: the next search starts afresh (a new game, a position
        set up from outside, a colour switched)."""
        self._root, self._moves = None, []

    def reseed(self, seed: int):
        """Seed the searches from now on with ``seed`` (each search starts from it)."""
        self.config.seed = int(seed)

    def set_playout_weights(self, weights):
        """Use the learned playout policy of ``weights`` (float64 (num_features,)) from the
        next search on, or the game's own policy for None (no recompilation either way)."""
        check_weights(self.game, weights)
        self.config.playout_weights = weights
        if weights is not None:
            for w in self.workers:
                w.work = set_weights(self.game, w.work, weights)

    def advance(self, action: int):
        """Tell the engine that ``action`` was played from the current position (by either
        side), so that the next search can start from the subtree already built for it."""
        if self._root is not None:
            self._moves.append(int(action))

    def search(self, state, playouts: int = None, seconds: float = None, resume: bool = False,
               early_stop: bool = None) -> SearchResult:
        """Search ``state`` (not modified) for ``playouts`` playouts or ``seconds`` of wall time
        from the call, re-rooting for tree reuse included (whichever is given; both: the
        first reached). Stops early once the root is proven (with
        root parallelisation and a playout budget, each tree at its own proof, so that the
        result stays reproducible).
        ``resume``: if ``state`` is the root of the last search and no move was played since,
        go on growing that tree (live analysis, pondering) instead of starting afresh; the
        result then counts every playout since the tree's root was set. ``early_stop``
        overrides the config's for this search (analysis runs to its deadline).
        Raises ``GameOverError`` if the game has ended and ``ValueError`` for a budget that is
        not positive."""
        if playouts is None and seconds is None:
            raise ValueError("give a budget: playouts or seconds")
        if (playouts is not None and playouts < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("the search budget must be positive")
        k, g = self.kernels, self.game
        st = int(k.status(state))
        if st != ONGOING:
            raise GameOverError(f"the game is over ({g.summary(state)}): nothing to search")
        t0 = time.perf_counter()                # the budget counts re-rooting for reuse too
        deadline = None if seconds is None else t0 + seconds
        root = np.ascontiguousarray(state).copy()
        if not (resume and self._continues(root)):
            self._prepare(root, st)
        # What the game's prior placement may go by: unknown for a resumed search (analysis
        # and pondering grow one tree through many short steps).
        self._expected = None if resume else playouts if playouts is not None else \
            None if self._rate is None else seconds * self._rate
        stop = threading.Event()
        n = len(self.workers)
        shares = [None] * n if playouts is None else \
            [playouts // n + (1 if i < playouts % n else 0) for i in range(n)]
        stop_early = self.config.early_stop if early_stop is None else early_stop
        stop_early = stop_early and int(k.to_play(root)) != CHANCE  # nothing to choose
        for w in self.workers:
            w.work.mark[:] = -1
        for tree in self.trees:
            tree.stats[S_AMAF_STAMP] = 0
        if self._pool is None:
            self._run(self.workers[0], root, shares[0], deadline, stop, stop_early)
        else:
            jobs = [self._pool.submit(self._run, w, root, shares[i], deadline, stop, stop_early)
                    for i, w in enumerate(self.workers)]
            try:
                for job in jobs:
                    job.result()
            except BaseException:
                stop.set()
                raise
        result = self._result(root, time.perf_counter() - t0)
        if result.seconds > 0.01 and result.proof is None and not resume:
            self._rate = result.playouts / result.seconds
        self._note_if_full()
        return result

    def _note_if_full(self):
        """Say once on the log when a tree has no room left for another expansion: playouts
        then go on from its leaves without growing it (the search is weaker than its budget)."""
        if self._said_full or self.log is None:
            return
        full = [t for t in self.trees if t.used + self.game.num_actions > t.capacity]
        if full:
            self._said_full = True
            keyed = bool(self.kernels.HAS_KEY)
            print(f"note: the search tree is full ({self.config.capacity:,} nodes, "
                  f"{self.config.capacity * Tree.bytes_per_node(keyed) / 2**20:,.0f} MiB); "
                  "later playouts no longer grow it: give more nodes (--nodes) or a shorter "
                  "search", file=self.log, flush=True)

    def _continues(self, root):
        """True if the trees are those of ``root``, with no move played since."""
        return (self.config.reuse and self._root is not None and not self._moves
                and np.array_equal(self._root, root))

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
                for tree in self.trees:
                    node = ROOT
                    for a in self._moves:
                        node = tree.child_with_action(node, a) if node is not None else None
                    nodes.append(node)
        self._reused = 0
        for i, tree in enumerate(self.trees):
            node = nodes[i] if nodes is not None else None
            if node is not None and tree.first_child[node] == NO_CHILDREN:
                node = None                 # nothing below it to keep (a leaf, or a proof)
            if node is not None:
                tree.reroot(node)
                tree.unprove_root()         # a proof of the exact solver: prove it by moves
                self._reused += tree.used
            else:
                tree.reset(st, self._root_mover(root))
        for i, w in enumerate(self.workers):
            if nodes is None and len(w.work.solve_table) > 1:
                w.work.solve_table.fill(0)  # not a game's next move: depend on nothing before
            w.rng = new_rng(cfg.seed if i == 0 else split_seed(cfg.seed, i))
            w.work.owned.fill(0.0)          # ownership belongs to one root: a new one (even
            w.work.owned_count[0] = 0       # a reused subtree's) starts its sums afresh
            w.work.owned_rng[:] = new_rng(split_seed(cfg.seed, len(self.workers) + i))
        self._root, self._moves = root.copy(), []

    def _root_mover(self, root) -> int:
        """The mover of a fresh root (mcts.chance.root_mover)."""
        return root_mover(self.game, int(self.kernels.to_play(root)))

    def _run(self, w, root, playouts, deadline, stop, early_stop):
        """Batches of compiled iterations on worker ``w`` until its budget is spent."""
        k, tree = self.kernels, w.tree
        params = self.params()
        threads = len(self.workers) if self.shared else 1     # threads growing this tree
        t0 = time.perf_counter()
        done, batch = 0, 64
        solving = params.solve_nodes > 0 and params.solver != 0.0
        if deadline is not None and params.solve_nodes > 0:
            batch = 16                      # before the rate is known: small solver calls
            params = params._replace(solve_cap=min(params.solve_nodes * batch,
                                                   _FIRST_SOLVE_CAP))
        while (playouts is None or done < playouts) and not stop.is_set():
            n = batch if playouts is None else min(batch, playouts - done)
            started = time.perf_counter()
            done += k.run_playouts(root, n, params, w.rng, tree.arrays, w.work)
            if tree.proven[ROOT] != NOT_PROVEN:
                if self.shared or playouts is None:
                    stop.set()              # a proof ends every thread's search ...
                break                       # ... but not other trees' playout budgets: each
                                            # tree then ends as it would alone (reproducible)
            now = time.perf_counter()
            rate = done / max(now - t0, 1e-9)
            if deadline is not None:
                left = deadline - now
                if left <= 0.002 + 1.0 / rate:
                    break
                if early_stop and not solving and decided(tree, threads * rate * left):
                    break
                batch = max(1, int(rate * min(_BATCH_SECONDS, 0.8 * left)))
                # One solver call's nodes: doubled after a batch that ended in time, halved
                # after one that did not (no call can know the clock), and never more than
                # the iterations that fit in the time left would spend; so a call ends about
                # by the deadline and Ctrl-C is seen within about _SOLVE_SECONDS.
                took = now - started
                cap = params.solve_cap * (2.0 if took < _SOLVE_SECONDS / 2 else 0.5)
                params = params._replace(solve_cap=max(1.0, min(
                    cap, params.solve_nodes * rate * min(left, _SOLVE_SECONDS))))
            else:
                batch = max(64, int(rate * _BATCH_SECONDS))

    def settings(self) -> dict:
        """The value of every search option in force (mcts.config.resolve): the config's,
        else the game's ``search_defaults``, else the engine's."""
        return resolve(self.config, self.game, self._expected)

    @property
    def rave(self) -> bool:
        return bool(self.settings()["rave"])

    @property
    def exploration(self) -> float:
        """The exploration constant in use: the config's, else the game's default for UCT or
        for RAVE."""
        return float(self.settings()["exploration"])

    def params(self) -> Params:
        """The parameters of the compiled loop (mcts.config.Params, float64 fields): the
        options in force, and the derived slots: a game's ``pass_action``, if it has one,
        is kept out of the AMAF statistics; no cap on a solver call unless a deadline sets
        one (see _run)."""
        values = self.settings()
        g = self.game
        slots = {o.name: encode(o.name, values[o.name]) for o in OPTIONS if o.slot}
        return Params(**slots,
                      no_amaf=float(NO_ACTION if g.pass_action is None else g.pass_action),
                      shared=float(self.shared),
                      learned=float(self.config.playout_weights is not None),
                      solve_cap=4.0e18)

    def _result(self, root, seconds) -> SearchResult:
        g = self.game
        who = int(self.kernels.to_play(root))
        merged, value_sums = {}, {}
        for tree in self.trees:
            for j in tree.children(ROOT):
                if tree.status[j] < 0:
                    continue
                a = int(tree.action[j])
                ch = merged.get(a)
                if ch is None:
                    ch = merged[a] = ChildStats(action=a, move=g.format_move(a, root))
                    value_sums[a] = 0.0
                ch.visits += int(tree.visits[j])
                value_sums[a] += float(tree.value_sum[j])
                proof = Proof.of(int(tree.proven[j]), who)
                if proof is not None and ch.proof is None:
                    ch.proof, ch.plies = proof, int(tree.proven_plies[j]) + 1
        children = list(merged.values())
        for ch in children:
            ch.value = value_sums[ch.action] / ch.visits if ch.visits else 0.0
        chance = who == CHANCE
        if chance:
            actions, probs = g.chance_outcomes(root)
            for a, p in zip(actions.tolist(), probs.tolist()):
                if a in merged:
                    merged[a].probability = p
        children.sort(key=lambda ch: (ch.proof is not Proof.WIN, -ch.visits, -ch.value))
        best = choose(children)
        value = best.proof.reward if best.proof is not None else best.value
        trees = self.trees
        proved = [t for t in trees if t.proven[ROOT] != NOT_PROVEN]
        root_proof = Proof.of(int(proved[0].proven[ROOT]), who) if proved else None
        return SearchResult(action=best.action, move=best.move, value=value, chance=chance,
                            player_values=self._player_values(who, children, root_proof),
                            children=children, pv=self.principal_variation(root, best.action),
                            playouts=sum(t.playouts for t in trees), seconds=seconds,
                            nodes=sum(t.used for t in trees),
                            capacity=sum(t.capacity for t in trees),
                            max_depth=max(int(t.stats[S_MAX_DEPTH]) for t in trees), reused=self._reused,
                            proof=Proof.of(int(proved[0].proven[ROOT]), who) if proved else None,
                            plies=int(proved[0].proven_plies[ROOT]) if proved else None,
                            **self._ownership())

    def _ownership(self) -> dict:
        """The ownership sums of the workers since the root was set (see
        :class:`mcts.results.SearchResult`): empty when the option is off or the game has no
        ``ownership`` kernel, None maps while no simulation was counted."""
        if not (self.kernels.HAS_OWNERSHIP and self.settings()["ownership"]):
            return {}
        counted = sum(int(w.work.owned_count[0]) for w in self.workers)
        if not counted:
            return {"ownership_playouts": 0}
        sums = sum(w.work.owned for w in self.workers)
        return {"ownership": sums[0] / counted, "neutral": sums[1] / counted,
                "ownership_playouts": counted}

    def _player_values(self, who, children, proof=None) -> list:
        """Each player's mean reward at the root (floats, num_players of them): from the
        reward vectors of the playouts for a game with chance or a ``returns`` kernel, else
        the side to move's mean over its moves (its ``proof``'s reward once the root is
        proven) and its opponent's complement."""
        n = self.game.num_players
        if self.kernels.GENERAL:
            playouts = sum(t.playouts for t in self.trees)
            sums = sum(t.player_sums[:n] for t in self.trees)
            return [float(s) / playouts if playouts else 0.0 for s in sums]
        visits = sum(ch.visits for ch in children)
        v = sum(ch.value * ch.visits for ch in children) / visits if visits else 0.5
        if proof is not None:
            v = proof.reward
        return [v if p == who else 1.0 - v for p in range(n)]

    def principal_variation(self, root, first_action=None) -> list:
        """Moves along the most-visited path from the root (visited nodes only, each once, at
        most ``max_length`` + 1), starting with ``first_action`` if given, in the tree that
        visited that move most. Below the root a move needs two visits: one playout's move (a
        new node tries each untried move, pass first, once) is no variation yet."""
        def visits_of(tree):
            j = tree.child_with_action(ROOT, first_action)
            return tree.visits[j] if j is not None else -1
        tree = max(self.trees, key=visits_of) if first_action is not None \
            else self.tree
        state, pv, node = root.copy(), [], ROOT
        seen = {ROOT}
        while len(pv) <= self.game.max_length:      # a graph over transpositions may cycle
            least = 1 if node == ROOT else 2
            kids = [j for j in tree.children(node) if tree.status[j] >= 0
                    and tree.visits[j] >= least and j not in seen]
            if node == ROOT and first_action is not None:
                kids = [j for j in kids if tree.action[j] == first_action]
            if not kids:
                return pv
            node = max(kids, key=lambda j: (tree.visits[j], tree.value_sum[j]))
            seen.add(node)
            pv.append(self.game.format_move(int(tree.action[node]), state))
            self.kernels.apply_action(state, int(tree.action[node]))
        return pv

    def close(self):
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
