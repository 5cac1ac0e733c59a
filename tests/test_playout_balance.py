"""benchmarks.lab.playout_balance: policy codes, the balance figures, exact playout means on a
decided position, labelling through a stand-in engine, and bad input."""
import json
import sys

import numpy as np
import pytest

from benchmarks.lab import playout_balance as pb
from frontends.common import UsageError
from games.go.kernels import POLICIES
from games.go.board import POLICY_KO, POLICY_PATTERNS

# Black fills the 5x5 board but for two one-point eyes (A1, E5) while White passes: every
# playout from here ends with White passing (each point is suicide for White) and Black
# keeping its eyes, so Black wins all of them, 25 points to 0 plus komi.
FILLED = [(c, f"{col}{row}") for row in range(1, 6) for col in "ABCDE"
          if (col, row) not in (("A", 1), ("E", 5))
          for c in ("b",)]
RECORD_MOVES = [m for stone in FILLED for m in (stone, ("w", "pass"))][:-1]


def record(colour, value, moves=RECORD_MOVES, size=5):
    return {"moves": moves, "colour": colour, "value": value, "size": size, "komi": 7.5}


def test_policy_codes():
    assert pb.policy_code("ko") == POLICIES["ko"] == POLICY_PATTERNS | POLICY_KO
    assert pb.policy_code("uniform") == 0
    with pytest.raises(UsageError, match="unknown playout policy 'fast'"):
        pb.policy_code("fast")


def test_balance_summary_figures():
    means, refs = np.array([0.2, 0.5, 0.9]), np.array([0.3, 0.5, 0.6])
    row, err = pb.balance_summary(means, refs)
    assert row["mse"] == pytest.approx((0.01 + 0.0 + 0.09) / 3)
    assert row["bias"] == pytest.approx(0.2 / 3)
    assert row["corr"] == pytest.approx(np.corrcoef(means, refs)[0, 1])
    row2, _ = pb.balance_summary(refs, refs, base_err=err)
    assert row2["mse"] == 0.0
    assert row2["mse_minus_first"] == pytest.approx(-0.1 / 3)
    assert row2["stderr"] == pytest.approx(np.std(-err, ddof=1) / np.sqrt(3))


@pytest.mark.parametrize("policy", ["uniform", "ko"])
def test_playout_means_exact_on_a_decided_position(policy):
    # White to move after Black's last stone: White's playouts all lose; the band keeps
    # values in [0.1, 0.9] only, so the third record is left out.
    recs = [record("w", 0.3), record("w", 0.5), record("w", 0.95)]
    means, refs = pb.playout_means(recs, pb.policy_code(policy), 50, 0.1, seed=3)
    assert means.tolist() == [0.0, 0.0]
    assert refs.tolist() == [0.3, 0.5]
    black = dict(recs[0], colour="b", moves=RECORD_MOVES + [("w", "pass")])
    means, _ = pb.playout_means([black], pb.policy_code(policy), 50, 0.1, seed=3)
    assert means.tolist() == [1.0]


