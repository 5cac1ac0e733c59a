"""How long a user waits: from a fresh clone with empty caches to the AI's first move.

    python3 -m benchmarks.first_move [--repeat 3] [--ref REF] [--only MOMENT ...]
        [--json FILE] [--timeout 240] [--keep]

Each command is started as a user would, ``python3 cli.py ...`` in a clone, and driven
through pipes; ``MOMENTS`` lists what is timed, with the issue's targets. ``*-ai-first``:
``play GAME --first ai``, cold, from the start to the line ``AI plays`` (the AI thinks 1 s).
``go-reply``: ``play go``, cold; E5 sent 10 s after the prompt appears, to ``AI plays``.
``*-warm``: ``play GAME`` in the clone whose caches the cold moment built, to the prompt;
``gtp-warm``: ``gtp`` there, ``protocol_version`` and ``name`` sent at once, to both replies.
``hex-edit``: the Hex plug-in ``benchmarks/data/hex_plugin`` is analyzed once (every cache
built), a comment line inside its ``apply_action`` kernel is edited (every stamp of its
kernels and search goes stale), and ``analyze hex --moves "" --playouts 1`` is timed whole,
an upper bound of the time to the start of the search.

**Cold** means a sandbox of its own: ``git clone --quiet --no-hardlinks`` of this script's
repository at REF (committed code only), so no ``__pycache__`` and no generated search
module; ``HOME`` and ``XDG_CACHE_HOME`` at empty folders; every ``NUMBA_*`` and ``MCTS_*``
variable (``NUMBA_CACHE_DIR``, ``MCTS_CACHE_DIR``) and ``PYTHONDONTWRITEBYTECODE`` removed;
``PYTHONUNBUFFERED=1`` so that the pipe shows each line and the prompt at once, as a terminal
does. A warm moment whose cold one did not run (``--only``) or failed gets an untimed
``cli.py warmup GAME`` first.

**The plug-in** is installed nowhere: its two modules are copied into a folder of the sandbox
beside a ``hex_plugin-0.1.0.dist-info`` folder with the ``METADATA`` and ``entry_points.txt``
(``[mcts_engine.games] hex = hex_plugin:Hex``) that ``pip install`` would write, and that
folder goes first on the children's ``PYTHONPATH``: the engine finds the game through its
entry point group like any installed plug-in. It comes from this checkout, whatever REF.

``--json FILE`` adds to the table the notes, the load average before each moment and the
machine. A moment not done within ``--timeout`` seconds is stopped and counts as a timeout.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import namedtuple
from importlib import metadata
from pathlib import Path

from rich.table import Table

from benchmarks.piped import Child, MomentError, last_line
from frontends.argtypes import positive_float, positive_int
from frontends.common import UsageError, console, err, exit_code, output_file

HERE = Path(__file__).resolve().parent
PLUGIN = HERE / "data" / "hex_plugin"
PLUGIN_MODULES = ("hex_plugin.py", "hex_board.py")
EDIT_MARK = "# the checks are done: from here on the state changes"   # in apply_action
THINK = 10.0                    # seconds the human of go-reply thinks before moving
FIRST_MOVE = "E5"               # ... and the move (the centre of 9x9)
AI_PLAYS = re.compile(rb"^AI (plays|passes)", re.M)
PROMPT = re.compile(rb"to move \([^\n]*\): ")
GTP_REPLY = re.compile(rb"^([=?])[^\n]*\n\n", re.M)
HEX_ANALYZE = ("analyze", "hex", "--moves", "", "--playouts", "1")


# A moment: its name (a "-warm" one needs its game compiled in its sandbox first), target in
# seconds, the sandbox (a fresh clone) it runs in, the game it compiles or needs, what it times.
Moment = namedtuple("Moment", "name target sandbox game what")
MOMENTS = (
    Moment("connect4-ai-first", 5, "connect4", "connect4", "start to AI plays, cold"),
    Moment("othello-ai-first", 5, "othello", "othello", "start to AI plays, cold"),
    Moment("go-ai-first", 15, "go", "go", "start to AI plays, cold"),
    Moment("go-reply", 3, "go-reply", "go", f"{FIRST_MOVE} sent to AI plays, cold"),
    Moment("connect4-warm", 1, "connect4", "connect4", "start to the prompt, warm"),
    Moment("othello-warm", 1, "othello", "othello", "start to the prompt, warm"),
    Moment("go-warm", 1, "go", "go", "start to the prompt, warm"),
    Moment("gtp-warm", 1, "go", "go", "start to 2 replies, warm"),
    Moment("hex-edit", 8, "hex", "hex", "analyze after an edit, whole"),
)
BY_NAME = {m.name: m for m in MOMENTS}


def fresh_env(base, home, cache, plugin_path=None):
    """The environment of a user with empty caches: ``base`` without ``NUMBA_*``, ``MCTS_*``
    and ``PYTHONDONTWRITEBYTECODE``, with ``HOME`` and ``XDG_CACHE_HOME`` at ``home`` and
    ``cache``, a pipe as quick as a terminal and no colours; ``plugin_path`` first on
    ``PYTHONPATH``."""
    env = {k: v for k, v in base.items() if not k.startswith(("NUMBA_", "MCTS_"))
           and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(cache), TERM="dumb", NO_COLOR="1",
               COLUMNS="120", PYTHONUNBUFFERED="1")
    if plugin_path:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(plugin_path), base.get("PYTHONPATH"))
                                            if p)
    return env


def git(*args, cwd):
    """The output of ``git ARGS`` in ``cwd``; ``UsageError`` with git's message if it fails."""
    p = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        raise UsageError(f"git {' '.join(args)}: {last_line(p.stderr) or 'failed'}")
    return p.stdout.strip()


