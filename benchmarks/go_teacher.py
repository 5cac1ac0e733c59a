"""Teacher games for Go's learned playout policy: GNU Go 3.8 playing itself, one SGF per game.

    python3 -m benchmarks.go_teacher --out benchmarks/data/go_teacher/9 [--size 9] [--level 10]
        [--seed 1] [--games 1000] [--minutes 40] [--random-moves 2-4] [--max-moves N]
        [--gnugo /usr/games/gnugo]

One GNU Go process (``--mode gtp --chinese-rules --komi 7.5 --level L --seed SEED``) plays
both colours (``genmove b`` / ``genmove w``). Game ``k`` (0, 1, ...) has the seed
``SEED + k``: before it the board is cleared and GNU Go's random seed is set to it
(``set_random_seed``), and a numpy ``Generator`` seeded with it draws the opening: a number
of random moves within ``--random-moves`` (Black first, alternating), each on an empty point
off the first line. Then GNU Go plays both sides until two passes in a row, a resignation or
``--max-moves`` moves in all (default: twice the number of points). A finished game is
scored by GNU Go (``final_score``, Chinese rules) into RE.

Each game is written to ``OUT/game-SEED.sgf`` (seven-digit seed) through sgfmill: SZ, KM,
RU[Chinese], PB/PW ``GNU Go 3.8 level L``, GC with the seed and the number of random moves,
and each random opening move carries the comment ``C[random opening]`` so that a trainer
skips it (benchmarks/train_go_mm.py). No date is written: the same seed, level, size and
GNU Go give byte-identical files.

``--games`` games are played, or fewer when ``--minutes`` of wall time have passed (the game
in progress is finished first). The output folder is checked before the first game. Source
of the idea: Coulom 2007, "Computing Elo ratings of move patterns in the game of Go", fits
its features to the moves of strong players.
"""
import argparse
import math
import os
import sys
import time

import numpy as np
from sgfmill import sgf

from frontends.common import UsageError, exit_code, output_folder
from frontends.gtp_client import GtpClient

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
RANDOM_COMMENT = "random opening"
DEFAULT_RANDOM = {9: (2, 4), 13: (3, 6), 19: (4, 8)}


def vertex(point, size):
    """GTP vertex of ``(row, col)`` (row 0 at the top)."""
    row, col = point
    return f"{LETTERS[col]}{size - row}"


def parse_vertex(text, size):
    """``(row, col)`` (row 0 at the top) of a GTP vertex, None for pass, "resign" for resign;
    ``RuntimeError`` for anything else (a teacher that answers nonsense)."""
    t = text.strip().upper()
    if t in ("PASS", "RESIGN"):
        return None if t == "PASS" else "resign"
    try:
        col, row = LETTERS.index(t[0]), size - int(t[1:])
    except (ValueError, IndexError):
        raise RuntimeError(f"GNU Go answered {text!r} to genmove") from None
    if not (0 <= row < size and 0 <= col < size):
        raise RuntimeError(f"GNU Go answered {text!r} to genmove")
    return row, col


def random_opening(rng, size, count):
    """``count`` distinct points ``(row, col)`` off the first line, drawn by ``rng``."""
    inner = [(r, c) for r in range(1, size - 1) for c in range(1, size - 1)]
    picks = rng.choice(len(inner), size=count, replace=False)
    return [inner[int(i)] for i in picks]


