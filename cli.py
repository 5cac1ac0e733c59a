#!/usr/bin/env python3
"""mcts-engine command line: play against the AI, analyze positions, benchmark playouts.

    python cli.py play connect4 [--seconds 1 | --playouts N] [--first human|ai] [--seed K]
    python cli.py analyze connect4 (--moves 4453 | --positions FILE) [--json]
    python cli.py bench [GAME ...] [--json]
    python cli.py gtp [--size 9] [--komi 7.5] [--seconds S | --playouts N]
    python cli.py match [--opponent CMD] [--games N] [--seconds S | --playouts N]
    python cli.py selfplay GAME [--episodes N] [--playouts P] [--workers W] [--ray auto]
    python cli.py check GAME
    python cli.py list
"""
import argparse
import json
import signal
import sys

from rich.markup import escape
from rich.table import Table

import games
from frontends.common import DEFAULT_SECONDS, UsageError, console, err


def positive_int(text):
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def probability(text):
    value = float(text) if text.replace(".", "", 1).isdigit() else -1.0
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number from 0 to 1")
    return value


def add_game_args(p):
    p.add_argument("game", help="game name (see `list`)")
    p.add_argument("--size", type=int, help="board size (Go: 5-19, default 9)")
    p.add_argument("--komi", type=float, help="komi (Go, default 7.5)")
    p.add_argument("--handicap", type=int, help="handicap stones (Go)")
    add_go_knowledge_args(p)


def add_go_knowledge_args(p, default_policy="patterns"):
    p.add_argument("--playout-policy", choices=("patterns", "uniform"),
                   help="Go playout policy: patterns (captures, atari defence, MoGo's 3x3 "
                        "patterns, no big self-ataris) or uniform (uniform random moves that "
                        f"keep their own eyes); default {default_policy}")
    p.add_argument("--priors", action=argparse.BooleanOptionalAction, default=None,
                   help="Go: prior knowledge for new tree nodes (captures, ataris, patterns, "
                        "no self-ataris, edges; seeds the RAVE statistics; default on)")


