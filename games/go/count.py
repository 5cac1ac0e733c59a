"""The end of a Go game: dead stones, sekis and the count under the rules in force, as a mixin
of :class:`games.go.game.Go` over :mod:`games.go.score` (pure Python over boards) and
ownership statistics: a caller's (the GTP engine gives a search's, whose ``ownership`` kernel
sums who owns what at the end of every simulation) or else the compiled playouts of
:func:`settle_counts`."""
import numpy as np
from numba import njit

from games.go import area as go_area
from games.go.area import add_owners
from games.go import score as go_score
from games.contract import ILLEGAL, ONGOING
from games.go.kernels import apply_action, rollout
from games.go.board import (F_KO, F_KOMI2, F_MAXMOVES, F_MOVES, F_PASSES, F_POLICY, F_STATUS,
                            F_TOMOVE, NO_POINT, POLICY_FINISH, POLICY_PATTERNS)


@njit(cache=True)
def settle_counts(state, rng, playouts, alternate, own, dame):
    """Play ``playouts`` playouts of the patterns policy from ``state``, the player to move
    and (if ``alternate``) the other one starting in turn (a finished game is played on as if
    nobody had passed), and add to ``own`` (int64, shape (n*n,), action order) +1 for each point that
    ends Black's (a black stone, or an empty point next to black stones only) and -1 for
    White's, and to ``dame`` (int64, shape (n*n,)) 1 for each point that ends empty next to
    stones of both colours (:func:`games.go.area.add_owners`, the rule of the search's
    ``ownership`` kernel too). The statistics of :meth:`Counting.settle` when no search's
    are given: ``play``'s and ``analyze``'s count at the end of a game, the AI's pass test,
    the fills that test a seki."""
    scratch = np.empty_like(state)
    for i in range(playouts):
        scratch[:] = state
        if scratch[F_MOVES] >= scratch[F_MAXMOVES]:
            return
        scratch[F_STATUS] = ONGOING
        scratch[F_PASSES] = 0
        scratch[F_POLICY] = POLICY_PATTERNS | POLICY_FINISH     # it keeps sekis (no self-
        # atari of 2+ stones) and plays to the end, so that every point gets its owner
        if alternate and i % 2 == 1:
            scratch[F_TOMOVE] = 1 - scratch[F_TOMOVE]
            scratch[F_KO] = NO_POINT
        rollout(scratch, rng)
        add_owners(scratch, own, dame)


def area(state):
    """``(black_points, white_points)`` by area (Tromp-Taylor) of a state, as it stands."""
    b, w = go_area.area(state.copy())   # the count reorders the empty list: use a copy
    return int(b), int(w)


def score(state):
    """Black's area minus White's minus komi."""
    b, w = area(state)
    return b - w - int(state[F_KOMI2]) / 2


def result_string(state_or_score):
    """"B+3.5", "W+0.5" or "0" for a state (counted by area as it stands) or a score."""
    sc = score(state_or_score) if isinstance(state_or_score, np.ndarray) else state_or_score
    sc = float(sc)
    if sc == 0:
        return "0"
    return f"{'B' if sc > 0 else 'W'}+{abs(sc):g}"


