"""The board's incremental 3x3 codes (games.go.board: ``pat_at``, ``enable_pat3``) against a
from-scratch count after every move of seeded playout-policy games, captures included."""
import numpy as np
import pytest

from games.contract import ONGOING
from games.go import Go, board as gb, kernels as go
from games.go.history import push_history
from games.go.ladder import read_ladder
from games.go.policy import neighbourhood
from games.rng import new_rng
from tests.test_go_policy import LADDER, padded, position

_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def scratch_codes(state):
    """The 3x3 code of every board point recomputed from the colours, shape ``(n, n)``."""
    n = int(state[gb.F_SIZE])
    grid = gb.colors(state)
    code = np.zeros((n, n), dtype=np.int64)
    for k, (dr, dc) in enumerate(_OFFSETS):
        code += grid[1 + dr:n + 1 + dr, 1 + dc:n + 1 + dc].astype(np.int64) << (2 * k)
    return code


def stored_codes(state):
    """The codes the board keeps, shape ``(n, n)``."""
    n = int(state[gb.F_SIZE])
    w = n + 2
    base = gb.pat_at(w, 0)
    return state[base:base + w * w].reshape(w, w)[1:n + 1, 1:n + 1]


def test_a_fresh_board_and_a_known_position():
    g = Go(5)
    s = g.initial_state()
    w = 7
    assert s[gb.F_PAT3] == 0                            # off until enabled
    gb.enable_pat3(s, w)
    assert s[gb.F_PAT3] == 1
    codes = stored_codes(s)
    assert codes[2, 2] == 0                             # the centre: eight empty points
    edge = gb.BORDER
    assert codes[0, 0] == edge | edge << 2 | edge << 4 | edge << 6 | edge << 10   # NW N NE W SW
    g.set_up(s, black=[g.vertex_to_action("C3")], white=[g.vertex_to_action("B3")])
    assert np.array_equal(stored_codes(s), scratch_codes(s))
    assert s[gb.pat_at(w, 3 * w + 4)] == gb.BLACK << 6              # D3: C3 is its W
    assert s[gb.pat_at(w, 3 * w + 2)] == gb.BLACK << 8              # B3 (a stone): C3 its E
    assert s[gb.pat_at(w, 3 * w + 3)] == gb.WHITE << 6              # C3: B3 its W


@pytest.mark.parametrize("size,games", [(9, 200), (19, 200)])
def test_codes_match_a_recount_after_every_move(size, games):
    captured = 0
    for seed in range(games):
        policy = "uniform" if seed % 2 else "ko"
        g = Go(size, playout_policy=policy)
        s = g.initial_state()
        rng = new_rng(seed)
        w = size + 2
        gb.enable_pat3(s, w)
        while go.status(s) == ONGOING:
            a = go.playout_action(s, rng)
            go.apply_action(s, a)
            assert np.array_equal(stored_codes(s), scratch_codes(s)), (seed, int(s[gb.F_MOVES]))
        captured += int(s[gb.F_CAPS_B] + s[gb.F_CAPS_W])
        e0, ne = int(s[gb.F_EMPTY_AT]), int(s[gb.F_NEMPTY])
        for p in s[e0:e0 + ne][:5]:                      # the compiled from-scratch code agrees
            assert neighbourhood(s, w, int(p)) == s[gb.pat_at(w, int(p))]
    assert captured > 10 * games                        # the games did capture stones


def test_the_codes_come_last_and_a_full_history_stops_before_them():
    # The codes sit after the history, so that the ladder's and the assessment's copies of
    # s[:s[F_HIST_AT]] (F_PAT3 cleared in them) leave them out; the history must not run on
    # into them.
    n, w = 5, 7
    g = Go(n)
    s = g.initial_state()
    assert gb.pat_at(w, 0) + w * w == s.shape[0] == gb.state_length(n)
    assert gb.pat_at(w, 0) == s[gb.F_HIST_AT] + gb.move_cap(n) + 1 + n * n
    gb.enable_pat3(s, w)
    g.set_up(s, black=[g.vertex_to_action("C3")], white=[g.vertex_to_action("B3")])
    before = stored_codes(s).copy()
    pushed = 0
    while push_history(s):
        pushed += 1
    assert s[gb.F_HIST_AT] + s[gb.F_HISTLEN] == gb.pat_at(w, 0)
    assert pushed == gb.move_cap(n) + 1 + n * n - 2     # the empty board and the setup before
    assert np.array_equal(stored_codes(s), before)


def test_a_ladder_read_on_a_board_with_codes_leaves_them_alone():
    # test_go_policy's ladder (White E4 ataris D4, D3 is caught): the reading copies
    # s[:s[F_HIST_AT]] only and plays in the copy with F_PAT3 off.
    g = Go(9)
    s = position(g, LADDER, to_play=1)
    g.play(s, g.parse_move("E4", s))
    w = 11
    gb.enable_pat3(s, w)
    kept = s.copy()
    t = np.full(s[gb.F_HIST_AT], -7, dtype=np.int64)
    assert read_ladder(s, w, padded(g, "D3"), 1, t) is True
    assert np.array_equal(s, kept)
    assert np.array_equal(stored_codes(s), scratch_codes(s))
    assert t[gb.F_PAT3] == 0
