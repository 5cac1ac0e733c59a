#!/usr/bin/env python3
"""A stand-in GTP engine for checking sabaki_trial.js's analysis part: it answers every
command with an empty success, and `lz-analyze` / `kata-analyze` the way Leela Zero and
KataGo do (`=` then an `info ...` line every interval centiseconds, until the next command
arrives, which ends the stream with an empty line). Not a Go engine.

    NODE_PATH=... node sabaki_trial.js python3 $PWD/fake_analyze_engine.py
"""
import select
import sys


def main():
    out = sys.stdout
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        ident = parts[0] if parts[0].isdigit() else ""
        if ident:
            parts = parts[1:]
        name, args = parts[0], parts[1:]
        if name == "quit":
            out.write(f"={ident}\n\n")
            out.flush()
            return
        if name in ("lz-analyze", "kata-analyze"):
            nums = [a for a in args if a.isdigit()]
            interval = int(nums[0]) / 100 if nums else 1.0
            out.write(f"={ident}\n")
            out.flush()
            n = 0
            while not select.select([sys.stdin], [], [], interval)[0]:
                n += 1
                extra = " ownership " + " ".join(["0.0"] * 81) if name == "kata-analyze" else ""
                out.write(f"info move E5 visits {n} winrate 5000 prior 1000 order 0 pv E5{extra}\n")
                out.flush()
            out.write("\n")
            out.flush()
            continue
        reply = {"protocol_version": "2", "name": "fake", "list_commands": "name"}.get(name, "")
        out.write(f"={ident} {reply}\n\n" if reply else f"={ident}\n\n")
        out.flush()


if __name__ == "__main__":
    main()
