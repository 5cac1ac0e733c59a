"""Self-play rollouts as training data: episodes of any registered game as numpy arrays.

An episode is a trajectory s0, a0, r0, s1, ..., sT played by one policy for every player:
``"random"`` (the game's compiled playout policy, whole episodes in compiled code) or
``"mcts"`` (this engine's search with a playout budget per move, tree reuse between moves).
:func:`collect` runs episodes in this process, in ``workers`` processes, or on a Ray cluster;
episode ``i`` always uses seed ``split_seed(seed, i)``, so the data depend only on the seed,
not on how the episodes were spread over workers.

Arrays returned (T = total plies, N = episodes, S = state length, A = ``game.num_actions``):

==================  ==================  ====================================================
key                 shape, dtype        meaning
==================  ==================  ====================================================
states              (T, S) game dtype   position before each ply: the game's state array,
                                        as ``game.observation(state)`` (by default the
                                        state; Go: the board and the player to move)
actions             (T,) int32          action played (at a chance ply, the outcome drawn)
players             (T,) int8           player who played it (0 first, 1 second, ...;
                                        -1 (``CHANCE``) for a chance ply: a roll)
rewards             (T, P) float32      reward of each of the game's P players after the
                                        ply, at the episode's last ply (else 0): ``2 r - 1``
                                        for its return r, so +1 win, -1 loss, 0 a
                                        two-player draw (-1/3 each for a three-player
                                        game that nobody won: r = 1/3)
dones               (T,) bool           True at each episode's last ply
policy_targets      (T, A) float32      MCTS: root visit distribution; random: uniform over
                                        the legal actions; at a chance ply the outcomes'
                                        probabilities
values              (T,) float32        MCTS: root value (win probability of the player to
                                        move, draws half); random and chance plies: NaN
lengths             (N,) int32          plies of each episode
episode_starts      (N,) int64          index in T of each episode's first ply
final_states        (N, S) game dtype   position after each episode's last ply (the same
                                        encoding as ``states``)
outcomes            (N,) int8           final status (1 first wins, 2 second wins, 3 draw,
                                        4 ended: see returns; 0 unfinished at max_length)
returns             (N, P) float32      each player's final reward in [0, 1] (the game's
                                        ``returns``: 1 win, 0 loss, draws and ranks between;
                                        0 for an unfinished episode)
seeds               (N,) uint64         the seed of each episode
feature_ids         (R, K) int32        with ``features`` (MCTS, games with
                                        ``move_features``): one row per candidate move of
                                        each position, its feature ids (-1 padding; K =
                                        ``game.feature_slots``)
feature_plies       (R,) int64          the index in T of each row's position
                                        (non-decreasing)
feature_targets     (R,) float32        the root visit share of the row's candidate, over
                                        the position's candidates (positions whose search
                                        put no visit on a candidate, e.g. a pass, get none)
==================  ==================  ====================================================
"""
import math
import os
import sys
from dataclasses import asdict, dataclass

import numpy as np

from games.contract import CHANCE, DRAW, FIRST_WINS, ONGOING, game_from_spec, spec_of
from games.rng import new_rng, split_seed
from mcts import chance

POLICIES = ("random", "mcts")
EPISODE_KEYS = ("states", "actions", "players", "policy_targets", "values")
FEATURE_KEYS = ("feature_ids", "feature_plies", "feature_targets")


@dataclass
class SelfPlayConfig:
    """How episodes are played.

    policy: "random" or "mcts". playouts: MCTS playouts per move. temperature: 0 plays the
    search's choice (most visits, proven wins first); T > 0 samples a move with probability
    proportional to visits ** (1 / T). dirichlet_alpha: > 0 mixes Dirichlet(alpha) noise into
    that move distribution at each root, weight ``dirichlet_fraction`` (as AlphaZero does with
    its priors; UCT has no priors, so the noise acts on the move choice, not on the search).
    features: with MCTS, also record each position's candidate moves, their features and
    their visit shares (the ``feature_*`` arrays: the learner's data, mcts.learn).
    Playout weights (the learned policy) are not part of the config: see
    :meth:`EpisodeRunner.set_weights`.
    """
    policy: str = "random"
    playouts: int = 1000
    temperature: float = 0.0
    dirichlet_alpha: float = 0.0
    dirichlet_fraction: float = 0.25
    capacity: int = 1_000_000
    features: bool = False

    def __post_init__(self):
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {self.policy!r}")
        if self.playouts < 1 or self.temperature < 0 or self.dirichlet_alpha < 0:
            raise ValueError("playouts must be >= 1, temperature and dirichlet_alpha >= 0")