class Sandbox:
    """A fresh clone of ``repo`` at ``commit`` with an empty ``HOME`` and cache folder, and,
    for ``with_plugin``, the Hex plug-in in a folder on ``PYTHONPATH``."""

    def __init__(self, root, repo, commit, with_plugin=False):
        self.path = Path(root)
        self.clone, self.warm = self.path / "clone", set()
        for folder in ("home", "cache"):
            (self.path / folder).mkdir(parents=True)
        git("clone", "--quiet", "--no-hardlinks", str(repo), str(self.clone), cwd=self.path)
        git("checkout", "--quiet", "--detach", commit, cwd=self.clone)
        self.plugin = None
        if with_plugin:
            self.plugin = self.path / "plugin"
            info = self.plugin / "hex_plugin-0.1.0.dist-info"
            info.mkdir(parents=True)
            for name in PLUGIN_MODULES:
                shutil.copy(PLUGIN / name, self.plugin / name)
            (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hex-plugin\n"
                                           "Version: 0.1.0\n")
            (info / "entry_points.txt").write_text("[mcts_engine.games]\n"
                                                   "hex = hex_plugin:Hex\n")
        self.env = fresh_env(os.environ, self.path / "home", self.path / "cache", self.plugin)

    def child(self, args, timeout, log):
        """``python3 cli.py ARGS`` started in the clone, as a :class:`Child` logging to
        ``log.out`` and ``log.err`` in the sandbox."""
        return Child([sys.executable, "cli.py", *args], self.clone, self.env, timeout,
                     self.path / log)

    def run(self, args, timeout, log):
        """``python3 cli.py ARGS`` run to its end, its output kept in ``log.out`` and
        ``log.err``; ``MomentError`` if it fails or times out."""
        try:
            p = subprocess.run([sys.executable, "cli.py", *args], cwd=self.clone, env=self.env,
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise MomentError(f"cli.py {' '.join(args)} took over {timeout:g} s",
                              "timeout") from None
        (self.path / f"{log}.out").write_text(p.stdout)
        (self.path / f"{log}.err").write_text(p.stderr)
        if p.returncode:
            raise MomentError(f"cli.py {' '.join(args)} failed (exit {p.returncode}): "
                              f"{last_line(p.stderr)}")
        return p


def time_moment(moment, box, timeout):
    """``(seconds, note)`` of ``moment`` in sandbox ``box``; ``MomentError`` if it fails."""
    warm = moment.name.endswith("-warm")
    if warm and moment.game not in box.warm:
        box.run(["warmup", moment.game], timeout, "warmup")   # its cold moment did not run
        box.warm.add(moment.game)
    name, note = moment.name, ""
    if name.endswith("-ai-first"):
        with box.child(["play", moment.game, "--first", "ai"], timeout, name) as c:
            t, _ = c.wait_for(AI_PLAYS, "the AI's first move")
            seconds = t - c.t0
    elif name == "go-reply":
        with box.child(["play", "go"], timeout, name) as c:
            shown, end = c.wait_for(PROMPT, "the prompt")
            time.sleep(THINK)
            sent = c.send(FIRST_MOVE + "\n")
            t, _ = c.wait_for(AI_PLAYS, "the AI's reply", start=end)
            seconds, note = t - sent, f"prompt after {shown - c.t0:.1f} s"
    elif name == "gtp-warm":
        with box.child(["gtp"], timeout, name) as c:
            c.send("protocol_version\nname\n")
            t, _ = c.wait_for(GTP_REPLY, "the two replies", count=2)
            seconds = t - c.t0
            replies = b"".join(d for _, d in c.chunks)
            if any(m.group(1) == b"?" for m in GTP_REPLY.finditer(replies)):
                raise MomentError(f"gtp refused: {replies.decode(errors='replace')!r}")
    elif name == "hex-edit":
        t0 = time.perf_counter()
        box.run(HEX_ANALYZE, timeout, "hex-before-edit")      # every cache built
        first = time.perf_counter() - t0
        edit_plugin(box.plugin / "hex_plugin.py")
        t0 = time.perf_counter()
        p = box.run(HEX_ANALYZE, timeout, name)
        seconds = time.perf_counter() - t0
        compiled = re.search(r"compiled in ([0-9.]+ s)", p.stderr)
        note = (f"the compile it announced took {compiled.group(1)}; before the edit, cold: "
                f"{first:.1f} s" if compiled else "no recompile announced after the edit")
    elif warm:
        with box.child(["play", moment.game], timeout, name) as c:
            t, _ = c.wait_for(PROMPT, "the prompt")
            seconds = t - c.t0
    else:                                               # pragma: no cover - MOMENTS is fixed
        raise ValueError(name)
    box.warm.add(moment.game)
    return seconds, note


def edit_plugin(path):
    """Edit the comment line ``EDIT_MARK`` inside a kernel of the plug-in module ``path``: its
    content changes, so its kernels and search must be compiled again."""
    text = path.read_text()
    if EDIT_MARK not in text:
        raise MomentError(f"{path.name} has no line {EDIT_MARK!r} to edit")
    path.write_text(text.replace(EDIT_MARK, f"{EDIT_MARK} (edited at {time.time():.0f})", 1))


def repetition(index, root, repo, commit, moments, timeout, results):
    """Time ``moments`` once, each sandbox a fresh clone, appending to ``results``."""
    boxes = {}
    for m in moments:
        if m.sandbox not in boxes:
            boxes[m.sandbox] = Sandbox(Path(root) / f"rep{index}" / m.sandbox, repo, commit,
                                       with_plugin=m.sandbox == "hex")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        try:
            seconds, note = time_moment(m, boxes[m.sandbox], timeout)
            run = {"seconds": round(seconds, 3), "status": "ok", "note": note}
            shown = f"{seconds:.2f} s" + (f" ({note})" if note else "")
        except MomentError as e:
            run = {"seconds": None, "status": e.status, "note": str(e)}
            shown = f"{e.status}: {e}"
        run["load_before"] = load
        results[m.name].append(run)
        console.print(f"repetition {index}, {m.name}: {shown}", markup=False)


def machine():
    """The machine and the versions the figures depend on."""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor() or platform.machine()
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": platform.platform(),
            **{dist: metadata.version(dist) for dist in ("numba", "numpy", "llvmlite")}}


