"""Time management for GTP games: how many seconds to think about the next move.

Time systems (GTP v2 section 6.3.3 ``time_settings`` and KGS's ``kgs-time_settings``):
``none``; ``absolute`` (main time only); ``canadian`` (main time, then ``stones`` moves in each
period of ``period`` seconds: GTP's own byo-yomi); ``byoyomi`` (Japanese: main time, then
``periods`` periods of ``period`` seconds, each move within one period).

Plan: in main time, spend the time left over the moves still expected from us (about half
the empty points, at least ``MIN_MOVES_LEFT``), plus what a byo-yomi period grants anyway; in
a Canadian period, the time left over the stones left; in Japanese byo-yomi, most of one
period. Always keep a safety margin (``SAFETY`` of the time and ``OVERHEAD`` seconds for the
answer to reach the controller), so the engine never loses on time; and never plan more than
``MAX_MOVE_SECONDS`` for one move (the default tree of 4,000,000 nodes fills within about a
minute, so more gains little, and a controller's huge time setting cannot hang ``genmove``).
Time values above ``MAX_SECONDS`` are refused; a negative ``time_left`` (a controller reporting
an overrun) counts as none left.
"""
import math
from dataclasses import dataclass

MIN_MOVES_LEFT = 10
SAFETY = 0.85
OVERHEAD = 0.25
MIN_SECONDS = 0.05
MAX_SECONDS = 1e9           # about 31 years: any larger time value is refused
MAX_MOVE_SECONDS = 600.0


@dataclass
class TimeControl:
    system: str = "none"          # none, absolute, canadian, byoyomi
    main: float = 0.0             # seconds of main time
    period: float = 0.0           # seconds of a byo-yomi period
    stones: int = 0               # Canadian: moves per period; Japanese: number of periods

    def __post_init__(self):
        for value in (self.main, self.period, self.stones):
            _check_time(value)

    @classmethod
    def from_gtp(cls, main, period, stones):
        """GTP ``time_settings main_time byo_yomi_time byo_yomi_stones``."""
        if period > 0 and stones == 0:
            return cls("none")                       # the spec's "no time limit"
        if period == 0:
            return cls("absolute", main)
        return cls("canadian", main, period, stones)

    @classmethod
    def from_kgs(cls, system, values):
        """KGS's ``kgs-time_settings none | absolute M | byoyomi M P N | canadian M P S``
        (``values`` as text); ``ValueError`` for anything else."""
        system = system.lower()
        v = [float(x) for x in values]
        if system == "none" and not v:
            return cls("none")
        if system == "absolute" and len(v) == 1:
            return cls("absolute", v[0])
        if system in ("byoyomi", "canadian") and len(v) == 3 and v[2] == int(v[2]):
            return cls(system, v[0], v[1], int(v[2]))
        raise ValueError(f"kgs-time_settings {system} {' '.join(values)}: not understood")


class TimeValueError(ValueError):
    """A time value out of range (not a malformed one)."""


def _check_time(value):
    """``TimeValueError`` unless ``value`` is a finite number of seconds from 0 to MAX_SECONDS."""
    if not math.isfinite(value) or value < 0:
        raise TimeValueError(f"time values must be finite and not negative, got {value:g}")
    if value > MAX_SECONDS:
        raise TimeValueError(f"time values must be at most {MAX_SECONDS:g} seconds, got {value:g}")


class Clock:
    """Each side's remaining time: set by GTP ``time_left``, and in between counted down by
    the engine itself from the seconds its own moves took. Plans the next move's seconds."""

    def __init__(self, control: TimeControl = None):
        self.control = control or TimeControl()
        c = self.control
        start = (c.main, 0) if c.main > 0 else (c.period, c.stones)
        self.left = [list(start), list(start)]      # per player: [seconds, stones in period]

    def update(self, player, seconds, stones):
        """GTP ``time_left``: ``seconds`` left (below 0, an overrun: none left); ``stones`` left
        in the period (0: main time). ``TimeValueError`` for negative stones, and for seconds that
        are not finite or above MAX_SECONDS."""
        if stones < 0:
            raise TimeValueError(f"stones left must not be negative, got {stones}")
        seconds = max(float(seconds), 0.0) if math.isfinite(seconds) else seconds
        _check_time(seconds)
        self.left[player] = [seconds, int(stones)]

    def spend(self, player, seconds):
        """Count down ``seconds`` used by ``player``'s move (until the next ``time_left``)."""
        c, left = self.control, self.left[player]
        if not self.limited:
            return
        left[0] -= seconds
        if left[1] > 0:                              # in a byo-yomi period
            if c.system == "canadian":
                left[1] -= 1
                if left[1] == 0:
                    left[:] = [c.period, c.stones]
            else:
                left[0] = c.period                   # Japanese: each period starts afresh
        elif left[0] <= 0 and c.system in ("canadian", "byoyomi"):
            left[:] = [c.period + left[0], c.stones]

    @property
    def limited(self):
        return self.control.system != "none"

    def plan(self, player, empty_points: int, default: float) -> float:
        """Seconds for ``player``'s next move (``default`` without a time limit)."""
        c = self.control
        if not self.limited:
            return default
        time_left, stones_left = self.left[player]
        moves_left = max(MIN_MOVES_LEFT, empty_points // 2)
        if c.system == "canadian" and stones_left > 0:
            budget = time_left / stones_left
        elif c.system == "byoyomi" and stones_left > 0:
            budget = min(time_left, c.period)
        else:
            budget = max(time_left, 0.0) / moves_left
            if c.system == "canadian":
                budget += c.period / max(c.stones, 1)
            elif c.system == "byoyomi":
                budget += c.period
        return min(MAX_MOVE_SECONDS, max(MIN_SECONDS, budget * SAFETY - OVERHEAD))
