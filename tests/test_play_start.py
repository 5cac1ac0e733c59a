"""`play`'s start while the engine loads in the background: the board and the prompt come from
the game's pure-Python twin, and the human's first line waits for the engine."""
import pytest

import games
from frontends import play
from frontends.player import PlayerConfig


class Loading:
    """A PendingEngine still loading; ``get`` (a wait for it) fails the test unless allowed."""

    ready = False

    def __init__(self, engine=None):
        self.engine, self.waited = engine, 0

    def get(self):
        self.waited += 1
        if self.engine is None:
            raise AssertionError("waited for the engine")
        self.ready = True
        return self.engine


@pytest.mark.parametrize("name", ["go", "connect4"])
def test_the_start_shows_from_the_twin_while_the_engine_loads(name):
    game = games.get(name)
    s = play.Session(game, Loading(), 0, PlayerConfig(threads=1))
    assert type(s.rules).__name__ == "Pure" + type(game).__name__
    play.show(s)
    assert play.commands(s.rules) and not s.over() and s.rules.to_play(s.state) == 0


def test_the_first_line_waits_for_the_engine(monkeypatch):
    game = games.get("connect4")
    pending = Loading(engine=PlayerConfig(threads=1, playouts=10).engine(game))
    s = play.Session(game, pending, 0, PlayerConfig(threads=1))
    monkeypatch.setattr(play, "read_line", lambda prompt: "4\n")
    assert play.human_turn(s) and pending.waited >= 1
    assert s.rules is game and s.actions == [3]
