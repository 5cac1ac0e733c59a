"""Broken: moves are written "take 3" (with a space) and the game keeps the default
parse_record, which splits a record on spaces: its records do not read back."""
from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)


class SpacedMoves(Numbers):
    name = "spaced-moves"
    kernel_module = __name__

    def parse_move(self, text, state):
        return super().parse_move(text.removeprefix("take "), state)

    def format_move(self, action, state=None):
        return f"take {int(action)}"
