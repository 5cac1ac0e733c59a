"""The settings of a search, declared once.

Each search option is one :class:`Option` in :data:`OPTIONS`; everything else derives from
that table:

* :class:`SearchConfig`, the dataclass a front end fills and :class:`mcts.search.MCTS` reads
  (a field per option);
* the command-line flags of `play`, `analyze`, `gtp`, `match`, `arena`, `bench`
  (``frontends.search_flags``: a flag per option with ``flag`` set, its type, bounds, choices
  and help from the declaration);
* the validation (:meth:`Option.parse`, called by ``mcts.checks.check_config``);
* a game's defaults: an option with ``per_game`` takes the game's ``search_defaults`` entry
  when the user gives none (:func:`resolve`);
* the compiled loop's parameters: an option with ``slot`` is a field of :class:`Params`, the
  named tuple of float64 that ``run_playouts`` receives (``params.rave`` and so on).

Adding an option is one declaration here, plus its use in the compiled loop when it has a slot.
"""
import dataclasses
from collections import namedtuple
from dataclasses import dataclass

from games.contract import Param

DEFAULT_EXPLORATION = 0.7
DEFAULT_CAPACITY = 4_000_000
PRIOR_STATS = ("amaf", "value", "both")      # prior_stats, in the order of its slot's code


@dataclass(frozen=True)
class Option(Param):
    """A search option: a :class:`games.contract.Param` (name, type, default, help, bounds,
    choices) with how the rest of the engine sees it.

    flag: the command-line flag (``"--" + name`` with dashes by default; None: no flag).
    per_game: a game may set its own default in ``Game.search_defaults``; ``default`` is the
        engine's when it does not.
    slot: a field of :class:`Params`, the compiled loop's parameters (bools and choices become
        floats: 1.0 / 0.0, the index of the choice).
    metavar: the flag's value in help texts.
    above: an exclusive lower bound (a number that must be positive: ``above=0``).
    """
    flag: str = ""
    per_game: bool = False
    slot: bool = False
    metavar: str = None
    above: float = None

    def allowed(self) -> str:
        if self.above is not None:
            return f"a number above {self.above:g}"
        return super().allowed()

    def parse(self, value):
        v = super().parse(value)
        if self.above is not None and not v > self.above:
            raise ValueError(f"{self.name} must be {self.allowed()}, got {value!r}")
        return v

    @property
    def dest(self) -> str:
        """The attribute of parsed command-line arguments."""
        return self.flag[2:].replace("-", "_") if self.flag else self.name

    def __post_init__(self):
        if self.flag == "":
            object.__setattr__(self, "flag", "--" + self.name.replace("_", "-"))


OPTIONS = (
    Option("exploration", float, None, "UCT exploration constant c in mean + c sqrt(ln N / n), "
           "rewards in [0, 1] (0: none) (default: the game's; 0.7, with RAVE 0.05)",
           low=0, per_game=True, slot=True),
    Option("rave_exploration", float, 0.05, "the exploration constant with RAVE on, unless "
           "the user sets one (AMAF already spreads the search)", low=0, flag=None,
           per_game=True),
    Option("capacity", int, DEFAULT_CAPACITY, "tree capacity in nodes", low=1, flag="--nodes"),
    Option("seed", int, 0, "random seed: the same seed and playout budget give the same "
           "search (default 0)"),
    Option("threads", int, 1, "search threads (default: all cores; 1 for exactly "
           "reproducible time-limited searches)", low=1),
    Option("parallel", str, None, "how threads share the search: one shared tree with virtual "
           "loss, or a tree each, summed at the root (default: tree, root for a game whose "
           "transposition table is in use, Connect Four)", choices=("tree", "root")),
    Option("solver", bool, True, "MCTS-Solver: proven wins, losses and draws propagate",
           flag=None, slot=True),
    Option("reuse", bool, True, "keep the subtree of the moves played for the next search",
           flag=None),
    Option("rave", bool, False, "RAVE / all-moves-as-first statistics in selection (default: "
           "the game's; on for Go)", per_game=True, slot=True),
    Option("rave_k", float, 1000.0, "RAVE equivalence parameter k of b = sqrt(k / (3n + k)) "
           "(default: the game's, 1000)", above=0, per_game=True, slot=True),
    Option("rave_first_play", bool, False, "AMAF counts a move only when its player was the "
           "first to play it after the node (MoGo's rule) (default: the game's; on for Go)",
           per_game=True, slot=True),
    Option("prior_stats", str, "amaf", "where a game's prior knowledge counts: as AMAF "
           "playouts, as the move's own playouts, or both (default: the game's; without RAVE "
           "only 'value' and 'both' use them)", choices=PRIOR_STATS, per_game=True, slot=True),
    Option("transpositions", bool, True, "share the statistics of positions reached by "
           "different move orders (for games with a position key, such as Connect Four)",
           slot=True),
    Option("early_stop", bool, True, "with a time budget, stop once the most visited move "
           "cannot be overtaken in the time left"),
    Option("solve_nodes", float, 0.0, "for games with an exact solver (Connect Four): its "
           "budget in nodes per visit of a tree node (0: off; default: the game's)", low=0,
           per_game=True, slot=True, metavar="N"),
    Option("ownership", bool, False, "sum who owns each point at the end of every "
           "simulation, for a game with an ownership kernel (SearchResult.ownership; Go's "
           "kata-analyze ownership, final_status_list); off, the search pays nothing",
           flag=None, slot=True),
    Option("solve_from", int, 1, "visits of a tree node at the solver's first call (then at "
           "each doubling)", low=1, flag=None, slot=True),
)
BY_NAME = {o.name: o for o in OPTIONS}