class Counting:
    """Methods of :class:`games.go.game.Go` that judge the final position.

    ``judge`` / ``judge_playouts``: the statistics the dead stones go by when a call names none
    (see :meth:`stone_status`), set by :meth:`use_judge`: the front ends set the search's
    (:func:`frontends.go_ownership.attach_judge`), so that ``play``, ``analyze`` and GTP count
    alike; unset, :meth:`settle`'s playouts."""

    judge = None
    judge_playouts = 400

    def use_judge(self, judge, playouts):
        """Judge dead stones by ``judge(state, playouts, alternate) -> (own, dame)`` (see
        :meth:`stone_status`) from about ``playouts`` simulations from now on (None: the
        default playouts of :meth:`settle`)."""
        self.judge, self.judge_playouts = judge, int(playouts)

    def settle(self, state, playouts=400, seed=0, alternate=True):
        """Playout statistics of the final position: ``(own, dame)``, float ``(n, n)`` each,
        row 0 at the top: the mean final owner of each point in [-1, 1] (+1 Black) and the
        share of playouts in which it ends as dame, from ``playouts`` seeded playouts of the
        patterns policy, each side starting in turn if ``alternate``, else the player to move
        (:func:`settle_counts`)."""
        from games.rng import new_rng
        own = np.zeros(self.size * self.size, dtype=np.int64)
        dame = np.zeros(self.size * self.size, dtype=np.int64)
        settle_counts(state, new_rng(seed), int(playouts), int(alternate), own, dame)
        shape = (self.size, self.size)
        return (own / playouts).reshape(shape), (dame / playouts).reshape(shape)

    def point_ownership(self, state, playouts=400, seed=0):
        """Estimated final owner of every point, float ``(n, n)`` in [-1, 1] (+1 Black)."""
        return self.settle(state, playouts, seed)[0]

    def _judge(self, seed, judge):
        """``judge``, else the game's (:meth:`use_judge`), else the playout statistics of
        :meth:`settle` seeded with ``seed``."""
        return judge or self.judge or (
            lambda s, playouts, alternate: self.settle(s, playouts, seed, alternate))

    def stone_status(self, state, playouts=None, seed=0, judge=None):
        """``(colour, points, status)`` for every chain, status alive/dead/seki as estimated
        from ownership statistics (:func:`games.go.score.classify`), sekis tested by filling
        their shared liberties (:func:`games.go.score.resolve_sekis`), whatever the rules.

        ``judge(state, playouts, alternate) -> (own, dame)``: the statistics of a position
        as :meth:`settle` gives them (float ``(n, n)`` each, row 0 on top: mean owner +1
        Black, share of dame) from about ``playouts`` simulations, each side starting in
        turn if ``alternate`` else the player to move; default: :meth:`settle`'s playouts
        seeded with ``seed``. The GTP engine passes the search's (an ownership search,
        :mod:`frontends.go_ownership`)."""
        judge = self._judge(seed, judge)
        playouts = self.judge_playouts if playouts is None else playouts
        own, dame = judge(state, playouts, True)
        board = self.board(state)
        statuses = go_score.classify(board, own, dame)
        if not any(st == go_score.SEKI for _, _, st in statuses):
            return statuses

        def try_move(action, colour):
            return self._filling_lines(state, action, colour - 1, playouts // 4, judge,
                                       depth=2)
        return go_score.resolve_sekis(board, statuses, own, dame, try_move)

    def _filling_lines(self, state, action, player, playouts, judge, depth):
        """Ownership after ``player`` fills ``action`` of a seki, the opponent to move; and if
        the fill is a self-atari, after the opponent's capture and each reply of ``player``
        on the points emptied (the vital point of a nakade among them). A list of ``(n, n)``
        ownership maps (:meth:`_judged_ownership`); empty if the fill is illegal."""
        after = state.copy()
        self.reopen(after)
        self.set_to_play(after, player)
        if apply_action(after, np.int64(action)) == ILLEGAL:
            return []
        lines = [after]
        board, n = self.board(after), self.size
        chain = next(pts for c, pts in go_score.chains(board) if action in pts)
        libs = {rr * n + cc for p in chain for rr, cc in go_score.neighbours(*divmod(p, n), n)
                if not board[rr, cc]}
        if len(libs) == 1:
            captured = after.copy()
            if apply_action(captured, np.int64(libs.pop())) != ILLEGAL:
                for q in chain:
                    reply = captured.copy()
                    if apply_action(reply, np.int64(q)) != ILLEGAL:
                        lines.append(reply)
        return [self._judged_ownership(s, playouts, judge, depth - 1) for s in lines]

    def _judged_ownership(self, state, playouts, judge, depth):
        """Mean final owner ``(n, n)`` of ``judge``'s simulations from ``state`` (the player
        to move first), with the chains of any seki there tested ``depth`` more fills deep and
        set to +-1 (0 for a seki that holds)."""
        own, dame = judge(state, playouts, False)
        board = self.board(state)
        statuses = go_score.classify(board, own, dame)
        if depth <= 0 or not any(st == go_score.SEKI for _, _, st in statuses):
            return own
        statuses = go_score.resolve_sekis(
            board, statuses, own, dame,
            lambda a, c: self._filling_lines(state, a, c - 1, playouts, judge, depth))
        own = own.copy()
        for color, points, st in statuses:
            sign = 1.0 if color == 1 else -1.0
            for p in points:
                own[divmod(p, self.size)] = {go_score.ALIVE: sign, go_score.DEAD: -sign,
                                             go_score.SEKI: 0.0}[st]
        return own

    def final_status(self, state, seed=0, judge=None, playouts=None):
        """Status of every chain at the end of the game (GTP ``final_status_list``) under the
        rules in force, as :meth:`count` counts them: under Tromp-Taylor every stone counts, so
        every chain is alive; otherwise the estimate of :meth:`stone_status` (``judge``,
        ``playouts``: the statistics it goes by), except that with stones of one colour only
        nothing can be dead (no statistics needed)."""
        board = self.board(state)
        if self.rules == "tromp-taylor" or not ((board == 1).any() and (board == 2).any()):
            return [(color, points, go_score.ALIVE) for color, points in go_score.chains(board)]
        return self.stone_status(state, playouts, seed, judge)

    def count(self, state, seed=0, judge=None, playouts=None):
        """``(black, white, score, dead stones removed)`` of the game ended now under the
        rules in force: Tromp-Taylor, the bare area count; Chinese and AGA, the area count with
        the dead stones (:meth:`final_status`, with ``judge`` and ``playouts``) taken off and
        White's handicap compensation. The score is Black - White - komi - compensation. The
        one count behind ``play``, ``analyze``, the SGF result and GTP ``final_score``."""
        if self.rules == "tromp-taylor":
            b, w = area(state)
            return b, w, b - w - self.effective_komi(state), 0
        dead = [p for _, pts, st in self.final_status(state, seed, judge, playouts)
                if st == go_score.DEAD for p in pts]
        b, w = go_score.area_of(go_score.without(self.board(state), dead))
        return b, w, b - w - self.effective_komi(state), len(dead)

    def final_score(self, state, seed=0, judge=None, playouts=None):
        """The score of :meth:`count`: Black - White - komi - compensation."""
        return self.count(state, seed, judge, playouts)[2]

    def final_result(self, state, seed=0, judge=None, playouts=None):
        """:meth:`final_score` written as a result, ``"B+3.5"``, ``"W+0.5"`` or ``"0"``."""
        return go_score.result_string(self.final_score(state, seed, judge, playouts))
