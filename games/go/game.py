"""The Python face of Go (:class:`Go`): parameters, the initial state, notation, rendering and
helpers (``board``, ``area``, ``score``, ...) over the compiled kernels of
:mod:`games.go.kernels`, whose docstring states the rules. The end-of-game count is
:class:`games.go.count.Counting`'s.
"""
import math

import numpy as np

from games.go import board as gb
from games.go import history as go_history
from games.go import features as go_features
from games.go import learned as go_learned
from games.go import score as go_score
from games.contract import DRAW, FIRST_WINS, ONGOING, SECOND_WINS, Game
from games.go.kernels import (DEFAULT_POLICY, GAME_OVER, KO, OCCUPIED, OFF_BOARD, OK, POLICIES,
                              SUICIDE, SUPERKO, _exact_legal_actions, _hash_after_action,
                              _own_eye, move_check)
from games.go.board import (F_CAPS_B, F_CAPS_W, F_HANDICAP, F_HIST_AT, F_HISTLEN, F_KO, F_KOMI2,
                            F_MAXMOVES, F_MOVES, F_PASSES, F_POLICY, F_PRIORS, F_STATUS,
                            F_TOMOVE, NO_POINT)
from games.go.count import Counting, area, result_string, score  # noqa: F401
from games.go.params import PARAMETERS
from games.go.notation import (action_to_sgf, action_to_vertex, fixed_handicap_vertices,
                               player_index as _player, render_board, sgf_to_action,
                               vertex_to_action)

_REASONS = {
    GAME_OVER: "the game is over",
    OCCUPIED: "{v} is occupied",
    KO: "{v} retakes the ko at once (simple ko): play elsewhere first",
    SUICIDE: "{v} is suicide: the stone would have no liberties and captures nothing",
    SUPERKO: "{v} would repeat an earlier whole-board position (positional superko)",
    OFF_BOARD: "{v} is off the board",
}

# Boards from this size on are "large" (Pachi's board_large): there Go's priors also seed the
# AMAF statistics by default (Go.prior_stats_by_size).
LARGE_BOARD = 15
SMALL_BUDGET = 2000     # below LARGE_BOARD, searches expected to run fewer playouts than this
                        # seed the AMAF statistics with the priors too (see prior_stats_for)


def komi2(komi):
    """Twice the half-point komi the kernels count with (``F_KOMI2``) for ``komi``: exact for a
    multiple of 0.5; a fraction between integers, e.g. 6.3, decides every game with whole-point
    area counts as the half point between them does (6.5: Black wins by 7 or more), so it
    becomes that half point."""
    k = float(komi)
    return int(k * 2) if k * 2 == int(k * 2) else 2 * math.floor(k) + 1