def test_score_command(tmp_path, capsys):
    values = tmp_path / "v.jsonl"
    black = record("b", 0.8, RECORD_MOVES + [("w", "pass")])
    values.write_text("\n".join(json.dumps(r) for r in (record("w", 0.3), black)) + "\n")
    out = tmp_path / "s.json"
    assert pb.main(["score", "--values", str(values), "--policies", "ko,uniform",
                    "--playouts", "20", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["policies"]
    assert rows["ko"]["positions"] == 2
    assert rows["ko"]["mse"] == pytest.approx((0.3 ** 2 + 0.2 ** 2) / 2)
    assert rows["uniform"]["mse_minus_first"] == 0.0
    assert "MSE 0.0650" in capsys.readouterr().out


def test_score_compares_another_engines_playout_means(tmp_path, capsys):
    """The compared file's means (0.25 and 0.9 where ours are exactly 0 and 1) are scored
    against the same values, paired with the first policy; a file lacking a scored position
    gets one line and exit code 2."""
    values, other, short = (tmp_path / f for f in ("v.jsonl", "o.jsonl", "s.jsonl"))
    black = RECORD_MOVES + [("w", "pass")]
    values.write_text(json.dumps(record("w", 0.3)) + "\n" + json.dumps(record("b", 0.8, black)))
    other.write_text(json.dumps(record("b", 0.9, black)) + "\n" + json.dumps(record("w", 0.25)))
    short.write_text(json.dumps(record("w", 0.25)) + "\n")
    out = tmp_path / "s.json"
    assert pb.main(["score", "--values", str(values), "--policies", "ko", "--playouts", "20",
                    "--compare", str(other), "--json", str(out)]) == 0
    row = json.loads(out.read_text())["policies"][str(other)]
    assert row["positions"] == 2
    assert row["mse"] == pytest.approx((0.05 ** 2 + 0.1 ** 2) / 2)
    assert row["mse_minus_first"] == pytest.approx((0.05 ** 2 + 0.1 ** 2) / 2 - 0.065)
    capsys.readouterr()
    assert pb.main(["score", "--values", str(values), "--policies", "ko", "--playouts", "20",
                    "--compare", str(short)]) == 2
    err = capsys.readouterr().err
    assert "lacks some of the scored positions" in err and err.count("\n") == 1


@pytest.mark.parametrize("text, message", [
    ('{"moves": [], "colour": "b"}\n', "line 1: not a labelled position"),
    ('\n{"moves": [["b", "C3"]], "colour": "w", "value": 0.5}\nnot json\n', "line 3"),
])
def test_score_refuses_bad_lines(tmp_path, capsys, text, message):
    values = tmp_path / "v.jsonl"
    values.write_text(text)
    assert pb.main(["score", "--values", str(values)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_score_refuses_unreadable_files(tmp_path, capsys):
    assert pb.main(["score", "--values", str(tmp_path)]) == 2
    assert "Is a directory" in capsys.readouterr().err
    assert pb.main(["score", "--values", str(tmp_path / "missing")]) == 2
    assert "No such file" in capsys.readouterr().err


STAND_IN = r'''
import sys
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "genmove":
        if "--silent" not in sys.argv:
            sys.stderr.write("*** WINNER is C3 (3,3) with score 0.6125 (1/2 games)\n")
        print("= C3\n", flush=True)
    elif cmd[0] == "quit":
        print("=\n", flush=True)
        break
    else:
        print("=\n", flush=True)
'''


def test_label_reads_the_engine_value(tmp_path, capsys):
    engine = tmp_path / "engine.py"
    engine.write_text(STAND_IN)
    positions = tmp_path / "p.json"
    moves = [["b", "e5"], ["w", "c3"]]
    positions.write_text(json.dumps({"positions": [
        {"size": 9, "komi": 7.5, "moves": moves, "colour": "b", "best": "d4"},
        {"size": 9, "komi": 6.5, "moves": [], "colour": "b", "best": "e5"}]}))
    out = tmp_path / "v.jsonl"
    assert pb.main(["label", "--engine", f"{sys.executable} {engine}", "--positions",
                    str(positions), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows == [{"moves": moves, "colour": "b", "size": 9, "komi": 7.5, "value": 0.6125},
                    {"moves": [], "colour": "b", "size": 9, "komi": 6.5, "value": 0.6125}]
    assert pb.main(["label", "--engine", f"{sys.executable} {engine} --silent", "--positions",
                    str(positions), "--out", str(out), "--limit", "1"]) == 0
    assert out.read_text() == ""
    assert "no value in the engine's output" in capsys.readouterr().err
    assert pb.main(["label", "--engine", str(tmp_path / "nothing"), "--positions",
                    str(positions), "--out", str(out)]) == 2
    assert "cannot start" in capsys.readouterr().err
