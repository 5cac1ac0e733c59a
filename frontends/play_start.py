"""Where a game of `play` starts: the initial position, a position given as moves, or a Go
position from an SGF file.

``--moves STR`` (any game) plays STR from the start, in the notation `analyze --moves` takes
(the game's record: Connect Four ``4453``, Go ``"D4 E5 pass"``). ``--sgf FILE [--move N]``
(Go) starts from the game of an SGF file (read with sgfmill, :mod:`games.go.sgf`): its board
size, komi, setup stones (AB/AW: handicap stones, or any position) and moves, all of them or
its first N (``--move 0``: the setup only). The moves become the start of the game's record,
of its SGF and of the position (undo stops there), not moves of the session.

Flags beside ``--sgf``: the file fixes the board, so ``--size`` and ``--handicap`` must agree
with it (else one line says so); ``--komi`` and ``--rules`` given win over the file's komi
(the file's is kept otherwise; SGF's RU is not read). Who is human is decided after the start
(:func:`frontends.play.human_seats`): by default the human plays the side to move.
"""
from frontends.argtypes import read_input
from frontends.common import UsageError, make_game
from frontends.go_records import MAX_SGF_BYTES
from games.contract import CHANCE, ONGOING


class Start:
    """The moves before the session: ``states`` (the position before each move, then the
    one after the last: the session goes on from ``states[-1]``), ``actions`` and ``movers``
    (the player of each; CHANCE for a roll). ``setup_black`` / ``setup_white``: Go setup
    stones (actions) of an SGF file, saved again with the game; ``handicap`` how many of
    them are handicap stones."""

    def __init__(self, state):
        self.states, self.actions, self.movers = [state], [], []
        self.setup_black, self.setup_white, self.handicap = [], [], 0

    @property
    def state(self):
        return self.states[-1]

    def add(self, rules, action, mover):
        nxt = self.state.copy()
        rules.play(nxt, action)
        self.states.append(nxt)
        self.actions.append(int(action))
        self.movers.append(mover)

    def to_move(self, rules):
        """The player to move at the start (0 for a roll to come), asked of ``rules``: the
        game's pure-Python twin, so that nothing compiles before the engine loads its
        kernels (a kernel compiled first would keep the shipped compiled code out)."""
        who = rules.to_play(self.state)
        return 0 if who == CHANCE else who


def game_and_start(args, twin_of):
    """(game, :class:`Start`) of the command line ``args``; ``twin_of(game)`` gives the
    rules to replay the moves with (the game's pure-Python twin, which needs no compiled
    code, or None: the game). ``UsageError`` in one line for a bad move, an SGF file that
    does not fit or a start where the game is already over."""
    sgf, move = getattr(args, "sgf", None), getattr(args, "move", None)
    if move is not None and sgf is None:
        raise UsageError("--move N picks a position of an SGF file: give --sgf FILE")
    if sgf is not None:
        if args.game != "go":
            raise UsageError(f"--sgf reads Go records; {args.game} starts from --moves")
        return _from_sgf(args, sgf, move, twin_of)
    game = make_game(args)
    rules = twin_of(game) or game
    start = Start(rules.initial_state())
    text = getattr(args, "moves", None)
    if text:
        for i, token in enumerate(rules.parse_record(text), start=1):
            if rules.status(start.state) != ONGOING:
                raise UsageError(f"--moves: the game is over after move {i - 1} of "
                                 f"{_cut(text)}")
            try:
                action = rules.parse_move(token, start.state)
                start.add(rules, action, rules.to_play(start.state))
            except ValueError as e:
                raise UsageError(f"--moves: move {i} ({_cut(token)}) of {_cut(text)}: "
                                 f"{_cut(str(e), 200, quote=False)}") from None
    _check_ongoing(rules, start, "--moves")
    return game, start


