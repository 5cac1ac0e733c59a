"""Board games drawn as text: one row of cells per line, the last move's cell between
parentheses (GNU Go's and Pachi's ``showboard`` style). Shared by Go's and Othello's
``render``."""


def marked_rows(cells, mark, labels):
    """Lines ``"<label> c c(c)c ... <label>"`` for ``cells`` (rows of one-character strings,
    top row first), with the cell ``mark`` ((row, column), or None) between parentheses and
    ``labels[r]`` (right-aligned in two characters) on both sides of row ``r``."""
    lines = []
    for r, row in enumerate(cells):
        last = len(row) - 1
        line = f"{labels[r]:>2}"
        for c, ch in enumerate(row):
            line += ("(" if mark == (r, c) else ")" if mark == (r, c - 1) else " ") + ch
        line += (")" if mark == (r, last) else " ") + f"{labels[r]}"
        lines.append(line)
    return lines
