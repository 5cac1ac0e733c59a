"""Fit the learned tree prior of Go (``Go(prior_learned=True)``) to an engine's moves.

    python -m benchmarks.go_prior_fit games FILE.jsonl --engine "CMD" --minutes M [--size 9]
    python -m benchmarks.go_prior_fit fit FILE.jsonl... --out games/weights/go-prior.npz
        [--held-out K] [--steps 400] [--l2 1e-4]

``games`` lets one GTP engine (for example Pachi) play both colours, game after game, and
appends each game's moves (a JSON list of GTP vertices, one line per game) to ``FILE.jsonl``
until ``M`` minutes have passed; a resignation ends a game. ``fit`` replays the games, takes
Go's move features (:func:`games.go_features.move_features`) at every position whose move is
one of the candidates, and fits the linear softmax of :mod:`mcts.learn` to the engine's moves
(one-hot targets: Coulom 2007, "Computing Elo ratings of move patterns in the game of Go").
The last ``K`` games are held out; the script prints the top-1 agreement on them and writes
the weights (float64 ``(num_features,)``, key ``weights``) with their provenance.
"""
import argparse
import json
import sys
import time

import numpy as np

from frontends.common import UsageError, exit_code, read_bounded
from frontends.match import GtpProcess
from games.contract import ONGOING
from games.go import apply_action, status
from games.go_features import FEATURE_SLOTS, NUM_FEATURES, move_features
from games.go_game import Go
from mcts.learn import FeatureRows, fit, probabilities

MAX_GAMES_BYTES = 64 << 20      # fit reads at most this much of each games file


def _ask(proc, command):
    ok, text = proc.send(command)
    if not ok:
        raise UsageError(f"the engine refused {command!r}: {text}")
    return text


def play_games(path, engine, minutes, size):
    """Self-play games of ``engine`` (a GTP command line) appended to ``path`` for ``minutes``."""
    proc = GtpProcess(engine)
    end = time.time() + 60 * minutes
    count = 0
    try:
        with open(path, "a") as out:
            while time.time() < end:
                for command in (f"boardsize {size}", "clear_board", "komi 7.5"):
                    _ask(proc, command)
                moves, passes = [], 0
                while len(moves) < 2 * size * size and passes < 2:
                    vertex = _ask(proc, f"genmove {'bw'[len(moves) % 2]}").lower()
                    if vertex == "resign":
                        break
                    moves.append(vertex)
                    passes = passes + 1 if vertex == "pass" else 0
                out.write(json.dumps(moves) + "\n")
                out.flush()
                count += 1
    finally:
        proc.close()
    return count


def feature_rows(games, size):
    """FeatureRows of every position of ``games`` (lists of vertices) whose move is a
    candidate of ``move_features``, with the move as a one-hot target."""
    go = Go(size=size)
    cand = np.zeros(size * size + 1, dtype=np.int64)
    feats = np.full((size * size + 1, FEATURE_SLOTS), -1, dtype=np.int32)
    parts, target, groups, position = [], [], [], 0
    for moves in games:
        state = go.initial_state()
        for vertex in moves:
            try:
                action = go.parse_move(vertex.upper(), state)
            except ValueError as e:
                raise UsageError(f"move {vertex!r} of a game: {e}") from None
            if action != size * size:
                feats[:] = -1
                m = move_features(state, cand, feats)
                hit = np.flatnonzero(cand[:m] == action)
                if m > 1 and len(hit) == 1:
                    parts.append(feats[:m].copy())
                    t = np.zeros(m)
                    t[hit[0]] = 1.0
                    target.append(t)
                    groups.append(np.full(m, position, dtype=np.int64))
                    position += 1
            apply_action(state, action)             # legal: parse_move checked it
            if status(state) != ONGOING:
                break
    if not parts:
        raise UsageError("no positions: the games hold no move the features can rate")
    return FeatureRows(np.concatenate(parts), np.concatenate(groups), np.concatenate(target))


def top1(weights, rows):
    """Share of the positions of ``rows`` whose most probable candidate is the target."""
    p = probabilities(weights, rows)
    starts = np.flatnonzero(np.r_[True, rows.group[1:] != rows.group[:-1]])
    best = np.maximum.reduceat(p, starts)
    hit = np.add.reduceat((p == np.repeat(best, np.diff(np.r_[starts, len(p)])))
                          & (rows.target > 0), starts)
    return float(np.mean(hit > 0))


def read_games(paths):
    """The games (lists of vertex strings) of the JSON-lines files ``paths``, each read to at
    most ``MAX_GAMES_BYTES``; ``UsageError`` for a file that cannot be read or parsed."""
    games = []
    for path in paths:
        try:
            lines = read_bounded(path, MAX_GAMES_BYTES).decode().splitlines()
            for line in filter(str.strip, lines):
                moves = json.loads(line)
                if not (isinstance(moves, list) and all(isinstance(m, str) for m in moves)):
                    raise ValueError("a line is not a list of vertices")
                games.append(moves)
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot read {path}: {e}") from None
    return games


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.go_prior_fit",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games", help="record an engine's self-play games")
    g.add_argument("file")
    g.add_argument("--engine", required=True)
    g.add_argument("--minutes", type=float, required=True)
    g.add_argument("--size", type=int, default=9)
    f = sub.add_parser("fit", help="fit the prior's weights to recorded games")
    f.add_argument("files", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--size", type=int, default=9)
    f.add_argument("--held-out", type=int, default=40)
    f.add_argument("--steps", type=int, default=400)
    f.add_argument("--l2", type=float, default=1e-4)
    args = parser.parse_args(argv)
    if args.command == "games":
        return exit_code(record_games, args,
                         interrupted="interrupted (the games recorded so far are kept)")
    return exit_code(fit_weights, args)


def record_games(args):
    """The ``games`` command: append the engine's self-play games to ``args.file``."""
    n = play_games(args.file, args.engine, args.minutes, args.size)
    print(f"{n} games appended to {args.file}")


def fit_weights(args):
    """The ``fit`` command: fit the prior's weights to ``args.files``, report the training
    and held-out top-1 rates, and write them to ``args.out`` (.npz)."""
    games = read_games(args.files)
    held = min(args.held_out, len(games) // 2)
    train = feature_rows(games[:len(games) - held], args.size)
    test = feature_rows(games[len(games) - held:], args.size) if held else None
    w, before, after = fit(np.zeros(NUM_FEATURES), train, steps=args.steps, l2=args.l2)
    print(f"{train.count} training positions from {len(games) - held} games: "
          f"loss {before:.3f} -> {after:.3f}, top-1 {top1(w, train):.3f}")
    if test is not None:
        print(f"{test.count} held-out positions from {held} games: "
              f"top-1 {top1(w, test):.3f}")
    out = args.out if args.out.endswith(".npz") else args.out + ".npz"   # as np.savez
    np.savez(out, weights=w, games=len(games), positions=train.count,
             sources=json.dumps(args.files), steps=args.steps, l2=args.l2)
    print(f"weights written to {out}")

if __name__ == "__main__":
    sys.exit(main())
