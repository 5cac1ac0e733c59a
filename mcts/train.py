"""The actor-learner loop that learns a game's playout policy from self-play.

Each round, rollout workers (this process, local processes, or Ray actors) play self-play
games with MCTS whose playouts use the current weights, and send back their trajectories
(the batch of :mod:`mcts.selfplay`: states, actions, rewards, dones, per-move search targets
and the feature rows of every position). The learner (:mod:`mcts.learn`) fits the weights to
the search targets of the last ``window`` rounds and publishes them (Ray: through its object
store); the workers play the next round with them. The architecture is RLlib's rollout
workers and central learner; the policy is a linear softmax over the game's move features.

A round's games depend only on the seed, the round number and the weights, never on how
they were spread over workers, so a run with a fixed number of rounds gives the same weights
locally and on Ray. Every round ends with a checkpoint (:class:`Checkpoint`, an ``.npz``)
from which ``train`` resumes.
"""
import json
import math
import os
import time
from collections import deque
from dataclasses import asdict, dataclass, field

import numpy as np

from games.contract import game_from_spec, spec_of
from games.rng import split_seed
from mcts.learn import FeatureRows, fit, probabilities
from mcts.selfplay import SelfPlayConfig, merge, run_episodes


@dataclass
class TrainConfig:
    """Settings of a training run.

    playouts: MCTS playouts per move of the self-play games (the search whose visit shares
    are the targets). episodes: games per round, over all workers. temperature: moves are
    drawn with probability proportional to visits ** (1 / temperature) (1: the visit shares),
    so that games differ. target_temperature: the learner's targets are the visit shares
    raised to 1 / target_temperature and renormalised (1: the shares themselves; below 1
    sharper, towards the most visited move, as the expert moves a rollout policy is usually
    fitted to). window: rounds of data the learner fits. steps, learning_rate, l2: the
    learner's (mcts.learn.fit). seed: seeds every game and the learner's data order."""
    playouts: int = 300
    episodes: int = 8
    temperature: float = 1.0
    target_temperature: float = 1.0
    window: int = 4
    steps: int = 200
    learning_rate: float = 0.05
    l2: float = 1e-4
    seed: int = 0

    def __post_init__(self):
        if min(self.playouts, self.episodes, self.window, self.steps) < 1:
            raise ValueError("playouts, episodes, window and steps must be at least 1")
        if not (self.temperature >= 0 and self.learning_rate > 0 and self.l2 >= 0
                and self.target_temperature > 0):
            raise ValueError("temperature and l2 must be >= 0, learning_rate and "
                             "target_temperature > 0")


@dataclass
class Checkpoint:
    """A training run's state after ``rounds`` rounds: the game (``spec``), the settings,
    the weights (float64 (num_features,)), one record per round (``history``: samples,
    seconds, samples per second, loss before and after fitting, top-1 agreement with the
    search) and the learner's data of the last ``config.window`` rounds (``window``: a list
    of mcts.learn.FeatureRows), so that a resumed run goes on exactly as an uninterrupted
    one. Saved as ``.npz`` (:meth:`save`, written atomically) and read by :meth:`load`."""
    spec: dict
    config: TrainConfig
    weights: np.ndarray
    rounds: int = 0
    history: list = field(default_factory=list)
    window: list = field(default_factory=list)

    def save(self, path):
        tmp = f"{path}.{os.getpid()}.tmp.npz"
        meta = {"spec": self.spec, "config": asdict(self.config), "rounds": self.rounds,
                "history": self.history, "game": game_from_spec(self.spec).name}
        rows = FeatureRows.concat(self.window)
        sizes = np.array([len(w.group) for w in self.window], dtype=np.int64)
        np.savez_compressed(tmp, weights=self.weights, meta=np.array(json.dumps(meta)),
                 window_feats=rows.feats, window_group=rows.group, window_target=rows.target,
                 window_sizes=sizes)
        os.replace(tmp, path)

    @staticmethod
    def load(path) -> "Checkpoint":
        """``ValueError`` (one line) for a file that is not a readable checkpoint."""
        bad = ValueError(f"{path}: not a playout-weights file (a checkpoint written by "
                         "`cli.py train`)")
        try:
            with np.load(path, allow_pickle=False) as f:
                if not {"weights", "meta"} <= set(f.files):
                    raise bad
                weights = np.array(f["weights"], dtype=np.float64)
                meta = json.loads(str(f["meta"]))
                window = _split(f["window_feats"], f["window_group"], f["window_target"],
                                f["window_sizes"]) if "window_sizes" in f.files else []
        except (OSError, ValueError, KeyError, EOFError, AttributeError, TypeError):
            raise bad from None
        try:
            return Checkpoint(dict(meta["spec"]), TrainConfig(**meta["config"]), weights,
                              int(meta["rounds"]), list(meta["history"]), window)
        except (TypeError, KeyError, ValueError, AttributeError):
            raise bad from None


