"""The GNU Go regression harness (benchmarks/lab/gnugo_regress.py) on a suite written here:
parsing, answer patterns, the translation of reading commands into move choice, and an engine
that dies."""
import sys

from benchmarks.lab.gnugo_regress import Engine, matches, parse_tests, translation

SUITE = """\
# a comment
loadsgf games/a.sgf 12
1 reg_genmove black
#? [C3|D4]

2 attack D5
#? [1 (E5|D6)]*

3 defend D5
#? [0]

loadsgf games/b.sgf
komi 0.5
4 owl_defend Q16
#? [3 R17]

5 reg_genmove white
#? [!PASS]
"""


def test_parse_keeps_each_tests_set_up_and_expectation(tmp_path):
    path = tmp_path / "s.tst"
    path.write_text(SUITE)
    tests = parse_tests(path)
    assert [t["id"] for t in tests] == [1, 2, 3, 4, 5]
    assert tests[0]["setup"] == ["loadsgf games/a.sgf 12"]
    assert (tests[1]["command"], tests[1]["args"], tests[1]["expected"],
            tests[1]["gnugo_fails"]) == ("attack", ["D5"], "1 (E5|D6)", True)
    assert tests[4]["setup"] == ["loadsgf games/b.sgf", "komi 0.5"]


def test_patterns_match_whole_answers_and_negate():
    assert matches("C3|D4", "d4") and not matches("C3|D4", "C33")
    assert matches("!PASS", "A1") and not matches("!PASS", "pass")


def test_reading_commands_become_the_move_to_find(tmp_path):
    path = tmp_path / "s.tst"
    path.write_text(SUITE)
    tests = {t["id"]: t for t in parse_tests(path)}
    assert translation(tests[1]) is None                       # reg_genmove is asked as it is
    assert translation(tests[2]) == ("attack", "(E5|D6)")
    assert translation(tests[3]) is None                       # "cannot": no move to find
    assert translation(tests[4]) == ("defend", "R17")          # success by ko counts


DYING = r'''
import sys
for line in sys.stdin:
    if line.strip() == "die":
        sys.exit(1)
    print("=\n" if line.strip() == "quit" else "= ok\n", flush=True)
    if line.strip() == "quit":
        break
'''


def test_an_engine_that_dies_is_started_again(tmp_path):
    script = tmp_path / "engine.py"
    script.write_text(DYING)
    engine = Engine(f"{sys.executable} {script}", cwd=tmp_path, timeout=30)
    assert engine.ask("name") == (True, "ok")
    assert engine.ask("die") == (False, "engine ended")
    assert engine.ask("name") == (True, "ok")           # a new process
    engine.close()