def summarize(results):
    """Per moment: its target, the median of the timed values (None if none), the values."""
    out = {}
    for name, runs in results.items():
        values = [r["seconds"] for r in runs if r["seconds"] is not None]
        median = statistics.median(values) if values else None
        out[name] = {"target": BY_NAME[name].target, "what": BY_NAME[name].what,
                     "median": median, "runs": runs,
                     "met": median is not None and len(values) == len(runs)
                     and median <= BY_NAME[name].target}
    return out


def show(summary):
    """Print the table of :func:`summarize`'s figures, then the notes of the runs."""
    table = Table(title="Waiting for the engine (seconds)")
    for col in ("moment", "target", "median", "values", "met", "measured"):
        table.add_column(col, justify="right" if col in ("target", "median") else "left")
    for name, s in summary.items():
        values = ", ".join(f"{r['seconds']:.2f}" if r["seconds"] is not None else r["status"]
                           for r in s["runs"])
        median = f"{s['median']:.2f}" if s["median"] is not None else "-"
        table.add_row(name, f"{s['target']:g}", median, values, "yes" if s["met"] else "NO",
                      s["what"])
    console.print(table)
    for name, s in summary.items():
        for i, r in enumerate(s["runs"], 1):
            if r["note"]:
                console.print(f"{name} #{i}: {r['note']}", markup=False)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors."""

    def error(self, message):
        err.print(f"error: {message} (see: {self.prog} --help)")
        sys.exit(2)


def parse_args(argv=None):
    """The command line's options (one line and exit status 2 for a bad one)."""
    p = Parser(prog="python3 -m benchmarks.first_move", description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=positive_int, default=3, metavar="N",
                   help="repetitions (default 3)")
    p.add_argument("--ref", default="HEAD", help="the commit, branch or tag to measure "
                   "(default HEAD of the repository of this script)")
    p.add_argument("--only", nargs="+", choices=[m.name for m in MOMENTS], metavar="MOMENT",
                   help="time only these moments: " + ", ".join(m.name for m in MOMENTS))
    p.add_argument("--json", metavar="FILE", help="write every value and the machine here")
    p.add_argument("--timeout", type=positive_float, default=240.0, metavar="SECONDS",
                   help="seconds a moment may take before it is stopped (default 240)")
    p.add_argument("--keep", action="store_true", help="keep the clones (their path is shown)")
    return p.parse_args(argv)


