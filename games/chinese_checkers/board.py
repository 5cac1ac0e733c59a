"""The board of Chinese Checkers (:mod:`games.chinese_checkers.kernels`): the star's cells,
neighbours, hops, triangles and distances, as constant tables of the compiled kernels.

**Board.** A six-pointed star of 121 cells: the union of an upward triangle (rows 0-12) and a
downward one (rows 4-16), drawn in doubled coordinates (row ``r`` in 0..16, column ``c`` in
0..24 with ``r + c`` even; neighbours on a row are two columns apart; the centre is row 8,
column 12). Cells are numbered 0-120 row by row from the top, left to right in a row: cell 0 is
the north tip, 10-22 the 13 cells of row 4, 60 the centre, 120 the south tip (OpenSpiel's
numbering). The six directions, numbered as OpenSpiel does, are 0 UL (-1, -1), 1 UR (-1, +1),
2 L (0, -2), 3 R (0, +2), 4 DL (+1, -1), 5 DR (+1, +1). The six points of the star are the
home triangles of ten cells, numbered 0 north, 1 north-east, 2 south-east, 3 south, 4
south-west, 5 north-west; triangle ``t``'s opposite is ``(t + 3) % 6``.

**Distances.** ``TO_APEX[t, cell]`` (int64 ``(6, 121)``) is the number of steps along the
board's three axes from ``cell`` to the apex ``APEX[t]`` of triangle ``t`` (its point, the
cell of the triangle farthest from the centre; hex distance, in doubled coordinates ``|dr| +
max(0, (|dc| - |dr|) / 2)``). The ten cells within 3 of an apex are exactly its triangle.
"""
import numpy as np

NUM_CELLS, NUM_DIRS, TRIANGLE = 121, 6, 10
PASS = NUM_CELLS * NUM_DIRS                 # 726
NUM_ACTIONS = PASS + 1                      # 727
DIR_NAMES = ("UL", "UR", "L", "R", "DL", "DR")
DIR_DELTAS = ((-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1))
SLOTS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}


def _star():
    """Rows and doubled columns of the 121 cells in OpenSpiel's order (row by row, left to
    right), and each cell's home triangle (-1 for the hexagon in the middle)."""
    rows, cols, tri = [], [], []
    for r in range(17):
        up = set(range(12 - r, 13 + r, 2)) if r <= 12 else set()          # rows 0-12
        down = set(range(r - 4, 29 - r, 2)) if r >= 4 else set()          # rows 4-16
        for c in sorted(up | down):
            rows.append(r)
            cols.append(c)
            if c not in down:          # the upward triangle's points: north, south-west, -east
                tri.append(0 if r < 4 else 4 if c < 12 else 2)
            elif c not in up:          # the downward triangle's: south, north-west, -east
                tri.append(3 if r > 12 else 5 if c < 12 else 1)
            else:
                tri.append(-1)
    return np.array(rows), np.array(cols), np.array(tri)


ROW, COL, TRI = _star()
_INDEX = {(int(r), int(c)): i for i, (r, c) in enumerate(zip(ROW, COL))}
# NEIGHBOR[cell, d]: the adjacent cell in direction d; JUMP[cell, d]: the landing of a hop
# over it (the cell two steps away); -1 off the board.
NEIGHBOR = np.array([[_INDEX.get((int(ROW[i]) + dr, int(COL[i]) + dc), -1)
                      for dr, dc in DIR_DELTAS] for i in range(NUM_CELLS)], dtype=np.int64)
JUMP = np.array([[_INDEX.get((int(ROW[i]) + 2 * dr, int(COL[i]) + 2 * dc), -1)
                  if NEIGHBOR[i, d] >= 0 else -1 for d, (dr, dc) in enumerate(DIR_DELTAS)]
                 for i in range(NUM_CELLS)], dtype=np.int64)
TRIANGLE_CELLS = np.array([np.nonzero(TRI == t)[0] for t in range(6)], dtype=np.int64)
# HOME[n, p] and TARGET[n, p]: player p's home and target triangles in a game of n players.
HOME = np.full((7, 6), -1, dtype=np.int64)
for _n, _slots in SLOTS.items():
    HOME[_n, :_n] = _slots
TARGET = np.where(HOME >= 0, (HOME + 3) % 6, -1)
# The most actions of one turn: a hop moves 2 cells along a lattice axis, so a chain lands on
# distinct cells of its start cell's class (axial coordinates modulo 2), the start excluded,
# then may end with a pass: the largest class's size (37).
TURN_PLIES = int(np.unique([((c + r) // 2 % 2, (c - r) // 2 % 2) for r, c in zip(ROW, COL)],
                           axis=0, return_counts=True)[1].max())


def _hex_distance(a):
    dr, dc = np.abs(ROW - ROW[a]), np.abs(COL - COL[a])
    return dr + np.maximum(0, (dc - dr) // 2)


APEX = np.array([cells[np.argmax(_hex_distance(60)[cells])]
                 for cells in (np.nonzero(TRI == t)[0] for t in range(6))], dtype=np.int64)
TO_APEX = np.array([_hex_distance(a) for a in APEX], dtype=np.int64)
