"""Command-line flags built from the parameters that games declare (``games.contract.Param``):
which games a command builds, one flag per parameter, and the one-line errors about them."""
import argparse

import games
from frontends.common import UsageError

# Commands whose flags include the declared parameters of a game: the one named after the
# command, the games listed (bench), or Go (gtp and match, without the parameters named here,
# which GTP sets with its own commands).
GAME_COMMANDS = ("play", "analyze", "selfplay", "check", "arena", "train")
GO_COMMANDS = {"gtp": ("handicap",), "match": ("handicap",)}



def declared_parameters(command, names):
    """{parameter name: [(game, Param), ...]}: the parameters that the games ``names``
    declare and that ``command`` takes, in declaration order. ``UsageError`` for an unknown
    game or one that cannot be loaded."""
    out = {}
    for name in names:
        try:
            params = games.parameters(name)
        except ValueError as e:               # an unknown game: the message names the known
            raise UsageError(str(e)) from None
        except Exception as e:                # a broken plug-in
            raise UsageError(f"cannot load the game {name!r}: {type(e).__name__}: {e}") from None
        for param in params:
            if param.name not in GO_COMMANDS.get(command, ()):
                out.setdefault(param.name, []).append((name, param))
    return out


def _shown(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _bench_params(name):
    # a factory registered instead of a Game subclass declares nothing
    return getattr(games.game_class(name), "bench_params", {})


def parameter_type(params):
    """An argparse ``type`` checking a value with every Param of ``params`` (the
    declarations of one parameter by the games of the command): the first one's value."""
    def parse(text):
        try:
            values = [p.parse(text) for p in params]
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return values[0]
    parse.__name__ = params[0].name
    return parse


def add_parameter_flags(p, command, declared, bench=False):
    """A flag per declared game parameter on parser ``p`` of ``command``, stored as
    ``param_NAME`` (None when not given). A flag that ``command`` already has is an error
    (``UsageError``) naming the game and the flag."""
    owners_all = sorted({g for owners in declared.values() for g, _ in owners})
    group = p.add_argument_group(f"parameters of {', '.join(owners_all)}")
    for name, owners in declared.items():
        first = owners[0][1]
        defaults = [(g, _shown(_bench_params(g).get(name, q.default) if bench else q.default))
                    for g, q in owners]
        if len({d for _, d in defaults}) == 1:
            default = f"default {defaults[0][1]}"
        else:
            default = "default " + ", ".join(f"{g} {d}" for g, d in defaults)
        where = f"{', '.join(g for g, _ in owners)}; " if bench else ""
        ranged = first.low is not None or first.high is not None or first.multiple_of
        text = f"{first.help}{': ' + first.allowed() if ranged else ''} ({where}{default})"
        text = text.replace("%", "%%")
        if first.type is bool:
            kwargs = {"action": argparse.BooleanOptionalAction}
        else:
            kwargs = {"type": parameter_type([q for _, q in owners]), "choices": first.choices,
                      "metavar": None if first.choices else name.upper()}
        try:
            group.add_argument(first.flag, dest="param_" + name, default=None, help=text,
                               **kwargs)
        except argparse.ArgumentError:      # the flag (or its --no- form) is taken
            raise UsageError(f"game {', '.join(g for g, _ in owners)}: the flag {first.flag} "
                             f"of its parameter {name!r} clashes with a flag of {command}; "
                             "the game must rename the parameter") from None


def all_parameters(command):
    """{parameter name: [(game, Param)]} of every registered game that can be loaded."""
    out = {}
    for name in games.names():
        try:
            for key, owners in declared_parameters(command, [name]).items():
                out.setdefault(key, []).extend(owners)
        except UsageError:
            pass
    return out


def unrecognized(command, names, extras):
    """The error for words no flag took: "connect4 takes no parameter --size" if the word is
    the flag of another game's parameter."""
    flag = next((x.split("=", 1)[0] for x in extras if x.startswith("--")), None)
    if flag is not None:
        for name, owners in all_parameters(None).items():
            first = owners[0][1]
            if flag == first.flag or first.type is bool and flag == "--no-" + first.flag[2:]:
                if command in GO_COMMANDS or not names:
                    return f"{command} takes no {flag}"
                verb = "takes" if len(names) == 1 else "take"
                return f"{', '.join(names)} {verb} no parameter {flag}"
    return "unrecognized arguments: " + " ".join(extras)
