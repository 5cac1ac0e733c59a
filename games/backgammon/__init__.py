"""Backgammon (OpenSpiel's rules and action encoding, dice rolls as chance positions): the
kernels, state layout and action encoding (:mod:`games.backgammon.kernels`), the notation
(:mod:`games.backgammon.notation`) and the Python face (:mod:`games.backgammon.game`)."""
from games.backgammon.game import Backgammon  # noqa: F401
