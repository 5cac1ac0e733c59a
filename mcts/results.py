"""What a search reports: typed per-move statistics and the chosen move."""
from dataclasses import dataclass, field
from enum import Enum

from games.contract import DRAW, FIRST_WINS
from mcts.tree import NOT_PROVEN


class Proof(str, Enum):
    """A game-theoretic value proven by the MCTS-Solver, for the player it is reported to
    (the mover of a child, the side to move at the root). Compares equal to its text."""
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"

    @classmethod
    def of(cls, proven: int, who: int):
        """The proof of a node whose ``proven`` slot holds a final status, for player
        ``who`` (0 or 1); None if the node is not proven."""
        if proven == NOT_PROVEN:
            return None
        if proven == DRAW:
            return cls.DRAW
        return cls.WIN if proven == FIRST_WINS + who else cls.LOSS

    @property
    def reward(self) -> float:
        """The reward it stands for: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return {"win": 1.0, "draw": 0.5, "loss": 0.0}[self.value]


@dataclass
class ChildStats:
    """One root move after a search (summed over the search threads).

    visits: playouts through the move; value: mean reward of the mover in [0, 1] (draws half;
    for a chance outcome, of the last player to move before it); proof: a :class:`Proof`
    for the mover, or None; plies: plies to the end under best play when proven, else None;
    probability: a chance outcome's probability (None for a player's move)."""
    action: int
    move: str
    visits: int = 0
    value: float = 0.0
    proof: Proof = None
    plies: int = None
    probability: float = None

    def to_dict(self) -> dict:
        d = {"move": self.move, "visits": self.visits, "value": round(self.value, 4)}
        if self.probability is not None:
            d["probability"] = round(self.probability, 6)
        if self.proof is not None:
            d.update(proven=self.proof.value, plies=self.plies)
        return d


@dataclass
class SearchResult:
    """What a search found. ``value`` is the chosen move's win probability for the side to
    move (draws count half; 1, 0.5 or 0 once proven); ``children`` lists every legal move
    searched as :class:`ChildStats`, proven wins first, then most visited first; ``pv`` is the
    principal variation (move strings); ``proof``/``plies`` the root's proof for the side to
    move, once proven. ``seconds`` is wall time; ``nodes``/``capacity`` count tree nodes,
    ``reused`` those kept from the previous search (tree reuse). ``player_values`` is each
    player's mean reward at the root (floats, one per player; max-n). ``chance``: the root is
    a chance position, ``children`` its outcomes (with probabilities) and ``action`` only the
    most visited of them: a roll is drawn, not chosen.

    With the ``ownership`` option on for a game with an ``ownership`` kernel (see
    :mod:`games.contract`): ``ownership`` (float64, ``(num_actions,)``), each action's
    (point's) mean owner at the end of the simulations since the root was set, in [-1, 1],
    +1 the first player (0 for a pass); ``neutral`` (float64, ``(num_actions,)``), the share
    of them in which it was owned by neither; ``ownership_playouts``, how many simulations
    they average (those whose end settled ownership: at most ``playouts``). None, None, 0
    otherwise."""
    action: int
    move: str
    value: float
    children: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    playouts: int = 0
    seconds: float = 0.0
    nodes: int = 0
    capacity: int = 0
    max_depth: int = 0
    reused: int = 0
    proof: Proof = None
    plies: int = None
    player_values: list = field(default_factory=list)
    chance: bool = False
    ownership: object = None
    neutral: object = None
    ownership_playouts: int = 0

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        d = {"best": self.move, "value": round(self.value, 4), "playouts": self.playouts,
             "seconds": round(self.seconds, 4), "nodes": self.nodes,
             "children": [c.to_dict() for c in self.children], "pv": self.pv,
             "player_values": [round(v, 4) for v in self.player_values]}
        if self.chance:
            d["chance"] = True
        if self.proof is not None:
            d.update(proven=self.proof.value, plies=self.plies)
        return d


def choose(children: list) -> ChildStats:
    """The move to play: the fastest proven win; else the most visited move not proven lost
    (``children`` sorted by visits, proven wins first); else, all lost, the slowest loss."""
    wins = [ch for ch in children if ch.proof is Proof.WIN]
    if wins:
        return min(wins, key=lambda ch: ch.plies)
    alive = [ch for ch in children if ch.proof is not Proof.LOSS]
    if alive:
        return alive[0]
    return max(children, key=lambda ch: ch.plies)
