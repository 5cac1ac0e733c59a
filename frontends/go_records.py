"""The SGF side of a Go game under GTP control (:class:`frontends.go_session.GoSession`): the
game as an SGF record (``printsgf``), and a record loaded as the game (``loadsgf``)."""
from frontends.argtypes import MAX_SGF_BYTES     # loadsgf and play --sgf read at most this
from frontends.common import read_bounded
from games.contract import ONGOING
from games.go import sgf as go_sgf


class SessionError(Exception):
    """A request the session refuses; the message says why (GTP's wording where it has one)."""


class SgfRecords:
    """GoSession's SGF commands: they read and set its game, position, history and setup
    stones."""

    def sgf_bytes(self):
        """The game as an SGF file (bytes), its result if it is over."""
        moves = [(p, a) for _, p, a in self.history]
        result = None
        if int(self.rules.status(self.state)) != ONGOING:
            result = self.final_result()
        return go_sgf.to_sgf(self.game, moves, setup_black=self.setup,
                             setup_white=self.setup_white, result=result,
                             first_player=1 if self.setup else 0)

    def load_sgf(self, path, move_number=None):
        """Load the game of SGF file ``path`` (its moves before ``move_number`` if given);
        the colour to move. ``SessionError("cannot load file")``, with nothing changed, for a
        missing, non-regular, oversized (> ``MAX_SGF_BYTES``) or malformed file."""
        record = read_sgf(path)
        if not 5 <= record["size"] <= 19:
            raise SessionError("cannot load file")
        limit = None if move_number is None else max(0, move_number - 1)
        saved = (self.game, self._twin, self.params, self.state, self.history, self.setup,
                 self.setup_white)
        try:
            self.new_game(record["size"], record["komi"])
            if record["setup_black"] or record["setup_white"]:
                self.rules.set_up(self.state, record["setup_black"], record["setup_white"],
                                  next_player=record["first_player"])
                self.setup = list(record["setup_black"])
                self.setup_white = list(record["setup_white"])
                if not record["setup_white"]:
                    self.game.set_handicap(self.state, len(self.setup))
            for player, action in record["moves"][:limit]:
                self.play(player, action)
        except (SessionError, ValueError):
            (self.game, self._twin, self.params, self.state, self.history, self.setup,
             self.setup_white) = saved
            raise SessionError("cannot load file") from None
        if limit is not None and limit < len(record["moves"]):
            self.rules.set_to_play(self.state, record["moves"][limit][0])
        return self.rules.to_play(self.state)


def read_sgf(path):
    """The record (:func:`games.go.sgf.from_sgf`) of SGF file ``path``, read to at most
    ``MAX_SGF_BYTES`` bytes; ``SessionError("cannot load file")`` otherwise."""
    try:
        return go_sgf.from_sgf(read_bounded(path, MAX_SGF_BYTES))
    except (OSError, ValueError):
        raise SessionError("cannot load file") from None


def save_with_setup(game, moves, state, resigned, directory, setup_black, setup_white):
    """Save a game of `play` that started from an SGF file's setup stones (actions, AB and
    AW; handicap stones are Black's alone) as a new SGF file in ``directory``, named as
    ``Go.save_game`` names its files; its path. ``moves``: [(player, action)]."""
    if resigned is not None:
        result = f"{'WB'[resigned]}+R"
    elif int(game.status(state)) != ONGOING:
        result = game.final_result(state)
    else:
        result = None
    data = go_sgf.to_sgf(game, moves, setup_black=setup_black, setup_white=setup_white,
                         result=result, rules=game.rules)
    return go_sgf.save(go_sgf.default_path(directory), data)