class EpisodeRunner:
    """Plays episodes of one game with one policy; compiles or loads the kernels once."""

    def __init__(self, game, config: SelfPlayConfig, weights=None):
        from mcts.search import MCTS, SearchConfig, load_kernels
        from mcts.tree import new_workspace
        self.game, self.config = game, config
        self.kernels = load_kernels(game, log=None)
        self.work = new_workspace(game)
        self.weights = None
        self.engine = None
        if config.policy == "mcts":
            self.engine = MCTS(game, SearchConfig(capacity=config.capacity), log=None)
        self.set_weights(weights)

    def set_weights(self, weights):
        """Play with the learned playout policy of ``weights`` (float64 (num_features,)), or
        the game's own policy for None; ``ValueError`` if they do not fit the game."""
        from mcts.search import check_weights
        from mcts.tree import set_weights
        check_weights(self.game, weights)
        self.weights = None if weights is None else np.asarray(weights, dtype=np.float64)
        if weights is not None:
            self.work = set_weights(self.game, self.work, self.weights)
        if self.engine is not None:
            self.engine.set_playout_weights(self.weights)

    def episode(self, seed: int) -> dict:
        ep = self._random_episode(seed) if self.config.policy == "random" else \
            self._mcts_episode(seed)
        encode = self.game.observation
        finished = self.game.status(ep["final_state"]) != ONGOING
        ep["returns"] = (self.game.returns(ep["final_state"]) if finished
                         else np.zeros(self.game.num_players))
        final = encode(ep["final_state"])
        ep["states"] = np.stack([encode(s) for s in ep["states"]]) if len(ep["states"]) \
            else np.zeros((0,) + final.shape, dtype=final.dtype)
        ep["final_state"] = final
        return ep

    def _random_episode(self, seed):
        g = self.game
        root = g.initial_state()
        cap = g.max_length
        states = np.zeros((cap + 1, root.shape[0]), dtype=root.dtype)
        actions = np.zeros(cap, dtype=np.int32)
        players = np.zeros(cap, dtype=np.int8)
        mask = np.zeros((cap, g.num_actions), dtype=np.float32)
        n, st = self.kernels.random_episode(root, new_rng(seed), states, actions, players, mask,
                                            self.weights is not None, self.work)
        mask = mask[:n]
        policy = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1.0)
        for i in np.flatnonzero(players[:n] == CHANCE):     # rolls: their probabilities
            outcomes, probs = g.chance_outcomes(states[i])
            policy[i] = 0.0
            policy[i, outcomes] = probs
        return {"states": states[:n], "actions": actions[:n], "players": players[:n],
                "policy_targets": policy, "values": np.full(n, np.nan, dtype=np.float32),
                "final_state": states[n], "outcome": int(st)}

    def _mcts_episode(self, seed):
        g, cfg, engine = self.game, self.config, self.engine
        engine.reseed(seed)
        engine.forget()                           # a new game: no tree to reuse
        rng = np.random.default_rng(seed)
        state = g.initial_state()
        rows = {k: [] for k in ("states", "actions", "players", "policy_targets", "values")}
        feature_rows = []
        while g.status(state) == ONGOING and len(rows["actions"]) < g.max_length:
            if g.is_chance(state):      # a roll: drawn, its probabilities as the target
                outcomes, probs = g.chance_outcomes(state)
                action = chance.draw(g, state, rng)
                pi = np.zeros(g.num_actions, dtype=np.float32)
                pi[outcomes] = probs
                for key, v in (("states", state.copy()), ("actions", action),
                               ("players", CHANCE), ("policy_targets", pi),
                               ("values", np.nan)):
                    rows[key].append(v)
                g.play(state, action)
                engine.advance(action)
                continue
            r = engine.search(state, playouts=cfg.playouts)
            pi = np.zeros(g.num_actions, dtype=np.float32)
            for ch in r.children:
                pi[ch.action] = ch.visits
            total = pi.sum()
            value = sum(ch.visits * ch.value for ch in r.children) / max(total, 1)
            pi /= max(total, 1)
            if total == 0:              # a root proven before the search: its proven move
                pi[r.action], value = 1.0, r.value
            if cfg.features:
                feature_rows.append(self._features(state, pi, len(rows["actions"]), r))
            action = self._choose(r, pi, rng)
            rows["states"].append(state.copy())
            rows["actions"].append(action)
            rows["players"].append(g.to_play(state))
            rows["policy_targets"].append(pi)
            rows["values"].append(value)
            g.play(state, action)
            engine.advance(action)
        st = g.status(state)
        dtypes = {"actions": np.int32, "players": np.int8, "policy_targets": np.float32,
                  "values": np.float32}
        out = {k: np.array(v, dtype=dtypes.get(k, state.dtype)) for k, v in rows.items()}
        if not rows["states"]:
            out["states"] = np.zeros((0, state.shape[0]), dtype=state.dtype)
        out.update(final_state=state, outcome=int(st))
        if cfg.features:
            out.update(_stack_features(feature_rows, max(g.feature_slots, 1)))
        return out

    def _features(self, state, pi, ply, result):
        """The feature rows of ``state``: candidates, feature ids and the search's visit
        shares ``pi`` (all on the winning move when ``result`` proves a win)."""
        from mcts.results import Proof
        w = self.work
        n = int(self.kernels.move_features(state, w.cand, w.feats))
        share = pi[w.cand[:n]].astype(np.float64)
        if result.proof is Proof.WIN:
            share = (w.cand[:n] == result.action).astype(np.float64)
        if n == 0 or share.sum() <= 0:
            return None
        ids = w.feats[:n].copy()
        ids[np.cumsum(ids < 0, axis=1) > 0] = -1   # the kernel leaves stale ids after a -1
        return ids, np.full(n, ply, dtype=np.int64), (share / share.sum()).astype(np.float32)

    def _choose(self, result, pi, rng):
        cfg = self.config
        if cfg.temperature == 0 and cfg.dirichlet_alpha == 0:
            return result.action
        from mcts.results import Proof
        # The moves the search looked at, less those it proved lost (the solver's proofs
        # leave a lost move unvisited): the noise explores among them.
        kids = [ch for ch in result.children if ch.visits > 0 and ch.proof is not Proof.LOSS] \
            or [ch for ch in result.children if ch.visits > 0] or result.children
        legal = np.array([ch.action for ch in kids])
        p = pi[legal].astype(np.float64)
        if p.sum() <= 0:
            p[:] = 1.0
        if cfg.temperature > 0:
            p = p ** (1.0 / cfg.temperature)
        else:
            p = (p == p.max()).astype(np.float64)
        p /= p.sum()
        if cfg.dirichlet_alpha > 0:
            noise = rng.dirichlet([cfg.dirichlet_alpha] * len(legal))
            p = (1 - cfg.dirichlet_fraction) * p + cfg.dirichlet_fraction * noise
        return int(rng.choice(legal, p=p / p.sum()))


