"""benchmarks/lab/move_agreement.py against a scripted GTP engine (no Pachi needed): positions are
replayed from an SGF game and the agreement is counted."""
import json
import sys
from pathlib import Path

from benchmarks.lab import move_agreement as ma

GAME = str(Path(__file__).resolve().parent.parent / "benchmarks" / "lab" / "data" / "agreement"
           / "games" / "game-001.sgf")

# A GTP engine that answers every genmove with E5, and with E5 only for Black.
FAKE = f"""{sys.executable} -c "
import sys
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == 'genmove':
        print('= E5' if cmd[1] == 'b' else '= D4')
    else:
        print('=')
    print()
    sys.stdout.flush()
    if cmd[0] == 'quit':
        break
" """


def test_read_game_gives_gtp_vertices():
    size, komi, moves = ma.read_game(GAME)
    # the file starts ;B[cd];W[fg];B[fe]: SGF rows count from the top
    assert (size, komi) == (9, 7.5)
    assert moves[:3] == [("b", "c6"), ("w", "f3"), ("b", "f5")]
    assert len(moves) == 53


def test_label_then_score(tmp_path, capsys):
    out = tmp_path / "positions.json"
    assert ma.main(["label", "--engine", FAKE, "--sgf", GAME, "--out", str(out),
                    "--first", "4", "--last", "12", "--every", "4"]) == 0
    positions = json.loads(out.read_text())["positions"]
    # moves 5, 9, 13 are Black's (the reference says e5), none White's
    assert [(len(p["moves"]), p["colour"], p["best"]) for p in positions] == [
        (4, "b", "e5"), (8, "b", "e5"), (12, "b", "e5")]
    assert positions[0]["moves"] == [["b", "c6"], ["w", "f3"], ["b", "f5"], ["w", "e4"]]
    result = tmp_path / "score.json"
    assert ma.main(["score", "--engine", FAKE, "--positions", str(out),
                    "--json", str(result)]) == 0
    assert json.loads(result.read_text())["summary"]["agree"] == 3
    assert "agreement 3/3 = 100 %" in capsys.readouterr().out


def test_a_bad_positions_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert ma.main(["score", "--engine", FAKE, "--positions", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")
