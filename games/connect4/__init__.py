"""Connect Four: the kernels and bitboards (:mod:`games.connect4.kernels`, the rules in its
docstring), the exact solver (:mod:`games.connect4.solver`) and the Python face
(:mod:`games.connect4.game`)."""
from games.connect4.game import Connect4  # noqa: F401
