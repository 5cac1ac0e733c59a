"""Last-good-reply with forgetting (mcts.replies, Baier and Drake 2010): the table learns the
winner's replies and forgets the loser's, Go's playouts play a stored reply, and the search
with it stays reproducible."""
import numpy as np
import pytest

import games
from games import go, go_playout
from games.rng import new_rng
from mcts import MCTS, SearchConfig
from mcts.checks import check_config
from mcts.replies import NO_REPLY, reply_index, reply_update
from mcts.search import load_kernels

A = 10      # actions of the toy table
PASS = 9


def table():
    return np.full(2 * (A + 1) * A, NO_REPLY, dtype=np.int32)


def lgr1(t, player, last):
    return t[reply_index(A, player, A, last)]


def lgr2(t, player, before, last):
    return t[reply_index(A, player, before, last)]


def simulation(r0, t):
    """Tree moves 5 (player 0), 7 (player 1), then playout moves 3 (0), 9 (1): pass (9) and
    the move to a known reply are learnt as the paper says."""
    path = np.array([0, 1, 2], dtype=np.int64)
    action = np.array([-1, 5, 7], dtype=np.int32)
    mover = np.array([1, 0, 1], dtype=np.int8)
    seq_a = np.array([3, PASS, 0], dtype=np.int32)
    seq_p = np.array([0, 1, 0], dtype=np.int8)
    reply_update(path, 2, action, mover, seq_a, seq_p, 2, r0, PASS, t, A)


def test_the_winner_stores_its_replies_and_the_loser_forgets_its_own():
    t = table()
    t[reply_index(A, 1, A, 5)] = 7          # player 1's reply 7 to 5: to be forgotten
    t[reply_index(A, 1, 5, 3)] = 4          # another reply of the loser's: kept
    simulation(1.0, t)                      # player 0 won
    assert lgr1(t, 0, 7) == 3 and lgr2(t, 0, 5, 7) == 3
    assert lgr1(t, 1, 5) == NO_REPLY        # the loser's reply was its move: forgotten
    assert lgr2(t, 1, 5, 3) == 4
    assert lgr1(t, 1, 3) == NO_REPLY        # the loser's pass is not stored
    assert (t != NO_REPLY).sum() == 3


def test_player_one_wins_and_a_draw_teaches_nothing():
    t = table()
    simulation(0.5, t)
    assert (t == NO_REPLY).all()
    simulation(0.0, t)                      # player 1 won: 7 answers 5; its pass is no reply
    assert lgr1(t, 1, 5) == 7 and (t != NO_REPLY).sum() == 1


GO = games.get("go", size=9, komi=7.5)
def first_playout_move(state, t, seed):
    k = load_kernels(GO, log=None)
    acts = np.empty(GO.max_length + 1, dtype=np.int32)
    players = np.empty(GO.max_length + 1, dtype=np.int8)
    k.rollout_replies(state.copy(), new_rng(seed), acts, players, t)
    return GO.format_move(int(acts[0]))


def quiet_position():
    """Black C3, White G7, Black D3 (the last move): nothing to capture or save, no pattern
    next to D3; White to move, its own move before was G7."""
    state, _ = GO.play_record("C3 G7 D3")
    return state


@pytest.mark.parametrize("seed", range(5))
def test_go_playouts_play_the_stored_reply(seed):
    state = quiet_position()
    a_count = GO.num_actions
    v = GO.vertex_to_action
    t = np.full(2 * (a_count + 1) * a_count, NO_REPLY, dtype=np.int32)
    t[reply_index(a_count, 1, a_count, v("D3"))] = v("J1")         # LGR-1
    assert first_playout_move(state, t, seed) == "J1"
    t[reply_index(a_count, 1, v("G7"), v("D3"))] = v("B9")         # LGR-2 comes first
    assert first_playout_move(state, t, seed) == "B9"
    t[reply_index(a_count, 1, v("G7"), v("D3"))] = v("C3")         # occupied: LGR-1 then
    assert first_playout_move(state, t, seed) == "J1"
    t[reply_index(a_count, 0, a_count, v("D3"))] = v("A1")         # Black's table: not White's
    assert first_playout_move(state, t, seed) == "J1"


def test_the_quiet_position_has_no_local_answer():
    """The position above leaves the policy's local rules silent, so the reply decides."""
    state = quiet_position()
    w = GO.size + 2
    region = np.empty(go_playout.MAX_EYE, dtype=np.int64)
    queue = np.empty(go_playout.QUEUE, dtype=np.int64)
    board = np.empty(state[go_playout.F_HIST_AT], dtype=np.int64)
    p, _ = go_playout._local(state, w, 2, np.uint64(1), region, queue, board)
    assert p == go_playout.NO_POINT


def test_search_with_replies_is_reproducible_and_fills_the_table():
    state, _ = GO.play_record("E5 D4")
    cfg = dict(seed=3, threads=1, replies=True)
    a = MCTS(GO, SearchConfig(**cfg), log=None)
    ra = a.search(state, playouts=2_000)
    stored = int((a.workers[0].work.replies != NO_REPLY).sum())
    assert stored > 100
    rb = MCTS(GO, SearchConfig(**cfg), log=None).search(state, playouts=2_000)
    assert ra.children == rb.children
    a.forget()                              # a fresh search starts with an empty table
    assert a.search(state, playouts=2_000).children == ra.children


def test_a_game_without_reply_playouts_refuses_the_setting():
    c4 = games.get("connect4")
    with pytest.raises(ValueError, match="last good repl"):
        check_config(c4, SearchConfig(replies=True))
    check_config(c4, SearchConfig(replies=False))


def test_last_good_reply_flag_reaches_the_search_config():
    from cli import parse_args
    from frontends.player import PlayerConfig
    on = PlayerConfig.from_args(parse_args(["play", "go", "--last-good-reply"]))
    off = PlayerConfig.from_args(parse_args(["play", "go", "--no-last-good-reply"]))
    assert on.search_config(GO).replies is True and off.search_config(GO).replies is False
    assert PlayerConfig.from_args(parse_args(["play", "go"])).search_config(GO).replies is None
