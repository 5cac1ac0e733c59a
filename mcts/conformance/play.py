"""Checks by play: seeded random games, refused moves, determinism."""

import numpy as np

from games.contract import CHANCE, ENDED, ILLEGAL, ONGOING, RESULTS
from games.rng import draw_outcome, new_rng
from mcts.conformance.common import (CHECKED_GAMES, MAX_ACTIONS_PER_PLY, _needs_generated_loop,
                                     _Problems, RANDOM_GAMES, _spread, STATUSES)


def _random_game(game, seed, problems, check_each=True):
    """Play one seeded game with the playout policy; return its actions, checking as it goes
    (every legal move of each ply too when ``check_each``). Problems go to ``problems``."""
    k = game.kernels
    rng, state = new_rng(seed), game.initial_state()
    shape, dtype = state.shape, state.dtype
    buf = np.empty(2 * game.num_actions + 64, dtype=np.int32)   # room to catch overflows
    strict = _needs_generated_loop(game)
    actions = []
    while int(k.status(state)) == ONGOING:
        where = f"in the game with seed {seed}, ply {len(actions) + 1}"
        if len(actions) >= game.max_length:
            problems.add("max_length", f"max_length: the game with seed {seed} has not ended "
                         f"after max_length = {game.max_length} plies: set max_length to the "
                         "longest possible game (the search sizes its buffers by it)")
            return actions
        player = int(k.to_play(state))
        if player == CHANCE and game.chance:
            a = _chance_step(game, state, rng, where, problems, check_each)
            if a is None:
                return actions
            actions.append(a)
            continue
        if not 0 <= player < game.num_players:
            chance = " (CHANCE, -1, only in a game that sets chance = True)" \
                if player == CHANCE else ""
            problems.add("to_play", f"to_play returned {player}{chance} ({where}): it must "
                         f"return a player from 0 to num_players - 1 = {game.num_players - 1}")
            return actions
        n = int(k.legal_actions(state, buf))
        if n > game.num_actions:
            problems.add("legal overflow", f"legal_actions wrote {n} actions ({where}), more "
                         f"than num_actions = {game.num_actions}: the search's buffer holds "
                         "num_actions; list each legal action once")
            return actions
        if n == 0:
            problems.add("no legal", f"legal_actions gave no action in an unfinished game "
                         f"({where}): status must end the game there, or the game needs a pass")
            return actions
        legal = [int(a) for a in buf[:n]]
        bad = [a for a in legal if not 0 <= a < game.num_actions]
        if bad:
            problems.add("legal range", f"legal_actions gave {bad[:5]} ({where}), outside "
                         f"[0, {game.num_actions}): actions are ints in [0, num_actions)")
            return actions
        if check_each:
            _check_moves(game, state, _spread(legal, MAX_ACTIONS_PER_PLY), where, problems,
                         shape, dtype)
        before = state.copy()
        a = int(k.playout_action(state, rng))
        if not np.array_equal(state, before):
            problems.add("policy writes", f"playout_action changed the state ({where}): it must "
                         "only choose a move; the search applies it with apply_action")
            return actions
        legal_set = set(legal)
        if a not in legal_set:
            problems.add("policy illegal", f"playout_action chose {a} ({where}), which "
                         f"legal_actions does not list ({legal[:10]}{'...' if n > 10 else ''}): "
                         "it must choose one of the legal actions")
            return actions
        if int(k.apply_action(state, a)) == ILLEGAL:
            if strict:
                problems.add("policy refused", f"apply_action refused {a}, the playout "
                             f"policy's move ({where}): the generated rollout would end the "
                             "playout with ILLEGAL; playout_action must choose a move "
                             "apply_action accepts (or write rollout and rollout_record)")
                return actions
            # Allowed (e.g. superko): the game's own rollouts decide; go on with a legal move.
            for b in legal:
                if int(k.apply_action(state, b)) != ILLEGAL:
                    a = b
                    break
            else:
                problems.add("all refused", f"apply_action refuses every action legal_actions "
                             f"lists ({where}): legal_actions must list the legal moves")
                return actions
        actions.append(a)
    st = int(k.status(state))
    if st not in RESULTS:
        problems.add("final status", f"status returned {st} at the end of the game with seed "
                     f"{seed}: it must be ONGOING, FIRST_WINS, SECOND_WINS, DRAW or ENDED")
    elif st == ENDED and not hasattr(k, "returns"):
        problems.add("returns", f"status returned ENDED (game with seed {seed}) but the game "
                     "has no returns kernel to say who won: write returns(state, out)")
    else:
        _check_returns(game, state, seed, problems)
    if int(k.legal_actions(state, buf)) != 0:
        problems.add("legal after end", f"legal_actions is not empty after the end of the game "
                     f"with seed {seed}: it must give no action once status is not ONGOING")
    last = actions[-1] if actions else 0
    if int(k.apply_action(state.copy(), last)) != ILLEGAL:
        problems.add("accepted after end", f"apply_action accepted {last} after the end of the "
                     f"game with seed {seed}: it must refuse every move once the game is over")
    return actions