def _stack_features(rows, slots):
    rows = [r for r in rows if r is not None]
    if not rows:
        return {"feature_ids": np.zeros((0, slots), np.int32),
                "feature_plies": np.zeros(0, np.int64), "feature_targets": np.zeros(0, np.float32)}
    return {"feature_ids": np.concatenate([r[0] for r in rows]),
            "feature_plies": np.concatenate([r[1] for r in rows]),
            "feature_targets": np.concatenate([r[2] for r in rows])}


def episode_seed(seed: int, index: int) -> int:
    return split_seed(seed, index) & ((1 << 63) - 1)


def run_episodes(spec, config_dict, indices, seed, weights=None):
    """Worker entry point: play episodes ``indices`` of the game ``spec`` (with the learned
    playout ``weights``, if given); their arrays."""
    runner = _runner(spec, config_dict)
    runner.set_weights(weights)
    eps = [runner.episode(episode_seed(seed, i)) for i in indices]
    return assemble(runner.game, eps, [episode_seed(seed, i) for i in indices])


_RUNNERS = {}


def _key(spec, config_dict):
    return repr(spec), repr(sorted(config_dict.items()))


def _runner(spec, config_dict):
    key = _key(spec, config_dict)
    if key not in _RUNNERS:
        _RUNNERS[key] = EpisodeRunner(game_from_spec(spec), SelfPlayConfig(**config_dict))
    return _RUNNERS[key]


def collect(game, episodes: int, config: SelfPlayConfig = None, seed: int = 0,
            workers: int = 1, ray_address: str = None, on_episodes=None, weights=None) -> dict:
    """Play ``episodes`` episodes and return the arrays described in the module docstring.

    workers: processes on this machine (1: in this process); with ``ray_address`` ("auto" or
    a cluster address) they are Ray actors instead. ``weights``: the playouts' learned policy
    (float64 (num_features,)), None for the game's own. ``on_episodes(part)`` is called with the
    arrays of each chunk of episodes as it arrives (for progress bars). Raises ``ValueError`` for bad settings and
    ``ImportError`` if Ray is asked for but not installed."""
    config = config or SelfPlayConfig()
    if episodes < 1 or workers < 1:
        raise ValueError("episodes and workers must be at least 1")
    spec, cfg = spec_of(game), asdict(config)
    chunks = _chunks(episodes, workers, 64 if config.policy == "mcts" else 4096)
    if ray_address:
        from mcts.ray_workers import run_on_ray
        parts = run_on_ray(spec, cfg, chunks, seed, workers, ray_address, on_episodes, weights)
    elif workers == 1:
        runner = EpisodeRunner(game, config, weights)
        _RUNNERS[_key(spec, cfg)] = runner
        parts = []
        for chunk in chunks:
            parts.append(run_episodes(spec, cfg, chunk, seed, weights))
            if on_episodes:
                on_episodes(parts[-1])
    else:
        parts = _run_processes(spec, cfg, chunks, seed, workers, on_episodes, weights)
    return merge(parts)


