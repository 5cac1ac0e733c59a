"""Who owns each point of a Go position, from a search: the statistics behind the GTP engine's
``final_status_list``, ``final_score`` (under Chinese rules) and ``mcts-ownership`` at the end
of a game.

A search of the position with the ``ownership`` option sums, at the end of every simulation,
who owns each point (the ``ownership`` kernel of :mod:`games.go.kernels`, which plays on from
where the simulation ended until every point is settled; Pachi's ownermap and Fuego's
territory statistics work so). Two settings make that search fit a finished game, where every
move of the side that has lost loses alike:

* its tree's moves are the playout policy's candidates (``POLICY_TREE``: no own-eye fill, no
  self-atari of two stones or more; Fuego's tree leaves out own-eye fills too). Without it the
  losing side's tree fills its own eyes, its only moves left: measured at 1,000 playouts, 34
  stones of one 9x9 game and 17 of one 19x19 game called dead that GNU Go calls alive;
* the MCTS-Solver is off: a proof of the root (a pass that wins) would end the search before
  its statistics.

On the 50 9x9 and 20 19x19 finished games of ``benchmarks/lab/data/final_status`` its
statuses at ``FINAL_PLAYOUTS`` agree with GNU Go's on 2,766 of 2,768 and 5,999 of 5,999
stones (as the 400 playouts of :meth:`games.go.count.Counting.settle` did), in about 0.05 s
(9x9) and 0.2 s (19x19) a position.
:class:`OwnershipJudge` runs those searches on a tree of its own (the game's tree for the next
move is kept), one thread, the session's seed and a fixed budget, so the same position gets
the same statistics; it keeps them per position, so that ``final_status_list dead`` and
``final_score`` always agree in a session.
"""
import dataclasses

import numpy as np

from games.contract import ONGOING
from games.go.board import F_POLICY, POLICY_TREE, POLICY_UNIFORM

FINAL_PLAYOUTS = 1000       # simulations behind a final_status_list (measured: see docs/go.md)


class OwnershipJudge:
    """``judge(state, playouts, alternate) -> (own, dame)`` for
    :meth:`games.go.count.Counting.stone_status`: float ``(n, n)`` each, row 0 on top, the
    mean owner of each point at the end of the simulations (+1 Black) and the share of them
    in which it ended owned by neither (a dame or a seki's shared liberty), from a search of
    ``playouts`` simulations of ``state``: half with Black to move and half with White if
    ``alternate`` (the end of a game should not hang on who passed last), else the player to
    move. A position that cannot be played on (the move cap) gets zeros, as
    :meth:`games.go.count.Counting.settle` gives it.

    ``game``: the :class:`games.go.game.Go`; ``config``: the player's
    :class:`mcts.SearchConfig` (its settings and seed are kept; one thread, the ownership
    option on, no MCTS-Solver, a tree sized for the budget; the moves of the tree are the
    playout policy's candidates, see the module docstring)."""

    def __init__(self, game, config):
        self.game = game
        self.config = dataclasses.replace(config, threads=1, ownership=True, reuse=False,
                                          solver=False)
        self._engine = None
        self._capacity = 0
        self._cache = {}

    def __call__(self, state, playouts, alternate):
        g = self.game
        key = (state.tobytes(), int(playouts), bool(alternate), g.rules)
        if key not in self._cache:
            self._cache[key] = self._statistics(state, int(playouts), bool(alternate))
        own, dame = self._cache[key]
        return own.copy(), dame.copy()

    def _statistics(self, state, playouts, alternate):
        g = self.game
        n = g.size
        roots = []
        for player in ((0, 1) if alternate else (g.to_play(state),)):
            root = state.copy()
            if int(root[F_POLICY]) != POLICY_UNIFORM:
                root[F_POLICY] |= POLICY_TREE   # the tree's moves: the playouts' candidates
            if not g.reopen(root):
                break
            g.set_to_play(root, player)
            roots.append(root)
        own, dame = np.zeros(n * n + 1), np.zeros(n * n + 1)
        counted = 0
        for i, root in enumerate(roots):
            share = playouts // len(roots) + (1 if i < playouts % len(roots) else 0)
            if share < 1 or int(g.status(root)) != ONGOING:
                continue
            result = self._engine_for(playouts).search(root, playouts=share)
            if result.ownership_playouts:
                own += result.ownership * result.ownership_playouts
                dame += result.neutral * result.ownership_playouts
                counted += result.ownership_playouts
        if counted:
            own, dame = own / counted, dame / counted
        return own[:n * n].reshape(n, n), dame[:n * n].reshape(n, n)

    def _engine_for(self, playouts):
        """The judge's search, its tree large enough for ``playouts`` (a node's children
        are made at its second visit)."""
        from mcts import MCTS
        need = min(self.config.capacity, playouts * self.game.num_actions // 2
                   + 2 * self.game.num_actions)
        if self._engine is None or self._capacity < need:
            if self._engine is not None:
                self._engine.close()
            self._engine = MCTS(self.game, dataclasses.replace(self.config, capacity=need),
                                log=None)
            self._capacity = need
        return self._engine