def _chance_step(game, state, rng, where, problems, check_each):
    """At a chance position: check ``chance_outcomes`` (outcomes in range and distinct,
    probabilities that sum to 1), and with ``check_each`` their notation; apply an outcome
    drawn by probability. Returns it, or None after a problem."""
    k = game.kernels
    size = 2 * game.num_actions + 64
    acts, probs = np.empty(size, dtype=np.int32), np.empty(size, dtype=np.float64)
    if not hasattr(k, "chance_outcomes"):
        problems.add("no chance_outcomes", "the game sets chance = True and to_play returned "
                     "CHANCE, but the kernel module has no chance_outcomes(state, actions, "
                     "probs): write it")
        return None
    n = int(k.chance_outcomes(state, acts, probs))
    outs, ps = [int(a) for a in acts[:max(n, 0)]], probs[:max(n, 0)]
    if not 1 <= n <= game.num_actions or len(set(outs)) != n \
            or any(not 0 <= a < game.num_actions for a in outs):
        problems.add("outcomes", f"chance_outcomes gave {n} outcomes {outs[:8]} ({where}): it "
                     f"must give at least one, each a distinct action in [0, {game.num_actions})")
        return None
    if (ps < 0).any() or not np.isfinite(ps).all() or abs(float(ps.sum()) - 1.0) > 1e-9:
        problems.add("probabilities", f"chance_outcomes' probabilities {ps[:8].tolist()} "
                     f"({where}) must be finite, non-negative and sum to 1 (they sum to "
                     f"{float(ps.sum())!r})")
        return None
    if check_each:
        _check_moves(game, state, outs, where, problems, state.shape, state.dtype)
    a = int(draw_outcome(rng, acts, probs, n))
    if int(k.apply_action(state, a)) == ILLEGAL:
        problems.add("outcome refused", f"apply_action refused the chance outcome {a} "
                     f"({where}): every outcome chance_outcomes lists must apply")
        return None
    return a


def _check_returns(game, state, seed, problems):
    """The final rewards: finite, in [0, 1], one per player."""
    try:
        r = game.returns(state)
    except Exception as e:
        problems.add("returns raised", f"returns raised {type(e).__name__}: {e} at the end of "
                     f"the game with seed {seed}")
        return
    if r.shape != (game.num_players,) or not np.isfinite(r).all() or (r < 0).any() \
            or (r > 1).any():
        problems.add("returns", f"returns gave {r.tolist()} at the end of the game with seed "
                     f"{seed}: it must write a reward in [0, 1] for each of the "
                     f"{game.num_players} players")


def _check_moves(game, state, legal, where, problems, shape, dtype):
    """Each of the ``legal`` actions of ``state``: a status from apply_action, and notation
    that round-trips through format_move and parse_move."""
    k = game.kernels
    for a in legal:
        after = state.copy()
        st = int(k.apply_action(after, a))
        if st not in STATUSES and st != ILLEGAL:
            problems.add("apply status", f"apply_action({a}) returned {st} ({where}): it must "
                         "return the new status (0-3) or ILLEGAL (-1)")
        if after.shape != shape or after.dtype != dtype:
            problems.add("state shape", f"apply_action({a}) changed the state's shape or dtype "
                         f"to {after.shape} {after.dtype} ({where}): states keep the shape and "
                         "dtype of initial_state()")
        try:
            text = game.format_move(a, state)
        except Exception as e:
            problems.add("format_move raised", f"format_move({a}) raised {type(e).__name__}: "
                         f"{e} ({where}): it must give the notation of every action in "
                         "[0, num_actions)")
            continue
        if not isinstance(text, str):
            problems.add("format_move type", f"format_move({a}) returned {text!r} ({where}), "
                         "not a string")
            continue
        if st == ILLEGAL:          # listed but refused (e.g. superko): nothing to parse back
            continue
        try:
            back = game.parse_move(text, state)
        except ValueError as e:
            problems.add("notation", f"format_move({a}) gives {text!r}, which parse_move "
                         f"refuses ({where}: {e}): parse_move must accept the notation of "
                         "every legal move")
            continue
        except Exception as e:
            problems.add("parse_move raised", f"parse_move({text!r}) raised "
                         f"{type(e).__name__}: {e} ({where}): it must return the action, or "
                         "raise ValueError for a move that is malformed or illegal")
            continue
        if back != a:
            problems.add("notation", f"format_move({a}) gives {text!r}, which parse_move "
                         f"reads as {back} ({where}): parse_move must invert format_move")