def _chunks(episodes, workers, largest):
    size = max(1, min(largest, math.ceil(episodes / (4 * workers))))
    return [list(range(i, min(i + size, episodes))) for i in range(0, episodes, size)]


def _run_processes(spec, cfg, chunks, seed, workers, on_episodes, weights=None):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    ctx = multiprocessing.get_context("spawn")     # no fork of a process that has threads
    os.environ.setdefault("PYTHONPATH", os.pathsep.join(p for p in sys.path if p))
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futures = [pool.submit(run_episodes, spec, cfg, chunk, seed, weights)
                   for chunk in chunks]
        parts = []
        for f in futures:                           # in episode order
            parts.append(f.result())
            if on_episodes:
                on_episodes(parts[-1])
    return parts


def assemble(game, eps, seeds) -> dict:
    """Concatenate per-episode dicts into the arrays of the module docstring."""
    lengths = np.array([len(e["actions"]) for e in eps], dtype=np.int32)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    total = int(lengths.sum())
    data = {k: np.concatenate([e[k] for e in eps]) for k in EPISODE_KEYS}
    if eps and "feature_ids" in eps[0]:
        data.update({k: np.concatenate([e[k] for e in eps]) for k in FEATURE_KEYS})
        data["feature_plies"] = np.concatenate([e["feature_plies"] + s
                                                for e, s in zip(eps, starts)])
    outcomes = np.array([e["outcome"] for e in eps], dtype=np.int8)
    returns = np.array([e["returns"] for e in eps], dtype=np.float32).reshape(
        len(eps), game.num_players)
    rewards = np.zeros((total, game.num_players), dtype=np.float32)
    dones = np.zeros(total, dtype=bool)
    for start, n, st, ret in zip(starts, lengths, outcomes, returns):
        if n:
            dones[start + n - 1] = True
            if st != ONGOING:
                rewards[start + n - 1] = 2.0 * ret - 1.0
    data.update(rewards=rewards, dones=dones, lengths=lengths, episode_starts=starts,
                returns=returns,
                final_states=np.stack([e["final_state"] for e in eps]), outcomes=outcomes,
                seeds=np.array(seeds, dtype=np.uint64))
    return data


def merge(parts) -> dict:
    """Concatenate the arrays of consecutive chunks of episodes."""
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    offsets = np.cumsum([0] + [int(p["lengths"].sum()) for p in parts[:-1]])
    data["episode_starts"] = np.concatenate([p["episode_starts"] + o
                                             for p, o in zip(parts, offsets)])
    if "feature_plies" in data:
        data["feature_plies"] = np.concatenate([p["feature_plies"] + o
                                                for p, o in zip(parts, offsets)])
    return data


def final_rewards(status: int):
    """(reward of player 0, reward of player 1) for a final status: +1, -1 or 0."""
    if status == DRAW:
        return (0.0, 0.0)
    if status == FIRST_WINS:
        return (1.0, -1.0)
    if status == FIRST_WINS + 1:
        return (-1.0, 1.0)
    return (0.0, 0.0)          # unfinished (move cap of the recorder)


def summary(data) -> dict:
    """Wins per player (``wins``: a list, a player's return alone at the top;
    ``first_wins`` and ``second_wins`` its first two), draws (every return equal) and
    episode lengths of collected data."""
    out = data["outcomes"]
    ret = data["returns"] if "returns" in data else None
    if ret is None or not len(ret):
        wins = [int((out == FIRST_WINS).sum()), int((out == FIRST_WINS + 1).sum())]
        draws = int((out == DRAW).sum())
    else:
        finished = out != ONGOING
        top = ret == ret.max(axis=1, keepdims=True)
        alone = finished & (top.sum(axis=1) == 1)
        wins = [int((alone & top[:, p]).sum()) for p in range(ret.shape[1])]
        draws = int((finished & top.all(axis=1)).sum())
    return {"episodes": int(len(out)), "wins": wins, "first_wins": wins[0],
            "second_wins": wins[1] if len(wins) > 1 else 0, "draws": draws,
            "mean_length": float(data["lengths"].mean()) if len(out) else 0.0,
            "plies": int(data["lengths"].sum())}


def save_npz(path, data):
    """Write collected data as a compressed ``.npz`` with the keys of the module docstring."""
    np.savez_compressed(path, **data)


def load_npz(path) -> dict:
    with np.load(path) as f:
        return {k: f[k] for k in f.files}
