"""GTP and the rules of the end of the game (issue 53): kgs-genmove_cleanup captures the dead
stones and then passes; the engine passes rather than fill a settled area the opponent
passed in; kgs-rules for KGS's rule sets; a komi between half points; the version Lizzie
checks. Transcripts with exact replies."""
import io
import sys
import tomllib
from pathlib import Path

import mcts
from frontends.gtp import GtpEngine
from frontends.player import PlayerConfig

ROOT = Path(__file__).parent.parent
# 9x9: Black's wall on D (A-C its area), White's on F (G-J its area), E dame; a dead white
# stone on B5 inside Black's area.
WALLS = ["boardsize 9", "clear_board"] + [f"play b D{r}" for r in range(1, 10)] + \
    [f"play w F{r}" for r in range(1, 10)]


def engine(log=None, **kw):
    kw.setdefault("playouts", 300)
    e = GtpEngine(None, PlayerConfig(threads=1, **kw), log=log)
    e.ready.wait()
    return e


def run(e, lines):
    for line in lines:
        assert e.handle(line) == "=", line


def test_cleanup_captures_the_dead_stone_inside_its_area_then_passes():
    e = engine()
    run(e, WALLS + ["play w B5"])
    assert e.handle("final_status_list dead") == "= B5"
    assert e.handle("final_score") == "= W+7.5"             # 36 - 36 - 7.5, B5 removed
    moves = []
    for _ in range(6):
        moves.append(e.handle("kgs-genmove_cleanup b")[2:])
        assert e.handle("play w pass") == "="
    assert sorted(moves[:4]) == ["A5", "B4", "B6", "C5"]      # B5's liberties, nothing else
    assert moves[4:] == ["pass", "pass"]
    assert "B5" not in e.handle("list_stones w")
    assert e.handle("final_status_list dead") == "="
    assert e.handle("final_score") == "= W+7.5"


def test_cleanup_passes_at_once_without_dead_enemy_stones():
    e = engine()
    run(e, WALLS + ["play b H5"])                         # a dead black stone: not ours to take
    assert e.handle("kgs-genmove_cleanup b") == "= pass"


def test_after_the_opponents_pass_no_stone_goes_into_its_settled_area():
    """Black's wall on E, White's on F: Black 45, White 36, komi 7.5: B+1.5. Black passes:
    White, behind, used to invade Black's area (C7, D7 ... which then died) or to pass after
    them by the bare count; now a stone there would die, and White passes."""
    log = io.StringIO()
    e = engine(log=log, resign_threshold=0)
    run(e, ["boardsize 9", "clear_board"] + [f"play b E{r}" for r in range(1, 10)] +
        [f"play w F{r}" for r in range(1, 10)])
    assert e.handle("final_score") == "= B+1.5"
    for _ in range(3):
        assert e.handle("play b pass") == "="
        assert e.handle("genmove w") == "= pass"
    assert "the opponent passed and a stone on" in log.getvalue()


def test_kgs_rules_are_counted_as_named_or_said_on_stderr(capsys):
    e = engine(log=sys.stderr)
    run(e, WALLS + ["play w B5", "komi 0.5"])
    for rules, score in (("chinese", "W+0.5"), ("aga", "W+0.5"), ("japanese", "W+0.5"),
                         ("new_zealand", "W+0.5"), ("tromp-taylor", "W+28.5")):
        assert e.handle(f"kgs-rules {rules}") == "="
        assert e.handle("final_score") == f"= {score}", rules
    err = capsys.readouterr().err
    assert "kgs-rules japanese: not scored as such here; counting by area with dead stones " \
        "removed (chinese rules)" in err
    assert "kgs-rules new_zealand: not scored as such here" in err
    assert "kgs-rules aga: scoring by aga rules" in err
    assert e.handle("kgs-rules ing") == "? unknown rules"
    # Tromp-Taylor counts B5, and A-C, reaching both colours, are nobody's: 9 - 37 - 0.5;
    # every stone counts, so none is dead
    assert e.handle("final_status_list dead") == "="


def test_kgs_rules_japanese_note_is_printed_even_without_a_log(capsys):
    e = engine(log=None)
    assert e.handle("kgs-rules japanese") == "="
    assert "counting by area" in capsys.readouterr().err


def test_a_komi_between_half_points_is_kept_and_decides_as_the_half_point():
    e = engine()
    run(e, WALLS + ["play w B5"])
    assert e.handle("komi 6.3") == "=" and e.handle("get_komi") == "= 6.3"
    assert e.handle("final_score") == "= W+6.3"
    assert "KM[6.3]" in e.handle("printsgf")
    assert e.handle("komi -0.7") == "=" and e.handle("final_score") == "= B+0.7"
    for bad, reply in (("komi nan", "? syntax error"), ("komi inf", "? syntax error"),
                       ("komi 1e300", "? komi must be from -1000 to 1000"),
                       ("komi six", "? syntax error")):
        assert e.handle(bad) == reply, bad
    assert e.handle("get_komi") == "= -0.7"
    assert e.handle("komi -0") == "=" and e.handle("get_komi") == "= 0"


def test_version_is_the_project_release_and_passes_lizzies_check():
    """Lizzie 0.7.4 (Leelaz.java) splits `version` on dots and wants the second number to be
    15 or more; the release is declared once, in games/release.py, which pyproject reads
    (and mcts and SGF's AP)."""
    e = engine()
    assert e.handle("version") == f"= {mcts.__version__}" == "= 0.53.0"
    assert int(e.handle("version")[2:].split(".")[1]) >= 15
    assert not e.handle("name")[2:].startswith(("KataGo", "Leela"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "games.release.__version__"}
