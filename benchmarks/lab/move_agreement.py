"""How often a GTP engine picks the move a stronger engine picks: a fast diagnostic of Go
playing strength for tuning, beside (never instead of) matches at equal time.

    python -m benchmarks.lab.move_agreement label --engine "CMD" --sgf FILE... --out POSITIONS.json
        [--first 4] [--last 60] [--every 4]
    python -m benchmarks.lab.move_agreement score --engine "CMD" --positions POSITIONS.json
        [--limit N] [--json FILE]

``label`` replays each SGF game and asks the reference engine (for example Pachi at many
playouts) for its move at every ``--every``-th position from move ``--first`` to ``--last``;
positions where it passes or resigns are left out. ``score`` asks the engine under test the
same positions and prints how many of its moves are the reference's, with the 95 % Wilson
interval. Move prediction against a strong player is the usual proxy for a policy's quality
(Coulom 2007, "Computing Elo ratings of move patterns in the game of Go"); it measures
agreement, not strength, so a setting it favours still needs a match to be kept.
"""
import argparse
import json
import sys

from sgfmill import sgf

from frontends.common import UsageError, exit_code
from frontends.gtp_client import GtpClient
from frontends.match import wilson

LETTERS = "abcdefghjklmnopqrstuvwxyz"


def vertex(point, size):
    """sgfmill's (row, col) from the bottom, or None for a pass, as a GTP vertex ("e5")."""
    if point is None:
        return "pass"
    row, col = point
    return f"{LETTERS[col]}{row + 1}"


def read_game(path):
    """(size, komi, [(colour letter, vertex)]) of the main line of the SGF file ``path``;
    ``UsageError`` for a file that cannot be read or parsed."""
    try:
        with open(path, "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
    except (OSError, ValueError) as e:
        raise UsageError(f"{path}: {e}") from None
    size = game.get_size()
    moves = []
    for node in game.get_main_sequence():
        colour, point = node.get_move()
        if colour is not None:
            moves.append((colour, vertex(point, size)))
    return size, game.get_komi(), moves


def ask(engine, size, komi, moves, colour):
    """The engine's move (lower case) for ``colour`` after ``moves`` on a fresh board
    (``GtpRefused``, a RuntimeError, if the engine refuses a command)."""
    for cmd in [f"boardsize {size}", "clear_board", f"komi {komi:g}"] + \
            [f"play {c} {v}" for c, v in moves]:
        engine.ask(cmd)
    return engine.ask(f"genmove {colour}").lower()


def label(args):
    engine = GtpClient(args.engine, timeout=600)
    positions = []
    try:
        for path in args.sgf:
            size, komi, moves = read_game(path)
            for n in range(args.first, min(args.last, len(moves) - 1) + 1, args.every):
                colour = moves[n][0]
                best = ask(engine, size, komi, moves[:n], colour)
                print(f"{path} move {n + 1}: {best}", flush=True)
                if best not in ("pass", "resign"):
                    positions.append({"sgf": path, "size": size, "komi": komi,
                                      "moves": moves[:n], "colour": colour, "best": best})
    finally:
        engine.close()
        with open(args.out, "w") as f:
            json.dump({"reference": args.engine, "positions": positions}, f, indent=0)
    print(f"{len(positions)} positions written to {args.out}")


def score(args):
    try:
        with open(args.positions) as f:
            positions = json.load(f)["positions"][:args.limit]
    except (OSError, ValueError, KeyError) as e:
        raise UsageError(f"{args.positions}: {e}") from None
    engine = GtpClient(args.engine, timeout=600)
    rows, same = [], 0
    try:
        if positions:       # a first answer may come before an engine has loaded its code
            ask(engine, positions[0]["size"], positions[0]["komi"], [], "b")
        for p in positions:
            move = ask(engine, p["size"], p["komi"], p["moves"], p["colour"])
            same += move == p["best"]
            rows.append({"sgf": p["sgf"], "move": len(p["moves"]) + 1, "best": p["best"],
                         "ours": move})
            print(f"{len(rows)}/{len(positions)}: {move} (reference {p['best']}), "
                  f"agreement {same}/{len(rows)}", flush=True)
    finally:
        engine.close()
    low, high = wilson(same, len(rows))
    summary = {"positions": len(rows), "agree": same, "rate": same / max(1, len(rows)),
               "wilson_95": [low, high], "engine": args.engine, "positions_file": args.positions}
    print(f"agreement {same}/{len(rows)} = {100 * summary['rate']:.0f} % "
          f"[{100 * low:.0f}-{100 * high:.0f} %]")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "positions": rows}, f, indent=1)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label", help="the reference engine's moves for positions of SGF games")
    lab.add_argument("--engine", required=True, metavar="CMD", help="reference GTP engine")
    lab.add_argument("--sgf", required=True, nargs="+", metavar="FILE", help="SGF games")
    lab.add_argument("--out", required=True, metavar="FILE", help="positions file to write")
    lab.add_argument("--first", type=int, default=4, help="first move number, 0-based (4)")
    lab.add_argument("--last", type=int, default=60, help="last move number, 0-based (60)")
    lab.add_argument("--every", type=int, default=4, help="every n-th position (4)")
    sc = sub.add_parser("score", help="agreement of an engine with the reference's moves")
    sc.add_argument("--engine", required=True, metavar="CMD", help="GTP engine under test")
    sc.add_argument("--positions", required=True, metavar="FILE", help="from `label`")
    sc.add_argument("--limit", type=int, default=None, help="only the first N positions")
    sc.add_argument("--json", metavar="FILE", help="write the moves and the summary here")
    args = p.parse_args(argv)
    if args.command == "label" and (args.every < 1 or args.first < 0):
        p.error("--every must be at least 1 and --first at least 0")
    return exit_code(label if args.command == "label" else score, args)


if __name__ == "__main__":
    sys.exit(main())
