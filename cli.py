#!/usr/bin/env python3
"""mcts-engine command line: play against the AI, analyze positions, benchmark playouts.

    python cli.py play connect4 [--seconds 1 | --playouts N] [--first human|ai] [--seed K]
    python cli.py analyze connect4 (--moves 4453 | --positions FILE) [--json]
    python cli.py bench [GAME ...] [--json]
    python cli.py gtp [--size 9] [--komi 7.5] [--seconds S | --playouts N]
    python cli.py match [--opponent CMD] [--games N] [--seconds S | --playouts N]
    python cli.py selfplay GAME [--episodes N] [--playouts P] [--workers W] [--ray auto]
    python cli.py train GAME [--minutes M] [--workers W] [--ray auto] [--out weights.npz]
    python cli.py check GAME
    python cli.py list

Every command that builds a game has a flag for each parameter the game declares
(``games.contract.Param``): ``python cli.py play go --help`` lists Go's ``--size``, ``--komi``,
``--handicap``, ``--playout-policy`` and ``--priors``.
"""
import argparse
import os
import signal
import sys


def _interrupted_while_starting(signum, frame):
    """Ctrl-C before main() runs (the imports take a few tenths of a second): one line."""
    print("interrupted", file=sys.stderr, flush=True)
    os._exit(130)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, _interrupted_while_starting)

from rich.markup import escape  # noqa: E402  (after the handler: Ctrl-C while importing)
from rich.table import Table

import games
from frontends.argtypes import (MAX_SGF_BYTES, episode_count, input_file, non_negative_float, non_negative_int,
                                positive_int, probability, search_playouts, search_seconds)
from frontends.common import UsageError, console, err
from frontends.game_flags import (GAME_COMMANDS, GO_COMMANDS, add_parameter_flags, all_parameters,
                                  declared_parameters, unrecognized)
