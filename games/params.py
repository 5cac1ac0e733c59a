"""Game parameters: :class:`Param`, a keyword of a game's constructor and a flag of every
command that builds the game. Part of the contract layer (re-exported by
:mod:`games.contract`)."""
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    """A game parameter: a keyword of the game's constructor and a flag ``--name`` (underscores
    become dashes) of every command that builds the game; a ``bool`` gives ``--name`` and
    ``--no-name``. ``low``/``high`` bound numbers (inclusive), ``multiple_of`` makes a float a
    multiple of it (Go's komi: 0.5), ``choices`` lists the allowed values."""
    name: str
    type: type
    default: object
    help: str
    low: float = None
    high: float = None
    choices: tuple = None
    multiple_of: float = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def allowed(self) -> str:
        """The allowed values in words, e.g. "an integer from 5 to 19"."""
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        what = {int: "an integer", float: "a number", str: "text"}.get(self.type, "a value")
        if self.multiple_of:
            what = f"a multiple of {self.multiple_of:g}"
        if self.low is not None and self.high is not None:
            return f"{what} from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"{what} of at least {self.low:g}"
        if self.high is not None:
            return f"{what} of at most {self.high:g}"
        return what

    def parse(self, value):
        """``value`` (text from a command line, or a Python value) as this parameter's type;
        ``ValueError`` naming the parameter and its allowed values if it is not one."""
        bad = ValueError(f"{self.name} must be {self.allowed()}, got {value!r}")
        try:
            if self.type is bool:
                words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
                v = value if isinstance(value, bool) else words[str(value).strip().lower()]
            elif self.type is int:
                v = int(str(value).strip().replace("_", "")) if isinstance(value, str) else value
                if isinstance(v, bool) or int(v) != v:
                    raise bad
                v = int(v)
            elif self.type is float:
                v = float(value)
                if not math.isfinite(v):
                    raise bad
            else:
                v = self.type(value)
        except (TypeError, ValueError, KeyError, OverflowError):
            raise bad from None
        if self.choices and v not in self.choices:
            raise bad
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            raise bad
        if self.multiple_of and v / self.multiple_of != int(v / self.multiple_of):
            raise bad
        return v
