"""The end of a Go game: which stones are alive, dead or in seki, and the score under the rules.

One scoring path serves every front end (``play``, ``analyze``, the SGF ``RE``, GTP
``final_score`` and ``final_status_list``), so they never disagree. Three rule sets are
offered (``Go(rules=...)``):

* ``"chinese"`` (the default): area scoring after the dead stones are taken off the board, and
  White gets one point per handicap stone, as GNU Go's ``--chinese-rules`` counts (GNU Go 3.8
  ``final_score``: 9x9, komi 0.5, ``fixed_handicap 3``, a dead white stone: ``B+77.5``).
* ``"aga"``: the same count, White getting a point per handicap stone after the first.
* ``"tromp-taylor"``: the score is the bare area count of the board as it stands (Tromp and
  Taylor, "The Logical Rules of Go", 1995): stones plus the empty regions that reach only
  that colour, Black - White - komi. No stone is ever removed at the end, so the players
  capture dead stones before passing, and every stone is alive for ``final_status_list``.

Life and death come from the statistics of playouts run from the final position (Bouzy's and
Pachi's approach of Monte Carlo ownership): each point's mean final owner, and how often it
ends as *dame* (empty, touching both colours). A chain is dead when its points end, on
average, as the opponent's; it is in seki when it lives but touches a point that the playouts
leave as dame in most games: a shared liberty that neither side can fill (the playout policy
refuses self-ataris of two or more stones, so a seki survives its playouts). Normal dame
between living groups get filled by some playout move and are not counted.

This module is pure Python over boards: int8 arrays of shape ``(n, n)``, row 0 at the top,
0 empty, 1 black, 2 white, and points as actions ``row * n + col``. The playout statistics are
gathered by :meth:`games.go.game.Go.settle` (a compiled kernel).
"""
import random

import numpy as np

RULES = ("chinese", "aga", "tromp-taylor")
ALIVE, DEAD, SEKI = "alive", "dead", "seki"
DAME_SHARE = 0.5          # a liberty left as dame in at least this share of playouts: seki


def neighbours(r, c, n):
    """The points next to ``(r, c)`` on an ``n`` x ``n`` board, as ``(row, col)``."""
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < n and 0 <= cc < n:
            yield rr, cc


def chains(board):
    """The chains (connected stones of one colour) of ``board``: a list of ``(colour, points)``
    with colour 1 (black) or 2 (white) and the points sorted, in the order of their first
    point."""
    n, seen, out = board.shape[0], np.zeros(board.shape, dtype=bool), []
    for r0 in range(n):
        for c0 in range(n):
            color = int(board[r0, c0])
            if not color or seen[r0, c0]:
                continue
            seen[r0, c0] = True
            todo, points = [(r0, c0)], []
            while todo:
                r, c = todo.pop()
                points.append(r * n + c)
                for rr, cc in neighbours(r, c, n):
                    if not seen[rr, cc] and board[rr, cc] == color:
                        seen[rr, cc] = True
                        todo.append((rr, cc))
            out.append((color, sorted(points)))
    return out


def empty_regions(board):
    """Labels of the empty regions of ``board``: int64 ``(n, n)``, -1 on stones, 0, 1, ... in
    reading order of each region's first point."""
    n = board.shape[0]
    labels = np.full(board.shape, -1, dtype=np.int64)
    k = 0
    for r0 in range(n):
        for c0 in range(n):
            if board[r0, c0] or labels[r0, c0] >= 0:
                continue
            labels[r0, c0] = k
            todo = [(r0, c0)]
            while todo:
                r, c = todo.pop()
                for rr, cc in neighbours(r, c, n):
                    if not board[rr, cc] and labels[rr, cc] < 0:
                        labels[rr, cc] = k
                        todo.append((rr, cc))
            k += 1
    return labels


def area_of(board):
    """Tromp-Taylor area ``(black, white)`` of ``board``: stones plus the empty regions that
    reach only that colour (a region reaching both, or none, counts for nobody)."""
    n = board.shape[0]
    labels = empty_regions(board)
    black, white = int((board == 1).sum()), int((board == 2).sum())
    reach = {}
    for r in range(n):
        for c in range(n):
            if labels[r, c] >= 0:
                seen = reach.setdefault(int(labels[r, c]), set())
                seen.update(int(board[rr, cc]) for rr, cc in neighbours(r, c, n)
                            if board[rr, cc])
    for k, colours in reach.items():
        size = int((labels == k).sum())
        if colours == {1}:
            black += size
        elif colours == {2}:
            white += size
    return black, white


