"""`play`: a game against the AI in the terminal, for any registered game.

The human types moves in the game's notation or a command (undo, hint, quit; resign and score
in games that have them). Any seats may be human or AI (``--seats human,ai,ai``; by default
the human has the first seat, or the second with ``--first ai``). Chance positions (a roll of
the dice) are drawn by the engine from the seed (``--seed``; the same seed gives the same
rolls) and shown; an undo keeps the rolls it takes back (a roll is a function of the seed and
the ply), so undoing never fishes for better dice. Bad input gets a one-line reason and the prompt again. End of input
and Ctrl-C end the session cleanly: the game record is printed (and saved, for games that
save records, once a move was played; a save that fails falls back on the temporary folder)
and nothing is lost.

A game may start from a position (:mod:`frontends.play_start`: ``--moves``, Go's ``--sgf``);
undo stops there. A human pass that would end the game (Go's second pass) asks first: the
count it would end with, then pass again to end, anything else to go on. The AI's move says
how it was chosen: its search's rate, a proof of the solver, or the only legal move.

Start: with the kernels compiled already, the engine loads in the background (about half a
second) while the board and the first prompt show, drawn by the game's pure-Python twin
(:mod:`games.pure`: the same rules, interpreted); the human's first line waits for it.
"""
import signal
import sys

import numpy as np

from rich.markup import escape
from rich.text import Text

from frontends.common import console, output_folder
from frontends.go_ownership import attach_judge
from frontends.play_end import finish
from frontends.play_start import Start, game_and_start, human_seats
from frontends.player import PendingEngine, PlayerConfig, Resigner
from games import pure
from games.contract import CHANCE, ONGOING
from mcts import chance
from mcts.results import Proof

COMMANDS = ("undo", "hint", "help", "quit")
PROMPT_WIDTH = 70               # a prompt longer than this leaves out the commands (80 columns
                                # with the move typed)
RATE_SECONDS = 0.1              # a search shorter than this gives no playouts/s
STYLES = {"X": "bold red", "O": "bold yellow", "●": "bold", "○": "bold"}


class Session:
    """A game in progress: positions before each move, the moves, who played them.
    ``engine``: a :class:`frontends.player.PendingEngine`; ``start``: a
    :class:`frontends.play_start.Start` (default: the game's initial position): its moves
    are the record's first, and undo stops after them (``floor``)."""

    def __init__(self, game, engine, humans, player, start=None):
        self.game, self.pending = game, engine
        self.humans = frozenset([humans] if isinstance(humans, int) else humans)
        self.human = min(self.humans) if self.humans else None   # the first human seat
        seed = player.seed
        self.dice_seed = int(np.random.SeedSequence().entropy) if seed is None else int(seed)
        self.twin = None if engine.ready else start_twin(game)
        self.budget = player.budget
        self.resigner = Resigner(player.resign_threshold)
        self.start = start or Start(self.rules.initial_state())
        self.states = list(self.start.states)
        self.actions, self.movers = list(self.start.actions), list(self.start.movers)
        self.floor = len(self.actions)     # undo stops here
        self.pass_asked = None      # the ply at which a game-ending pass was asked about
        self.resigned = None          # player who resigned
        self.save_dir = "."           # where games that keep records (SGF) are saved

    @property
    def state(self):
        return self.states[-1]

    @property
    def engine(self):
        """The engine, waited for if it is still loading."""
        return self.pending.get()

    def wait_for_engine(self):
        """Wait until the engine (its kernels) is loaded: from then on ``rules`` is ``game``."""
        self.pending.get()

    @property
    def rules(self):
        """The game that draws the board and judges the end: ``game`` once the engine (its
        kernels) is loaded, before that its pure-Python twin, if it has one."""
        return self.game if self.twin is None or self.pending.ready else self.twin

    def play(self, action):
        player = self.game.to_play(self.state)
        nxt = self.state.copy()
        self.game.play(nxt, action)
        self.engine.advance(action)
        self.states.append(nxt)
        self.actions.append(action)
        self.movers.append(player)

    def undo(self):
        """Take back moves up to and including a human's last one (and the rolls since).
        False if there is none."""
        if not self.humans.intersection(self.movers[self.floor:]):
            return False
        while True:
            self.states.pop()
            self.actions.pop()
            if self.movers.pop() in self.humans:
                return True

    def rolls_next(self):
        """Is the position now a chance position (a roll comes next, then the board)?"""
        return self.rules.status(self.state) == ONGOING and \
            self.rules.to_play(self.state) == CHANCE

    def roll(self):
        """Draw the outcome of the chance position now (a roll) and play it: a function of
        the session's seed and the ply, so that the same seed gives the same rolls, and an
        undone roll comes again. Returns the outcome's text."""
        action = chance.draw(self.game, self.state, chance.roll_rng(self.dice_seed,
                                                                  len(self.actions)))
        text = self.game.format_move(action, self.state)
        self.play(action)
        return text

    def record(self):
        g = self.rules
        moves = [g.format_move(a, s) for a, s in zip(self.actions, self.states)]
        return g.format_record(moves)

    def played(self):
        """Was a move played in this session (after the start)?"""
        return len(self.actions) > self.floor

    def over(self):
        return self.resigned is not None or self.rules.status(self.state) != ONGOING

    def result(self):
        g = self.rules
        if self.resigned is not None:
            if g.num_players == 2:
                return f"{g.players[1 - self.resigned]} wins by resignation"
            return f"{g.players[self.resigned]} resigned"
        st = g.status(self.state)
        return g.summary(self.state) if st != ONGOING else "unfinished"


