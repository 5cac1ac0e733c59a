"""The Python face of backgammon (:class:`Backgammon`): the parameters, the initial state, the
board as text and the move notation (:mod:`games.backgammon.notation`), over the kernels of
:mod:`games.backgammon.kernels` (the state layout, the action encoding and the rules are in
its docstring)."""
import re

from games.backgammon.notation import (PLAYERS, format_action, mover,
                                       move_texts, parse_action)
from games.backgammon.rules import (BAR, CHECKERS, DIE_HI, DIE_LO, DOUBLE_HALF, MAX_TURNS,
                                    NUM_ACTIONS, OFF, PASS, PREV, SIDE, STATUS, TO_PLAY, TURNS,
                                    new_state)
from games.contract import CHANCE, ONGOING, Game, Param


class Backgammon(Game):
    """Backgammon as OpenSpiel's ``backgammon`` plays it (no doubling cube, a win counts 1
    whatever its kind). Players: X (player 0) and O (player 1); the opening roll decides who
    starts. Dice rolls are chance positions."""

    name = "backgammon"
    kernel_module = "games.backgammon.kernels"
    players = PLAYERS
    chance = True
    move_help = "e.g. 24/18 13/11, bar/22, 6/off, pass"
    record_separator = ", "         # moves have spaces in them: records separate them by commas
    pass_action = PASS
    parameters = (
        Param("max_player_turns", int, 500, "turns after which the game stops as a draw "
              "(OpenSpiel's max_player_turns: the game ends when this many turns plus one "
              "have been played without a winner)", low=1, high=100_000),
    )

    def __init__(self, max_player_turns=500):
        super().__init__(max_player_turns=max_player_turns)
        self.max_turns = self.params["max_player_turns"]
        self.num_actions = NUM_ACTIONS
        # Each turn is a roll and at most two actions (a double); max_turns + 1 turns at most.
        self.max_length = 3 * (self.max_turns + 1)
        self._last = None           # (state bytes, legal actions, their notation)

    def initial_state(self):
        return new_state(self.max_turns)

    def parse_record(self, text):
        """Moves of a record separated by commas, semicolons or new lines."""
        return [t.strip() for t in re.split(r"[,;\n]", text) if t.strip()]

    def _position(self, state):
        """``(legal, texts)`` of ``state``: its legal actions (the roll's outcomes at a chance
        position, none at the end) and their notation (None unless a player is to move);
        the last position asked is remembered, so that formatting or parsing every legal
        move of a position costs one pass."""
        key = state.tobytes()
        if self._last is None or self._last[0] != key:
            legal, texts = [], None
            if int(state[STATUS]) == ONGOING:
                if int(state[TO_PLAY]) == CHANCE:
                    legal = [int(a) for a in self.chance_outcomes(state)[0]]
                else:
                    legal = [int(a) for a in self.legal_actions(state)]
                    texts = move_texts(state, legal)
            self._last = (key, legal, texts)
        return self._last[1], self._last[2]

    def format_move(self, action, state=None):
        """``24/18 13/11`` (the checker moves in the order played, from the mover's side),
        ``pass``, or ``roll 3-5`` for a chance outcome; without ``state``, ``action N``."""
        if state is None:
            return format_action(action, None, None)
        return format_action(action, state, self._position(state)[1])

    def parse_move(self, text, state):
        return parse_action(text, state, *self._position(state))

    def setup(self, x, o, to_play, dice, turns=0):
        """A position to study or test: ``x`` and ``o`` map each player's own point numbers
        (1-24, 25 the bar) to checker counts, the rest of their 15 being borne off;
        ``to_play`` (0 X, 1 O) has rolled ``dice`` (two numbers) on turn ``turns + 1``.
        ``ValueError`` if a point holds both colours or a side has more than 15."""
        s = new_state(self.max_turns)
        s[:2 * SIDE] = 0
        for p, side in ((0, x), (1, o)):
            for r, n in side.items():
                if not 1 <= r <= 25 or n < 0:
                    raise ValueError(f"bad point {r} or count {n}")
                s[SIDE * p + r] = n
            on = int(s[SIDE * p + 1:SIDE * p + 26].sum())
            if on > CHECKERS:
                raise ValueError(f"{PLAYERS[p]} has {on} checkers, more than {CHECKERS}")
            s[SIDE * p + OFF] = CHECKERS - on
        for r in range(1, 25):
            if s[r] and s[SIDE + 25 - r]:
                raise ValueError(f"X's point {r} holds checkers of both players")
        a, b = sorted(int(d) for d in dice)
        if not 1 <= a <= b <= 6:
            raise ValueError(f"bad dice {dice}")
        s[DIE_LO], s[DIE_HI] = a, b
        s[TO_PLAY], s[TURNS], s[PREV] = to_play, turns, 1 - to_play
        return s

    def board(self, state, player):
        """``(mine, theirs)``: lists of 26 checker counts seen from ``player``'s side, index
        ``r`` = ``player``'s point r (0 borne off, 1-24 points, 25 the bar); ``theirs[r]``
        counts the opponent's checkers on that same point (their bar and borne off at 25, 0)."""
        b, o = SIDE * player, SIDE * (1 - player)
        mine = [int(state[b + r]) for r in range(26)]
        theirs = [int(state[o + 25 - r]) for r in range(1, 25)]
        return mine, [int(state[o + OFF])] + theirs + [int(state[o + BAR])]

    def render(self, state, last_action=None):
        """The board from the side of the player to move (at a roll: of the player about to
        move): their points 1-24, home (1-6) at the bottom right, 13-24 along the top; the
        bar, the checkers borne off and the dice below."""
        p = mover(state)
        mine, theirs = self.board(state, p)
        me, you = PLAYERS[p], PLAYERS[1 - p]

        def cell(r, row):
            n, ch = (mine[r], me) if mine[r] else (theirs[r], you)
            if n > 5 and row == 4:
                return f"{n:>2} "
            return f" {ch} " if n > row else " . "

        def half(points, rows):
            lines = []
            for row in rows:
                left = "".join(cell(r, row) for r in points[:6])
                right = "".join(cell(r, row) for r in points[6:])
                lines.append(f"|{left}|   |{right}|")
            return lines

        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))
        label = lambda pts: (" " + "".join(f"{r:>3}" for r in pts[:6]) + "     "
                             + "".join(f"{r:>3}" for r in pts[6:]))
        rule = "+" + "-" * 18 + "+---+" + "-" * 18 + "+"
        lines = [label(top), rule] + half(top, range(5)) + [
            "|" + " " * 18 + "|BAR|" + " " * 18 + "|"] + half(bottom, range(4, -1, -1)) + [
            rule, label(bottom)]
        lines.append(f"Bar: {me} {mine[BAR]}, {you} {theirs[BAR]}    "
                     f"Off: {me} {mine[OFF]}, {you} {theirs[OFF]} (of {CHECKERS})")
        st = int(state[STATUS])
        if st != ONGOING:
            lines.append("Game over: " + self.result_text(st, state))
        elif int(state[TO_PLAY]) == CHANCE:
            who = "who starts" if int(state[TURNS]) < 0 else f"{me} to roll"
            lines.append(f"Dice to roll ({who}); points numbered for {me}")
        else:
            lo, hi = int(state[DIE_LO]), int(state[DIE_HI])
            extra = " (the second half of the double)" if int(state[DOUBLE_HALF]) else ""
            lines.append(f"{me} to play {hi}-{lo}{extra}; points numbered for {me} "
                         f"({you}'s point n is {me}'s 25-n)")
        lines.append(f"Turns played: {max(int(state[TURNS]), 0)} (a draw when "
                     f"{int(state[MAX_TURNS]) + 1} end without a winner)")
        return "\n".join(lines)
