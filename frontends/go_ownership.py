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


def attach_judge(game, config):
    """Give a Go ``game`` the dead-stone judge of the search (an :class:`OwnershipJudge` of
    ``config``, :class:`mcts.SearchConfig`, at ``FINAL_PLAYOUTS``) that GTP's
    ``final_status_list`` uses, so that every count of ``play``, ``analyze`` and GTP is the
    same; other games are left as they are."""
    if hasattr(game, "use_judge"):
        game.use_judge(OwnershipJudge(game, config), FINAL_PLAYOUTS)


class SessionOwnership:
    """Methods of :class:`frontends.go_session.GoSession` that read ownership: the maps of its
    searches and the dead stones at the end (one :class:`OwnershipJudge` per game and seed)."""

    def ownership_of(self, result):
        """The ownership map of a search ``result``: float ``(n, n)``, row 0 on top, the mean
        owner of each point at the end of its playouts (+1 Black); zeros if it summed none."""
        n = self.game.size
        if result.ownership is None:
            return np.zeros((n, n))
        return result.ownership[:n * n].reshape(n, n)

    def ownership_map(self):
        """GoGui's ``mcts-ownership``: the ownership of the last search (:meth:`latest`),
        searching its position again with the ownership sums on if it has none; at the end
        of a game, the statistics of :meth:`final_status`."""
        self.ready.wait()
        if int(self.rules.status(self.state)) != ONGOING:
            return self.judge()(self.state, FINAL_PLAYOUTS, True)[0]
        if self.last is None or self.last[1].ownership is None:
            pos = self.state.copy() if self.last is None else self.last[0]
            self.ownership = True
            try:
                self.search(pos, self.player.budget)
            finally:
                self.ownership = False
        return self.ownership_of(self.last[1])

    def judge(self):
        """The ownership searches behind the dead stones (frontends.go_ownership), kept per
        game and seed, with their statistics per position."""
        j = self._judge
        if j is None or j.game is not self.game or j.config.seed != self.seed:
            attach_judge(self.game, self.player.search_config(self.game, self.seed))
            self._judge = self.game.judge       # every count of the game goes by it
        return self._judge

    def dead_stones(self, pos):
        """``(colour, points, status)`` per chain of ``pos`` by the dead-stone estimate, whatever
        the rules: the statistics of :meth:`judge` (those of ``final_status_list``)."""
        return self.game.stone_status(pos, FINAL_PLAYOUTS, self.seed, self.judge())

    def final_status(self):
        """``(colour, points, status)`` per chain, under the rules in force, judged from the
        ownership statistics of a search of the position (:meth:`judge`)."""
        self.ready.wait()
        return self.game.final_status(self.state, seed=self.seed, judge=self.judge(),
                                      playouts=FINAL_PLAYOUTS)

    def final_result(self):
        """The result under the rules in force; the Tromp-Taylor count needs no compiled code,
        the Chinese one (the dead stones of :meth:`final_status`) waits for the kernels."""
        if self.game.rules == "tromp-taylor":
            return self.rules.final_result(self.state)
        self.ready.wait()
        return self.game.final_result(self.state, seed=self.seed, judge=self.judge(),
                                      playouts=FINAL_PLAYOUTS)
