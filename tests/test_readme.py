"""The README's example commands run as written, and the documents' relative links resolve.

Every line of a ```sh block in README.md is an example command, and each is either run here
(``RUN``: its standard input, and a fragment its output must contain) or skipped with its
reason (``SKIP``); a command in neither list fails the test, so README and test change
together. When a ```text block follows a command's block, it is the command's output and must
match what the command prints (its standard output, timings masked). The commands run in
README order, ``python3 cli.py`` meaning this interpreter and the repository's ``cli.py``, in a
scratch folder, where their files (``sp.npz``, ``c4.npz``) land.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted([README] + list((ROOT / "docs").rglob("*.md")))
MAX_README_LINES = 300          # a newcomer reads it in five minutes
TIMEOUT = 60                    # seconds for one command, compiled kernels assumed
WARMUP_TIMEOUT = 900            # a cold cache compiles Go for a minute or more on 2 cores
WARMUP_GAMES = ("connect4", "go", "tictactoe", "pig", "chinese_checkers", "backgammon")

MOVES = "4\nquit\n"
RUN = {     # command: (stdin, a fragment of its output)
    "python3 cli.py play connect4 --playouts 2000": (MOVES, "AI plays"),
    "python3 cli.py play pig --players 3 --seats human,ai,ai --playouts 2000":
        ("roll\nstop\nquit\n", "chance: rolled"),
    "python3 cli.py play chinese_checkers --players 3 --seats ai,ai,ai --playouts 500"
    " --max-moves 30": ("", "result: "),
    "python3 cli.py play backgammon --seats human,ai --seconds 0.5": ("quit\n", "chance: "),
    "python3 cli.py analyze connect4 --moves 4453 --playouts 2000 --threads 1":
        ("", "4453 (X to move): best 4"),
    "python3 cli.py analyze connect4 --moves 21654512623411561522354715467 --playouts 2000"
    " --threads 1 --json": ("", '"proven": "win"'),
    "printf 'boardsize 9\\nplay B E5\\ngenmove W\\nquit\\n' | python3 cli.py gtp --playouts 2000"
    " --threads 1": ("", "= C6"),
    "python3 cli.py arena connect4 --playouts 1000 --threads 1 --games 4 --opponent-args"
    ' "--no-transpositions"': ("", "A scored"),
    "python3 cli.py check tictactoe": ("", "ok   kernels and state"),
    "python3 cli.py list": ("", "tictactoe"),
    "python3 cli.py selfplay connect4 --episodes 20 --playouts 200 --out sp.npz":
        ("", "written to sp.npz"),
    "python3 cli.py train connect4 --rounds 1 --episodes 4 --playouts 100 --out c4.npz":
        ("", "c4.npz holds round 1"),
    "python3 cli.py play connect4 --playout-weights c4.npz": (MOVES, "AI plays"),
}
SKIP = {    # command: why it is not run here
    "python3 -m pip install -e . && python3 cli.py play connect4":
        "installs the package (the play example without the install runs)",
    "bash .ci/run": "runs the whole test suite, this test included",
    "python3 cli.py bench connect4 --repeat 1 --playouts 20000":
        "times a cold compile in a fresh cache: 30 s and more",
    "python3 cli.py match --games 2 --playouts 2000 --threads 1":
        "plays two games against GNU Go, an outside program: about a minute",
}


def readme_examples():
    """``(command, expected output or None)`` for every line of README's ```sh blocks, the
    output being the ```text block that follows the command's block, if one does."""
    examples, block, kind = [], None, None
    for line in README.read_text(encoding="utf-8").splitlines():
        if block is None:
            if line.startswith("```"):
                block, kind = [], line[3:].strip()
            continue
        if line.startswith("```"):
            if kind == "sh":
                examples.extend([cmd, None] for cmd in block if cmd.strip())
            elif kind == "text" and examples and examples[-1][1] is None:
                examples[-1][1] = "\n".join(block)
            block = None
            continue
        block.append(line)
    return [tuple(e) for e in examples]


def masked(text):
    """``text`` without what changes from run to run: times, rates, trailing spaces."""
    text = re.sub(r"\d+(\.\d+)? s\b", "<t> s", text)
    text = re.sub(r'"seconds": [0-9.]+', '"seconds": <t>', text)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def test_every_example_is_run_or_skipped_with_a_reason():
    commands = [cmd for cmd, _ in readme_examples()]
    unknown = [cmd for cmd in commands if cmd not in RUN and cmd not in SKIP]
    assert not unknown, f"README commands neither in RUN nor in SKIP: {unknown}"
    stale = [cmd for cmd in list(RUN) + list(SKIP) if cmd not in commands]
    assert not stale, f"RUN or SKIP names commands the README no longer has: {stale}"


def test_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_README_LINES


def test_readme_examples_run(tmp_path):
    """The RUN commands, in README order in one folder (``train`` writes what the next ``play``
    reads), after loading the kernels they use (the shipped ones, else a compile of minutes)."""
    cli = f"{sys.executable} {ROOT / 'cli.py'}"
    load = ("import games; from mcts.search import load_kernels; "
            f"[load_kernels(games.get(n)) for n in {WARMUP_GAMES!r}]")
    subprocess.run([sys.executable, "-c", load], cwd=ROOT, capture_output=True,
                   timeout=WARMUP_TIMEOUT, check=True)
    failures = []
    for command, expected in readme_examples():
        if command not in RUN:
            continue
        stdin, fragment = RUN[command]
        shell = command.replace("python3 cli.py", cli)
        done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, input=stdin, text=True,
                              capture_output=True, timeout=TIMEOUT)
        if done.returncode != 0:
            failures.append(f"{command}\n  exit code {done.returncode}: {done.stderr[-1500:]}")
        elif fragment not in done.stdout + done.stderr:
            failures.append(f"{command}\n  no {fragment!r} in its output:\n{done.stdout[-1500:]}")
        elif expected is not None and masked(done.stdout) != masked(expected):
            failures.append(f"{command}\n  prints, timings masked:\n{masked(done.stdout)}\n"
                            f"  where README shows:\n{masked(expected)}")
    assert not failures, "\n\n".join(failures)


def _slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*\[\]]|\(([^)]*)\)", lambda m: m.group(1) or "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path):
    seen, out = {}, set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#{1,6} (.*)", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_that_exist(doc):
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue                                    # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)}: broken links {broken}"
