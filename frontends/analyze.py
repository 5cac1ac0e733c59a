"""`analyze`: search one position or a file of positions and report the best moves.

One process compiles (or loads) the kernels once and serves every position. With ``--json``
each position gives one line: ``{"moves", "best", "value", "playouts", "seconds", "nodes",
"children": [{"move", "visits", "value"}], "pv"}``, values being win probabilities for the
side to move (draws count half).
"""
import json
import sys

from rich.table import Table

from frontends.common import UsageError, budget_of, console, err, make_engine, make_game
from mcts import GameOverError


def read_positions(path):
    """Move strings from ``path``: one per line, or the ``moves`` column of a TSV with header."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\r\n") for line in f]
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    if lines and lines[0].split("\t")[0].strip().lower() == "moves":
        return [line.split("\t")[0].strip() for line in lines[1:] if line.strip()]
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def report(moves, result, as_json):
    if as_json:
        print(json.dumps({"moves": moves, **result.to_dict()}), flush=True)
        return
    proof = f", proven {result.proven} in {result.plies} plies" if result.proven else ""
    console.print(f"[bold]{moves or '(start)'}[/bold]: best {result.move}, win "
                  f"{100 * result.value:.1f}%{proof} ({result.playouts:,} playouts in "
                  f"{result.seconds:.2f} s, {result.nodes:,} nodes)")
    table = Table(box=None, padding=(0, 2))
    for col in ("move", "visits", "win %", "proof"):
        table.add_column(col, justify="right")
    for c in result.children:
        table.add_row(c["move"], f"{c['visits']:,}", f"{100 * c['value']:.1f}",
                      f"{c['proven']} in {c['plies']}" if c["proven"] else "")
    console.print(table)
    console.print(f"pv: {' '.join(result.pv)}")


def analyze(args):
    """Run the `analyze` command; exit status 1 if some position could not be analyzed."""
    game = make_game(args)
    positions = [args.moves] if args.moves is not None else read_positions(args.positions)
    engine = make_engine(game, args)
    budget = budget_of(args)
    failed = 0
    for moves in positions:
        try:
            state, _ = game.play_record(moves)
            result = engine.search(state, **budget)
        except GameOverError as e:
            err.print(f"{moves}: {e}")
            failed += 1
            continue
        except ValueError as e:
            err.print(f"error: {e}")
            failed += 1
            continue
        report(moves, result, args.json)
    sys.stdout.flush()
    return 1 if failed else 0