# Slots of the compiled loop's parameters beyond the options: the action kept out of AMAF
# (the game's pass, or -1), whether several threads share this tree, whether the playouts use
# the learned policy, and the most solver nodes of one call (set per batch from the time left).
DERIVED_SLOTS = ("no_amaf", "shared", "learned", "solve_cap")
Params = namedtuple("Params", [o.name for o in OPTIONS if o.slot] + list(DERIVED_SLOTS))
Params.__doc__ = ("The compiled loop's parameters, all float64: one field per option with a "
                  "slot (bools 1.0 / 0.0, prior_stats the index of its choice in PRIOR_STATS) "
                  "and the derived slots " + ", ".join(DERIVED_SLOTS) + ".")


def _config_fields():
    fields = []
    for o in OPTIONS:
        if o.flag is None and o.per_game:
            continue                    # a game's default only (rave_exploration)
        default = None if o.per_game or o.name == "parallel" else o.default
        fields.append((o.name, object, dataclasses.field(default=default)))
    fields.append(("playout_weights", object, dataclasses.field(default=None)))
    return fields


SearchConfig = dataclasses.make_dataclass("SearchConfig", _config_fields())
SearchConfig.__module__ = __name__
SearchConfig.__doc__ = (
    "Settings of a search: a field per option of :data:`OPTIONS` (None, for an option a game "
    "may set, takes the game's ``search_defaults`` or the engine's default; see "
    ":func:`resolve`), and ``playout_weights``: float64 ``(game.num_features,)``, playouts of "
    "the learned softmax policy over the game's ``move_features`` (mcts.playout_template, "
    "``cli.py train``) instead of the game's own; None: the game's own.\n\n"
    + "\n".join(f"{o.name}: {o.help}" for o in OPTIONS if o.flag is not None or not o.per_game))


def game_default(game, name):
    """The game's default for option ``name``: its ``search_defaults`` entry, else the
    engine's (``Option.default``)."""
    return game.search_defaults.get(name, BY_NAME[name].default)


def resolve(config, game, expected_playouts=None) -> dict:
    """The value of every option for ``config`` on ``game``: the config's, else the game's
    (``search_defaults``), else the engine's. ``exploration`` left open is the game's
    ``rave_exploration`` with RAVE on, else its ``exploration`` (0.7 unless it says);
    ``prior_stats`` left open is ``game.prior_stats_for(expected_playouts)`` (the playouts
    this search is expected to run; None: unknown) when the game says."""
    values = {}
    for o in OPTIONS:
        v = getattr(config, o.name, None)
        values[o.name] = game_default(game, o.name) if v is None else v
    if config.exploration is None:
        values["exploration"] = (game_default(game, "rave_exploration") if values["rave"]
                                 else game.search_defaults.get("exploration",
                                                               DEFAULT_EXPLORATION))
    if config.prior_stats is None:
        values["prior_stats"] = (game.prior_stats_for(expected_playouts)
                                 or values["prior_stats"])
    for name in off_for(game):
        values[name] = False
    return values


def off_for(game) -> dict:
    """Options a game's nature turns off, with the reason (one line each): the MCTS-Solver
    for a game with chance or more than two players (its proofs are two-player minimax over
    moves, not expectations over outcomes or max-n), transpositions for a game with chance
    (a chance node's statistics are averages over its outcomes, not a position's)."""
    chance = bool(getattr(game, "chance", False))
    off = {}
    if chance or game.num_players != 2:
        off["solver"] = ("the MCTS-Solver is off: its proofs are two-player minimax, not "
                         + ("expectations over chance outcomes" if chance else "max-n"))
    if chance:
        off["transpositions"] = ("transpositions are off: a chance node's statistics average "
                                 "over its outcomes")
    return off


def encode(name, value) -> float:
    """An option's value as its float64 slot of :class:`Params`."""
    o = BY_NAME[name]
    if o.choices:
        return float(o.choices.index(value))
    return float(value)
