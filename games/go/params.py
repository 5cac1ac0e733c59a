"""The parameters of a Go game (:class:`games.go.game.Go`), as the contract declares them
(:class:`games.contract.Param`): each becomes a keyword of ``Go(...)`` and a flag of the
commands (``--size``, ``--playout-policy``, ``--priors``, ...), checked and normalised in
one place. What the playout policies and priors do: :mod:`games.go.kernels` and
:mod:`games.go.prior`.
"""
from games.go import score as go_score
from games.contract import Param
from games.go.kernels import DEFAULT_POLICY
from games.go.board import MAX_SIZE, MIN_SIZE

PARAMETERS = (
    Param("size", int, 9, "board size", low=MIN_SIZE, high=MAX_SIZE),
    Param("komi", float, 7.5, "komi (points added to White's area count; an integer komi "
          "allows a draw; with whole-point area counts a fraction decides as the half point "
          "between its integers, e.g. 6.3 as 6.5, which the search uses)", low=-1000,
          high=1000),
    Param("handicap", int, 0, "handicap stones (0, or 2 to 9 on the fixed points)",
          low=0, high=9),
    Param("playout_policy", str, DEFAULT_POLICY,
          "playout policy: ko (captures, atari defence, MoGo's 3x3 patterns and no big "
          "self-ataris, after fighting a fresh ko first, as Pachi's Moggy) or uniform "
          "(uniform random moves that keep their own eyes)", choices=("ko", "uniform")),
    Param("priors", bool, True, "prior knowledge for new tree nodes (captures and saves of "
          "groups short of liberties, ladders, patterns, no self-ataris, edges; joins the "
          "move's own statistics, or seeds the RAVE statistics with --prior-stats amaf)"),
    Param("rules", str, "chinese", "scoring: chinese (by area with dead stones removed, "
          "White gets a point per handicap stone, as GNU Go's --chinese-rules), aga (the "
          "same, White gets a point per handicap stone after the first) or tromp-taylor (the "
          "board as it stands, every stone counted)", choices=go_score.RULES),
)
