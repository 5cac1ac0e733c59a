"""GNU Go's GTP regression suites as a diagnostic of tactics: pass counts per file.

    python -m benchmarks.lab.gnugo_regress DIR FILE.tst [FILE.tst ...] [--engine CMD] [--native]
        [--json OUT] [--limit N]

``DIR`` is the ``regression`` folder of GNU Go's source tarball (``apt-get source
--download-only gnugo`` after adding a ``deb-src`` entry for bookworm main; the suites are
not part of this project). Each numbered test of a ``.tst`` file is a GTP command with its
expected answer, ``#? [regex]`` (``!`` in front negates it; a trailing ``*`` marks a test GNU
Go itself was expected to fail), after ``loadsgf`` set up the position.

Most tactical files ask GNU Go's own reading commands (``attack``, ``defend``, ``owl_attack``,
``owl_defend``, ``connect``, ``disconnect``), which an MCTS engine does not have. They are
**translated into move choice**: the side that must act (the attacker of the string at the
vertex: the colour not on it; its defender; the owner of strings to connect; their opponent to
cut) is asked ``reg_genmove``, and the test passes if the move is one the answer lists (``1
MOVE``, or ``(A|B)``; GNU Go's codes 2 and 3, success by ko, count too). Tests whose answer is
"cannot" (``0``) or names no move are left out.
``reg_genmove`` tests are asked as they are. With ``--native`` the original command is sent
instead (GNU Go answers its own commands): GNU Go's own pass count on the same tests.

Runs one engine; run it twice (ours, then ``--engine "gnugo --mode gtp"``) for the two
columns. No file is copied into the project: the tarball stays outside.
"""
import argparse
import json
import re
import shlex
import sys
from pathlib import Path

from frontends.gtp_client import EngineExited, EngineStartError, GtpClient, GtpClientError

TRANSLATED = {"attack": "attack", "owl_attack": "attack", "defend": "defend",
              "owl_defend": "defend", "connect": "connect", "disconnect": "disconnect"}
GENMOVE = ("reg_genmove", "gg_genmove", "restricted_genmove")


class Engine:
    """A GTP engine (frontends.gtp_client) started again whenever it dies or hangs; ``ask``
    returns (ok, answer text)."""

    def __init__(self, command, cwd, timeout=600.0):
        self.command, self.cwd, self.timeout = command, cwd, timeout
        self.start()

    def start(self):
        self.client = GtpClient(self.command, timeout=self.timeout, cwd=self.cwd)

    def ask(self, line):
        """Send one command; an engine that died is started again (the answer says so)."""
        try:
            return self.client.send(line)
        except GtpClientError as e:
            self.client.close()
            self.start()
            return False, "engine ended" if isinstance(e, EngineExited) else str(e)

    def close(self, kill=False):
        if kill:
            self.client.proc.kill()
        self.client.close(timeout=10)


def parse_tests(path):
    """The tests of ``path``: dicts with the set-up commands before them, the number, the
    command and the expected pattern."""
    setup, tests, current = [], [], None
    for raw in Path(path).read_text(errors="replace").splitlines():
        line = raw.strip()
        if not line:
            continue
        m = re.match(r"#\?\s*\[(.*)\](\*|&)?", line)
        if m and current is not None:
            current["expected"], current["gnugo_fails"] = m.group(1), m.group(2) == "*"
            tests.append(current)
            current = None
            continue
        if line.startswith("#"):
            continue
        m = re.match(r"(\d+)\s+(\S+)(.*)", line)
        if m:
            current = {"id": int(m.group(1)), "command": m.group(2),
                       "args": m.group(3).split(), "setup": list(setup)}
            continue
        setup.append(line)
        if line.split()[0] in ("loadsgf", "clear_board", "boardsize"):
            setup[:] = [line]
    return tests


def matches(pattern, answer):
    negate = pattern.startswith("!")
    body = pattern[1:] if negate else pattern
    hit = re.fullmatch(body, answer.strip(), re.IGNORECASE) is not None
    return hit != negate