def _split(feats, group, target, sizes):
    """The window's rounds back from their concatenation (positions numbered from 0 each)."""
    out, start = [], 0
    for n in sizes:
        g = group[start:start + n]
        out.append(FeatureRows(feats[start:start + n], g - (g[0] if n else 0),
                               target[start:start + n]))
        start += n
    return out


def load_weights(path, game) -> np.ndarray:
    """The weights of a checkpoint for ``game``; ``ValueError`` (one line) if the file is not
    one or was trained for another game."""
    ck = Checkpoint.load(path)
    if not _same_class(ck.spec, type(game)) or ck.weights.shape != (game.num_features,):
        raise ValueError(f"{path}: weights for {ck.spec.get('class')} ({len(ck.weights)} "
                         f"features), not for {game.name} ({game.num_features})")
    return ck.weights


def _same_class(spec, cls) -> bool:
    """True if the game class a checkpoint records is ``cls``, by its qualified name (the
    caller also checks the number of features): not by module, which may have moved since
    the weights were saved (as those shipped in games/weights did)."""
    return spec.get("class") == cls.__qualname__


def rows_of(data) -> FeatureRows:
    """The learner's rows (mcts.learn.FeatureRows) of a self-play batch with features."""
    return FeatureRows(data["feature_ids"], data["feature_plies"].astype(np.int64),
                       data["feature_targets"].astype(np.float64))


def sharpen(rows: FeatureRows, temperature: float) -> FeatureRows:
    """``rows`` with each position's targets raised to ``1 / temperature`` and renormalised
    (the same rows for temperature 1)."""
    if temperature == 1.0 or not len(rows.group):
        return rows
    t = rows.target ** (1.0 / temperature)
    starts = np.flatnonzero(np.r_[True, rows.group[1:] != rows.group[:-1]])
    sizes = np.diff(np.r_[starts, len(t)])
    return FeatureRows(rows.feats, rows.group, t / np.repeat(np.add.reduceat(t, starts), sizes))


def agreement(weights, rows: FeatureRows) -> float:
    """Share of positions where the policy's most likely candidate is the search's most
    visited one (ties broken by the first row)."""
    if not len(rows.group):
        return float("nan")
    p = probabilities(weights, rows)
    starts = np.flatnonzero(np.r_[True, rows.group[1:] != rows.group[:-1]])
    hits = [np.argmax(p[a:b]) == np.argmax(rows.target[a:b])
            for a, b in zip(starts, np.r_[starts[1:], len(p)])]
    return float(np.mean(hits))


