"""How `cli.py match` settles a game that ends in two passes (frontends.match.settle): GNU
Go's count when it judges no stone dead, else the engines play on with kgs-genmove_cleanup and
the board is counted by Tromp-Taylor. The engines here are scripted; GNU Go is the real one.

``tests/data/go_disputed/semeai-or-seki.sgf`` (a protocol game of issue 14, ours White against
Pachi) ends with a white chain of 18 stones and two black stones sharing their only three
liberties (H7, H8, J9): GNU Go calls the chain dead (B+33.5), every stone counted as it stands
gives W+11.5 (Black 36, White 40, komi 7.5)."""
import os
from pathlib import Path

import pytest

from frontends.match import GNUGO, referee_dead, referee_score, settle, tromp_taylor
from games.go import Go
from games.go import sgf as go_sgf

DISPUTED = Path(__file__).parent / "data" / "go_disputed" / "semeai-or-seki.sgf"
needs_gnugo = pytest.mark.skipif(not os.access(GNUGO, os.X_OK),
                                 reason="GNU Go not installed (.ci/run installs it)")


class Scripted:
    """A GTP engine that answers genmove and kgs-genmove_cleanup from a list of moves."""

    def __init__(self, moves, knows_cleanup=True):
        self.moves, self.knows_cleanup, self.sent = list(moves), knows_cleanup, []

    def send(self, command):
        self.sent.append(command)
        if command.startswith("kgs-genmove_cleanup") and not self.knows_cleanup:
            return False, "unknown command"
        if command.startswith(("genmove", "kgs-genmove_cleanup")):
            return True, self.moves.pop(0)
        return True, ""


def disputed():
    """The game of DISPUTED and its moves [(colour letter, vertex)]."""
    record = go_sgf.from_sgf(DISPUTED.read_bytes())
    game = Go(record["size"], komi=record["komi"])
    return game, [("bw"[player], game.format_move(action).lower())
                  for player, action in record["moves"]]


def test_the_disputed_game_as_it_stands():
    game, moves = disputed()
    assert (game.size, game.komi, len(moves)) == (9, 7.5, 89)
    assert moves[-2:] == [("w", "pass"), ("b", "pass")]
    assert tromp_taylor(game, moves) == "W+11.5"


@needs_gnugo
def test_gnugo_calls_the_white_chain_dead():
    game, moves = disputed()
    dead = set(referee_dead(9, "7.5", moves))
    assert {"F9", "G9", "H9", "G8", "B7", "C7", "G7", "C6", "D6", "E6", "F6", "G6", "H6",
            "J6", "G5", "H5", "J5", "J4"} <= dead and not {"J7", "J8"} & dead
    assert referee_score(9, "7.5", moves) == "B+33.5"


@needs_gnugo
def test_a_dispute_is_played_out_then_counted_as_it_stands():
    """Both engines pass at once in the cleanup: the board as it stands, W+11.5. If Black
    first fills H7 (one more black stone, a neutral point less), W+10.5."""
    game, moves = disputed()
    b, w = Scripted(["pass"]), Scripted(["pass"])
    record = list(moves)
    assert settle(game, {"b": b, "w": w}, record, 81, lambda e, s: None) == (
        "W+11.5", "two passes, dead stones disputed: played out")
    assert w.sent == ["kgs-genmove_cleanup w", "play b pass"]       # White moves first
    assert record[89:] == [("w", "pass"), ("b", "pass")]
    b, w = Scripted(["h7", "pass"], knows_cleanup=False), Scripted(["pass", "pass"])
    record = list(moves)
    result = settle(game, {"b": b, "w": w}, record, 81, lambda e, s: None)
    assert result == ("W+10.5", "two passes, dead stones disputed: played out")
    assert b.sent[:2] == ["play w pass", "kgs-genmove_cleanup b"] and b.sent[2] == "genmove b"


@needs_gnugo
def test_an_undisputed_end_is_gnugos_count_and_asks_the_engines_nothing():
    """Black walls off columns A-D (36 points), White E-J (45): nothing dead, W+16.5 by GNU
    Go's count as by Tromp-Taylor."""
    moves = []
    for row in range(1, 10):
        moves += [("b", f"d{row}"), ("w", f"e{row}")]
    moves += [("b", "pass"), ("w", "pass")]
    b, w = Scripted([]), Scripted([])
    assert tromp_taylor(Go(9), moves) == "W+16.5"
    assert settle(Go(9), {"b": b, "w": w}, moves, 81, lambda e, s: None) == (
        "W+16.5", "two passes")
    assert b.sent == w.sent == []


@needs_gnugo
def test_a_resignation_in_the_cleanup_ends_the_game():
    game, moves = disputed()
    b, w = Scripted([]), Scripted(["resign"])
    assert settle(game, {"b": b, "w": w}, list(moves), 81, lambda e, s: None) == (
        "B+R", "resignation in the cleanup")


def test_a_count_our_rules_cannot_replay_is_none():
    """A move onto an occupied point (another engine's rules, say): no count of ours."""
    assert tromp_taylor(Go(9), [("b", "e5"), ("w", "e5")]) is None
    assert tromp_taylor(Go(9), [("b", "e5"), ("w", "pass"), ("b", "pass")]) == "B+73.5"
