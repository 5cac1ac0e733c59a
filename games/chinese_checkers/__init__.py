"""Chinese Checkers for 2, 3, 4 or 6 players (OpenSpiel's rules): the kernels
(:mod:`games.chinese_checkers.kernels`, the rules, state layout and action encoding in its
docstring) and the Python face (:mod:`games.chinese_checkers.game`)."""
from games.chinese_checkers.game import ChineseCheckers  # noqa: F401
