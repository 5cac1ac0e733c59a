#!/usr/bin/env python3
"""Pair the commands and replies of a gtp_tee.py log, per engine process.

    gtp_pairs.py LOG [REGEX]     print "pid  command  ->  reply" for commands matching REGEX
    gtp_pairs.py LOG --genmove   compare each genmove reply with the move the engine named
                                 on stderr ("genmove Black: E5, ..." / "quick move E5")
"""
import re
import sys

LINE = re.compile(r"^\s*[0-9.]+ \[(\d+)\] ([<>!#]) ?(.*)$")


def read(path):
    """Per pid: list of (command, reply lines) in order, and the stderr move reports."""
    pairs, queue, current, reports = {}, {}, {}, {}
    for raw in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(raw)
        if not m:
            continue
        pid, tag, text = m.groups()
        if tag == ">":
            if text.strip():
                queue.setdefault(pid, []).append(text.strip())
        elif tag == "<":
            if pid in current:
                if text == "":
                    pairs.setdefault(pid, []).append(current.pop(pid))
                else:
                    current[pid][1].append(text)
            elif text and text[0] in "=?":
                cmd = queue.get(pid, []).pop(0) if queue.get(pid) else "(no command)"
                current[pid] = (cmd, [text])
        elif tag == "!":
            r = re.match(r"genmove \w+: (\S+?),", text) or re.search(r"quick move (\S+)", text)
            if r:
                reports.setdefault(pid, []).append(r.group(1))
    for pid, p in current.items():           # a reply without its closing empty line
        pairs.setdefault(pid, []).append((p[0], p[1] + ["(unterminated)"]))
    return pairs, reports


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pairs, reports = read(sys.argv[1])
    if sys.argv[2:3] == ["--genmove"]:
        for pid, p in pairs.items():
            replies = []   # every command that makes the engine choose a move
            for c, r in p:
                if "genmove" in re.sub(r"^\d+\s+", "", c).split(" ")[0]:
                    plays = [x for x in r if x.startswith("play ")]
                    replies.append(plays[-1].replace("play ", "= ") if plays else r[0])
            said = reports.get(pid, [])
            diff = [(i + 1, s, r) for i, (s, r) in enumerate(zip(said, replies))
                    if re.sub(r"^=\d*\s*", "", r).lower() != s.lower()]
            print(f"[{pid}] {len(replies)} genmove replies, {len(said)} stderr move reports, "
                  f"{len(diff)} differ" + (":" if diff else ""))
            for n, s, r in diff:
                print(f"    genmove #{n}: stderr names {s}, reply '{r}'")
        return
    pattern = re.compile(sys.argv[2] if len(sys.argv) > 2 else ".")
    for pid, p in pairs.items():
        for cmd, reply in p:
            if pattern.search(cmd):
                text = " | ".join(reply)
                print(f"[{pid}] {cmd}  ->  {text[:300]}")


if __name__ == "__main__":
    main()
