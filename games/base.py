"""The game contract: what a board game supplies so that search runs entirely in compiled code.

**Compiled side.** The game's kernel module (``Game.kernel_module``) defines these module-level
numba functions, compiled with ``@njit(cache=True)``. A *state* is a 1-D numpy array of the
game's dtype whose length is fixed once the parameters are fixed; kernels change it in place.

=============================================  ====================================================
``to_play(state) -> int``                      player to move: 0 (first player) or 1
``status(state) -> int``                       ``ONGOING``, ``FIRST_WINS``, ``SECOND_WINS``, ``DRAW``
``legal_actions(state, out) -> int``           write the legal actions (ints in ``[0, num_actions)``)
                                               to ``out`` (int32, length ``num_actions``); return
                                               how many. May include moves that ``apply_action``
                                               later rejects (e.g. superko); the search prunes them.
``apply_action(state, action) -> int``         play ``action``; return the new status, or
                                               ``ILLEGAL`` and leave ``state`` unchanged
``playout_action(state, rng) -> int``          the playout policy's move (default: uniform random
                                               over legal actions); ``rng`` is ``uint64[1]``
``rollout(state, rng) -> int``  *(optional)*   play to the end with the playout policy and return
                                               the final status; when absent, a loop over
                                               ``playout_action`` and ``apply_action`` is generated
``ply(state) -> int``  *(optional)*            plies played so far (for playout-length figures)
``rollout_record(state, rng, actions, players)``  like ``rollout``, also writing each move and its
``-> (int, int)``  *(optional)*                player to the int32 / int8 buffers; returns (status,
                                               moves written). For RAVE; generated when absent
``prior(state, actions, visits, value)``       prior knowledge of the moves ``actions`` (int32, the
``-> None``  *(optional)*                      children of ``state`` being created): add virtual
                                               playouts to ``visits`` (int32) and the mover's
                                               reward of those playouts to ``value`` (float32),
                                               both of ``actions``' length and zero on entry. They
                                               seed the RAVE statistics; none when absent
=============================================  ====================================================

**Python side.** A subclass of :class:`Game` gives the name, the parameters, the initial state,
text rendering and the game's move notation (and, in games with a pass move, ``pass_action``,
which RAVE keeps out of its all-moves-as-first statistics). Register it with :func:`games.register` (or the
``mcts_engine.games`` entry point group) and the search, ``play``, ``analyze`` and ``bench``
work with it unchanged: ``mcts/`` never names a concrete game.
"""
import numpy as np

ILLEGAL, ONGOING, FIRST_WINS, SECOND_WINS, DRAW = -1, 0, 1, 2, 3
KERNEL_NAMES = ("to_play", "status", "legal_actions", "apply_action", "playout_action")


class Game:
    """Python face of a game. Subclasses set the class attributes and implement the methods."""

    name = ""               # registry name, e.g. "connect4"
    kernel_module = ""      # dotted module path holding the compiled kernels
    players = ("first", "second")   # display names of players 0 and 1
    move_help = "a move"            # how to type a move, for prompts
    resign_allowed = False          # may the AI resign in `play`?
    rave_default = False            # RAVE (all-moves-as-first) on by default for this game?
    exploration_default = 0.7       # UCT exploration constant c unless the user sets one
    rave_exploration_default = 0.05  # the same with RAVE on (AMAF already spreads the search)

    def __init__(self, **params):
        self.params = params          # e.g. {"size": 9, "komi": 7.5}; shown by `cli.py list`
        self.num_actions = 0          # size of the action space
        self.max_length = 0           # longest possible game in plies (a cap for playouts)

    def initial_state(self) -> np.ndarray:
        """A fresh state array (fixed shape and dtype for these parameters)."""
        raise NotImplementedError

    def render(self, state, last_action=None) -> str:
        """The position as text for a terminal, with ``last_action`` marked."""
        raise NotImplementedError

    def parse_move(self, text: str, state) -> int:
        """Action for ``text`` in the game's notation; ``ValueError`` saying why if not legal."""
        raise NotImplementedError

    def format_move(self, action: int, state=None) -> str:
        """The game's notation for ``action``."""
        raise NotImplementedError

    record_separator = " "          # between moves of a game record; "" = one character each

    def parse_record(self, text: str) -> list:
        """Move strings of a game record, split by ``record_separator`` (whitespace) or, when
        it is "", one character per move (Connect Four's ``4453``)."""
        if self.record_separator:
            return text.split()
        return [ch for ch in text if not ch.isspace()]

    def format_record(self, moves) -> str:
        """A game record for a list of move strings."""
        return self.record_separator.join(moves)

    def ai_should_pass(self, state) -> bool:
        """True when the AI should pass instead of searching (games with a pass move)."""
        return False

    def final_choice(self, state, result) -> int:
        """The move the AI plays from a search ``result`` (an :class:`mcts.SearchResult`);
        by default the search's choice. Games may veto moves the search cannot tell apart
        from good ones in a decided position (Go: filling one's own eye)."""
        return result.action

    def summary(self, state) -> str:
        """Final report of a finished game (e.g. an area count); by default the result."""
        return self.result_text(self.status(state))

    def save_game(self, moves, state, resigned=None, directory: str = "."):
        """Write a game to a file (e.g. SGF) and return its path, or None if the game keeps no
        files. ``moves``: [(player, action)]; ``state``: the last position; ``resigned``: the
        player who resigned, if one did."""
        return None

    def result_text(self, status: int) -> str:
        """A human description of a finished game's status."""
        if status == DRAW:
            return "draw"
        return f"{self.players[status - FIRST_WINS]} wins"

    # Helpers for Python callers, built on the kernels.
    @property
    def kernels(self):
        import importlib
        return importlib.import_module(self.kernel_module)

    def legal_actions(self, state) -> np.ndarray:
        """Exactly the legal actions of ``state``: int32 array of shape ``(n,)``, in kernel order."""
        k = self.kernels
        out = np.empty(self.num_actions, dtype=np.int32)
        n = k.legal_actions(state, out)
        return np.array([a for a in out[:n] if k.apply_action(state.copy(), a) != ILLEGAL],
                        dtype=np.int32)

    def to_play(self, state) -> int:
        return int(self.kernels.to_play(state))

    def status(self, state) -> int:
        return int(self.kernels.status(state))

    def play(self, state, action: int) -> int:
        """Apply ``action`` to ``state`` in place; return the new status. ``ValueError`` if illegal."""
        st = int(self.kernels.apply_action(state, np.int64(action)))
        if st == ILLEGAL:
            raise ValueError(f"{self.format_move(action, state)} is not a legal move here")
        return st

    def play_record(self, text: str):
        """Replay a game record from the initial state; return ``(state, actions)``.

        Raises ``ValueError`` naming the first move that is malformed or illegal."""
        state, actions = self.initial_state(), []
        for i, token in enumerate(self.parse_record(text), start=1):
            try:
                action = self.parse_move(token, state)
            except ValueError as e:
                raise ValueError(f"move {i} ({token!r}) of {text!r}: {e}") from None
            self.play(state, action)
            actions.append(action)
        return state, actions
