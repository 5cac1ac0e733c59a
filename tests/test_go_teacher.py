"""benchmarks/go_teacher.py with GNU Go 3.8 (skipped without it): two short games at level 1
are the same files on a second run, open with marked random moves off the first line, and
a bad output folder is refused before GNU Go starts."""
import os

import pytest
from sgfmill import sgf

from benchmarks import go_teacher

GNUGO = "/usr/games/gnugo"
pytestmark = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="needs GNU Go 3.8")
ARGS = ["--size", "9", "--level", "1", "--seed", "7", "--games", "2", "--max-moves", "14"]


def test_the_same_seed_gives_the_same_games(tmp_path):
    files = []
    for run in ("a", "b"):
        assert go_teacher.main(ARGS + ["--out", str(tmp_path / run)]) == 0
        files.append({p: (tmp_path / run / p).read_bytes()
                      for p in sorted(os.listdir(tmp_path / run))})
    assert list(files[0]) == ["game-0000007.sgf", "game-0000008.sgf"]
    assert files[0] == files[1]
    for data in files[0].values():
        game = sgf.Sgf_game.from_bytes(data)
        nodes = game.get_main_sequence()[1:]
        marked = [n for n in nodes if n.has_property("C")]
        assert 2 <= len(marked) <= 4 and nodes[:len(marked)] == marked
        assert all(n.get("C") == "random opening" for n in marked)
        assert all(0 < r < 8 and 0 < c < 8 for n in marked for r, c in [n.get_move()[1]])
        assert [n.get_move()[0] for n in nodes] == ["bw"[i % 2] for i in range(len(nodes))]
        assert len(nodes) == 14 or nodes[-1].get_move()[1] is None


def test_an_output_folder_that_cannot_be_made_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert go_teacher.main(ARGS + ["--out", str(tmp_path / "file" / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot create the folder") and err.count("\n") == 1