def start_twin(game):
    """The pure-Python twin of ``game`` (:func:`games.pure.twin_game`) if it sets up, draws
    and judges the start as the game does, else None (then the start waits for the engine)."""
    try:
        twin = pure.twin_game(game)
        state = twin.initial_state()
        for check in (twin.render, twin.score_text, twin.status):
            check(state)
        return twin
    except Exception:               # a plug-in's kernel that runs compiled only
        return None


def show(session):
    g, s = session.rules, session
    text = Text(g.render(s.state, s.actions[-1] if s.actions else None))
    for word, style in STYLES.items():
        text.highlight_words([word], style)
    console.print(text)


def ai_move(session):
    s = session
    s.wait_for_engine()
    g = s.game
    if g.ai_should_pass(s.state):
        pass_action = g.parse_move("pass", s.state)
        s.play(pass_action)
        console.print("AI passes: after your pass, the count as it stands wins for the AI")
        return
    legal = g.legal_actions(s.state)
    if len(legal) == 1:
        move = g.format_move(int(legal[0]), s.state)
        s.play(int(legal[0]))
        console.print(f"AI plays [bold]{escape(move)}[/bold]: the only legal move (no search)")
        return
    r = s.engine.search(s.state, **s.budget)
    if g.resign_allowed and s.resigner.should_resign(g.to_play(s.state), r.value):
        s.resigned = g.to_play(s.state)
        console.print(f"AI resigns (win estimate {100 * r.value:.1f}%)")
        return
    action = g.final_choice(s.state, r)
    move = g.format_move(action, s.state)
    s.play(action)
    console.print(f"AI plays [bold]{escape(move)}[/bold]: {estimate(r)}, {search_note(r)}")


def search_note(r):
    """How a search ran, for the AI's move: its rate once it ran long enough to measure one
    (``RATE_SECONDS``), else its playouts; "proven by the solver" when it proved the result
    (the solver ends it: no rate to tell)."""
    if r.proof is not None:
        return f"proven by the solver after {r.playouts:,} playouts"
    if r.seconds < RATE_SECONDS:
        return f"{r.playouts:,} playouts"
    return (f"{r.playouts_per_second:,.0f} playouts/s ({r.playouts:,} playouts in "
            f"{r.seconds:.2f} s)")


def estimate(r):
    """The AI's view of a search result, e.g. 'win 62.3%' or 'I win in 5'."""
    if r.proof is Proof.WIN:
        return f"I win in {r.plies} (plies, both sides)"
    if r.proof is Proof.LOSS:
        return f"you can win in {r.plies} (plies, both sides)"
    if r.proof is Proof.DRAW:
        return "a draw with best play"
    return f"win {100 * r.value:.1f}%"


MAX_INPUT = 1000                # characters of one line of input read at most


def read_line(prompt):
    """One line of input after ``prompt``; None if it is longer than ``MAX_INPUT`` characters
    (the rest is skipped in bounded reads); ``EOFError`` at the end of input. A terminal
    gets ``input()`` and its line editing (the terminal bounds the line)."""
    if sys.stdin.isatty():
        return input(prompt)
    console.print(prompt, end="", markup=False)
    line = sys.stdin.readline(MAX_INPUT + 1)
    if not line:
        raise EOFError
    if len(line) > MAX_INPUT and not line.endswith("\n"):
        while True:
            rest = sys.stdin.readline(MAX_INPUT)
            if not rest or rest.endswith("\n"):
                return None
    return line