def _cut(text, most=60, quote=True):
    """``repr(text)`` (``text`` if not ``quote``), cut to about ``most`` characters (a pasted
    page stays a short line)."""
    r = repr(text) if quote else text
    return r if len(r) <= most else r[:most - 4] + ("...'" if quote else "...")


def _from_sgf(args, path, move, twin_of):
    from games.go.sgf import from_sgf
    try:
        record = from_sgf(read_input(path, MAX_SGF_BYTES))
    except ValueError as e:
        raise UsageError(f"--sgf: {e}" if str(e).startswith("cannot read") else
                         f"--sgf {path}: {e}") from None
    black, white = record["setup_black"], record["setup_white"]
    handicap = len(black) if black and not white and len(black) >= 2 else 0
    given = args.game_params
    for name, value, says in (("size", record["size"], "a board of {0}x{0}"),
                              ("handicap", handicap, "a handicap of {0}")):
        if name in given and given[name] != value:
            raise UsageError(f"--{name} {given[name]} disagrees with {path} ("
                             f"{says.format(value)}): leave --{name} out")
    args.game_params = dict(given, size=record["size"], handicap=0,
                            komi=given.get("komi", record["komi"]))
    game = make_game(args)          # UsageError for a size the engine does not play
    rules = twin_of(game) or game
    moves = record["moves"]
    if move is not None and move > len(moves):
        raise UsageError(f"--move {move}: {path} has {len(moves)} moves")
    start = Start(rules.initial_state())
    try:
        if black or white:
            rules.set_up(start.state, black, white, next_player=record["first_player"])
        if handicap:
            rules.set_handicap(start.state, handicap)
    except ValueError as e:
        raise UsageError(f"--sgf {path}: its setup stones: {e}") from None
    start.setup_black, start.setup_white, start.handicap = list(black), list(white), handicap
    for i, (player, action) in enumerate(moves[:move], start=1):
        if rules.status(start.state) != ONGOING:
            break                   # _check_ongoing says so
        rules.set_to_play(start.state, player)
        try:
            start.add(rules, action, player)
        except ValueError as e:
            raise UsageError(f"--sgf {path}: move {i} ({'BW'[player]} "
                             f"{rules.format_move(action)}): {e}") from None
    if move is not None and move < len(moves):
        rules.set_to_play(start.state, moves[move][0])
    _check_ongoing(rules, start, f"--sgf {path}", "; --move N starts from its first N moves")
    return game, start


def _check_ongoing(rules, start, what, hint=""):
    if rules.status(start.state) != ONGOING:
        raise UsageError(f"{what}: the game is over after {len(start.actions)} moves "
                         f"({rules.summary(start.state)}): nothing to play{hint}")


def human_seats(game, args, to_move=0):
    """The players (0-based) the human plays: ``--seats`` (one word per player, ``human``
    or ``ai``), else ``--color``, else ``to_move``, the player to move at the start (the next
    one with ``--first ai``).
    ``UsageError`` for flags that disagree or a seat list that does not fit the game."""
    seats = getattr(args, "seats", None)
    if sum(x is not None for x in (args.color, args.first, seats)) > 1:
        raise UsageError("give one of --seats, --color and --first")
    if seats is not None:
        words = [w.strip().lower() for w in seats.split(",")]
        if len(words) != game.num_players or not set(words) <= {"human", "ai"}:
            names = ", ".join(game.players)
            raise UsageError(f"--seats needs {game.num_players} words, human or ai, one per "
                             f"player ({names}), e.g. --seats "
                             + ",".join(["human"] + ["ai"] * (game.num_players - 1)))
        return {i for i, w in enumerate(words) if w == "human"}
    if args.color:
        if game.num_players != 2:
            raise UsageError(f"--color is for two-player games; {game.name} has "
                             f"{game.num_players} players: give --seats")
        if args.color == "white":
            return {1}
        return {0}
    return {(to_move + 1) % game.num_players} if args.first == "ai" else {to_move}