from frontends.search_flags import add_game_arg, add_search_args, add_weights_arg, cap_threads


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage is one --help away)."""

    def error(self, message):
        err.print(f"error: {message} (see: {self.prog} --help)")
        sys.exit(2)


class _FirstPassError(Exception):
    """The first pass of :func:`parse_args` could not parse the command line."""


class _FirstPass(Parser):
    """The parser of the first pass: never prints, never exits."""

    def error(self, message):
        raise _FirstPassError(message)

    def exit(self, status=0, message=None):
        raise _FirstPassError(message)


def _prog():
    """The command as the user typed it, for usage lines and hints: ``python3 PATH/cli.py``
    when started from the checkout (as the README does), else the installed ``mcts-engine``."""
    return f"python3 {sys.argv[0]}" if os.path.basename(sys.argv[0]) == "cli.py" else "mcts-engine"


def build_parser(command=None, declared=None, add_help=True, parser_class=Parser,
                 required=True):
    """The command-line parser. ``declared`` ({parameter name: [(game, Param)]}, from
    :func:`declared_parameters`) adds a flag per game parameter to ``command``'s parser.
    ``parser.commands`` maps each command to its parser. ``required=False`` leaves out the
    check that `analyze` has --moves or --positions (for the first pass of parse_args)."""
    parser = parser_class(prog=_prog(), description=__doc__.split("\n")[0],
                          add_help=add_help)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parser.commands = {}

    def add(name, **kwargs):
        parser.commands[name] = sub.add_parser(name, add_help=add_help, **kwargs)
        return parser.commands[name]

    p = add("play", help="play a game against the AI in the terminal")
    add_game_arg(p)
    add_search_args(p)
    p.add_argument("--first", choices=("human", "ai"), help="who moves first (default human)")
    p.add_argument("--color", type=str.lower, choices=("black", "white"),
                   help="your colour in Go (black moves first)")
    p.add_argument("--seats", metavar="LIST",
                   help="who plays each seat, in order: human or ai, comma-separated (e.g. "
                        "human,ai,ai for three players; all ai to watch)")
    p.add_argument("--sgf-dir", default=".", metavar="DIR",
                   help="where Go games are saved as SGF (default: the current directory)")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--moves", metavar="STR",
                       help="start after these moves from the start, in analyze --moves's "
                            "notation (e.g. 4453, \"D4 E5\"); the side to move is yours "
                            "unless --first ai")
    start.add_argument("--sgf", metavar="FILE", type=input_file(MAX_SGF_BYTES),
                       help="Go: start from the game of this SGF file: its board, komi, "
                            "setup stones and moves (a komi flag given wins)")
    p.add_argument("--move", type=non_negative_int, metavar="N",
                   help="with --sgf: start after the file's first N moves (default: all)")
    p.add_argument("--resign-threshold", type=probability, default=0.1,
                   help="in games that allow resigning, the AI resigns when its win estimate "
                        "stays below this for two moves in a row (default 0.1; 0 never)")

    p = add("analyze", help="search positions and report the best moves")
    add_game_arg(p)
    add_search_args(p)
    src = p.add_mutually_exclusive_group(required=required)
    src.add_argument("--moves", help="moves from the start, e.g. 4453 or \"D4 E5 pass\"")
    src.add_argument("--positions", metavar="FILE", type=input_file(),
                     help="one move string per line, or a TSV whose header starts with `moves`")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--top", type=non_negative_int, default=20, metavar="N",
                   help="list the N most visited moves (default 20; 0: every move searched; "
                        "--json always gives every move)")

    p = add("bench", help="playouts per second, MCTS speed, compile time, memory")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="games to measure (default: every game; Go at 9x9 and 19x19); the "
                        "flags of their parameters apply to the games that declare them")
    p.add_argument("--seconds", type=search_seconds, default=1.0,
                   help="seconds per random-playout measurement (default 1)")
    p.add_argument("--playouts", type=search_playouts,
                   help="playouts of the MCTS search measured (default 200000; Go 9x9 20000, "
                        "19x19 2000, Othello 10000)")
    p.add_argument("--repeat", type=positive_int, default=3, help="repetitions (default 3)")
    p.add_argument("--compare", choices=("openspiel",),
                   help="measure OpenSpiel's C++ rollouts and MCTS on the same games too")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="write the figures as JSON to FILE; without FILE, one object per game "
                        "per line on stdout instead of the table")
    p.add_argument("--plot", metavar="FILE", help="a PNG chart of playouts per second")
    p.add_argument("--threads", type=positive_int, default=1,
                   help="threads for playouts and search (default 1: single-thread figures)")
    p.add_argument("--rave", action=argparse.BooleanOptionalAction, default=None,
                   help="RAVE in the measured search (default: the game's default)")
    p.add_argument("--solve-nodes", type=non_negative_float, default=0.0, metavar="N",
                   help="the exact solver's budget per visit in the measured search, for games "
                        "that have one (default 0: off, so that MCTS playouts per second "
                        "compare with OpenSpiel's plain MCTS)")
    add_weights_arg(p)

    p = add("gtp", help="speak the Go Text Protocol on stdin/stdout (Go GUIs)")
    p.set_defaults(game="go")
    add_search_args(p)
    p.add_argument("--resign-threshold", type=probability, default=0.1,
                   help="resign when the win estimate stays below this for two moves "
                        "(default 0.1; 0 never)")
    p.add_argument("--ponder", action="store_true",
                   help="search during the opponent's turn until its move arrives (default "
                        "off)")

    p = add("warmup", help="compile every game's kernels now, so that the first game (or "
                           "GTP session) starts at full strength")
    p.add_argument("games", nargs="*", metavar="GAME", help="games (default: all)")

    p = add("match", help="play Go matches against another GTP engine")
    p.set_defaults(game="go")
    p.add_argument("--opponent", metavar="CMD",
                   help="GTP engine command (default: GNU Go level 10, Chinese rules)")
    p.add_argument("--games", type=positive_int, default=10, help="games (default 10)")
    add_search_args(p).add_argument(
        "--increment", type=search_seconds, metavar="SECONDS",
        help="our clock: Fischer time, no main time, SECONDS added with each move (our mean "
             "time per move stays within it; time saved on one move goes to later ones, "
             "most to the middle game)")
    p.add_argument("--resign-threshold", type=probability, default=0.1,
                   help="our engine resigns below this win estimate for two moves (default 0.1)")
    p.add_argument("--sgf-dir", default="match-games", metavar="DIR",
                   help="where each game is saved as SGF (default match-games)")
    p.add_argument("--json", metavar="FILE", help="write every game and the summary as JSON")

    p = add("arena", help="two settings of our engine play each other on any game")
    add_game_arg(p)
    add_search_args(p)
    p.add_argument("--opponent-args", metavar="FLAGS",
                   help="side B's search and game flags, in quotes (default: the same as A)")
    p.add_argument("--games", type=positive_int, default=10, help="games (default 10)")
    p.add_argument("--json", metavar="FILE", help="write every game and the summary as JSON")

    p = add("selfplay", help="collect self-play episodes as numpy arrays (.npz)")
    add_game_arg(p)
    p.add_argument("--episodes", type=episode_count, default=100, help="episodes (default 100)")
    p.add_argument("--policy", choices=("random", "mcts"),
                   help="default: mcts when --playouts is given, else random")
    p.add_argument("--playouts", type=search_playouts, help="MCTS playouts per move")
    p.add_argument("--temperature", type=non_negative_float, default=0.0,
                   help="MCTS: sample moves by visits ** (1/T) (default 0: best move)")
    p.add_argument("--dirichlet", type=non_negative_float, default=0.0, metavar="ALPHA",
                   help="MCTS: Dirichlet noise on the root move distribution (default off)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="worker processes (or Ray actors with --ray; default 1)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the workers on Ray: a cluster address, or auto")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", metavar="FILE.npz",
                   help="output file, a .npz (default selfplay-GAME.npz)")
    add_weights_arg(p)
    from frontends.train import add_parser as add_train
    add_train(add)

    p = add("check", help="check that a game keeps the game contract")
    add_game_arg(p)

    add("list", help="list the registered games")
    if command in parser.commands and declared:
        add_parameter_flags(parser.commands[command], command, declared,
                            bench=command == "bench")
    return parser


def _first_pass(argv, command=None, declared=None):
    """(command, game names, unparsed words) from a parse that knows every flag but (unless
    ``declared`` gives some) the games' own. On an error, a guess from the words."""
    try:
        parser = build_parser(command, declared, add_help=False, parser_class=_FirstPass,
                              required=False)
        ns, extras = parser.parse_known_args(argv)
    except (_FirstPassError, UsageError):
        # e.g. a bad flag value: the second pass reports it. Guess "COMMAND GAME ..."
        command = argv[0] if argv and argv[0] in GAME_COMMANDS + ("bench",) else None
        words = []
        for word in argv[1:] if command else ():
            if word.startswith("-"):
                break
            words.append(word)
        return command, words[:1] if command in GAME_COMMANDS else words, []
    if ns.command in GAME_COMMANDS:
        return ns.command, [ns.game], extras
    if ns.command == "bench":
        return ns.command, list(ns.games), extras
    return ns.command, [], extras


