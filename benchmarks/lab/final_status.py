"""How well our GTP ``final_status_list`` agrees with GNU Go's on finished games, per stone.

``play --size N --games G --out DIR``: games of our engine against GNU Go (colours
alternating, komi 7.5) saved as DIR/game-NNN.sgf, RE from GNU Go's ``final_score``. Only games
ended by two passes count: a resignation, an illegal move, a protocol error (GNU Go crashing)
or the cap of 3 n^2 moves discards the game, and another is played with the next seed.

``compare DIR [DIR ...] [--json FILE]``: each SGF is loaded into one long-lived process per
engine, both are asked ``final_status_list alive|dead|seki`` and every stone of the final board
gets a status from each (``none`` if listed nowhere). Per board size: games, stones, % of
stones alike, stones GNU Go calls alive that we call seki, we call dead that GNU Go calls alive
and the reverse; the JSON adds every pair of statuses and each file's differing stones.
"""
import argparse
import collections
import glob
import json
import os
import shlex
import sys
import time
from pathlib import Path

from sgfmill import sgf, sgf_moves

from frontends.gtp_client import GtpClient

CLI = shlex.quote(str(Path(__file__).resolve().parents[2] / "cli.py"))     # the checkout's
OURS_PLAY = (f"{shlex.quote(sys.executable)} {CLI} gtp --threads 1 --playouts 1500 "
             "--resign-threshold 0 --size {size} --seed {seed}")
GNUGO_PLAY = "/usr/games/gnugo --mode gtp --chinese-rules --level 1"
OURS_STATUS = f"{shlex.quote(sys.executable)} {CLI} gtp --threads 1 --rules chinese"
GNUGO_STATUS = "/usr/games/gnugo --mode gtp --chinese-rules"
COLUMNS = "ABCDEFGHJKLMNOPQRST"


def gtp_engine(command, timeout):
    """A GTP engine whose standard error is quoted if it dies (frontends.gtp_client)."""
    return GtpClient(command, timeout=timeout, keep_stderr=True)


def play_game(ours, gnugo, ours_black, size):
    """(moves [(colour, VERTEX)], None) for a game ended by two passes, else (moves, why)."""
    players = {"b": ours if ours_black else gnugo, "w": gnugo if ours_black else ours}
    moves, passes, color = [], 0, "b"
    try:
        for engine in (ours, gnugo):
            for cmd in (f"boardsize {size}", "komi 7.5", "clear_board"):
                engine.ask(cmd)
        while len(moves) < 3 * size * size:
            other = "w" if color == "b" else "b"
            ok, move = players[color].send(f"genmove {color}")
            if not ok or move.upper() == "RESIGN":
                return moves, f"{color.upper()} resigned" if ok else f"genmove failed: {move}"
            ok, msg = players[other].send(f"play {color} {move}")
            if not ok:
                return moves, f"play {color} {move} rejected: {msg}"
            moves.append((color, move.upper()))
            passes = passes + 1 if move.upper() == "PASS" else 0
            if passes == 2:
                return moves, None
            color = other
    except RuntimeError as e:
        return moves, f"protocol error: {e}"
    return moves, "move cap"


def save_sgf(path, size, moves, result, names):
    game = sgf.Sgf_game(size=size)
    root = game.get_root()
    for key, value in (("KM", 7.5), ("RU", "Chinese"), ("PB", names[0]), ("PW", names[1]),
                       ("RE", result)):
        if value:
            root.set(key, value)
    node = root
    for color, v in moves:                  # sgfmill points: (row from the bottom, column)
        node = node.new_child()
        node.set_move(color, None if v == "PASS" else (int(v[1:]) - 1, COLUMNS.index(v[0])))
    with open(path, "wb") as f:
        f.write(game.serialise())


def cmd_play(args):
    os.makedirs(args.out, exist_ok=True)
    gnugo = gtp_engine(args.gnugo, args.timeout)
    done, attempt, discarded = 0, 0, 0
    while done < args.games and attempt < 3 * args.games + 10:
        ours_black, seed, colour = done % 2 == 0, args.seed + attempt, "BW"[done % 2]
        attempt += 1
        t0 = time.monotonic()
        ours = gtp_engine(args.ours.format(size=args.size, seed=seed), args.timeout)
        try:
            ours.ask("final_status_list dead")     # waits for the kernels: no quick moves
            moves, why = play_game(ours, gnugo, ours_black, args.size)
        except RuntimeError as e:
            moves, why = [], f"protocol error: {e}"
        ours.close()
        seconds = time.monotonic() - t0
        if why:
            discarded += 1
            print(f"discarded: seed {seed}, ours {colour}, {len(moves)} moves, {why}, "
                  f"{seconds:.0f} s", flush=True)
            if why.startswith("protocol error"):        # GNU Go may have crashed or hung
                gnugo.close()
                gnugo = gtp_engine(args.gnugo, args.timeout)
            continue
        ok, result = gnugo.send("final_score")
        done += 1
        names = ("mcts-engine", "GNU Go") if ours_black else ("GNU Go", "mcts-engine")
        save_sgf(os.path.join(args.out, f"game-{done:03d}.sgf"), args.size, moves,
                 result if ok else None, names)
        print(f"game {done:03d}: seed {seed}, ours {colour}, {len(moves)} moves, "
              f"RE {result if ok else '?'}, {seconds:.0f} s", flush=True)
    gnugo.close()
    print(f"{done} games saved in {args.out}, {discarded} discarded", flush=True)
    return 0 if done == args.games else 1


