"""`analyze`: search one position or a file of positions and report the best moves.

One process compiles (or loads) the kernels once and serves every position. With ``--json``
each position gives one line: ``{"moves", "best", "value", "playouts", "seconds", "nodes",
"children": [{"move", "visits", "value"}], "pv", "player_values"}``, values being win
probabilities for the side to move (draws count half; in a game of more players, its expected
reward), ``player_values`` each player's expected reward over every playout from the
position (not only the best move's), ``to_play`` the name of the player to move. At a chance
position (a roll to come) ``to_play`` is ``"chance"``, ``"chance": true``, ``best`` and
``value`` are null (an outcome is drawn, not chosen), the children are the outcomes, each
with its ``probability``, and their values are those of the player ``outcome_values_for``.
"""
import json
import sys

from rich.markup import escape
from rich.table import Table

from frontends.argtypes import MAX_INPUT_BYTES, read_text
from frontends.common import UsageError, console, err, make_game
from frontends.go_ownership import attach_judge
from frontends.player import PlayerConfig


MAX_POSITIONS_BYTES = MAX_INPUT_BYTES     # a positions file larger than this is refused, unread


def read_positions(path):
    """Move strings from ``path`` (UTF-8 text of at most ``MAX_POSITIONS_BYTES``, a regular
    file: :func:`frontends.argtypes.read_text`): one per line, or the ``moves`` column of a
    TSV with header. ``UsageError`` in one line for a file that cannot be read, is too large,
    is not a regular file, is not text, or holds no position."""
    try:
        lines = read_text(path, MAX_POSITIONS_BYTES).splitlines()
    except ValueError as e:
        raise UsageError(str(e)) from None
    if lines and lines[0].split("\t")[0].strip().lower() == "moves":
        out = [line.split("\t")[0].strip() for line in lines[1:] if line.strip()]
    else:
        out = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not out:
        raise UsageError(f"no positions in {path}: give one move string per line")
    return out


def report(game, state, moves, result, as_json, top=0):
    score = game.score_text(state)          # Go: the count now, under the rules in force
    if as_json:
        extra = {} if score is None else {"score": score}
        d = result.to_dict()
        if result.chance:       # nothing to choose: the outcome values are player 0's
            d.update(best=None, value=None, outcome_values_for=game.players[0])
        d["to_play"] = "chance" if result.chance else game.players[game.to_play(state)]
        print(json.dumps({"moves": moves, **d, **extra}), flush=True)
        return
    proof = f", proven {result.proof.value} within {result.plies} plies" if result.proof else ""
    where = f"[bold]{escape(moves) or '(start)'}[/bold]"
    counts = (f"({result.playouts:,} playouts in {result.seconds:.2f} s, "
              f"{result.nodes:,} nodes)")
    if result.chance:
        console.print(f"{where} (a chance position: the outcome is drawn, not chosen) {counts}")
    else:
        mover = game.players[game.to_play(state)]
        console.print(f"{where} ({mover} to move): best {result.move}, win "
                      f"{100 * result.value:.1f}%{proof} {counts}")
    if result.chance or game.num_players != 2:
        values = ", ".join(f"{escape(name)} {100 * v:.1f}%"
                           for name, v in zip(game.players, result.player_values))
        console.print(f"expected reward: {values}")
    shown = [c for c in result.children if c.visits or c.proof is not None]  # others: --json
    rows = shown[:top] if top else shown
    proofs = any(c.proof is not None for c in rows)     # else no (blank) proof column
    table = Table(box=None, padding=(0, 2), pad_edge=False)
    value_column = "win %"
    if result.chance:           # an outcome's value is the last mover's (player 0 at the root)
        value_column = f"{game.players[0]} %"
    columns = ("move",) + (("probability",) if result.chance else ()) + ("visits", value_column)
    for col in columns + (("proof",) if proofs else ()):
        table.add_column(col, justify="right")
    for c in rows:
        proof = f"{c.proof.value} within {c.plies}" if c.proof is not None else ""
        chance = (f"{100 * c.probability:.1f}%",) if result.chance else ()
        table.add_row(c.move, *chance, f"{c.visits:,}", f"{100 * c.value:.1f}",
                      *((proof,) if proofs else ()))
    console.print(table)
    if top and len(shown) > top:
        console.print(f"  ({len(shown) - top} more moves searched: --top 0 lists them)")
    console.print(f"pv: {' '.join(result.pv)}")
    if score is not None:
        console.print(f"the board as it stands: {score}", markup=False)


def analyze(args):
    """Run the `analyze` command; exit status 1 if some position could not be analyzed."""
    game = make_game(args)
    positions = [args.moves] if args.moves is not None else read_positions(args.positions)
    player = PlayerConfig.from_args(args)
    engine = player.engine(game)
    attach_judge(game, player.search_config(game))     # Go's count: GTP's dead stones
    budget = player.budget
    failed = 0
    for number, moves in enumerate(positions, start=1):
        where = f"position {number}: " if args.positions else ""   # e names the moves
        try:
            state, _ = game.play_record(moves)
            result = engine.search(state, **budget)
        except ValueError as e:             # a bad move, or a finished game
            err.print(f"error: {where}{e}")
            failed += 1
            continue
        report(game, state, moves, result, args.json, args.top)
    sys.stdout.flush()
    return 1 if failed else 0
