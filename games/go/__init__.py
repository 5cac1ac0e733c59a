"""Go on square boards from 5x5 to 19x19, with area scoring, positional superko and handicaps.

Reading guide (the modules of this package, read in this order):

* :mod:`games.go.kernels` - the rules, written out in its docstring, and the compiled
  contract kernels (``to_play``, ``status``, ``legal_actions``, ``apply_action``, ``playout_action``,
  ``rollout``, ``rollout_record``, ``prior``, ``move_features``); ``Go.kernel_module``.
* :mod:`games.go.board` - the state array, incremental groups with O(1) atari tests, the
  position history; :mod:`games.go.area` - the area count that ends a playout.
* :mod:`games.go.playout` - the playouts (the ``ko`` and ``uniform`` policies, the mercy
  rule); :mod:`games.go.policy` - the local answers to the last move and MoGo's 3x3
  patterns; :mod:`games.go.libs` - liberty facts; :mod:`games.go.ladder` - ladders.
* :mod:`games.go.prior` and :mod:`games.go.assess` (with :mod:`games.go.twolib`) - the prior
  knowledge of new tree nodes.
* :mod:`games.go.features` - the move features of the learned playout policy.
* :mod:`games.go.game` - the Python face, :class:`Go`, with its parameters
  (:mod:`games.go.params`), the end-of-game count (:mod:`games.go.count` over
  :mod:`games.go.score`), notation (:mod:`games.go.notation`) and SGF (:mod:`games.go.sgf`).
"""
from games.go.game import Go

__all__ = ["Go"]
