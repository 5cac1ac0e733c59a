"""The game contract, importable under its first name for existing plug-ins: it lives in
:mod:`games.contract`."""
from games.contract import (DRAW, FIRST_WINS, ILLEGAL, KERNEL_NAMES, OPTIONAL_KERNELS,  # noqa: F401
                            ONGOING, RESULTS, SECOND_WINS, Game, Param, game_from_spec, spec_of)