def _joined(argv, option):
    """``option VALUE`` written as ``option=VALUE``, so that a VALUE of flags ("--no-rave") is
    taken as the value, not as a flag of its own."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] == option and i + 1 < len(argv):
            out.append(f"{option}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def parse_args(argv=None):
    """The command line, parsed in two passes: the first finds the command and its game(s),
    the second parses with a flag for each parameter that those games declare. The values
    given go to ONE dict, ``args.game_params`` (parameter name -> value)."""
    argv = _joined(sys.argv[1:] if argv is None else list(argv), "--opponent-args")
    command, names, extras = _first_pass(argv)
    known = games.names()
    if any(name not in known for name in names) and any(x.startswith("-") for x in extras):
        # a word taken for the game may be the value of a game's flag (`play --size 7 go`)
        command, names, extras = _first_pass(argv, command, all_parameters(command))
    if command in GO_COMMANDS:
        names = ["go"]
    elif command == "bench":
        names = names or known
    declared = declared_parameters(command, names)
    parser = build_parser(command, declared)
    args, extras = parser.parse_known_args(argv)
    if extras:
        parser.commands.get(args.command, parser).error(unrecognized(command, names, extras))
    args.argv = argv
    cap_threads(args)
    args.game_params = {}
    for name in declared:
        value = vars(args).pop("param_" + name)
        if value is not None:
            args.game_params[name] = value
    return args


def cmd_list(args):
    table = Table(title="registered games")
    for col in ("name", "players", "parameters", "from"):
        table.add_column(col, no_wrap=col != "parameters")
    for name in games.names():
        try:
            game = games.get(name)
            params = ", ".join(f"{k}={v}" for k, v in game.params.items()) or "-"
            players = str(game.num_players)
            choice = next((p for p in games.parameters(name) if p.name == "players"), None)
            if choice is not None:
                players = ("/".join(map(str, choice.choices)) if choice.choices
                           else f"{choice.low:g}-{choice.high:g}")
            players += ", dice" if getattr(game, "chance", False) else ""
        except Exception as e:  # a broken third-party game must not hide the others
            params, players = f"(cannot load: {e})", "?"
        table.add_row(name, players, params, games.origin(name))
    console.print(table)
    return 0


def cmd_warmup(args):
    """Compile (or load) the native search and kernels of each game, with a short search."""
    import time
    from mcts import MCTS, SearchConfig
    names = args.games or games.names()
    unknown = [n for n in names if n not in games.names()]
    if unknown:
        raise UsageError(f"unknown game {unknown[0]!r} (see `list`)")
    os.environ["MCTS_PORTABLE_CACHE"] = "0"     # this machine's native code, not the shipped
    for name in names:
        t0 = time.perf_counter()
        game = games.get(name)
        MCTS(game, SearchConfig(capacity=10_000), log=sys.stderr).search(   # loading the
            game.initial_state(), playouts=50)      # kernels runs the game's warm_up too
        console.print(f"{name}: ready in {time.perf_counter() - t0:.1f} s", markup=False)
    return 0


def cmd_check(args):
    from frontends.common import make_game
    from mcts.conformance import CHECK_NAMES, run_checks
    from games.contract import CONTRACT_VERSION
    from mcts.conformance.structure import contract_notes
    from mcts.config import off_for
    from mcts import codegen
    game = make_game(args)
    params = "".join(f" {k}={v}" for k, v in game.params.items())
    console.print(f"checking {game.name}{params} against the game contract (version "
                  f"{CONTRACT_VERSION}): {game.num_players} players"
                  + (", chance" if game.chance else ""), markup=False)
    for note in contract_notes(game):
        console.print("[yellow]note[/yellow] " + escape(note))
    for why in off_for(game).values():
        console.print("[yellow]note[/yellow] " + escape(why))
    present = codegen.provided_kernels(game.kernel_module)
    optional = {"position keys": ("position_key",), "move features": ("move_features",),
                "exact solver": ("solve",), "rollout and rollout_record": ("rollout",
                                                                           "rollout_record")}
    if not codegen.is_compiled(game.kernel_module):
        err.print(f"the kernels of {game.kernel_module} compile as the checks first use them "
                  "(first run, or their sources changed) …")
    failed = 0
    results = dict(run_checks(game))
    for name in CHECK_NAMES:
        if name not in results:
            console.print(f"[yellow]skip[/yellow] {escape(name)} (it relies on a check that "
                          "failed)")
            continue
        problems = results[name]
        if name in optional and not present.intersection(optional[name]):
            console.print(f"[dim]--   {escape(name)} (no {' or '.join(optional[name])} "
                          "kernel: nothing to check)[/dim]")
            continue
        console.print(f"[green]ok[/green]   {escape(name)}" if not problems
                      else f"[red]FAIL[/red] {escape(name)}")
        for p in problems:          # continuation lines (e.g. a subprocess's stderr) indented
            console.print("       " + p.replace("\n", "\n       "), markup=False)
        failed += bool(problems)
    return 1 if failed else 0


def main(argv=None):
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends us quietly
        signal.signal(signal.SIGINT, signal.default_int_handler)    # KeyboardInterrupt again
    except (AttributeError, ValueError):
        pass
    for stream in (sys.stdin, sys.stdout):     # undecodable input is a bad move, not a crash
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    try:
        args = parse_args(argv)
    except UsageError as e:
        err.print(f"error: {e}")
        return 2
    try:
        if args.command == "play":
            from frontends.play import play
            return play(args)
        if args.command == "analyze":
            from frontends.analyze import analyze
            return analyze(args)
        if args.command == "bench":
            from benchmarks.bench import main as bench_main
            return bench_main(args)
        if args.command == "gtp":
            from frontends.gtp import gtp
            return gtp(args)
        if args.command == "match":
            from frontends.match import main as match_main
            return match_main(args)
        if args.command == "arena":
            from frontends.arena import run
            return run(args, parse_args)
        if args.command == "selfplay":
            from frontends.selfplay import selfplay
            return selfplay(args)
        if args.command == "train":
            from frontends.train import train
            return train(args)
        if args.command == "check":
            return cmd_check(args)
        if args.command == "warmup":
            return cmd_warmup(args)
        return cmd_list(args)
    except UsageError as e:
        err.print(f"error: {e}")
        return 2
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except BrokenPipeError:         # standard output closed where SIGPIPE is ignored
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