def play_game(engine, size, level, seed, random_moves, max_moves):
    """Play one game; return its SGF bytes and the number of GNU Go moves (passes included)."""
    engine.ask("clear_board")
    engine.ask(f"set_random_seed {seed}")
    rng = np.random.default_rng(seed)
    lo, hi = random_moves
    count = int(rng.integers(lo, hi + 1))
    record = sgf.Sgf_game(size=size)
    root = record.get_root()
    root.set("KM", 7.5)
    root.set("RU", "Chinese")
    name = f"GNU Go 3.8 level {level}"
    root.set("PB", name)
    root.set("PW", name)
    root.set("GC", f"benchmarks/go_teacher.py: seed {seed}, {count} random opening moves, "
                   f"then GNU Go plays both sides")
    node, colour, result = root, "b", None
    for point in random_opening(rng, size, count):
        engine.ask(f"play {colour} {vertex(point, size)}")
        node = node.new_child()
        node.set_move(colour, (size - 1 - point[0], point[1]))
        node.set("C", RANDOM_COMMENT)
        colour = "w" if colour == "b" else "b"
    passes, played, teacher = 0, count, 0
    while passes < 2 and played < max_moves:
        move = parse_vertex(engine.ask(f"genmove {colour}"), size)
        if move == "resign":
            result = ("W" if colour == "b" else "B") + "+R"
            break
        teacher += 1
        played += 1
        node = node.new_child()
        node.set_move(colour, None if move is None else (size - 1 - move[0], move[1]))
        passes = passes + 1 if move is None else 0
        colour = "w" if colour == "b" else "b"
    if result is None and passes >= 2:
        score = engine.ask("final_score")
        result = "0" if score.upper().startswith("0") else score
    if result:
        root.set("RE", result)
    return record.serialise(), teacher


def run(args):
    if args.size not in (9, 13, 19):
        raise UsageError(f"--size must be 9, 13 or 19 (got {args.size})")
    lo, hi = args.random_moves or DEFAULT_RANDOM[args.size]
    if not 0 <= lo <= hi <= (args.size - 2) ** 2:
        raise UsageError(f"--random-moves {lo}-{hi}: need 0 <= low <= high <= {(args.size - 2) ** 2}")
    if not 1 <= args.games <= 1_000_000 or not 0 <= args.seed < 2 ** 31 - 1_000_000:
        raise UsageError("--games must be from 1 to 1000000, --seed from 0 to 2147000000")
    if not 0 <= args.level <= 10:
        raise UsageError(f"--level must be one of GNU Go's levels 0 to 10 (got {args.level})")
    if args.minutes is not None and not (math.isfinite(args.minutes)
                                         and 0 < args.minutes <= 7 * 24 * 60):
        raise UsageError("--minutes must be a number above 0, at most a week (10080)")
    if args.max_moves is not None and not 1 <= args.max_moves <= 3 * args.size * args.size:
        raise UsageError(f"--max-moves must be from 1 to {3 * args.size * args.size}")
    max_moves = args.max_moves or 2 * args.size * args.size
    output_folder(args.out)
    command = [args.gnugo, "--mode", "gtp", "--chinese-rules", "--komi", "7.5",
               "--level", str(args.level), "--seed", str(args.seed)]
    engine = GtpClient(command, timeout=600)
    start = time.monotonic()
    moves = done = 0
    try:
        engine.ask(f"boardsize {args.size}")
        for k in range(args.games):
            if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                break
            seed = args.seed + k
            t0 = time.monotonic()
            data, n = play_game(engine, args.size, args.level, seed, (lo, hi), max_moves)
            path = os.path.join(args.out, f"game-{seed:07d}.sgf")
            with open(path, "wb") as f:
                f.write(data)
            moves, done = moves + n, done + 1
            print(f"{path}: {n} GNU Go moves, {time.monotonic() - t0:.1f} s", flush=True)
    finally:
        engine.close()
    spent = time.monotonic() - start
    print(f"{done} games (seeds {args.seed}-{args.seed + done - 1}), {moves} GNU Go moves, "
          f"{spent:.0f} s, {spent / max(done, 1):.1f} s per game", flush=True)


def random_range(text):
    try:
        lo, _, hi = text.partition("-")
        return int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH, got {text!r}") from None


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m benchmarks.go_teacher",
                                description="GNU Go self-play games as teacher data (SGF).")
    p.add_argument("--out", required=True, help="folder for the SGF files")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--level", type=int, default=10)
    p.add_argument("--seed", type=int, default=1, help="seed of the first game")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--minutes", type=float, default=None, help="wall-clock budget")
    p.add_argument("--random-moves", type=random_range, default=None, metavar="LOW-HIGH",
                   help="random opening moves (default 2-4 on 9x9, 3-6 on 13x13, 4-8 on 19x19)")
    p.add_argument("--max-moves", type=int, default=None)
    p.add_argument("--gnugo", default="/usr/games/gnugo")
    return exit_code(run, p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
