"""Settle again the games of a `cli.py match` file that ended in two passes, as the match now
does (frontends.match.settle): GNU Go's count when it judges no stone dead, else the game
resumes with ``kgs-genmove_cleanup`` and ends in a Tromp-Taylor count.

    python -m benchmarks.resettle MATCH.json --ours "python3 cli.py gtp --seconds 1
        --threads 2 --rules chinese" [--opponent CMD] [--json FILE]

Each such game is replayed from its SGF (the ``sgf`` of its row) into our engine (``--ours``)
and the opponent (``--opponent``, default the match's), each on its side, and settled; a
line per game gives the old and the new result, then both tallies. For match files written
before disputed ends were played out (2026-12-05), whose two-pass games GNU Go alone scored.
"""
import argparse
import json
import sys

from frontends.common import UsageError
from frontends.match import GtpProcess, settle
from games.go import sgf as go_sgf
from games.go import Go


def sgf_moves(path):
    """``(size, komi, [(colour letter, vertex)])`` of the main line of the SGF file ``path``
    (games.go.sgf.from_sgf; ``ValueError`` for a malformed file)."""
    with open(path, "rb") as f:
        record = go_sgf.from_sgf(f.read())
    game = Go(record["size"], komi=record["komi"])
    moves = [("bw"[player], game.format_move(action).lower())
             for player, action in record["moves"]]
    return record["size"], record["komi"], moves


def resettle(row, ours_cmd, theirs_cmd):
    """The new ``(result, reason)`` of one game row of a match file."""
    size, komi, moves = sgf_moves(row["sgf"])
    ours, theirs = GtpProcess(ours_cmd), GtpProcess(theirs_cmd)
    try:
        for engine in (ours, theirs):
            for cmd in [f"boardsize {size}", f"komi {komi:g}", "clear_board"] + [
                    f"play {c} {v}" for c, v in moves]:
                ok, msg = engine.send(cmd)
                if not ok:
                    raise RuntimeError(f"{cmd}: {msg}")
        players = {row["ours"]: ours, "bw"[row["ours"] == "b"]: theirs}
        return settle(Go(size, komi=komi), players, list(moves), size * size,
                      lambda engine, seconds: None)
    finally:
        ours.close()
        theirs.close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("match", help="a match file written by cli.py match --json")
    p.add_argument("--ours", required=True, metavar="CMD", help="our engine's GTP command")
    p.add_argument("--opponent", metavar="CMD", help="the opponent's (default: the match's)")
    p.add_argument("--json", metavar="FILE", help="write the rows, old and new, here")
    args = p.parse_args(argv)
    try:
        with open(args.match) as f:
            data = json.load(f)
        rows, opponent = data["games"], args.opponent or data["summary"]["opponent"]
    except (OSError, ValueError, KeyError) as e:
        print(f"error: cannot read {args.match}: {e}", file=sys.stderr)
        return 1
    out, old_wins, new_wins = [], 0, 0
    try:
        for row in rows:
            new = dict(row)
            if row["reason"] == "two passes":
                result, reason = resettle(row, args.ours, opponent)
                new.update(result=result, reason=reason, win=result[:1].lower() == row["ours"],
                           old_result=row["result"])
                print(f"game {row['game']:>3}: ours {row['ours'].upper()}, {row['result']} -> "
                      f"{result} ({reason})", flush=True)
            old_wins += row["win"]
            new_wins += new["win"]
            out.append(new)
    except (RuntimeError, UsageError, OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)     # an engine, a file, an SGF or a row
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    n = len(out)
    print(f"{args.match}: {old_wins}/{n} as scored, {new_wins}/{n} with disputed ends played out")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"match": args.match, "ours": args.ours, "opponent": opponent,
                       "games": out, "old_wins": old_wins, "new_wins": new_wins}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
