"""The cleanup phase of a Go game (GTP ``kgs-genmove_cleanup``): after both players passed
with stones on the board that one of them calls dead, the engine captures the dead enemy
stones in its area, then passes. KGS and match referees resume a disputed game this way, so
the engine must neither pass while dead enemy stones remain nor play in the opponent's area.
Likewise after the opponent's pass in normal play, a stone that would only die in its area
is not played (:func:`dies_after_their_pass`).

A cleanup move is a liberty of a dead enemy chain (by the game's dead-stone estimate,
:meth:`games.go.game.Go.stone_status`): a move that captures first, then one that leaves our
stone two liberties or more, the search's most visited first; pass when no dead enemy stone
is left (or none of its liberties can be played). Pure Python over the board and the rules
object's ``apply_action``; no search here.
"""
import numpy as np

from games.contract import ILLEGAL
from games.go import score as go_score
from games.go.board import F_PASSES


def dead_enemy_liberties(game, pos, statuses):
    """The empty points next to the dead chains of the opponent of the player to move in
    ``pos``: a sorted list of actions. ``statuses``: ``(colour, points, status)`` per chain."""
    board, n = game.board(pos), game.size
    me = game.to_play(pos) + 1
    out = set()
    for colour, points, status in statuses:
        if status != go_score.DEAD or colour == me:
            continue
        for p in points:
            for rr, cc in go_score.neighbours(*divmod(p, n), n):
                if not board[rr, cc]:
                    out.add(rr * n + cc)
    return sorted(out)


def _after(game, pos, action):
    """``(captured stones, liberties of the stone's chain)`` after ``action``; None if it is
    illegal (superko included)."""
    nxt = pos.copy()
    if int(game.kernels.apply_action(nxt, np.int64(action))) == ILLEGAL:
        return None
    before, board, n = game.board(pos), game.board(nxt), game.size
    me = game.to_play(pos) + 1
    captured = int(((before == 3 - me) & (board == 0)).sum())
    chain = next(pts for c, pts in go_score.chains(board) if action in pts)
    libs = {rr * n + cc for p in chain for rr, cc in go_score.neighbours(*divmod(p, n), n)
            if not board[rr, cc]}
    return captured, len(libs)


def cleanup_move(game, pos, candidates, visits):
    """The cleanup move among ``candidates`` (actions, e.g. :func:`dead_enemy_liberties`):
    a capture, else a move that keeps two liberties or more, else any legal one, each group
    in order of ``visits`` ({action: the search's visits}, most first); pass if none is legal
    or the move would repeat a position."""
    ranked = sorted(candidates, key=lambda a: (-visits.get(a, 0), a))
    keeps, other = None, None
    for a in ranked:
        outcome = _after(game, pos, a)
        if outcome is None:
            continue
        captured, libs = outcome
        if captured:
            return a
        if libs >= 2 and keeps is None:
            keeps = a
        elif other is None:
            other = a
    for a in (keeps, other):
        if a is not None:
            return a
    return game.pass_action


def dies_after_their_pass(game, pos, action, statuses_of):
    """True if the opponent has just passed in ``pos`` and a stone on ``action`` would be dead
    by the dead-stone estimate ``statuses_of(position)`` (``(colour, points, status)`` per
    chain, as :meth:`games.go.game.Go.stone_status` gives them) of the position after it: such
    a move only fills the opponent's area while the opponent passes, and under area scoring it
    cannot win what passing loses."""
    if int(pos[F_PASSES]) == 0 or action == game.pass_action:
        return False
    after = pos.copy()
    if int(game.kernels.apply_action(after, np.int64(action))) == ILLEGAL:
        return False
    return any(action in points and status == go_score.DEAD
               for _, points, status in statuses_of(after))
