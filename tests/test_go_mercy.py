"""The mercy rule of Go's playouts (games.go.playout._playout): once one side has captured
n * n // 5 stones more than the other during a playout, both sides pass and the board is
counted as it stands; the uniform policy and POLICY_FINISH (the ownership statistics of
games.go.count) play to the end."""
import numpy as np

from games.go import kernels
from games.contract import FIRST_WINS
from games.go.board import F_CAPS_B, F_POLICY, POLICY_FINISH
from games.go import Go
from games.go.playout import MERCY_DIVISOR
from games.rng import new_rng

ROW1 = [c + "1" for c in "ABCDEFGHJ"]
ROW2 = [c + "2" for c in "ABCDEFGH"]
ROW3 = [c + "3" for c in "ABCDEFGHJ"]


def seventeen_in_atari(policy):
    """9x9: a white chain on rows 1 and 2 (17 stones) whose last liberty is J2, walled in by
    a black row 3; White has just played H2, so Black's capture rule takes the chain."""
    game = Go(size=9, playout_policy=policy)
    s = game.initial_state()
    game.set_up(s, black=ROW3, white=ROW1 + ROW2[:-1], next_player="white")
    assert kernels.apply_action(s, game.parse_move("H2", s)) >= 0
    return game, s


def record(game, s, seed=3):
    acts = np.empty(game.max_length + 1, dtype=np.int32)
    players = np.empty(game.max_length + 1, dtype=np.int8)
    st, m = kernels.rollout_record(s, new_rng(seed), acts, players)
    return int(st), [game.format_move(int(a)) for a in acts[:m]]


def test_a_capture_of_more_than_a_fifth_of_the_board_ends_the_playout_at_once():
    assert 9 * 9 // MERCY_DIVISOR == 16
    game, s = seventeen_in_atari("ko")
    st, moves = record(game, s)
    assert moves == ["J2", "pass", "pass"]
    assert int(s[F_CAPS_B]) == 17
    # counted as it stands: Black's 10 stones and the 71 empty points that reach only them
    assert st == FIRST_WINS and game.score(s) == 81 - 7.5


def test_the_uniform_policy_and_the_ownership_playouts_play_on():
    game, s = seventeen_in_atari("uniform")
    _, moves = record(game, s)
    assert len(moves) > 3
    game, s = seventeen_in_atari("ko")
    s[F_POLICY] |= POLICY_FINISH
    _, moves = record(game, s)
    assert moves[0] == "J2" and len(moves) > 3


def test_the_lead_counts_from_the_start_of_the_playout():
    """Captures made before the playout began do not call it: 17 captured stones already on
    Black's side, the playout goes on."""
    game, s = seventeen_in_atari("ko")
    kernels.apply_action(s, game.parse_move("J2", s))          # the capture, in the game
    assert int(s[F_CAPS_B]) == 17
    _, moves = record(game, s)
    assert len(moves) > 2