class Go(Counting, Game):
    """Go on an n x n board (5 <= n <= 19). Player 0 is Black, player 1 is White."""

    name = "go"
    kernel_module = "games.go.kernels"
    players = ("Black", "White")
    move_help = "a vertex like D4, or pass"
    resign_allowed = True
    saves_games = True              # as SGF
    # RAVE on; AMAF counts only a point's first play (a point is played again only after a
    # capture); plain UCT's c 0.2: at 2,000 playouts it beat 0.5 by 33-7 in 40 games
    # (docs/results/strength.md). With RAVE, the engine's 0.05 (it beat 0.2 by 26-14).
    search_defaults = {"rave": True, "rave_first_play": True, "exploration": 0.2}

    num_features = go_features.NUM_FEATURES     # the learned playout policy's features
    feature_slots = go_features.FEATURE_SLOTS
    parameters = PARAMETERS         # games.go.params
    # bench's Go figures are for uniform random playouts, like OpenSpiel's, unless the user
    # asks for the ko policy that play, gtp and match use by default.
    bench_params = {"playout_policy": "uniform"}

    def __init__(self, size=9, komi=7.5, handicap=0, playout_policy=DEFAULT_POLICY, priors=True,
                 rules="chinese"):
        super().__init__(size=size, komi=komi, handicap=handicap, playout_policy=playout_policy,
                         priors=priors, rules=rules)
        p = self.params                 # checked and normalised by the declarations above
        size_i, komi_f, handicap_i = p["size"], p["komi"] + 0.0, p["handicap"]   # -0: 0
        policy, priors = p["playout_policy"], p["priors"]
        if handicap_i == 1:
            raise ValueError(f"handicap must be 0 or at least 2 stones, got {handicap!r} "
                             "(with 1 stone Black simply moves first: use 0)")
        if handicap_i:
            fixed_handicap_vertices(size_i, handicap_i)      # raises for an invalid number
        self.priors, self.rules = priors, p["rules"]
        self.size, self.komi, self.handicap, self.policy = size_i, komi_f, handicap_i, policy
        self.num_actions = size_i * size_i + 1
        self.max_length = int(gb.move_cap(size_i))
        self.pass_action = size_i * size_i

    @property
    def prior_stats_by_size(self):
        """Where the priors' virtual playouts count unless ``--prior-stats`` says (see
        mcts.config.OPTIONS): ``"value"`` (a move's own visits and value, as in Pachi and
        Fuego) below LARGE_BOARD, ``"both"`` (also seeding its AMAF statistics) from it on.
        Measured (docs/results/strength.md): on 9x9 against Pachi at equal time value 13/40 and both
        10/40 on the same games; on 19x19 against GNU Go level 10 at 2 s a move value 0/9 and
        both 4/10, where a move's few playouts leave its AMAF statistics, unseeded, in charge
        (as at small budgets on 9x9: :meth:`prior_stats_for`)."""
        return "both" if self.size >= LARGE_BOARD else "value"

    def prior_stats_for(self, playouts):
        """:attr:`prior_stats_by_size`, but "both" below LARGE_BOARD too for a search expected
        to run fewer than SMALL_BUDGET playouts. Measured on 9x9 in self-play, both against
        value, 40 games each (docs/results/strength.md): 25/40 at 300 and at 1,000 playouts a move,
        20/40 at 3,000, 10/40 at 1 s (about 25,000)."""
        if playouts is not None and playouts < SMALL_BUDGET:
            return "both"
        return self.prior_stats_by_size

    # -- states ----------------------------------------------------------------------------

    def initial_state(self):
        s = gb.new_state(self.size, komi2(self.komi))
        s[F_POLICY] = POLICIES[self.policy]
        s[F_PRIORS] = 1 if self.priors else 0
        if self.handicap:
            self.place_stones(s, fixed_handicap_vertices(self.size, self.handicap), "black",
                              next_player=1)
            self.set_handicap(s, self.handicap)
        return s

    def set_handicap(self, state, stones):
        """Record that ``stones`` handicap stones were placed (fixed or free): under Chinese
        rules White gets a point for each, included in the komi the search and the count
        use (``state``'s effective komi; :attr:`komi` stays the komi agreed)."""
        state[F_HANDICAP] = int(stones)
        self._refresh_komi(state)

    def set_rules(self, state, rules):
        """Score this game (and ``state``) by ``rules`` (``go_score.RULES``) from now on."""
        go_score.compensation(rules, 0)           # ValueError for unknown rules
        self.rules = self.params["rules"] = rules
        self._refresh_komi(state)

    def _refresh_komi(self, state):
        state[F_KOMI2] = komi2(self.effective_komi(state))

    def effective_komi(self, state):
        """The komi plus the handicap compensation of the rules: what Black's area must beat
        (the true komi, e.g. 6.3; the kernels' half-point twice of it is :func:`komi2`)."""
        return self.komi + go_score.compensation(self.rules, int(state[F_HANDICAP]))

    def place_stones(self, state, points, color, next_player=None):
        """Put setup stones of ``color`` (0 / "black" or 1 / "white") on ``points`` (actions
        or vertices): free handicap placement or any position setup. See :meth:`set_up`."""
        c = _player(color)
        self.set_up(state, black=points if c == 0 else (), white=points if c == 1 else (),
                    next_player=next_player)

    def set_up(self, state, black=(), white=(), next_player=None):
        """Add setup stones (actions or vertices) of both colours as one step, e.g. a position
        from a diagram or SGF AB/AW. No captures happen; ``ValueError`` (state unchanged) if a
        point is off the board, occupied or repeated, or a group would have no liberties. The
        new position joins the superko history; the ko point and the pass count are cleared.
        ``next_player`` (0 / "black" or 1 / "white"), if given, is set to move."""
        if int(state[F_STATUS]) != ONGOING:
            raise ValueError("the game is over: no more stones can be placed")
        n, w = self.size, self.size + 2
        acts, pads, cols = [], [], []
        for points, c in ((black, 1), (white, 2)):
            for p in points:
                a = int(p) if isinstance(p, (int, np.integer)) else vertex_to_action(p, n)
                if not 0 <= a < n * n:
                    raise ValueError(f"cannot place a stone on {p!r}: not a point of the board")
                acts.append(a)
                pads.append((a // n + 1) * w + a % n + 1)
                cols.append(c)
        if not pads:
            if next_player is not None:
                state[F_TOMOVE] = _player(next_player)
            return
        tmp = state.copy()
        code = go_history.setup_stones(tmp, np.array(pads, dtype=np.int64),
                               np.array(cols, dtype=np.int64))
        if code > 0:
            raise ValueError(f"cannot place a stone on {self.format_move(acts[code - 1])}: "
                             "the point is occupied")
        if code == -1:
            raise ValueError("these setup stones leave a group without liberties")
        if code == -2:
            raise ValueError("the position history is full: no more setup is possible")
        if next_player is not None:
            tmp[F_TOMOVE] = _player(next_player)
        state[:] = tmp

    # -- notation --------------------------------------------------------------------------
    def vertex_to_action(self, text):
        return vertex_to_action(text, self.size)

    def action_to_vertex(self, action):
        return action_to_vertex(action, self.size)

    def sgf_to_action(self, text):
        return sgf_to_action(text, self.size)

    def action_to_sgf(self, action):
        return action_to_sgf(action, self.size)

    def parse_move(self, text, state):
        if int(state[F_STATUS]) != ONGOING:
            raise ValueError(f"the game is over ({self.result_string(state)})")
        action = vertex_to_action(text, self.size)
        why = int(move_check(state, np.int64(action)))
        if why != OK:
            raise ValueError(_REASONS[why].format(v=action_to_vertex(action, self.size)))
        return action

    def format_move(self, action, state=None):
        return action_to_vertex(action, self.size)

    # -- queries ---------------------------------------------------------------------------
    def legal_actions(self, state):
        """Exactly the legal actions (superko included), int32, in action order, pass last."""
        out = np.empty(self.num_actions, dtype=np.int32)
        return out[:_exact_legal_actions(state, out)].copy()

    def board(self, state):
        """Stones as int8 ``(n, n)``, row 0 at the top: 0 empty, 1 black, 2 white."""
        n = self.size
        return gb.colors(state)[1:n + 1, 1:n + 1].astype(np.int8)

    def area(self, state):
        """``(black_points, white_points)`` by area (Tromp-Taylor): stones plus empty regions
        reaching only that colour."""
        return area(state)

    def score(self, state):
        """Black's area as it stands minus White's minus the komi and the handicap
        compensation (positive: Black is ahead)."""
        b, w = area(state)
        return b - w - self.effective_komi(state)

    @staticmethod
    def result_string(state_or_score):
        """"B+3.5", "W+0.5" or "0" for a state (counted by area as it stands) or a score."""
        return result_string(state_or_score)

    def captures(self, state):
        """``(stones captured by Black, stones captured by White)``."""
        return int(state[F_CAPS_B]), int(state[F_CAPS_W])

    def moves_played(self, state):
        return int(state[F_MOVES])

    def is_own_eye(self, state, action, player=None):
        """True if ``action`` is an empty point that the playout policy treats as an eye of
        ``player`` (default: the player to move)."""
        p = self.to_play(state) if player is None else _player(player)
        return bool(_own_eye(state, np.int64(action), np.int64(p)))

    def repeats_position(self, state, action):
        """True if stone ``action`` (legal by simple ko and suicide) would recreate a position
        from the game's history: the positional superko test."""
        h = _hash_after_action(state, np.int64(action))
        h0 = int(state[F_HIST_AT])
        return bool(np.any(state[h0:h0 + int(state[F_HISTLEN])] == h))

    def result_text(self, status):
        if status == DRAW:
            return "draw (jigo)"
        return super().result_text(status)

    def ai_should_pass(self, state):
        """Pass without searching when the opponent has just passed and the game, ended now,
        is won by the player to move under the rules in force (:meth:`final_score`)."""
        if int(state[F_STATUS]) != ONGOING or int(state[F_PASSES]) == 0:
            return False
        return self.pass_wins(state)

    def pass_wins(self, state, player=None):
        """Would ``player`` (default: the one to move) win if the game ended now?"""
        sc = self.final_score(state)
        return sc > 0 if (self.to_play(state) if player is None else player) == 0 else sc < 0

    def final_choice(self, state, result):
        """The search's move, unless it fills the mover's own eye (the playout policy's eye
        rule): then the most visited move that does not, or pass. In a decided game every move
        looks alike to the search, and filling one's eyes would kill living groups."""
        a = result.action
        if a == self.pass_action or not self.is_own_eye(state, a):
            return a
        for child in result.children:       # most visited first
            b = child.action
            if b != self.pass_action and not self.is_own_eye(state, b):
                return b
        return self.pass_action

    def score_text(self, state):
        """The count if the game ended now, under the rules in force."""
        count = self.count(state)
        return f"{self._count_text(state, count)}: {go_score.result_string(count[2])}"

    def _count_text(self, state, count):
        """E.g. "Chinese count (2 dead stones removed): Black 45, White 36, komi 7.5"."""
        b, w, _, dead = count
        if self.rules == "tromp-taylor":
            what = "Tromp-Taylor count (every stone counts)"
        else:
            name = "AGA" if self.rules == "aga" else "Chinese"
            what = f"{name} count ({dead} dead stone{'' if dead == 1 else 's'} removed)"
        extra = self.effective_komi(state) - self.komi
        komi = f"komi {self.komi:g}" + (f" + {extra:g} for the handicap" if extra else "")
        return f"{what}: Black {b}, White {w}, {komi}"

    def summary(self, state):
        """Final report: result and count."""
        count = self.count(state)
        return f"{self.result_text_for_state(state, count)}: {self._count_text(state, count)}"

    def result_text_for_state(self, state, count=None):
        """E.g. "Black wins (B+3.5)" for a finished game, or the current count if not
        (``count``: :meth:`count` of ``state`` if already made)."""
        sc = (count or self.count(state))[2]
        res = go_score.result_string(sc)
        if int(state[F_STATUS]) == ONGOING:
            return f"game in progress (count now: {res})"
        winner = FIRST_WINS if sc > 0 else SECOND_WINS if sc < 0 else DRAW
        return f"{self.result_text(winner)} ({res})"

    def save_game(self, moves, state, resigned=None, directory="."):
        """Write the game as SGF (FF[4], SZ, KM, HA, AB, RU, RE) in ``directory``; its path."""
        from games.go import sgf as go_sgf
        if resigned is not None:
            result = f"{'WB'[resigned]}+R"
        elif int(state[F_STATUS]) != ONGOING:
            result = self.final_result(state)
        else:
            result = None
        setup = [vertex_to_action(v, self.size)
                 for v in fixed_handicap_vertices(self.size, self.handicap)] if self.handicap else []
        data = go_sgf.to_sgf(self, moves, setup_black=setup, result=result, rules=self.rules,
                             first_player=1 if self.handicap else 0)
        return go_sgf.save(go_sgf.default_path(directory), data)

    def feature_names(self):
        return go_features.feature_names()

    def playout_table(self, weights):
        """The fast learned playout's table for this board size (games.go.learned)."""
        return go_learned.fill_table(weights, self.size)

    def observation(self, state):
        """The position for learning: int8 ``(n * n + 1,)``, the points row by row from the
        top (0 empty, 1 black, 2 white), then the player to move (0 Black, 1 White). Self-play
        data store this instead of the full state (which carries the group machinery)."""
        return np.concatenate([self.board(state).ravel(),
                               np.array([int(state[F_TOMOVE])], dtype=np.int8)])

    # -- control from outside (GTP): either colour may move, a finished game may go on -----
    def set_to_play(self, state, color):
        """Make ``color`` (0 / "black" or 1 / "white") the player to move; if that changes
        who moves, the simple-ko ban (which binds only the next opponent move) is lifted."""
        c = _player(color)
        if int(state[F_TOMOVE]) != c:
            state[F_TOMOVE] = c
            state[F_KO] = NO_POINT

    def reopen(self, state):
        """Let a game that ended by two passes go on (the pass count starts again). False if
        it cannot (the move cap was reached)."""
        if int(state[F_STATUS]) == ONGOING:
            return True
        if int(state[F_MOVES]) >= int(state[F_MAXMOVES]):
            return False
        state[F_STATUS] = ONGOING
        state[F_PASSES] = 0
        return True

    def set_komi(self, state, komi):
        """Change the komi of ``state`` (and of this game) to ``komi``, a number from -1000 to
        1000 (``ValueError`` otherwise; see :func:`komi2` for a fraction)."""
        komi = next(p for p in PARAMETERS if p.name == "komi").parse(komi)
        self.komi = float(komi) + 0.0           # -0 is 0
        self.params["komi"] = self.komi
        self._refresh_komi(state)

    def warm_up(self):
        """Compile the helpers that play, GTP and the scoring use beyond the kernels."""
        s = self.initial_state()
        self.set_up(s, [0], [self.size * self.size - 1])
        self.legal_actions(s)
        self.is_own_eye(s, 1)
        self.repeats_position(s, 1)
        self.stone_status(s, playouts=8,     # each of its reads needs playouts // 4 >= 1
                          judge=lambda st, n, alternate: self.settle(st, n, 0, alternate))
        score(s)

    # -- display ---------------------------------------------------------------------------
    def render(self, state, last_action=None):
        return render_board(self.board(state), last_action, self.captures(state))
