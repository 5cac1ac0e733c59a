#!/usr/bin/env python3
"""Replay the game in a gtp_tee.py log into fresh engines and ask each for final_score, to
compare with what the client showed.

    replay_score.py LOG [--gnugo] [--sgf FILE]

The moves are those of the log's first engine process: the `play` commands it received
and its own `genmove` replies, in order. Prints the move list, our engine's final_score and
final_status_list dead (both --rules values when the engine has --rules), and GNU Go's with
--chinese-rules and with Japanese rules (--gnugo, when /usr/games/gnugo exists). The
engines are spoken to through frontends/gtp_client.py.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, REPO)
from frontends.gtp_client import GtpClient, GtpClientError  # noqa: E402  (after the path)
LINE = re.compile(r"^\s*[0-9.]+ \[(\d+)\] ([<>!#]) ?(.*)$")


def moves_from_log(path):
    size, komi, moves, first_pid = 19, 7.5, [], None
    pending_genmove = []
    for raw in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(raw)
        if not m:
            continue
        pid, tag, text = m.groups()
        if first_pid is None and tag == ">":
            first_pid = pid
        if pid != first_pid:
            continue
        if tag == ">":
            words = text.split()
            if words and words[0].isdigit():
                words = words[1:]
            if not words:
                continue
            name, args = words[0], words[1:]
            if name == "boardsize":
                size, moves = int(args[0]), []
            elif name == "komi":
                komi = float(args[0])
            elif name == "clear_board":
                moves = []
            elif name == "play" and len(args) == 2:
                moves.append((args[0][0].lower(), args[1].upper()))
            elif name == "genmove":
                pending_genmove.append(args[0][0].lower())
            elif name in ("undo", "gg-undo"):
                n = int(args[0]) if args else 1
                del moves[len(moves) - n:]
        elif tag == "<" and pending_genmove:
            rm = re.match(r"^=\d*\s+(\S+)", text)
            if rm:
                color = pending_genmove.pop(0)
                if rm.group(1).lower() != "resign":
                    moves.append((color, rm.group(1).upper()))
            elif text.startswith("?"):
                pending_genmove.pop(0)
    return size, komi, moves


def ask(cmd, size, komi, moves, extra=()):
    script = [f"boardsize {size}", "clear_board", f"komi {komi}"]
    script += [f"play {c} {v}" for c, v in moves] + list(extra)
    try:
        with GtpClient(cmd, timeout=300, cwd=REPO) as engine:
            replies = [engine.send(line) for line in script]
            dead = engine.send("final_status_list dead")
            score = engine.send("final_score")
    except GtpClientError as exc:
        return f"(failed: {exc})"
    errors = [f"? {text}" for ok, text in replies if not ok]
    dead = dead[1].split() if dead[0] else []
    score = ("= " if score[0] else "? ") + score[1]
    return (score + f"; final_status_list dead: {len(dead)} stones"
            + (f" ({' '.join(dead[:12])}{' ...' if len(dead) > 12 else ''})" if dead else "")
            + (f"   [errors while replaying: {errors[:3]}]" if errors else ""))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    size, komi, moves = moves_from_log(args[0])
    print(f"replayed game: {size}x{size}, komi {komi}, {len(moves)} moves: "
          + " ".join(f"{c.upper()}[{v}]" for c, v in moves))
    py = sys.executable
    base = [py, os.path.join(REPO, "cli.py"), "gtp", "--threads", "1", "--playouts", "2000"]
    help_text = subprocess.run(base + ["--help"], capture_output=True, text=True,
                               cwd=REPO).stdout
    if "--rules" in help_text:
        for rules in ("tromp-taylor", "chinese"):
            print(f"our engine --rules {rules}: final_score "
                  + ask(base + ["--rules", rules], size, komi, moves))
    else:
        print("our engine: final_score " + ask(base, size, komi, moves))
    if "--gnugo" in args and os.path.exists("/usr/games/gnugo"):
        gnugo = ["/usr/games/gnugo", "--mode", "gtp"]
        print("GNU Go --chinese-rules: final_score "
              + ask(gnugo + ["--chinese-rules"], size, komi, moves))
        print("GNU Go (Japanese rules): final_score " + ask(gnugo, size, komi, moves))


if __name__ == "__main__":
    main()
