"""Move features of Go for the learned playout policy (the contract's ``move_features``).

The candidates are the points the uniform playout policy may play (legal by simple ko and
suicide, not the mover's own eye); pass is never a candidate, so with none left the policy
falls back on ``playout_action``, which passes. Each candidate gets at most eight binary
features, the classic ones of fast rollout policies (Coulom 2007, "Computing Elo ratings of
move patterns in the game of Go"; Silver et al. 2016, the "rollout policy" of AlphaGo):

=======  =====================================================================================
ids      feature
=======  =====================================================================================
0        captures (an enemy group next to the point is in atari)
1        captures the stones of the opponent's last move
2        saves a group of ours in atari next to the point (the stone leaves it two liberties)
3, 4     self-atari of one stone; of two stones or more (captures nothing, one liberty left)
5        ataris an enemy group (next to the point, two liberties now)
6-9      Manhattan distance 1, 2, 3, 4 to the opponent's last move
10-13    on the first, second, third, fourth line from the edge
14-      the 3x3 neighbourhood: the colours of the eight neighbours (empty, ours, theirs, off
         the board), one id per class under the 8 rotations and reflections
=======  =====================================================================================

Functions take the state ``s`` and integers only (see :mod:`games.go.board`).
"""
import numpy as np
from numba import njit

from games.contract import ONGOING
from games.go.board import (BORDER, COLOR, F_EMPTY_AT, F_LAST, F_NEMPTY, F_SIZE, F_STATUS,
                            F_TOMOVE, GROUP, WHITE, at, in_atari)
from games.go.libs import libs3, playable, self_atari, two_liberties
from games.go.policy import neighbourhood

F_CAPTURE, F_CAPTURE_LAST, F_SAVE, F_SELF_ATARI, F_SELF_ATARI_BIG, F_ATARI = range(6)
F_DISTANCE, F_LINE, F_PATTERN = 6, 10, 14
_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _pattern_classes():
    """``(ids, count)``: ``ids`` int32 ``(2, 65536)``: the class of each 16-bit neighbourhood
    code (games.go.policy.neighbourhood) for a mover of each colour (row 0 Black, 1 White:
    colours are made relative to the mover first), and the number of classes."""
    codes = np.arange(1 << 16, dtype=np.int64)
    fields = [(codes >> (2 * k)) & 3 for k in range(8)]
    index = {d: k for k, d in enumerate(_OFFSETS)}
    maps = []
    for rot in range(4):
        for flip in (False, True):
            def move(d, rot=rot, flip=flip):
                r, c = d
                for _ in range(rot):
                    r, c = c, -r
                return (r, -c) if flip else (r, c)
            maps.append([index[move(d)] for d in _OFFSETS])
    canon = None
    for perm in maps:
        image = sum(fields[k] << (2 * perm[k]) for k in range(8))
        canon = image if canon is None else np.minimum(canon, image)
    _, compact = np.unique(canon, return_inverse=True)
    swapped = sum(np.where((f == 1) | (f == 2), 3 - f, f) << (2 * k) for k, f in enumerate(fields))
    ids = np.stack([compact, compact[swapped]]).astype(np.int32)
    return ids, int(compact.max()) + 1


PATTERN_IDS, PATTERN_CLASSES = _pattern_classes()     # 512 kB: frozen into the compiled code
NUM_FEATURES = F_PATTERN + PATTERN_CLASSES
FEATURE_SLOTS = 8


def feature_names():
    """Names of the ``NUM_FEATURES`` features (a 3x3 class is named by its first code)."""
    names = ["captures", "captures the last move", "saves a group in atari",
             "self-atari of one stone", "self-atari of two stones or more", "ataris"]
    names += [f"distance {d} to the last move" for d in range(1, 5)]
    names += [f"line {k}" for k in range(1, 5)]
    first = {}
    for code in range(1 << 16):
        first.setdefault(int(PATTERN_IDS[0, code]), code)
    for i in range(PATTERN_CLASSES):
        code = first[i]
        text = "".join(".XO#"[(code >> (2 * k)) & 3] for k in range(8))
        names.append(f"3x3 {text[:3]}/{text[3]}+{text[4]}/{text[5:]}")
    return names


@njit(cache=True)
def _tactics(s, w, p, c, last_group, feats, row, k):
    """Write the tactical features of a ``c`` stone on ``p`` to ``feats[row]`` from slot ``k``;
    returns the next free slot. ``last_group``: the group of the last move's stone, or 0."""
    captures = False
    for d in (1, -1, w, -w):
        q = p + d
        col = s[at(q, COLOR)]
        if col == 3 - c:
            g = s[at(q, GROUP)]
            if in_atari(s, g):
                if not captures:
                    feats[row, k] = F_CAPTURE
                    k += 1
                    captures = True
                if g == last_group and last_group != 0:
                    feats[row, k] = F_CAPTURE_LAST
                    k += 1
                    last_group = 0
    saves = False
    ataris = False
    for d in (1, -1, w, -w):
        q = p + d
        col = s[at(q, COLOR)]
        if col == c and not saves and in_atari(s, s[at(q, GROUP)]):
            if captures or two_liberties(s, w, p, c):
                feats[row, k] = F_SAVE
                k += 1
                saves = True
        elif col == 3 - c and not ataris:
            n_libs, _, _ = libs3(s, w, s[at(q, GROUP)])
            if n_libs == 2:
                feats[row, k] = F_ATARI
                k += 1
                ataris = True
    if not captures and self_atari(s, w, p, c):
        big = False
        for d in (1, -1, w, -w):
            if s[at(p + d, COLOR)] == c:
                big = True
        feats[row, k] = F_SELF_ATARI_BIG if big else F_SELF_ATARI
        k += 1
    return k


@njit(cache=True)
def move_features(state, cand, feats):
    """The contract's ``move_features`` for Go (see the module docstring)."""
    s = state
    if s[F_STATUS] != ONGOING:
        return 0
    n = s[F_SIZE]
    w = n + 2
    c = s[F_TOMOVE] + 1
    last = s[F_LAST]
    lr, lc, last_group = -100, -100, 0
    if 0 <= last < n * n:
        lr, lc = last // n, last % n
        lp = (lr + 1) * w + lc + 1
        if s[at(lp, COLOR)] == 3 - c:
            last_group = s[at(lp, GROUP)]
    row = 0
    e0 = s[F_EMPTY_AT]
    slots = feats.shape[1]
    for i in range(s[F_NEMPTY]):
        p = s[e0 + i]
        if not playable(s, w, p, c):
            continue
        r, col = p // w - 1, p % w - 1
        k = _tactics(s, w, p, c, last_group, feats, row, 0)
        dist = abs(r - lr) + abs(col - lc)
        if dist <= 4:
            feats[row, k] = F_DISTANCE + dist - 1
            k += 1
        line = min(min(r, n - 1 - r), min(col, n - 1 - col))
        if line < 4:
            feats[row, k] = F_LINE + line
            k += 1
        feats[row, k] = F_PATTERN + PATTERN_IDS[1 if c == WHITE else 0, neighbourhood(s, w, p)]
        k += 1
        if k < slots:
            feats[row, k] = -1
        cand[row] = r * n + col
        row += 1
    return row


assert BORDER == 3      # the neighbourhood codes above use 3 for off the board
