"""Othello: the bitboard primitives (:mod:`games.othello.bits`), the kernels
(:mod:`games.othello.kernels`, the rules in its docstring) and the Python face
(:mod:`games.othello.game`)."""
from games.othello.game import Othello  # noqa: F401
