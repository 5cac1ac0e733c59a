"""benchmarks.lab.gtp_duel: two GTP engines (here two copies of ours) on 5x5, colours alternating,
GNU Go refereeing games that end in two passes; a command that cannot start is one line."""
import json
import os
import sys

import pytest

from benchmarks.lab import gtp_duel

ENGINE = f"{sys.executable} cli.py gtp --size 5 --playouts 40 --threads 1 --seed {{seed}}"


@pytest.mark.skipif(not os.access("/usr/games/gnugo", os.X_OK), reason="GNU Go not installed")
def test_a_two_game_duel_alternates_colours_and_agrees_with_its_tally(tmp_path, capsys):
    out = tmp_path / "duel.json"
    assert gtp_duel.main(["--a", ENGINE, "--b", ENGINE, "--games", "2", "--size", "5",
                          "--komi", "0.5", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [g["a"] for g in data["games"]] == ["B", "W"]
    for g in data["games"]:
        assert g["result"][:2] in ("B+", "W+") and g["a_wins"] == (g["result"][0] == g["a"])
    assert data["summary"]["a_wins"] == sum(g["a_wins"] for g in data["games"])
    assert data["summary"]["games"] == 2
    assert "A scored" in capsys.readouterr().out


def test_an_engine_that_cannot_start_is_one_line(capsys):
    assert gtp_duel.main(["--a", "/nonexistent/engine", "--b", ENGINE, "--games", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: cannot start '/nonexistent/engine'")
