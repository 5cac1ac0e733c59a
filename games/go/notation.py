"""Go notation and fixed points, pure Python: the one place that converts GTP vertices ("D4",
"pass"), SGF points ("dd") and actions (``row * n + col`` from the top-left, ``n * n`` for
pass), and the handicap and star points of GTP v2 (sections 4.1.1 and 6.3.2, GNU Go's
placement)."""
import re

from games.board_text import marked_rows

COLUMNS = "ABCDEFGHJKLMNOPQRST"          # vertex column letters: A-T without I

_VERTEX = re.compile(r"([A-Za-z])(\d{1,2})")


def _column_range(size):
    """The column letters of a ``size`` board as a range, without I: "A-H, J" on 9x9."""
    last = COLUMNS[size - 1]
    if size <= 8:
        return f"A-{last}"
    return "A-H, J" if size == 9 else f"A-H, J-{last}"


def vertex_to_action(text, size):
    """Action for a GTP vertex ("D4", "d4", "pass") on a ``size`` board; ``ValueError`` with a
    one-line reason for garbage or a vertex off the board."""
    t = str(text).strip()
    if t.lower() == "pass":
        return size * size
    m = _VERTEX.fullmatch(t)
    if not m:
        raise ValueError(f"{t!r} is not a vertex: write a column letter and a row number, "
                         f"e.g. D4, or 'pass'")
    letter, row = m.group(1).upper(), int(m.group(2))
    columns = _column_range(size)
    if letter == "I":
        raise ValueError(f"{t!r} is not a vertex: the column letters skip I ({columns})")
    col = COLUMNS.find(letter)
    if col < 0 or col >= size or not 1 <= row <= size:
        raise ValueError(f"{t!r} is off the board: a {size}x{size} board has columns "
                         f"{columns} and rows 1-{size}")
    return (size - row) * size + col


def action_to_vertex(action, size):
    """GTP vertex ("D4", or "pass") of ``action`` on a ``size`` board."""
    a = int(action)
    if a == size * size:
        return "pass"
    if not 0 <= a < size * size:
        raise ValueError(f"action {a} is out of range for a {size}x{size} board")
    return f"{COLUMNS[a % size]}{size - a // size}"


def sgf_to_action(text, size):
    """Action for an SGF point ("dd": column then row, 'a' = left / top); "" or "tt" (on boards
    up to 19x19) is a pass."""
    t = str(text).strip()
    if t == "" or (t == "tt" and size <= 19):
        return size * size
    if len(t) != 2 or not all("a" <= ch <= "z" for ch in t):
        raise ValueError(f"{t!r} is not an SGF point: two lowercase letters, e.g. 'dd'")
    col, row = ord(t[0]) - ord("a"), ord(t[1]) - ord("a")
    if col >= size or row >= size:
        raise ValueError(f"SGF point {t!r} is off a {size}x{size} board")
    return row * size + col


def action_to_sgf(action, size):
    """SGF point of ``action`` ("dd"); a pass is ""."""
    a = int(action)
    if a == size * size:
        return ""
    if not 0 <= a < size * size:
        raise ValueError(f"action {a} is out of range for a {size}x{size} board")
    return chr(ord("a") + a % size) + chr(ord("a") + a // size)


def max_fixed_handicap(size):
    """Most stones GTP ``fixed_handicap`` places on a ``size`` board (0: none allowed)."""
    if size % 2 == 1 and size >= 9:
        return 9
    return 4 if size >= 7 else 0


def fixed_handicap_vertices(size, stones):
    """The vertices of GTP ``fixed_handicap`` for ``stones`` stones; ``ValueError`` if GTP does
    not define that placement on this board size."""
    most = max_fixed_handicap(size)
    if most == 0:
        raise ValueError(f"fixed handicap needs a board of at least 7x7 (GTP), not "
                         f"{size}x{size}; place stones freely with Go.place_stones instead")
    if not 2 <= stones <= most:
        raise ValueError(f"a fixed handicap on {size}x{size} is 2 to {most} stones, not {stones}")
    lo = 3 if size > 11 else 2          # 0-based distance of corner stones from the edge
    hi, mid = size - 1 - lo, size // 2
    corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)]    # (col, row from the bottom)
    sides = [(lo, mid), (hi, mid), (mid, lo), (mid, hi)]
    if stones in (5, 7, 9):
        spots = corners + sides[:stones - 5] + [(mid, mid)]
    else:
        spots = (corners + sides)[:stones]
    return [f"{COLUMNS[c]}{r + 1}" for c, r in spots]


def star_points(size):
    """Actions of the marked points (hoshi): 3-3 or 4-4 corner points (as the handicap), the
    centre on odd boards, and the side points on odd boards from 15x15."""
    if size < 7:
        return set()
    lo = 3 if size > 11 else 2
    hi, mid = size - 1 - lo, size // 2
    spots = {(lo, lo), (lo, hi), (hi, lo), (hi, hi)}
    if size % 2 == 1:
        spots.add((mid, mid))
        if size >= 15:
            spots |= {(lo, mid), (hi, mid), (mid, lo), (mid, hi)}
    return {(size - 1 - r) * size + c for c, r in spots}


def render_board(grid, last_action=None, captures=(0, 0)):
    """The board as text: ``grid`` (int, (n, n), 0 empty, 1 Black, 2 White, row 0 at the top)
    with column letters and row numbers, ``+`` on empty star points, the stone of
    ``last_action`` (an action, ``row * n + column``; None or pass: none) between parentheses,
    and ``captures`` (stones captured by Black, by White) below."""
    n = grid.shape[0]
    stars = star_points(n)
    letters = "   " + " ".join(COLUMNS[:n])
    mark = None
    if last_action is not None and 0 <= int(last_action) < n * n:
        mark = divmod(int(last_action), n)
    cells = [["+" if grid[r, c] == 0 and r * n + c in stars else ".XO"[grid[r, c]]
              for c in range(n)] for r in range(n)]
    lines = [letters] + marked_rows(cells, mark, [n - r for r in range(n)])
    lines.append(letters)
    lines.append(f"captured stones: by Black (X) {captures[0]}, by White (O) {captures[1]}")
    return "\n".join(lines)


def player_index(color):
    """0 (Black) or 1 (White) from 0/1 or a colour name ("b", "black", "w", "white")."""
    if isinstance(color, str):
        c = color.strip().lower()
        if c in ("b", "black"):
            return 0
        if c in ("w", "white"):
            return 1
    elif color in (0, 1):
        return int(color)
    raise ValueError(f"colour {color!r}: use 0 or 'black' for Black, 1 or 'white' for White")
