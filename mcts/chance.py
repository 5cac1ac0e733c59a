"""Chance positions seen from Python: the roll a front end or the self-play recorder draws,
and the mover a search's fresh root is given. (The compiled search draws its own outcomes:
mcts.uct_template's chance_child, games.rng.draw_outcome.)"""
import numpy as np

from games.contract import CHANCE


def roll_rng(seed: int, ply: int) -> np.random.Generator:
    """The generator of the roll at ``ply`` of a game seeded ``seed``: a function of both, so
    that a game replayed (or a roll undone) with the same seed gets the same dice."""
    return np.random.default_rng([int(seed) & (2**63 - 1), int(ply)])


def draw(game, state, rng: np.random.Generator) -> int:
    """An outcome of the chance position ``state`` drawn by its probability
    (``game.chance_outcomes``) from ``rng``; ``ValueError`` if ``state`` is not one."""
    outcomes, probs = game.chance_outcomes(state)
    return int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())])


def root_mover(game, who: int) -> int:
    """The mover of a fresh search root whose player to move is ``who``: the player before
    (``(who - 1) mod num_players``), or ``CHANCE`` at a chance position."""
    return CHANCE if who == CHANCE else (who - 1) % game.num_players
