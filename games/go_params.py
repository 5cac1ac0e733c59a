"""The parameters of a Go game (:class:`games.go_game.Go`), as the contract declares them
(:class:`games.contract.Param`): each becomes a keyword of ``Go(...)`` and a flag of the
commands (``--size``, ``--playout-policy``, ``--priors``, ...), checked and normalised in
one place. What the playout policies and priors do: :mod:`games.go` and :mod:`games.go_prior`.
"""
from games import go_score
from games.contract import Param
from games.go import DEFAULT_POLICY
from games.go_board import MAX_SIZE, MIN_SIZE

PARAMETERS = (
    Param("size", int, 9, "board size", low=MIN_SIZE, high=MAX_SIZE),
    Param("komi", float, 7.5, "komi (points added to White's area count; an integer komi "
          "allows a draw)", low=-1000, high=1000, multiple_of=0.5),
    Param("handicap", int, 0, "handicap stones (0, or 2 to 9 on the fixed points)",
          low=0, high=9),
    Param("playout_policy", str, DEFAULT_POLICY,
          "playout policy: patterns (captures, atari defence, MoGo's 3x3 patterns, no big "
          "self-ataris), patterns2 (patterns also around the mover's previous stone), "
          "nakade (patterns and the vital point of small eye spaces), patterns2-nakade "
          "(both), twolib (patterns and Pachi's two-liberty attack and defence), global "
          "(patterns, then capture or save a group in atari anywhere), twolib-global, ko "
          "(the default: patterns that first fight a fresh ko, as Pachi's Moggy), rated "
          "(ko, with the local rules at Moggy's rates and the patterns of both last moves "
          "at once), rated-tactics (rated with the two-liberty and nakade rules), shapes "
          "(ko with Pachi's weighted 3x3 shapes), shapes2 (shapes around both last "
          "moves), shapes-tactics (rated-tactics with the shapes), ko-selfatari and "
          "shapes-selfatari (ko and shapes reading self-ataris in the random moves as "
          "Moggy), rated-selfatari and rated-tactics-selfatari (rated and rated-tactics "
          "with that reading) or "
          "uniform (uniform random moves that keep their own eyes)",
          choices=("patterns", "patterns2", "nakade", "patterns2-nakade", "twolib", "global",
                   "twolib-global", "ko", "rated", "rated-tactics", "shapes", "shapes2",
                   "shapes-tactics", "ko-selfatari", "shapes-selfatari", "rated-selfatari",
                   "rated-tactics-selfatari", "uniform")),
    Param("priors", bool, True, "prior knowledge for new tree nodes (captures and saves of "
          "groups short of liberties, ladders, patterns, no self-ataris, edges; joins the "
          "move's own statistics, or seeds the RAVE statistics with --prior-stats amaf)"),
    Param("rules", str, "tromp-taylor", "scoring: tromp-taylor (the board as it stands, "
          "every stone counted) or chinese (dead stones removed, White gets a point per "
          "handicap stone, as GNU Go's --chinese-rules)", choices=go_score.RULES),
)
