"""The tables of the fast learned Go playout (games.go.learned): the weights' gammas by 3x3
class, line and mover, and the per-point gammas with their per-row sums that a playout keeps
up to date (Coulom 2007's generalized Bradley-Terry strengths, ``gamma = exp(weight)``).

``tab`` is one float64 array of ``TABLE_LEN`` entries: the weights' part (:func:`fill_table`,
numpy, once per set of weights and board size) then the playout's scratch (``T_GAM`` on).
Functions take the state ``s``, ``tab`` and integers only (see :mod:`games.go.board`).
"""
import numpy as np

from games.compiled import nrt_free
from games.go.board import COLOR, EMPTY, MAX_PADDED, MAX_SIZE, at, pat_at
from games.go.features import F_LINE, F_PATTERN, NUM_FEATURES, PATTERN_CLASSES, PATTERN_IDS

K = PATTERN_CLASSES
LINES = 5                               # lines 1-4, and 5 for every line beyond
T_LINE = 2 * LINES * K                  # line index (0-4) of each padded point
T_ROW = T_LINE + MAX_PADDED             # row of each padded point
T_DYN = T_ROW + MAX_PADDED              # exp(weight) of features 0-9
T_GAM = T_DYN + 16                      # gamma of each padded point, mover Black then White
T_ROWS = T_GAM + 2 * MAX_PADDED         # per-row sums of those gammas, Black then White
T_SPEC = T_ROWS + 2 * (MAX_SIZE + 2)    # this move's special points: point, factor, features
SPECIAL = 32
T_UNDO = T_SPEC + 3 * SPECIAL           # points taken out of this move's draw: point, gamma
T_CAP = T_UNDO + 2 * MAX_PADDED         # stones a move captures
TABLE_LEN = T_CAP + MAX_PADDED
_UNIT = 1.0 / 9007199254740992.0        # 2 ** -53


def _eye_classes():
    """bool ``(PATTERN_CLASSES,)``: the 3x3 classes (relative to the mover) whose centre is the
    mover's own eye for the playout policy (games.go.board ``is_own_eye``, a function of the
    3x3 code alone): their gamma is 0, so the draw never picks such a point (the same
    distribution as drawing it and drawing again, at no cost)."""
    codes = np.arange(1 << 16, dtype=np.int64)
    field = [(codes >> (2 * k)) & 3 for k in range(8)]       # NW N NE W E SW S SE
    ours = np.ones(codes.shape, dtype=bool)
    for k in (1, 3, 4, 6):
        ours &= (field[k] == 1) | (field[k] == 3)
    hostile = sum((field[k] == 2).astype(np.int64) for k in (0, 2, 5, 7))
    edge = np.zeros(codes.shape, dtype=np.int64)
    for k in (0, 2, 5, 7):
        edge |= (field[k] == 3)
    eye = np.zeros(K, dtype=bool)
    eye[PATTERN_IDS[0, codes[ours & (hostile + edge < 2)]]] = True
    return eye


EYE_CLASSES = _eye_classes()


def fill_table(weights, n):
    """The weight tables of ``tab`` for board size ``n``: float64 ``(TABLE_LEN,)``, scratch
    zeroed. ``weights``: float64 ``(NUM_FEATURES,)`` of games.go.features."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (NUM_FEATURES,):
        raise ValueError(f"Go playout weights need {NUM_FEATURES} entries, not {weights.shape}")
    tab = np.zeros(TABLE_LEN, dtype=np.float64)
    line_w = np.concatenate([weights[F_LINE:F_LINE + 4], [0.0]])
    pat_w = weights[F_PATTERN:F_PATTERN + K]
    for colour in range(2):
        for line in range(LINES):
            start = (colour * LINES + line) * K
            tab[start:start + K] = np.where(EYE_CLASSES, 0.0, np.exp(pat_w + line_w[line]))
    w = n + 2
    for p in range(w * w):
        r, c = p // w - 1, p % w - 1
        tab[T_LINE + p] = min(max(min(r, n - 1 - r, c, n - 1 - c), 0), LINES - 1)
        tab[T_ROW + p] = p // w
    tab[T_DYN:T_DYN + 10] = np.exp(weights[:10])
    return tab


@nrt_free
def _set(s, w, tab, p):
    """Recompute both movers' gamma of point ``p`` (zero for a stone) and the row sums."""
    g0 = 0.0
    g1 = 0.0
    if s[at(p, COLOR)] == EMPTY:
        code = s[pat_at(w, p)]
        line = np.int64(tab[T_LINE + p])
        g0 = tab[line * K + PATTERN_IDS[0, code]]
        g1 = tab[(LINES + line) * K + PATTERN_IDS[1, code]]
    r = np.int64(tab[T_ROW + p])
    tab[T_ROWS + r] += g0 - tab[T_GAM + p]
    tab[T_GAM + p] = g0
    tab[T_ROWS + MAX_SIZE + 2 + r] += g1 - tab[T_GAM + MAX_PADDED + p]
    tab[T_GAM + MAX_PADDED + p] = g1


@nrt_free
def _set_around(s, w, tab, p):
    """:func:`_set` for ``p`` and its eight neighbours that are on the board."""
    for d in (0, -w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
        q = p + d
        if s[at(q, COLOR)] != 3:
            _set(s, w, tab, q)


@nrt_free
def init_gammas(s, w, tab):
    """Every point's gammas and the row sums from scratch (the start of a playout)."""
    for r in range(2 * (MAX_SIZE + 2)):
        tab[T_ROWS + r] = 0.0
    for p in range(w * w):
        tab[T_GAM + p] = 0.0
        tab[T_GAM + MAX_PADDED + p] = 0.0
    for p in range(w, w * w - w):
        if s[at(p, COLOR)] != 3:
            _set(s, w, tab, p)


@nrt_free
def _take_out(tab, u, p, off, roff):
    """Take point ``p`` out of this move's draw (its gamma to the undo list, ``u`` entries so
    far); returns the new count."""
    g = tab[off + p]
    tab[T_UNDO + 2 * u] = p
    tab[T_UNDO + 2 * u + 1] = g
    tab[off + p] = 0.0
    tab[roff + np.int64(tab[T_ROW + p])] -= g
    return u + 1


@nrt_free
def _undo(tab, c, u):
    """Put the ``u`` points of the undo list back into mover ``c``'s sums."""
    off = T_GAM + (c - 1) * MAX_PADDED
    roff = T_ROWS + (c - 1) * (MAX_SIZE + 2)
    for i in range(u):
        p = np.int64(tab[T_UNDO + 2 * i])
        g = tab[T_UNDO + 2 * i + 1]
        tab[off + p] = g
        tab[roff + np.int64(tab[T_ROW + p])] += g