def run(args):
    """Run the benchmark described by parsed ``args``."""
    path = output_file(args.json) if args.json else None
    repo = git("rev-parse", "--show-toplevel", cwd=HERE)
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{args.ref}^{{commit}}", cwd=repo)
    except UsageError:
        raise UsageError(f"--ref {args.ref}: not a commit of {repo}") from None
    moments = [m for m in MOMENTS if not args.only or m.name in args.only]
    results = {m.name: [] for m in moments}
    root = tempfile.mkdtemp(prefix="first_move-")
    started = datetime.datetime.now().isoformat(timespec="seconds")
    console.print(f"measuring {args.ref} ({commit[:12]}) of {repo}, {args.repeat} "
                  f"repetition(s), in {root}", markup=False)
    try:
        for i in range(1, args.repeat + 1):
            repetition(i, root, repo, commit, moments, args.timeout, results)
    finally:
        if args.keep:
            console.print(f"clones kept in {root}", markup=False)
        else:
            shutil.rmtree(root, ignore_errors=True)
    summary = summarize(results)
    show(summary)
    if path:
        with open(path, "w") as f:
            json.dump({"ref": args.ref, "commit": commit, "started": started,
                       "repeat": args.repeat, "machine": machine(), "moments": summary},
                      f, indent=1)
        console.print(f"written to {path}", markup=False)


def main(argv=None):
    """Parse the command line and run; the exit status (2: bad input, 130: Ctrl-C)."""
    return exit_code(run, parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
