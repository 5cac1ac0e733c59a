"""The fast learned Go playout (games.go.learned): its incremental gammas against a
recomputation after every move, its static part against the exact model's features
(games.go.features.move_features), a tactical feature's effect, and reproducibility."""
import numpy as np

from games.contract import ONGOING
from games.go import Go, board as gb, kernels as go
from games.go import learned as gl
from games.go.features import F_CAPTURE_LAST, F_LINE, F_PATTERN, NUM_FEATURES, move_features
from games.go.playout import finish_move
from games.rng import new_rng

WEIGHTS = np.random.default_rng(7).normal(0.0, 0.7, NUM_FEATURES)


def gammas(tab):
    """The gamma block and the row sums of ``tab`` (copies)."""
    return (tab[gl.T_GAM:gl.T_GAM + 2 * gb.MAX_PADDED].copy(),
            tab[gl.T_ROWS:gl.T_ROWS + 2 * (gb.MAX_SIZE + 2)].copy())


def step_game(size, seed, check):
    """Play one learned playout move by move, calling ``check(state, tab)`` after each."""
    s = Go(size).initial_state()
    w = size + 2
    tab = gl.fill_table(WEIGHTS, size)
    gb.enable_pat3(s, w)
    gl.init_gammas(s, w, tab)
    x = new_rng(seed)[0]
    last = prev = gb.NO_POINT
    while s[gb.F_STATUS] == ONGOING:
        c = int(s[gb.F_TOMOVE]) + 1
        p, x = gl.learned_move(s, w, tab, c, last, prev, np.uint64(x))
        if p == gb.NO_POINT:
            s[gb.F_PASSES] += 1
            s[gb.F_KO] = gb.NO_POINT
            action = size * size
        else:
            gl.play_learned(s, w, tab, p, c)
            s[gb.F_PASSES] = 0
            action = (p // w - 1) * size + p % w - 1
        prev, last = last, p
        finish_move(s, action)
        check(s, tab)
    return s


def test_incremental_gammas_match_a_recomputation():
    def check(s, tab):
        got_g, got_r = gammas(tab)
        fresh = tab.copy()
        gl.init_gammas(s, int(s[gb.F_SIZE]) + 2, fresh)
        want_g, want_r = gammas(fresh)
        assert np.array_equal(got_g, want_g)
        assert np.allclose(got_r, want_r, rtol=1e-9, atol=1e-9)
    for size, seed in ((9, 1), (9, 2), (13, 3), (19, 4)):
        s = step_game(size, seed, check)
        assert s[gb.F_MOVES] > size * size // 2 and s[gb.F_CAPS_B] + s[gb.F_CAPS_W] > 0


def test_static_gamma_is_the_exact_models_line_and_pattern():
    g = Go(9)
    s = g.initial_state()
    rng = new_rng(5)
    for _ in range(25):
        go.apply_action(s, go.playout_action(s, rng))
    w = 11
    tab = gl.fill_table(WEIGHTS, 9)
    gb.enable_pat3(s, w)
    gl.init_gammas(s, w, tab)
    cand = np.empty(82, dtype=np.int32)
    feats = np.full((82, 8), -1, dtype=np.int32)
    n = move_features(s, cand, feats)
    c = int(s[gb.F_TOMOVE]) + 1
    assert n > 20
    for i in range(n):
        static = [f for f in feats[i] if f >= F_LINE]            # line and 3x3 class
        assert any(f >= F_PATTERN for f in static)
        p = (cand[i] // 9 + 1) * w + cand[i] % 9 + 1
        got = tab[gl.T_GAM + (c - 1) * gb.MAX_PADDED + p]
        assert np.isclose(got, np.exp(WEIGHTS[static].sum()), rtol=1e-12)


def test_a_heavy_capture_weight_takes_the_last_move():
    g = Go(9)
    s = g.initial_state()
    # White E5 in atari after its move: Black D5, F5, E6 surround it; E4 captures.
    g.set_up(s, black=[g.vertex_to_action(v) for v in ("D5", "F5", "E6")],
             white=[g.vertex_to_action("A1")], next_player=1)
    go.apply_action(s, g.vertex_to_action("E5"))               # White plays into atari
    weights = np.zeros(NUM_FEATURES)
    weights[F_CAPTURE_LAST] = 30.0
    tab = gl.fill_table(weights, 9)
    w = 11
    gb.enable_pat3(s, w)
    gl.init_gammas(s, w, tab)
    last = gl_point(g, "E5")
    for seed in range(1, 21):
        p, _ = gl.learned_move(s, w, tab, gb.BLACK, last, gb.NO_POINT, new_rng(seed)[0])
        assert p == gl_point(g, "E4")
    weights[F_CAPTURE_LAST] = 0.0                               # without it: anywhere
    tab = gl.fill_table(weights, 9)
    gl.init_gammas(s, w, tab)
    moves = {gl.learned_move(s, w, tab, gb.BLACK, last, gb.NO_POINT, new_rng(seed)[0])[0]
             for seed in range(1, 21)}
    assert len(moves) > 10


def gl_point(g, vertex):
    """The padded point of ``vertex`` on 9x9."""
    a = g.vertex_to_action(vertex)
    return (a // 9 + 1) * 11 + a % 9 + 1


def test_same_seed_same_playout_and_a_final_result():
    finals = []
    for _ in range(2):
        s = Go(9).initial_state()
        tab = gl.fill_table(WEIGHTS, 9)
        seq_a = np.empty(300, dtype=np.int32)
        seq_p = np.empty(300, dtype=np.int8)
        st, m = gl.learned_rollout(s, new_rng(11), tab, True, seq_a, seq_p)
        assert st != ONGOING and m == s[gb.F_MOVES] > 40
        assert set(seq_p[:m].tolist()) == {0, 1}
        finals.append((st, s.copy(), seq_a[:m].copy()))
    assert finals[0][0] == finals[1][0]
    assert np.array_equal(finals[0][1], finals[1][1]) and np.array_equal(finals[0][2], finals[1][2])


def test_the_search_plays_the_fast_kernel_with_weights():
    """With playout weights, the compiled search's learned playouts are the game's
    ``learned_rollout`` on ``Game.playout_table``: the template's benchmark loop and the
    kernel's own give the same plies for the same seed; a search that receives the weights
    later (``set_playout_weights``) searches exactly as one built with them."""
    from mcts import MCTS, SearchConfig
    from mcts.search import load_kernels
    from mcts.tree import new_workspace
    game = Go(9)
    k = load_kernels(game, log=None)
    s = game.initial_state()
    out = np.zeros(5, dtype=np.int64)
    plies = k.learned_playouts(s, 50, new_rng(5), new_workspace(game, WEIGHTS), out)
    scratch = s.copy()
    moves = gl.learned_playouts(s, 50, new_rng(5), gl.fill_table(WEIGHTS, 9), scratch)
    assert plies == moves and out.sum() == 50
    built = MCTS(game, SearchConfig(seed=3, threads=1, playout_weights=WEIGHTS), log=None)
    later = MCTS(game, SearchConfig(seed=3, threads=1), log=None)
    later.set_playout_weights(WEIGHTS)
    a, b = (e.search(s, playouts=400) for e in (built, later))
    assert [(c.action, c.visits) for c in a.children] == [(c.action, c.visits) for c in b.children]
    plain = MCTS(game, SearchConfig(seed=3, threads=1), log=None).search(s, playouts=400)
    assert [(c.action, c.visits) for c in plain.children] != [(c.action, c.visits) for c in a.children]


def test_check_names_a_learned_rollout_without_its_table():
    from mcts.conformance.features import check_move_features

    class NoTable(Go):
        def playout_table(self, weights):
            return None

    class Sized(Go):
        def playout_table(self, weights):
            return np.zeros(3 + int(weights[0]))

    assert check_move_features(NoTable(9)) == [
        "NoTable has a learned_rollout kernel but no playout_table: define "
        "Game.playout_table(weights) giving the kernel's table"]
    assert check_move_features(Sized(9)) == [
        "playout_table must give a float64 1-D array whose length does not depend on the "
        "weights; it gave [(3,), (4,)]"]


def test_the_draw_follows_the_softmax_of_the_exact_models_features():
    """With factors of one or more (no refusals), a move's probability is ``exp`` of the sum of
    its weights over the exact model's features (games.go.features.move_features) less the
    ones the fast policy leaves out (5: atari, 8 and 9: distances 3 and 4), normalised over
    the candidates: here a capture of the last move, distances 1 and 2, lines and 3x3
    classes. 40,000 seeded draws: every frequency within 0.006 of it (about four standard
    deviations of the largest; dropping the distance factor moves some by more than 0.02)."""
    g = Go(9)
    s = g.initial_state()
    g.set_up(s, black=[g.vertex_to_action(v) for v in ("D5", "F5", "E6", "C3", "G7")],
             white=[g.vertex_to_action(v) for v in ("C6", "G3", "D3")], next_player=1)
    go.apply_action(s, g.vertex_to_action("E5"))               # White plays into atari
    weights = np.random.default_rng(11).normal(0.0, 0.5, NUM_FEATURES)
    weights[:F_LINE] = [1.0, 0.5, 0.4, 0.0, 0.0, 0.0, 0.9, 0.6, 0.0, 0.0]
    cand = np.empty(81, dtype=np.int32)
    feats = np.full((81, 8), -1, dtype=np.int32)
    n = move_features(s, cand, feats)
    logits = [sum(weights[f] for f in feats[i] if f >= 0 and f not in (5, 8, 9))
              for i in range(n)]
    exact = np.exp(logits) / np.exp(logits).sum()
    tab = gl.fill_table(weights, 9)
    w = 11
    gb.enable_pat3(s, w)
    gl.init_gammas(s, w, tab)
    last = gl_point(g, "E5")
    draws = 40_000
    count = np.zeros(n)
    index = {(int(a) // 9 + 1) * 11 + int(a) % 9 + 1: i for i, a in enumerate(cand[:n])}
    for seed in range(1, draws + 1):
        p, _ = gl.learned_move(s, w, tab, gb.BLACK, last, gb.NO_POINT, new_rng(seed)[0])
        count[index[p]] += 1
    assert np.abs(count / draws - exact).max() < 0.006
    assert exact[index[gl_point(g, "E4")]] > 0.05                # the capture stands out
