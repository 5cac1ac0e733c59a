"""SGF (FF[4]) game records for Go, through the sgfmill library.

A record holds the board size (SZ), komi (KM), handicap (HA) with its stones (AB), the rules
(RU), the result (RE: "B+3.5", "W+R", "0") and the moves. Reading gives back the same: used by
`play` to save games and by GTP's ``printsgf`` and ``loadsgf``.
"""
import datetime
import os

from sgfmill import sgf

from games.release import __version__

RULES = {"tromp-taylor": "Tromp-Taylor", "chinese": "Chinese", "aga": "AGA"}     # RU values by Go(rules=)


def _point(game, action):
    """sgfmill point (row from the bottom, column) or None for pass."""
    if action == game.pass_action:
        return None
    r, c = divmod(int(action), game.size)
    return game.size - 1 - r, c


def _action(game, point):
    if point is None:
        return game.pass_action
    row, col = point
    return (game.size - 1 - row) * game.size + col


def to_sgf(game, moves, setup_black=(), setup_white=(), result=None, player_names=None,
           first_player=0, rules=None) -> bytes:
    """SGF bytes for a game of ``game`` (a :class:`games.go.game.Go`): ``moves`` is a list of
    ``(player, action)`` (player 0 Black, 1 White), setup stones are actions, ``result`` an
    SGF RE value or None, ``rules`` the rules it was scored by (default: ``game.rules``),
    written as RU[Tromp-Taylor] or RU[Chinese]."""
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("KM", float(game.komi))
    root.set("RU", RULES[rules or game.rules])
    root.set("AP", ("mcts-engine", __version__))
    root.set("DT", datetime.date.today().isoformat())
    handicap = len(setup_black) if setup_black and not setup_white else 0
    if handicap >= 2:
        root.set("HA", handicap)
    if setup_black or setup_white:
        root.set_setup_stones([_point(game, a) for a in setup_black],
                              [_point(game, a) for a in setup_white])
    if moves and moves[0][0] != 0 or (not moves and first_player == 1):
        root.set("PL", "w")
    if result:
        root.set("RE", result)
    for key, name in zip(("PB", "PW"), player_names or ()):
        root.set(key, name)
    node = root
    for player, action in moves:
        node = node.new_child()
        node.set_move("bw"[player], _point(game, action))
    return record.serialise()


def from_sgf(data: bytes):
    """Parse SGF bytes; return a dict: size, komi, handicap, setup_black, setup_white (actions),
    moves [(player, action)], result, first_player. Raises ``ValueError`` on malformed SGF."""
    from games.go.game import Go
    try:
        record = sgf.Sgf_game.from_bytes(data)
    except ValueError as e:
        raise ValueError(f"not a valid SGF file: {e}") from None
    size = record.get_size()
    root = record.get_root()
    if root.has_property("GM") and root.get("GM") != 1:
        raise ValueError(f"not a Go record (GM[{root.get('GM')}])")
    try:
        komi = float(root.get("KM")) if root.has_property("KM") else 7.5
        game = Go(size=size, komi=komi)
    except ValueError as e:
        what = f"KM[{root.get_raw('KM').decode(errors='replace')[:20]}]" \
            if root.has_property("KM") else f"SZ[{size}]"
        raise ValueError(f"{what}: {e}") from None
    black, white = set(), set()
    moves = []
    first = 0
    for node in record.get_main_sequence():     # setup may follow the root (GNU Go's files)
        b, w, empty = node.get_setup_stones()
        if b & w:
            raise ValueError(f"setup stones of both colours (AB and AW) on "
                             f"{game.action_to_vertex(_action(game, min(b & w)))}")
        if b or w or empty:
            if moves:
                raise ValueError("setup stones (AB, AW, AE) after the first move are not "
                                 "supported")
            black = (black | b) - empty - w
            white = (white | w) - empty - b
        if node.has_property("PL") and not moves:
            first = 1 if node.get("PL") == "w" else 0
        colour, point = node.get_move()
        if colour is not None:
            moves.append((0 if colour == "b" else 1, _action(game, point)))
    return {"size": size, "komi": komi,
            "handicap": int(root.get("HA")) if root.has_property("HA") else 0,
            "setup_black": [_action(game, p) for p in sorted(black)],
            "setup_white": [_action(game, p) for p in sorted(white)],
            "moves": moves, "result": root.get("RE") if root.has_property("RE") else None,
            "first_player": first}


def save(path, data: bytes) -> str:
    """Write SGF bytes to ``path`` (directories created); return the absolute path."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return os.path.abspath(path)


def default_path(directory=".") -> str:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = os.path.join(directory, f"go-{stamp}.sgf")
    i = 1
    while os.path.exists(path):
        path = os.path.join(directory, f"go-{stamp}-{i}.sgf")
        i += 1
    return path