def final_board(path):
    """(size, [VERTEX of each stone]) after the game in the SGF at ``path``."""
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    board, plays = sgf_moves.get_setup_and_moves(game)
    for color, move in plays:
        if move is not None:
            board.play(move[0], move[1], color)
    return game.get_size(), [f"{COLUMNS[c]}{r + 1}" for _, (r, c) in board.list_occupied_points()]


def statuses(engine, path):
    """{VERTEX: status} from the engine's final_status_list for the game at ``path``."""
    engine.ask("clear_board")
    engine.ask(f"loadsgf {os.path.abspath(path)}")
    return {v.upper(): status for status in ("alive", "dead", "seki")
            for v in engine.ask(f"final_status_list {status}").split()}


def start_ours(command, timeout):
    """Our engine; if it rejects ``--rules X`` (it exits at once), again without it."""
    engine = gtp_engine(command, timeout)
    words = shlex.split(command)
    try:
        engine.ask("name")
        return engine
    except RuntimeError:
        engine.close()
        if "--rules" not in words:
            raise
    i = words.index("--rules")
    command = shlex.join(words[:i] + words[i + 2:])
    print(f"note: our engine rejects --rules; using {command!r}", file=sys.stderr)
    return gtp_engine(command, timeout)


def cmd_compare(args):
    files = sorted(f for d in args.dirs for f in glob.glob(os.path.join(d, "*.sgf")))
    ours, gnugo = start_ours(args.ours, args.timeout), gtp_engine(args.gnugo, args.timeout)
    sizes, errors, differ = {}, [], {}
    for path in files:
        size, stones = final_board(path)
        try:
            st_ours, st_gnugo = statuses(ours, path), statuses(gnugo, path)
        except RuntimeError as e:
            errors.append(f"{path}: {e}")
            print(f"error: {path}: {e}", file=sys.stderr)
            ours.close()
            gnugo.close()
            ours, gnugo = start_ours(args.ours, args.timeout), gtp_engine(args.gnugo, args.timeout)
            continue
        s = sizes.setdefault(size, collections.Counter())
        pairs = {v: (st_gnugo.get(v, "none"), st_ours.get(v, "none")) for v in stones}
        s.update(f"gnugo_{g}_ours_{o}" for g, o in pairs.values())
        diff = {v: f"gnugo {g}, ours {o}" for v, (g, o) in pairs.items() if g != o}
        s.update(games=1, stones=len(stones), same=len(stones) - len(diff),
                 games_differing=bool(diff))
        differ.update({path: diff} if diff else {})
    ours.close()
    gnugo.close()
    columns = (("games", "games"), ("stones", "stones"), ("same_percent", "same %"),
               ("living_called_seki", "GG alive, we seki"), ("ours_dead_gnugo_alive",
               "we dead, GG alive"), ("ours_alive_gnugo_dead", "we alive, GG dead"),
               ("games_differing", "games differing"))
    print("size   " + "  ".join(title for _, title in columns))
    for size, s in sorted(sizes.items()):
        s = sizes[size] = dict(s, same_percent=round(100.0 * s["same"] / max(1, s["stones"]), 2),
                               living_called_seki=s["gnugo_alive_ours_seki"],
                               ours_dead_gnugo_alive=s["gnugo_alive_ours_dead"],
                               ours_alive_gnugo_dead=s["gnugo_dead_ours_alive"])
        print(f"{size}x{size:<4}" + "  ".join(f"{s[k]:>{len(t)}}" for k, t in columns))
    if errors:
        print(f"{len(errors)} files skipped after errors")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"ours": ours.command, "gnugo": args.gnugo, "errors": errors,
                       "sizes": {str(k): v for k, v in sorted(sizes.items())},
                       "differences": differ}, f, indent=1)
    return 1 if errors else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    pl = sub.add_parser("play", help="play finished games against GNU Go, save them as SGF")
    co = sub.add_parser("compare", help="compare final_status_list on the SGF files of DIR")
    for sp, ours, gnugo, timeout in ((pl, OURS_PLAY, GNUGO_PLAY, 600),
                                     (co, OURS_STATUS, GNUGO_STATUS, 300)):
        sp.add_argument("--ours", default=ours, help="our engine (play: {size}, {seed} are "
                        "filled in per game); default: %(default)s")
        sp.add_argument("--gnugo", default=gnugo, help="default: %(default)s")
        sp.add_argument("--timeout", type=float, default=timeout, help="seconds per reply")
    pl.add_argument("--size", type=int, default=9)
    pl.add_argument("--games", type=int, default=10)
    pl.add_argument("--out", required=True, help="folder for game-NNN.sgf")
    pl.add_argument("--seed", type=int, default=1, help="our seed in the first game (+1 each)")
    co.add_argument("dirs", nargs="+", metavar="DIR")
    co.add_argument("--json", help="write the figures to this file")
    args = p.parse_args(argv)
    return cmd_play(args) if args.command == "play" else cmd_compare(args)


if __name__ == "__main__":
    sys.exit(main())