def classify(board, own, dame):
    """Status of every chain of ``board`` from playout statistics.

    ``own``: float ``(n, n)`` in [-1, 1], the mean final owner of each point (+1 Black);
    ``dame``: float ``(n, n)`` in [0, 1], the share of playouts in which the point ended empty
    and touching both colours. Returns a list of ``(colour, points, status)`` in the order of
    :func:`chains`, status ``"alive"``, ``"dead"`` or ``"seki"``: dead if the chain's points
    end on average as the opponent's, seki if it lives and one of its liberties is dame in at
    least ``DAME_SHARE`` of the playouts."""
    n = board.shape[0]
    out = []
    for color, points in chains(board):
        sign = 1.0 if color == 1 else -1.0
        mine = float(np.mean([own[divmod(p, n)] for p in points])) * sign
        status = DEAD if mine < 0 else ALIVE
        if status == ALIVE:
            liberties = {(rr, cc) for p in points for rr, cc in neighbours(*divmod(p, n), n)
                         if not board[rr, cc]}
            if any(dame[q] >= DAME_SHARE for q in liberties):
                status = SEKI
        out.append((color, points, status))
    return out


def resolve_sekis(board, statuses, own, dame, try_move):
    """Test each seki of ``statuses`` (from :func:`classify`) by letting either colour fill a
    shared liberty first: ``try_move(point, colour)`` (colour 1 or 2) returns the mean final
    owners ``(n, n)`` of playouts after each line of play that starts with that move (empty
    if it is illegal). If some line wins the seki's chains for the mover (they end as its
    points in most playouts, its sacrificed stones retaken), as a self-atari that kills by a
    throw-in or a nakade does, those chains are judged by that line instead (alive or dead,
    no longer seki). A real seki survives: whoever fills first loses.
    The playout policy refuses self-ataris of two or more stones, so this takes the one step
    of reading it cannot; returns the statuses, revised."""
    n = board.shape[0]
    own, dame = own.copy(), dame.copy()
    for _ in range(4):                      # a few sekis at most; each pass settles one
        seki = [(color, points) for color, points, st in statuses if st == SEKI]
        broken = False
        for color, points in seki:
            shared = sorted({(rr, cc) for p in points for rr, cc in neighbours(*divmod(p, n), n)
                             if not board[rr, cc] and dame[rr, cc] >= DAME_SHARE})
            near = [pts for _, pts in seki if any(abs(divmod(p, n)[0] - r) + abs(
                divmod(p, n)[1] - c) == 1 for p in pts for r, c in shared)]
            cells = [divmod(p, n) for pts in near for p in pts]
            for r, c in shared:
                for mover in (1, 2):
                    sign = 1.0 if mover == 1 else -1.0
                    lines = try_move(r * n + c, mover)
                    if not lines:
                        continue
                    after = max(lines, key=lambda o: np.mean([o[q] * sign for q in cells]))
                    if np.mean([after[q] * sign for q in cells]) >= DAME_SHARE:
                        for q in cells:
                            own[q] = after[q]
                        for q in shared:
                            dame[q] = 0.0
                        broken = True
                        break
                if broken:
                    break
            if broken:
                break
        if not broken:
            return statuses
        statuses = classify(board, own, dame)
    return statuses


def without(board, points):
    """A copy of ``board`` with the stones on ``points`` (actions) taken off."""
    out = board.copy()
    n = board.shape[0]
    for p in points:
        out[divmod(p, n)] = 0
    return out


def result_string(score):
    """``"B+3.5"``, ``"W+0.5"`` or ``"0"`` for a score (Black - White - komi)."""
    score = float(score)
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):g}"


def compensation(rules, handicap):
    """Points White gets for ``handicap`` stones: one per stone under Chinese rules (GNU Go's
    count), one per stone after the first under AGA rules (the compensation of the AGA
    rules when counting by area), none under Tromp-Taylor. ``ValueError`` for unknown rules."""
    if rules not in RULES:
        raise ValueError(f"rules must be one of {', '.join(RULES)}, got {rules!r}")
    if rules == "chinese":
        return int(handicap)
    return max(0, int(handicap) - 1) if rules == "aga" else 0


def quick_moves(board, seed):
    """Candidate moves found without compiled code, for an engine whose kernels are still
    compiling: the empty points with an empty neighbour, in a random order fixed by ``seed``.
    Such a point is never suicide, never a ko capture (which needs all four neighbours
    occupied) and never an eye; the caller still checks superko when it plays one."""
    n = board.shape[0]
    options = [r * n + c for r in range(n) for c in range(n) if not board[r, c]
               and any(not board[rr, cc] for rr, cc in neighbours(r, c, n))]
    random.Random(seed).shuffle(options)
    return options