def check_random_games(game, games=RANDOM_GAMES, seed=0):
    problems = _Problems()
    for i in range(games):
        actions = _random_game(game, seed + i, problems, check_each=i < CHECKED_GAMES)
        if i < CHECKED_GAMES and not problems.messages():
            _check_record(game, actions, seed + i, problems)
    return problems.messages()


def _check_record(game, actions, seed, problems):
    """The game's record of ``actions`` (``format_move`` of each, ``format_record``) reads
    back as the same moves with ``parse_record`` and replays with ``play_record`` (as
    ``analyze --moves`` and ``play``'s printed records need)."""
    state, moves = game.initial_state(), []
    for a in actions:
        moves.append(game.format_move(a, state))
        game.kernels.apply_action(state, a)
    record = game.format_record(moves)
    back = game.parse_record(record)
    if back != moves:
        i = next((j for j, (x, y) in enumerate(zip(back, moves)) if x != y),
                 min(len(back), len(moves)))
        problems.add("record", f"the record of the game with seed {seed} does not read back: "
                     f"format_record joins move {i + 1} {moves[i] if i < len(moves) else None!r}"
                     f" but parse_record gives {back[i] if i < len(back) else None!r}: choose a "
                     "record_separator that no move contains, or override parse_record")
        return
    try:
        replayed, _ = game.play_record(record)
    except ValueError as e:
        problems.add("record", f"the record of the game with seed {seed} does not replay "
                     f"with play_record: {e}")
        return
    if not np.array_equal(replayed, state):
        problems.add("record", f"the record of the game with seed {seed} replays to another "
                     "position: parse_move must read each move as format_move wrote it")


def _positions(game, seeds):
    """[(description, state)]: the initial position, then from the seeded random game of each
    of ``seeds`` its position after a third of its moves, after two thirds and at its end."""
    k = game.kernels
    out = [("the initial position", game.initial_state())]
    for seed in seeds:
        actions = _random_game(game, seed, _Problems(), check_each=False)
        n = len(actions)
        state, done = game.initial_state(), 0
        for ply in sorted({n // 3, (2 * n) // 3, n} - {0}):
            for a in actions[done:ply]:
                k.apply_action(state, a)
            done = ply
            out.append((f"the position after {ply} seeded random moves (seed {seed})",
                        state.copy()))
    return out


def check_refusals(game, seeds=(0, 1)):
    """Every action apply_action refuses leaves the state byte for byte unchanged; a
    finished game accepts nothing; every accepted action is listed by legal_actions."""
    k, problems = game.kernels, _Problems()
    buf = np.empty(2 * game.num_actions + 64, dtype=np.int32)
    for where, state in _positions(game, seeds):
        before = state.tobytes()
        over = int(k.status(state)) != ONGOING
        if not over and game.is_chance(state):
            listed = set(game.chance_outcomes(state)[0].tolist())
        else:
            listed = set(int(a) for a in buf[:int(k.legal_actions(state.copy(), buf))])
        for a in [*range(game.num_actions), -1, game.num_actions]:
            after = state.copy()
            st = int(k.apply_action(after, a))
            if st == ILLEGAL:
                if after.tobytes() != before:
                    i = int(np.flatnonzero(after != state)[0]) if (after != state).any() else 0
                    problems.add("changed", f"apply_action({a}) refused the move but changed "
                                 f"the state (first at index {i}: {state[i]} became {after[i]}) "
                                 f"at {where}: when it returns ILLEGAL it must leave the state "
                                 "unchanged (check every rule before writing)")
            elif over:
                problems.add("after end", f"apply_action accepted {a} at {where}, after the "
                             "end of the game: it must refuse every move once the game is over")
            elif not 0 <= a < game.num_actions:
                problems.add("range", f"apply_action accepted {a} at {where}, outside "
                             f"[0, {game.num_actions}): it must refuse actions out of range")
            elif a not in listed:
                problems.add("unlisted", f"apply_action accepted {a} at {where}, but "
                             "legal_actions does not list it: legal_actions must list every "
                             "move apply_action accepts")
    return problems.messages()


def check_determinism(game, seed=7):
    problems = _Problems()
    a = _random_game(game, seed, problems, check_each=False)
    b = _random_game(game, seed, problems, check_each=False)
    if a != b:
        return [f"playout_action: the same seed ({seed}) gave two different games: {a[:10]}... "
                f"and {b[:10]}...: draw random numbers only from the rng argument"]
    return []
