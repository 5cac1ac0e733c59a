"""Time management for GTP games: how many seconds to think about the next move.

Time systems (GTP v2 section 6.3.3 ``time_settings``, KGS's ``kgs-time_settings`` and
KataGo's ``kata-time_settings``): ``none``; ``absolute`` (main time only); ``canadian`` (main
time, then ``stones`` moves in each period of ``period`` seconds: GTP's own byo-yomi);
``byoyomi`` (Japanese: main time, then ``periods`` periods of ``period`` seconds, each move
within one period); ``fischer`` (main time, and ``increment`` seconds added to it with each
move; ``fischer-capped`` also caps the time left at ``cap`` seconds and a move at
``move_cap``). Under Fischer the move being made counts its own increment as available, so
with no main time a move has its increment to spend, and the mean time per move over a game
stays within the increment.

Plan: in main time, spend the time left (plus the increments still to come) over the moves
still expected from us (about half the empty points, at least ``MIN_MOVES_LEFT``), weighted
by the phase of the game when the board size is known: less in the opening, most in the
middle game, as Pachi's ``fuseki_end`` / ``yose_start`` time allocation does (a move's weight
rises from ``WEIGHT_OPENING`` on the empty board to ``WEIGHT_MIDDLE`` when ``FUSEKI_END`` of
the points are filled, holds until ``YOSE_START``, then falls to ``WEIGHT_END`` at
``ENDGAME``); plus what a byo-yomi period grants anyway. A search that ends unstable may go
on for half its plan more (:meth:`Clock.extension`). In a Canadian period, the time left
over the stones left; in Japanese byo-yomi, most of one period. Always keep a safety margin
(``SAFETY`` of the time and ``OVERHEAD`` seconds for the answer to reach the controller), so
the engine never loses on time; and never plan more than
``MAX_MOVE_SECONDS`` for one move (the default tree of 4,000,000 nodes fills within about a
minute, so more gains little, and a controller's huge time setting cannot hang ``genmove``).
Time values above ``MAX_SECONDS`` are refused; a negative ``time_left`` (a controller reporting
an overrun) counts as none left.
"""
import math
from dataclasses import dataclass

MIN_MOVES_LEFT = 10
EXTEND = 0.5                # an unstable search goes on for this share of its plan
SAFETY = 0.85
OVERHEAD = 0.25
MIN_SECONDS = 0.05
MAX_SECONDS = 1e9           # about 31 years: any larger time value is refused
MAX_MOVE_SECONDS = 600.0
WEIGHT_OPENING, WEIGHT_MIDDLE, WEIGHT_END = 0.6, 1.5, 0.7
FUSEKI_END, YOSE_START, ENDGAME = 0.2, 0.45, 0.75


