"""Random Go playouts per second (the ``rollout`` kernel of games.go.kernels), single thread,
whole games from the empty board to two passes, komi 7.5.

    PYTHONPATH=. python benchmarks/go_playout_speed.py [size ...] [--seconds S]
"""
import argparse
import time

from games.contract import FIRST_WINS
from games.go.kernels import ply, rollout
from games.go import Go
from games.rng import new_rng


def measure(size, seconds):
    """(playouts per second, moves per playout, Black's win rate) over ``seconds``."""
    root = Go(size=size).initial_state()
    rng = new_rng(1)
    state = root.copy()
    rollout(state, rng)                       # compile, or load from numba's cache
    games = moves = black_wins = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(100):
            state[:] = root
            black_wins += rollout(state, rng) == FIRST_WINS
            moves += ply(state)
        games += 100
    elapsed = time.perf_counter() - t0
    return games / elapsed, moves / games, black_wins / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[9, 19])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for size in args.sizes:
        rate, length, black = measure(size, args.seconds)
        print(f"{size}x{size}: {rate:,.0f} playouts/s, {length:.1f} moves per playout, "
              f"Black wins {100 * black:.1f} %")


if __name__ == "__main__":
    main()