class LocalPool:
    """Rollout workers on this machine: ``workers`` spawned processes, kept for the whole run
    (each loads the kernels once), while this process is the learner. (Playing in the
    learner's own process was a quarter slower: its search shares the heap with the
    learner's data.) ``workers`` = 0 plays in this process (for debugging)."""

    def __init__(self, workers):
        self.workers = workers
        self._pool = None
        if workers > 0:
            import multiprocessing
            import sys
            from concurrent.futures import ProcessPoolExecutor
            os.environ.setdefault("PYTHONPATH", os.pathsep.join(p for p in sys.path if p))
            self._pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts,
                                             mp_context=multiprocessing.get_context("spawn"))

    def play(self, spec, cfg, chunks, seed, weights):
        if self._pool is None:
            return [run_episodes(spec, cfg, c, seed, weights) for c in chunks]
        futures = [self._pool.submit(run_episodes, spec, cfg, c, seed, weights) for c in chunks]
        return [f.result() for f in futures]

    def close(self):
        if self._pool is not None:
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                proc.terminate()            # a round cut short by Ctrl-C is not waited for
            self._pool.shutdown(wait=False, cancel_futures=True)


def _ignore_interrupts():
    """Worker processes leave Ctrl-C to the driver (which stops them): no traceback each; and
    a worker whose driver died (killed, not interrupted) exits within a second."""
    import signal
    import threading
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def new_checkpoint(game, config: TrainConfig) -> Checkpoint:
    if not game.num_features:
        raise ValueError(f"{game.name} describes no move features: nothing to learn")
    return Checkpoint(spec_of(game), config, np.zeros(game.num_features))


def train(checkpoint: Checkpoint, out, minutes=None, rounds=None, workers=1, ray_address=None,
          on_round=None):
    """Run rounds from ``checkpoint`` (changed in place, saved to ``out`` after each round)
    until ``minutes`` of wall time have passed (a round that has started is finished) or
    ``rounds`` more rounds are done. ``on_round(checkpoint)`` is called after each.
    KeyboardInterrupt stops between saves: the last checkpoint on disk is complete."""
    cfg = checkpoint.config
    play_cfg = asdict(SelfPlayConfig(policy="mcts", playouts=cfg.playouts,
                                     temperature=cfg.temperature, features=True,
                                     capacity=max(20_000, 50 * cfg.playouts)))
    if ray_address:
        from mcts.ray_workers import RayPool
        pool = RayPool(workers, ray_address)
    else:
        pool = LocalPool(workers)
    window = deque(checkpoint.window, maxlen=cfg.window)
    start = time.perf_counter()
    done = 0
    try:
        while rounds is None or done < rounds:
            if minutes is not None and time.perf_counter() - start >= 60 * minutes:
                break
            r = checkpoint.rounds
            t0 = time.perf_counter()
            chunks = _chunks(cfg.episodes, workers)
            parts = pool.play(checkpoint.spec, play_cfg, chunks, split_seed(cfg.seed, r),
                              checkpoint.weights)
            data = merge(parts)
            played = time.perf_counter() - t0
            fresh = sharpen(rows_of(data), cfg.target_temperature)
            agree = agreement(checkpoint.weights, fresh)
            window.append(fresh)
            weights, before, after = fit(checkpoint.weights, FeatureRows.concat(window),
                                         steps=cfg.steps, learning_rate=cfg.learning_rate,
                                         l2=cfg.l2)
            samples = int(len(data["actions"]))
            checkpoint.weights = weights
            checkpoint.window = list(window)
            checkpoint.rounds = r + 1
            checkpoint.history.append({
                "round": r + 1, "samples": samples, "rows": int(len(fresh.group)),
                "seconds": round(time.perf_counter() - t0, 3),
                "samples_per_second": round(samples / max(played, 1e-9), 2),
                "loss_before": before, "loss_after": after, "agreement": agree})
            checkpoint.save(out)
            done += 1
            if on_round:
                on_round(checkpoint)
    finally:
        pool.close()
    return checkpoint


def _chunks(episodes, workers):
    """Episode numbers split into contiguous chunks, 16 per worker (fewer if fewer games), so
    that a worker that finishes early takes another one; one chunk for one worker."""
    size = math.ceil(episodes / (16 * max(workers, 1))) if workers > 1 else episodes
    return [list(range(i, min(i + size, episodes))) for i in range(0, episodes, size)]