def translation(test):
    """(what, vertex args) for a reading command, and the move regex its answer allows, or
    None when the test names no move to play."""
    what = TRANSLATED.get(test["command"])
    if what is None:
        return None
    m = re.fullmatch(r"\s*(\S+)\s+(.+?)\s*", test["expected"])
    if not m or test["expected"].startswith("!"):
        return None
    code, moves = m.groups()
    if (not any(re.fullmatch(code, c) for c in "123")      # 1 works, 2 / 3 works by ko
            or re.fullmatch(moves, "PASS", re.IGNORECASE)):
        return None
    return what, moves


def colour_at(engine, vertex):
    for colour in ("black", "white"):
        ok, text = engine.ask(f"list_stones {colour}")
        if ok and vertex.upper() in text.upper().split():
            return colour
    return None


def run_file(engine, path, native, limit=None):
    tests = parse_tests(path)
    done = []
    for test in tests[:limit]:
        asked = None
        if test["command"] in GENMOVE:
            asked = f"reg_genmove {test['args'][0]}", test["expected"]
        elif native:
            asked = f"{test['command']} {' '.join(test['args'])}", test["expected"]
        else:
            tr = translation(test)
            if tr is None:
                continue
            what, moves = tr
            asked = what, moves
        ok = True
        for line in test["setup"]:
            ok, text = engine.ask(line)
            if not ok:
                break
        if not ok:
            done.append({"id": test["id"], "passed": False, "answer": f"set-up failed: {text}"})
            continue
        if test["command"] in TRANSLATED and not native:
            what, moves = asked
            owner = colour_at(engine, test["args"][0])
            if owner is None:
                continue
            other = "white" if owner == "black" else "black"
            mover = owner if what in ("defend", "connect") else other
            ok, answer = engine.ask(f"reg_genmove {mover}")
            passed = ok and matches(moves, answer)
        else:
            command, expected = asked
            ok, answer = engine.ask(command)
            passed = ok and matches(expected, answer)
        done.append({"id": test["id"], "command": test["command"], "passed": passed,
                     "answer": answer, "expected": test["expected"]})
    return done


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir", help="GNU Go's regression folder")
    p.add_argument("files", nargs="+", help=".tst files in it")
    p.add_argument("--engine", default=f"{sys.executable} cli.py gtp --seconds 1 --threads 1",
                   help="GTP engine command (default: ours, 1 s a move, 1 thread)")
    p.add_argument("--native", action="store_true",
                   help="send GNU Go's reading commands as they are (for GNU Go itself)")
    p.add_argument("--limit", type=int, help="at most this many tests per file")
    p.add_argument("--json", help="write every answer here")
    args = p.parse_args(argv)
    root = Path(args.dir)
    missing = [f for f in args.files if not (root / f).is_file()]
    if not root.is_dir() or missing:
        sys.exit(f"error: {root} is not a folder" if not root.is_dir()
                 else f"error: no file {missing[0]} in {root}")
    if args.json and (Path(args.json).is_dir()
                      or not Path(args.json).resolve().parent.is_dir()):
        sys.exit(f"error: cannot write {args.json}: a folder, or its folder does not exist")
    if args.limit is not None and args.limit < 1:
        sys.exit("error: --limit must be at least 1")
    try:
        if not shlex.split(args.engine):
            raise ValueError("empty")
    except ValueError as e:
        sys.exit(f"error: --engine {args.engine!r}: {e}")
    here = Path(__file__).resolve().parents[2]      # the checkout
    command = args.engine.replace("cli.py", str(here / "cli.py"), 1)
    results = {}
    try:
        for name in args.files:
            try:
                engine = Engine(command, cwd=root)
            except EngineStartError as e:
                sys.exit(f"error: {e}")
            try:
                rows = run_file(engine, root / name, args.native, args.limit)
            except KeyboardInterrupt:
                engine.close(kill=True)
                raise
            engine.close()
            results[name] = rows
            print(f"{name}: {sum(r['passed'] for r in rows)}/{len(rows)} passed", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the files finished so far are kept", file=sys.stderr)
        code = 130
    else:
        code = 0
    if args.json:
        Path(args.json).write_text(json.dumps({"engine": args.engine, "native": args.native,
                                               "files": results}, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
