"""Conformance check: does a game keep the contract of :mod:`games.contract`?

Run it as ``python cli.py check GAME`` or from a game's own tests::

    from mcts.conformance import assert_conforms
    def test_my_game_conforms():
        assert_conforms(MyGame())

:func:`run_checks` returns ``[(check name, [problems])]``; each problem is one message for the
game's author naming the kernel or method at fault and what it should do. A problem seen many
times (at many plies, seeds or positions) is reported once, with a count of the others. The
checks, in order (a check runs only when the checks it relies on passed; ``parameters`` and
``kernels compiled with cache=True`` always run):

* **kernels and state**: the kernel module defines the contract's kernels; ``initial_state()``
  is a 1-D array; ``num_actions`` and ``max_length`` are positive.
* **parameters**: ``type(game)(**game.params)`` rebuilds the same game (other processes rebuild
  games this way), and declared ``parameters`` match the constructor's keywords and defaults.
* **kernels compiled with cache=True**: every kernel is a numba function compiled with
  ``cache=True`` (otherwise every process compiles it again). Skipped under
  ``NUMBA_DISABLE_JIT=1``, where kernels are plain functions.
* **seeded random games**: games of the playout policy end within ``max_length``; ``to_play``
  is a player from 0 to ``num_players - 1`` (or ``CHANCE`` in a game with chance, whose
  outcomes are distinct, in range, with probabilities summing to 1, and apply); a finished
  game's ``returns`` are in [0, 1]; legal actions are in range and apply (all of them, or an evenly spread sample of
  ``MAX_ACTIONS_PER_PLY`` in a ply with more); moves round-trip through ``format_move`` /
  ``parse_move``; ``playout_action`` picks a legal move; finished games accept no move.
* **refused moves leave the state unchanged**: on a few positions (finished ones too), every
  action ``apply_action`` refuses (each one in ``[0, num_actions)`` it does not accept, and -1
  and ``num_actions``) leaves the state byte for byte as it was; no move is accepted after the
  end; every accepted move is listed by ``legal_actions``.
* **same seed, same game**: two games with the same seed are the same.
* **position keys** (only for a game with ``position_key``): over seeded random games the key
  is a uint64 that depends on the state only and leaves it unchanged, and two positions with
  one key have the same player to move, status and legal moves.
* **move features** (only for a game with ``move_features``): over seeded random games the
  kernel only reads the state and answers the same twice; its candidates are distinct legal
  actions (``apply_action`` refuses at most 5 % of them, e.g. for superko); each row holds at
  most ``feature_slots`` distinct ids in ``[0, num_features)``, ended by -1; a finished game
  has none; and playouts of the learned policy with random weights end.
* **exact solver** (only for a game with ``solve``): on the positions of seeded random games
  whose full game tree is small, ``solve`` gives the status of a full minimax over the kernels
  (and its plies for a win or a loss), with a small budget that answer or ``ONGOING``, and it
  only reads the state.
* **ownership** (only for a game with ``ownership``): at the end of seeded random games and
  at the start, the kernel returns 0 or 1, adds nothing with 0, and with 1 adds -1/0/+1 (row
  0) or 1 (row 1, owned by neither) per action; a seeded search gives the same result with
  the ``ownership`` option as without, and maps in range.
* **rollout and rollout_record** (only for hand-written ones): their results are distributed
  like those of the generic ``playout_action`` loop: ``PLAYOUTS`` seeded playouts each from the
  initial position and from two positions reached by seeded random moves, and for each result
  (first player wins, second player wins, draw) the two rates must agree within
  ``Z_TOLERANCE`` standard errors of their difference (pooled two-proportion test) plus
  ``ABS_TOLERANCE``; a correct game fails this by chance with a probability below one in a
  million (and the seeds are fixed, so a game passes or fails every time). A rollout must also
  not leave a finished state whose status contradicts what it returned. ``rollout_record``
  must record players from 0 to ``num_players - 1`` (``CHANCE`` for a chance outcome) and
  actions in ``[0, num_actions)``; their order is free (all-moves-as-first statistics ask
  which player made which move, so a playout that fills a board at once may record it in
  any order; until 2026-12-06 the moves had to replay as a legal game).
* **search compiled vs NUMBA_DISABLE_JIT=1**: a small seeded search gives the same result twice,
  and the same compiled and under ``NUMBA_DISABLE_JIT=1`` (in a subprocess, so the kernels run
  as plain Python).
"""
import re
import traceback

from mcts.conformance.jit_off import check_search, small_search  # noqa: F401
from mcts.conformance.features import check_move_features
from mcts.conformance.keys import check_position_keys
from mcts.conformance.ownership import check_ownership
from mcts.conformance.play import check_determinism, check_random_games, check_refusals
from mcts.conformance.rollouts import check_rollouts
from mcts.conformance.solver import check_solver
from mcts.conformance.structure import check_caching, check_kernels, check_params

KERNELS = "kernels and state"
PARAMS = "parameters"
CACHING = "kernels compiled with cache=True"
RANDOM = "seeded random games"
REFUSALS = "refused moves leave the state unchanged"
DETERMINISM = "same seed, same game"
KEYS = "position keys"
FEATURES = "move features"
SOLVER = "exact solver"
OWNERSHIP = "ownership"
ROLLOUTS = "rollout and rollout_record"
SEARCH = "search compiled vs NUMBA_DISABLE_JIT=1"
# (name, check, the checks it relies on): a check runs only if those ran and passed.
CHECKS = ((KERNELS, check_kernels, ()),
          (PARAMS, check_params, ()),
          (CACHING, check_caching, ()),
          (RANDOM, check_random_games, (KERNELS,)),
          (REFUSALS, check_refusals, (RANDOM,)),
          (DETERMINISM, check_determinism, (RANDOM,)),
          (KEYS, check_position_keys, (RANDOM,)),
          (FEATURES, check_move_features, (RANDOM, REFUSALS)),
          (SOLVER, check_solver, (RANDOM, REFUSALS)),
          (OWNERSHIP, check_ownership, (RANDOM, DETERMINISM)),
          (ROLLOUTS, check_rollouts, (RANDOM, DETERMINISM)),
          (SEARCH, check_search, (PARAMS, RANDOM, REFUSALS, DETERMINISM, FEATURES, SOLVER,
                                  ROLLOUTS)))
CHECK_NAMES = tuple(name for name, _, _ in CHECKS)


def _raised(e) -> str:
    frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    at = f" (in {frame.name}, {frame.filename}:{frame.lineno})" if frame else ""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()      # numba colours its errors
    return f"the check could not run: {type(e).__name__}: {text}{at}"


def run_checks(game):
    """[(check name, [problems])] for each check run, in the order of ``CHECKS``. A check
    whose prerequisites failed is skipped (it would test a game that already breaks the
    contract where it relies on it); a check that raises reports that as its problem."""
    out, passed = [], set()
    for name, check, needs in CHECKS:
        if not all(n in passed for n in needs):
            continue
        try:
            problems = list(check(game))
        except Exception as e:  # the author needs the message, not our traceback
            problems = [_raised(e)]
        out.append((name, problems))
        if not problems:
            passed.add(name)
    return out


def assert_conforms(game):
    """For a game's own tests: fail with every problem found, in words."""
    failed = [f"{name}: {p}" for name, problems in run_checks(game) for p in problems]
    assert not failed, f"{game.name} breaks the game contract:\n" + "\n".join(failed)