def human_turn(session):
    """Read and carry out one line of input. Returns False when the human quits."""
    g, s = session.game, session
    line = read_line(prompt(s.rules, s.rules.to_play(s.state)))
    s.wait_for_engine()             # the first line waits for it, if it is still loading
    asked, s.pass_asked = s.pass_asked, None    # the question holds for the next line only
    if line is None:
        console.print(f"input too long (over {MAX_INPUT} characters): ignored")
        return True
    word = line.strip().lower()
    if not word:
        return True
    if word in ("quit", "exit", "q"):
        return False
    if word == "undo":
        if s.undo():
            show(s)
        else:
            console.print("nothing to undo")
        return True
    if word in ("help", "?"):
        console.print(f"moves: {g.move_help}; commands: {', '.join(commands(g))} (undo takes "
                      "back your last move and the replies since)", markup=False)
        return True
    if word == "hint":
        r = s.engine.search(s.state, **s.budget)
        console.print(f"hint: {r.move} ({estimate(r).replace('I win', 'you win')})")
        return True
    if word == "resign" and g.resign_allowed:
        s.resigned = g.to_play(s.state)
        return True
    if word == "score":
        text = g.score_text(s.state)
        console.print(text if text is not None else "this game keeps no score", markup=False)
        return True
    try:
        action = g.parse_move(line.strip(), s.state)
    except ValueError as e:                 # it may quote the input: cut long echoes
        text = str(e) if len(str(e)) <= 200 else str(e)[:197] + "..."
        console.print(f"[red]{escape(text)}[/red]")
        return True
    if action == g.pass_action and asked != len(s.actions) and ends_game(g, s.state, action):
        after = s.state.copy()
        g.play(after, action)
        s.pass_asked = len(s.actions)
        console.print(f"Your pass would end the game: {g.summary(after)}. Type pass again to "
                      "end it, or a move to go on.", markup=False)
        return True
    s.play(action)
    return True


def ends_game(game, state, action):
    """Does ``action`` end the game from ``state``?"""
    after = state.copy()
    game.play(after, action)
    return game.status(after) != ONGOING


def prompt(game, player):
    """The prompt of ``player``'s turn: the notation and the commands, or, where that would
    be longer than ``PROMPT_WIDTH`` characters, the notation and "help"."""
    name = game.players[player]
    text = f"{name} to move ({game.move_help}, or {', '.join(commands(game))}): "
    return text if len(text) <= PROMPT_WIDTH else f"{name} to move ({game.move_help}; or help): "


def commands(game):
    extra = ("resign",) if game.resign_allowed else ()
    extra += ("score",) if keeps_score(game) else ()
    return COMMANDS[:2] + extra + COMMANDS[2:]


def keeps_score(game):
    """Does ``game`` keep a running score (its ``score_text`` hook, asked of the start)?"""
    return game.score_text(game.initial_state()) is not None


def play(args):
    """Run the `play` command. Returns the exit status (0, or 130 after Ctrl-C)."""
    game, start = game_and_start(args, start_twin)
    if game.saves_games:
        output_folder(args.sgf_dir, create=False)   # before the game, not after it
    humans = human_seats(game, args, start.to_move(start_twin(game) or game))
    player = PlayerConfig.from_args(args)
    attach_judge(game, player.search_config(game))     # Go's count: GTP's dead stones
    session = Session(game, PendingEngine(player, game), humans, player, start)
    session.save_dir = args.sgf_dir
    names = [game.players[h] for h in sorted(humans)]
    you = (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]) \
        if names else "watching (every seat is the AI's)"
    console.print(f"{game.name}: you are {you}. Type {game.move_help}, "
                  f"or one of: {', '.join(commands(session.rules))}.")
    status = 0
    _pipe_errors()
    try:
        show(session)
        while not session.over():
            who = session.rules.to_play(session.state)
            if who == CHANCE:
                session.wait_for_engine()
                console.print(f"chance: [bold]{escape(session.roll())}[/bold]")
                show(session)
            elif who in session.humans:
                if not human_turn(session):
                    break
                if session.actions and session.movers[-1] in session.humans \
                        and not session.rolls_next():
                    show(session)
            else:
                ai_move(session)
                if not session.rolls_next():
                    show(session)
    except EOFError:
        console.print("\nend of input")
    except KeyboardInterrupt:
        console.print("\ninterrupted")
        status = 130
    except BrokenPipeError:             # our output was closed (`| head`): keep the game
        finish(session, quiet=True)
        return 128 + signal.SIGPIPE
    finish(session)
    return status


def _pipe_errors():
    """A closed standard output raises BrokenPipeError in `play` (frontends.common's console
    points it at the null device first; cli.main lets SIGPIPE end the other commands), so
    that the game in progress is still saved."""
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    except (AttributeError, ValueError):
        pass
