"""Self-play workers as Ray actors (optional: ``pip install -e '.[ray]'``).

Each actor builds the game and its policy once (compiling or loading the numba kernels once)
and then plays many chunks of episodes; the driver sends the game, the policy settings and the
episode numbers, and gathers the trajectories as numpy arrays (Ray ships them zero-copy
through its object store).

``address="auto"`` connects to a running cluster (``ray start --head`` on this machine) and,
if there is none, starts a local one. On a multi-machine cluster, start the head with
``ray start --head`` and each other machine with ``ray start --address HEAD_IP:6379``, after
installing this package on every machine (the same version), then run
``python cli.py selfplay GAME --ray auto`` on the head.
"""
import os
import sys


def connect(address):
    """Connect to the Ray cluster at ``address`` ("auto": a running one, else a new local one)."""
    import ray
    if ray.is_initialized():
        return ray
    env = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}
    if address == "auto":
        try:
            ray.init(address="auto", runtime_env=env, log_to_driver=False)
        except (ConnectionError, RuntimeError):
            ray.init(runtime_env=env, log_to_driver=False)
    else:
        ray.init(address=address, runtime_env=env, log_to_driver=False)
    return ray


def _actor_class(ray):
    @ray.remote(num_cpus=1)
    class SelfPlayWorker:
        def run(self, spec, cfg, indices, seed, weights=None):
            from mcts.selfplay import run_episodes
            return run_episodes(spec, cfg, indices, seed, weights)
    return SelfPlayWorker


def run_on_ray(spec, cfg, chunks, seed, workers, address, on_episodes=None, weights=None):
    """Play ``chunks`` (lists of episode numbers) on ``workers`` Ray actors; parts in order."""
    ray = connect(address)
    actors = [_actor_class(ray).remote() for _ in range(workers)]
    weights_ref = ray.put(weights)
    pending = {}
    for i, chunk in enumerate(chunks):
        ref = actors[i % workers].run.remote(spec, cfg, chunk, seed, weights_ref)
        pending[ref] = i
    parts = [None] * len(chunks)
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            i = pending.pop(ref)
            parts[i] = ray.get(ref)
            if on_episodes:
                on_episodes(parts[i])
    for a in actors:
        ray.kill(a)
    return parts


class RayPool:
    """Rollout workers for :mod:`mcts.train`: ``workers`` Ray actors kept for the whole run
    (each loads the kernels once); the weights of a round go to the object store once and
    every actor reads them from there."""

    def __init__(self, workers, address):
        self.ray = connect(address)
        self.actors = [_actor_class(self.ray).remote() for _ in range(workers)]

    def play(self, spec, cfg, chunks, seed, weights):
        ref = self.ray.put(weights)
        refs = [self.actors[i % len(self.actors)].run.remote(spec, cfg, chunk, seed, ref)
                for i, chunk in enumerate(chunks)]
        return self.ray.get(refs)

    def close(self):
        for a in self.actors:
            self.ray.kill(a)