@dataclass
class TimeControl:
    system: str = "none"          # none, absolute, canadian, byoyomi, fischer
    main: float = 0.0             # seconds of main time
    period: float = 0.0           # seconds of a byo-yomi period
    stones: int = 0               # Canadian: moves per period; Japanese: number of periods
    increment: float = 0.0        # Fischer: seconds added with each move
    cap: float = 0.0              # Fischer: most seconds left after a move (0: no cap)
    move_cap: float = 0.0         # Fischer: most seconds for one move (0: no cap)

    def __post_init__(self):
        for value in (self.main, self.period, self.stones, self.increment, self.cap,
                      self.move_cap):
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

    @classmethod
    def from_kata(cls, system, values):
        """KataGo's ``kata-time_settings``: KGS's systems, and ``fischer M I`` (main time,
        increment) or ``fischer-capped M I C P`` (and the cap on the time left, and on one
        move; a negative cap: none); ``ValueError`` for anything else."""
        system = system.lower()
        v = [float(x) for x in values]
        if system == "fischer" and len(v) == 2:
            return cls("fischer", v[0], increment=v[1])
        if system == "fischer-capped" and len(v) == 4:
            return cls("fischer", v[0], increment=v[1], cap=max(v[2], 0.0),
                       move_cap=max(v[3], 0.0))
        return cls.from_kgs(system, values)


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
        if c.system == "fischer":
            left[0] = max(left[0] + c.increment, 0.0)
            if c.cap > 0:
                left[0] = min(left[0], c.cap)
            return
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

    def plan(self, player, empty_points: int, default: float, points: int = 0) -> float:
        """Seconds for ``player``'s next move (``default`` without a time limit);
        ``points``: the board's points (0: unknown, no weighting by the phase of the game)."""
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
            share = phase_share(points, empty_points, moves_left)
            if c.system == "fischer":
                available = max(time_left, 0.0) + c.increment
                budget = (available + c.increment * (moves_left - 1)) * share
                return min(MAX_MOVE_SECONDS, max(MIN_SECONDS, min(budget, self._limit(player))))
            budget = max(time_left, 0.0) * share
            if c.system == "canadian":
                budget += c.period / max(c.stones, 1)
            elif c.system == "byoyomi":
                budget += c.period
        return min(MAX_MOVE_SECONDS, max(MIN_SECONDS, budget * SAFETY - OVERHEAD))


    def extension(self, player, planned: float, used: float) -> float:
        """Seconds more for a search of ``planned`` seconds that took ``used`` and ended
        unstable (its most visited move not its best valued: the UNST rule of Huang, Coulom
        and Lin 2010, "Time management for Monte-Carlo tree search applied to the game of
        Go"): ``EXTEND`` of the plan, within what the time left safely allows; 0 without a
        limit or in a byo-yomi period."""
        if not self.limited or self.left[player][1] > 0:
            return 0.0
        return max(0.0, min(planned * EXTEND, self._limit(player) - used))

    def _limit(self, player) -> float:
        """The most seconds ``player``'s move may take in main time with the safety margin:
        ``SAFETY`` of the time left, plus the move's own increment under Fischer time, less
        ``OVERHEAD``, and within a Fischer move cap."""
        c = self.control
        limit = max(self.left[player][0], 0.0) * SAFETY - OVERHEAD
        if c.system == "fischer":
            limit += c.increment
            if c.move_cap > 0:
                limit = min(limit, c.move_cap - OVERHEAD)
        return limit


def phase_weight(filled: float) -> float:
    """The weight of a move played when ``filled`` (0 to 1) of the board's points are taken:
    ``WEIGHT_OPENING`` on the empty board, rising to ``WEIGHT_MIDDLE`` at ``FUSEKI_END``,
    held until ``YOSE_START``, falling to ``WEIGHT_END`` at ``ENDGAME`` and after."""
    if filled < FUSEKI_END:
        return WEIGHT_OPENING + (WEIGHT_MIDDLE - WEIGHT_OPENING) * filled / FUSEKI_END
    if filled < YOSE_START:
        return WEIGHT_MIDDLE
    if filled < ENDGAME:
        return WEIGHT_MIDDLE + (WEIGHT_END - WEIGHT_MIDDLE) * (filled - YOSE_START) / (
            ENDGAME - YOSE_START)
    return WEIGHT_END


def phase_share(points: int, empty_points: int, moves_left: int) -> float:
    """The next move's share (0 to 1) of the time for our ``moves_left`` moves still to come:
    its phase weight over the sum of theirs, each of our moves filling two points (ours and
    the reply); ``1 / moves_left`` when ``points`` is 0 (unknown)."""
    if points <= 0:
        return 1.0 / moves_left
    taken = points - empty_points
    weights = [phase_weight(min(1.0, (taken + 2 * k) / points)) for k in range(moves_left)]
    return weights[0] / sum(weights)


def unstable(children) -> bool:
    """Whether a search has not settled which move to play: its most visited move (first of
    ``children``, :class:`mcts.ChildStats` most visited first) is not proven and is valued
    below the runner-up."""
    return (len(children) > 1 and children[0].proof is None
            and children[1].value > children[0].value)
