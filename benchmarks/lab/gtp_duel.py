"""Two GTP engines against each other on Go (9x9 by default), GNU Go as referee.

    python -m benchmarks.lab.gtp_duel --a "CMD" --b "CMD" [--games 40] [--size 9] [--komi 7.5]
        [--json FILE]

A diagnostic for other engines' settings (for example Pachi with one rule of its playout
policy switched off against Pachi as it comes: which of its rules carry its strength). In a
command, ``{seed}`` becomes the game's number plus 1000 for A and plus 5000 for B, so a
duel can be replayed. Games end by resignation, two passes (then GNU Go ``final_score``
counts, or a disputed end is played out as in ``cli.py match``) or a cap of three moves per
point; A takes Black in the odd games. Prints one line per game and A's score with its
95 % Wilson interval; ``--json`` writes the games and the summary.
"""
import argparse
import json
import sys

from frontends.common import UsageError
from frontends.gtp_client import GtpClient
from frontends.match import new_game, play_moves, referee_score, settle, wilson
from games.go import Go


def play(a, b, a_black, size, komi):
    """One game; returns its result ("B+R", "W+3.5", "?"), settled as in ``cli.py match``:
    GNU Go counts a game ended by the move cap or by two passes without dead stones, and a
    disputed end is played out with ``kgs-genmove_cleanup`` (frontends.match.settle)."""
    game = Go(size, komi=komi)
    players = {"b": a if a_black else b, "w": b if a_black else a}
    new_game((a, b), size, komi)
    moves = []
    result, _, passes = play_moves(players, "b", moves, 3 * size * size, lambda e, s: None)
    if result is not None:
        return result
    if passes >= 2:
        return settle(game, players, moves, size * size, lambda e, s: None)[0]
    return referee_score(size, f"{komi:g}", moves) or "?"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--a", required=True, metavar="CMD", help="engine A's command")
    p.add_argument("--b", required=True, metavar="CMD", help="engine B's command")
    p.add_argument("--games", type=int, default=40, help="games, at least 1 (default 40)")
    p.add_argument("--size", type=int, default=9, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    p.add_argument("--json", metavar="FILE", help="write the games and the summary here")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    wins, rows = 0.0, []
    try:
        for i in range(args.games):
            a_black = i % 2 == 0
            with GtpClient(args.a.replace("{seed}", str(1000 + i))) as a, \
                    GtpClient(args.b.replace("{seed}", str(5000 + i))) as b:
                result = play(a, b, a_black, args.size, args.komi)
            a_colour = "B" if a_black else "W"
            win = result[:1] == a_colour
            wins += win
            lo, hi = wilson(wins, i + 1)
            rows.append({"game": i + 1, "a": a_colour, "result": result, "a_wins": win})
            print(f"game {i + 1:>3}: A {a_colour}, {result}  [A {wins:g}/{i + 1}, "
                  f"{lo:.0%}-{hi:.0%}]", flush=True)
    except (RuntimeError, UsageError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    n = len(rows)
    lo, hi = wilson(wins, n)
    print(f"A scored {wins:g}/{n} (95 % Wilson interval {lo:.0%}-{hi:.0%})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": {"a": args.a, "b": args.b, "games": n, "a_wins": wins,
                                   "wilson_95": [lo, hi], "size": args.size, "komi": args.komi},
                       "games": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