def add_search_args(p, default_seconds=None):
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=positive_int, help="playouts per search")
    budget.add_argument("--seconds", type=positive_float,
                        help=f"seconds per search (default {default_seconds or DEFAULT_SECONDS})")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--exploration", type=positive_float, help="UCT exploration constant c")
    p.add_argument("--nodes", type=positive_int, help="tree capacity in nodes")
    p.add_argument("--threads", type=positive_int,
                   help="search threads (default: all cores; 1 for exactly reproducible "
                        "time-limited searches)")
    p.add_argument("--rave", action=argparse.BooleanOptionalAction, default=None,
                   help="RAVE / all-moves-as-first statistics (default: on for Go, off for "
                        "other games)")
    p.add_argument("--rave-k", type=positive_float, default=1000.0,
                   help="RAVE equivalence parameter k (default 1000)")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage is one --help away)."""

    def error(self, message):
        err.print(f"error: {message} (see: {self.prog} --help)")
        sys.exit(2)


def build_parser():
    parser = Parser(prog="mcts-engine", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="play a game against the AI in the terminal")
    add_game_args(p)
    add_search_args(p)
    p.add_argument("--first", choices=("human", "ai"), help="who moves first (default human)")
    p.add_argument("--color", type=str.lower, choices=("black", "white"),
                   help="your colour in Go (black moves first)")
    p.add_argument("--sgf-dir", default=".", metavar="DIR",
                   help="where Go games are saved as SGF (default: the current directory)")
    p.add_argument("--resign-threshold", type=probability, default=0.1,
                   help="in games that allow resigning, the AI resigns when its win estimate "
                        "stays below this for two moves in a row (default 0.1; 0 never)")

    p = sub.add_parser("analyze", help="search positions and report the best moves")
    add_game_args(p)
    add_search_args(p)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--moves", help="moves from the start, e.g. 4453 or \"D4 E5 pass\"")
    src.add_argument("--positions", metavar="FILE",
                     help="one move string per line, or a TSV whose header starts with `moves`")
    p.add_argument("--json", action="store_true", help="one JSON object per line")

    p = sub.add_parser("bench", help="playouts per second, MCTS speed, compile time, memory")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="games to measure (default: every game; Go at 9x9 and 19x19)")
    p.add_argument("--size", type=int, help="board size for games that have one")
    add_go_knowledge_args(p, default_policy="uniform, like OpenSpiel's random playouts")
    p.add_argument("--seconds", type=positive_float, default=1.0,
                   help="seconds per random-playout measurement (default 1)")
    p.add_argument("--playouts", type=positive_int,
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

    p = sub.add_parser("gtp", help="speak the Go Text Protocol on stdin/stdout (Go GUIs)")
    p.add_argument("--size", type=int, default=9, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    add_go_knowledge_args(p)
    add_search_args(p)
    p.add_argument("--resign-threshold", type=probability, default=0.1,
                   help="resign when the win estimate stays below this for two moves "
                        "(default 0.1; 0 never)")

    p = sub.add_parser("match", help="play Go matches against another GTP engine")
    p.add_argument("--opponent", metavar="CMD",
                   help="GTP engine command (default: GNU Go level 10, Chinese rules)")
    p.add_argument("--games", type=positive_int, default=10, help="games (default 10)")
    p.add_argument("--size", type=int, default=9, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    add_go_knowledge_args(p)
    add_search_args(p)
    p.add_argument("--resign-threshold", type=probability, default=0.1,
                   help="our engine resigns below this win estimate for two moves (default 0.1)")
    p.add_argument("--sgf-dir", default="match-games", metavar="DIR",
                   help="where each game is saved as SGF (default match-games)")
    p.add_argument("--json", metavar="FILE", help="write every game and the summary as JSON")

    p = sub.add_parser("selfplay", help="collect self-play episodes as numpy arrays (.npz)")
    add_game_args(p)
    p.add_argument("--episodes", type=positive_int, default=100, help="episodes (default 100)")
    p.add_argument("--policy", choices=("random", "mcts"),
                   help="default: mcts when --playouts is given, else random")
    p.add_argument("--playouts", type=positive_int, help="MCTS playouts per move")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="MCTS: sample moves by visits ** (1/T) (default 0: best move)")
    p.add_argument("--dirichlet", type=float, default=0.0, metavar="ALPHA",
                   help="MCTS: Dirichlet noise on the root move distribution (default off)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="worker processes (or Ray actors with --ray; default 1)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the workers on Ray: a cluster address, or auto")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", metavar="FILE.npz", help="output file (default selfplay-GAME.npz)")

    p = sub.add_parser("check", help="check that a game keeps the game contract")
    add_game_args(p)

    sub.add_parser("list", help="list the registered games")
    return parser


def cmd_list(args):
    table = Table(title="registered games")
    for col in ("name", "parameters", "from"):
        table.add_column(col)
    for name in games.names():
        try:
            params = ", ".join(f"{k}={v}" for k, v in games.get(name).params.items()) or "-"
        except Exception as e:  # a broken third-party game must not hide the others
            params = f"(cannot load: {e})"
        table.add_row(name, params, games.origin(name))
    console.print(table)
    return 0


def cmd_check(args):
    from frontends.common import make_game
    from mcts.conformance import run_checks
    game = make_game(args)
    params = "".join(f" {k}={v}" for k, v in game.params.items())
    console.print(f"checking {game.name}{params} against the game contract", markup=False)
    failed = 0
    for name, problems in run_checks(game):
        console.print(f"[green]ok[/green]   {escape(name)}" if not problems
                      else f"[red]FAIL[/red] {escape(name)}")
        for p in problems:
            console.print(f"       {p}", markup=False)
        failed += bool(problems)
    return 1 if failed else 0


def main(argv=None):
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends us quietly
    except (AttributeError, ValueError):
        pass
    for stream in (sys.stdin, sys.stdout):     # undecodable input is a bad move, not a crash
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    args = build_parser().parse_args(argv)
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
            from benchmarks.match import main as match_main
            return match_main(args)
        if args.command == "selfplay":
            from frontends.selfplay import selfplay
            return selfplay(args)
        if args.command == "check":
            return cmd_check(args)
        return cmd_list(args)
    except UsageError as e:
        err.print(f"error: {e}")
        return 2
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
