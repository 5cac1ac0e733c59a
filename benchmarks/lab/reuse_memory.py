"""Tree reuse over a long self-play game: nodes kept, nodes in use and process memory per move.

    python -m benchmarks.lab.reuse_memory [--size 19] [--moves 300] [--playouts 2000]

Each move the engine searches, plays its choice and re-roots the tree below it
(``MCTS.advance``): the nodes of the other branches are reclaimed, so the nodes in use stay
bounded by one search's growth plus the kept subtree, and the resident memory stays flat.
"""
import argparse
import resource

import games
from mcts import MCTS, SearchConfig


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2 ** 20


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--moves", type=int, default=300)
    p.add_argument("--playouts", type=int, default=2000)
    p.add_argument("--every", type=int, default=25)
    args = p.parse_args(argv)
    game = games.get("go", size=args.size)
    engine = MCTS(game, SearchConfig(seed=1, threads=1), log=None)
    state = game.initial_state()
    print(f"go {args.size}x{args.size}, {args.playouts} playouts per move, capacity "
          f"{engine.tree.capacity:,} nodes")
    print(f"{'move':>5} {'kept':>9} {'in use':>9} {'RSS MB':>8}")
    for move in range(1, args.moves + 1):
        if game.status(state) != 0:
            print(f"game over at move {move - 1}: {game.summary(state)}")
            break
        r = engine.search(state, playouts=args.playouts)
        game.play(state, r.action)
        engine.advance(r.action)
        if move % args.every == 0 or move == 1:
            print(f"{move:>5} {r.reused:>9,} {r.nodes:>9,} {rss_mb():>8.0f}", flush=True)


if __name__ == "__main__":
    main()
