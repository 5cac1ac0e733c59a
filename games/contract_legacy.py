"""What the contract keeps for plug-ins written against its earlier versions: the per-option
default attributes of 2026-12-05 (moved into ``search_defaults`` with a warning), those of
retired options (ignored with a warning), and the constructor keywords of a game that declares
no parameters (flags again; ``check`` says what to declare). Part of the contract layer (used
by :mod:`games.contract`, which re-exports its public names)."""
import inspect
import warnings

from games.params import Param


# Class attributes of the contract of 2026-12-05 that gave a game's search defaults one by one,
# and their places now: a plug-in that still sets one keeps working (with a DeprecationWarning
# naming its replacement), the value moved into ``search_defaults``.
LEGACY_DEFAULTS = {"rave_default": "rave", "exploration_default": "exploration",
                   "rave_exploration_default": "rave_exploration", "rave_k_default": "rave_k",
                   "rave_first_play_default": "rave_first_play",
                   "prior_stats_default": "prior_stats", "solve_nodes_default": "solve_nodes"}
# ... and those of search options retired since (docs/experiments.md): ignored, with a warning.
RETIRED_DEFAULTS = ("rave_schedule_default", "rave_distance_default", "rave_ref_default",
                    "replies_default", "expand_visits_default", "criticality_default",
                    "score_bonus_default")
# Optional kernels of retired search options: a game may still define them; they are not used.
RETIRED_KERNELS = {"rollout_replies": "last-good-reply playouts", "owner": "criticality",
                   "score": "the score bonus"}


def _adopt_legacy_defaults(cls):
    """Move a subclass's old per-option attributes (``LEGACY_DEFAULTS``) into its
    ``search_defaults`` (an explicit ``search_defaults`` entry wins), warning once per
    attribute; warn that retired ones are ignored. The notes are kept in
    ``cls.contract_notes`` for `check` to show."""
    notes = []
    moved = {}
    for old, new in LEGACY_DEFAULTS.items():
        if old in vars(cls) and not isinstance(vars(cls)[old], property):
            moved[new] = vars(cls)[old]
            notes.append(f"{cls.__name__}.{old} is deprecated: write search_defaults = "
                         f"{{{new!r}: {vars(cls)[old]!r}, ...}} instead")
    for old in RETIRED_DEFAULTS:
        if old in vars(cls):
            notes.append(f"{cls.__name__}.{old} is ignored: that search option was retired "
                         "(docs/experiments.md); remove it")
    if moved:
        cls.search_defaults = {**cls.search_defaults, **moved,
                               **vars(cls).get("search_defaults", {})}
    cls.contract_notes = tuple(notes)
    for note in notes:
        warnings.warn(note, DeprecationWarning, stacklevel=3)


def _legacy_reader(old, new):
    def read(self):
        warnings.warn(f"Game.{old} is deprecated: read search_defaults.get({new!r})",
                      DeprecationWarning, stacklevel=2)
        return self.search_defaults.get(new)
    return property(read, doc=f"Deprecated alias of ``search_defaults.get({new!r})``.")


def constructor_parameters(cls) -> tuple:
    """:class:`Param` declarations of a game class that declares none but whose constructor
    takes keywords with plain defaults (a plug-in written before parameters were declared):
    each keyword whose default is a bool, int, float or str becomes a parameter of that type
    and default, so its flag works as it did. Empty for a class that declares parameters, or
    for anything that is not a class."""
    if not isinstance(cls, type) or getattr(cls, "parameters", ()):
        return ()
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return ()
    found = []
    for name, p in signature.parameters.items():
        if name == "self" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        if type(p.default) in (bool, int, float, str):
            found.append(Param(name, type(p.default), p.default,
                               f"{name} (a keyword of {cls.__name__}'s constructor)"))
    return tuple(found)


def undeclared_note(cls):
    """What ``check`` says to a game whose constructor keywords are not declared (None if
    there is nothing to say): the declaration to add."""
    derived = constructor_parameters(cls)
    if not derived:
        return None
    lines = ", ".join(f'Param("{p.name}", {p.type.__name__}, {p.default!r}, "...")'
                      for p in derived)
    return (f"{cls.__name__}'s constructor takes {', '.join(p.name for p in derived)}, which "
            f"it does not declare: they work as flags for now; declare them with "
            f"`parameters = ({lines},)` (games.contract.Param: add bounds or choices there)")
