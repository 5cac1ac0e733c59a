import time
from games.go import Go
from mcts import MCTS, SearchConfig
g = Go(size=19); s = g.initial_state()
for rep in range(3):
    for on in (False, True):
        e = MCTS(g, SearchConfig(seed=rep, threads=1, ownership=on), log=None)
        t = time.perf_counter(); r = e.search(s, playouts=4000); dt = time.perf_counter() - t
        print(on, round(dt, 3), r.playouts, r.ownership_playouts, r.nodes)
