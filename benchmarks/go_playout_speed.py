"""Random playouts per second of games.go's rollout from the empty board (single thread).

Usage: PYTHONPATH=. python benchmarks/go_playout_speed.py [size ...] [--seconds S]
"""
import argparse
import time

import numpy as np

from games.go import Go, rollout
from mcts.rng import new_rng


def rate(size, seconds):
    game = Go(size=size)
    root = game.initial_state()
    rng = new_rng(1)
    s = root.copy()
    rollout(s, rng)                      # compile / load from cache
    n, moves, wins = 0, 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(200):
            s[:] = root
            wins += rollout(s, rng) == 1
            moves += int(s[4])
        n += 200
    dt = time.perf_counter() - t0
    return n / dt, moves / n, wins / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", nargs="*", type=int, default=[9, 19])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    for size in args.sizes:
        r, m, b = rate(size, args.seconds)
        print(f"{size}x{size}: {r:,.0f} playouts/s, {m:.1f} moves per game, "
              f"Black wins {100 * b:.1f} % (komi 7.5)")


if __name__ == "__main__":
    main()
