"""Chinese Checkers: the board, hand-checked positions (the opening moves, a hop chain, the
win, a blocked turn, the move limit), the notation, and OpenSpiel's ``chinese_checkers``
played in lockstep through pyspiel over 1,000 seeded games.

The lockstep games (250 for each of 2, 3, 4 and 6 players, all at OpenSpiel's default
``max_moves`` of 1000 turns) compare at every ply the legal action lists (the same actions in
the same increasing order), the player to move, whether the game is over, and at the end the
plies played and the returns (ours are OpenSpiel's mapped by ``(r + 1) / n``); every 97th or
53rd ply also the notation of every legal action against OpenSpiel's action strings. Of each
250:

* 150 uniform random games: these almost never finish, so they run to the move limit (about
  1,070 plies each; about 9 microseconds a ply for both sides together);
* 100 games of a seeded epsilon-greedy policy (the action that brings its marble nearest the
  target point; a uniform random one with probability 0.05-0.35): these end with a win (200
  to 600 plies), so the win condition and the winner's returns are compared too.

A further 50 uniform random games for each number of players with ``max_moves`` drawn from
1-120 end at the limit in every phase of a game, right after hop chains too.
"""
import re

import numpy as np
import pytest

import games
from games.chinese_checkers import ChineseCheckers
from games.chinese_checkers import kernels as K
from games.contract import ENDED, ILLEGAL, ONGOING
from games.rng import new_rng

G = games.get("chinese_checkers")
CELL = {(int(r), int(c)): i for i, (r, c) in enumerate(zip(K.ROW, K.COL))}
UL, UR, L, R, DL, DR = range(6)
# Hex distance in doubled coordinates, and each triangle's point (for the greedy policy).
_DR = np.abs(K.ROW[:, None] - K.ROW[None, :])
_DC = np.abs(K.COL[:, None] - K.COL[None, :])
DIST = _DR + np.maximum(0, (_DC - _DR) // 2)
POINT = (0, 22, 110, 120, 98, 10)


def cell(r, c):
    return CELL[(r, c)]


def legal(state):
    buf = np.empty(K.NUM_ACTIONS, dtype=np.int32)
    return buf[:K.legal_actions(state, buf)].tolist()


# --- the board ------------------------------------------------------------------------------
def test_the_star():
    assert len(K.ROW) == 121 and [int((K.ROW == r).sum()) for r in range(17)] == [
        1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    assert cell(0, 12) == 0 and cell(4, 0) == 10 and cell(8, 12) == 60 and cell(16, 12) == 120
    assert (K.NEIGHBOR[60] >= 0).all() and (K.JUMP[60] >= 0).all()
    assert K.NEIGHBOR[0].tolist() == [-1, -1, -1, -1, 1, 2]
    assert K.JUMP[0].tolist() == [-1, -1, -1, -1, 3, 5]
    assert [sorted(t) for t in K.TRIANGLE_CELLS.tolist()] == [
        list(range(10)), [19, 20, 21, 22, 32, 33, 34, 44, 45, 55],
        [74, 84, 85, 95, 96, 97, 107, 108, 109, 110], list(range(111, 121)),
        [65, 75, 76, 86, 87, 88, 98, 99, 100, 101], [10, 11, 12, 13, 23, 24, 25, 35, 36, 46]]
    for n, homes in ((2, [0, 3]), (3, [0, 2, 4]), (4, [0, 1, 3, 4]), (6, [0, 1, 2, 3, 4, 5])):
        g = ChineseCheckers(players=n)
        assert g.num_players == n and len(g.players) == n
        assert [g.home_triangle(p) for p in range(n)] == homes
        board = g.board(g.initial_state())
        for p in range(n):
            assert sorted(np.nonzero(board == p)[0]) == sorted(K.TRIANGLE_CELLS[homes[p]])
        assert (board >= 0).sum() == 10 * n


def test_parameters_and_registry():
    g = games.get("chinese_checkers", players=4, max_moves=50)
    assert g.num_players == 4 and g.players == ("Red", "Blue", "Green", "Yellow")
    assert g.num_actions == 727 and g.max_length == 37 * 50
    assert type(g)(**g.params).params == g.params == {
        "players": 4, "max_moves": 50, "playout_policy": "greedy", "priors": True}
    assert g.search_defaults == {"prior_stats": "value"}
    with pytest.raises(ValueError, match="players must be one of 2, 3, 4, 6"):
        games.get("chinese_checkers", players=5)


# --- hand-checked positions -----------------------------------------------------------------
def test_opening_moves_of_two_players():
    """Red's front row (cells 6-9) steps down-left or down-right into row 4 (cells 14-18);
    the row behind it (3-5) hops over it into row 4; nothing else moves."""
    s = G.initial_state()
    assert K.to_play(s) == 0 and K.status(s) == ONGOING
    expected = [6 * 3 + DL, 6 * 3 + DR, 6 * 4 + DL, 6 * 4 + DR, 6 * 5 + DL, 6 * 5 + DR,
                6 * 6 + DL, 6 * 6 + DR, 6 * 7 + DL, 6 * 7 + DR, 6 * 8 + DL, 6 * 8 + DR,
                6 * 9 + DL, 6 * 9 + DR]
    assert legal(s) == expected == [22, 23, 28, 29, 34, 35, 40, 41, 46, 47, 52, 53, 58, 59]
    assert [G.format_move(a, s) for a in expected] == [
        "3=>14", "3=>16", "4=>15", "4=>17", "5=>16", "5=>18", "6->14", "6->15", "7->15",
        "7->16", "8->16", "8->17", "9->17", "9->18"]
    assert K.apply_action(s.copy(), K.PASS) == ILLEGAL
    assert K.apply_action(s.copy(), 6 * 111 + UL) == ILLEGAL       # Blue's marble
    assert K.apply_action(s.copy(), 6 * 0 + DL) == ILLEGAL         # 1 is taken, 3 too


def test_opening_moves_match_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    for n in (2, 3, 4, 6):
        ref = pyspiel.load_game("chinese_checkers", {"players": n}).new_initial_state()
        s = ChineseCheckers(players=n).initial_state()
        assert legal(s) == ref.legal_actions()
        assert [G.format_move(a, s) for a in legal(s)] == [ref.action_to_string(a)
                                                           for a in ref.legal_actions()]


def chain_position():
    """Red on the centre (8,12); marbles on (7,11), (5,9) and (6,12): a hop up-left to (6,10)
    may go on up-left to (4,8) or right to (6,14), not back down-right to the start."""
    start, b1, b2, b3 = cell(8, 12), cell(7, 11), cell(5, 9), cell(6, 12)
    marbles = {c: 0 for c in (start, b2, 0, 1, 2, 3, 4, 5, 6, 7)}
    marbles.update({c: 1 for c in (b1, b3, 113, 114, 115, 116, 117, 118, 119, 120)})
    return G.position(marbles), start


def test_a_hop_chain():
    s, start = chain_position()
    first = 6 * start + UL
    assert first in legal(s) and G.format_move(first, s) == "60=>39"
    assert cell(6, 10) == 39
    assert G.parse_move("60=>39", s) == first
    assert K.apply_action(s, first) == ONGOING
    assert K.to_play(s) == 0 and s[K.HOP_FROM] == 39 and K.ply(s) == 1
    up_left, right = 6 * 39 + UL, 6 * 39 + R
    assert legal(s) == [up_left, right, K.PASS]            # not DR: the start is visited
    assert [G.format_move(a, s) for a in legal(s)] == ["39=>" + str(cell(4, 8)),
                                                      "39=>" + str(cell(6, 14)), "pass"]
    assert K.apply_action(s.copy(), 6 * 39 + DR) == ILLEGAL         # back to the start
    assert K.apply_action(s.copy(), 6 * 39 + DL) == ILLEGAL         # a step
    assert K.apply_action(s.copy(), 6 * 0 + DR) == ILLEGAL          # another marble
    with pytest.raises(ValueError, match="already been on 60"):
        G.parse_move("39=>60", s)
    with pytest.raises(ValueError, match="only hops"):
        G.parse_move("39->38", s)
    with pytest.raises(ValueError, match="hopping with the marble on 39"):
        G.parse_move("7->16", s)
    # Ending with a pass: Blue's turn, the marble stays on 39.
    passed = s.copy()
    assert G.parse_move("Pass", passed) == K.PASS
    assert K.apply_action(passed, K.PASS) == ONGOING
    assert K.to_play(passed) == 1 and passed[K.HOP_FROM] == -1 and passed[K.MOVES] == 1
    assert G.board(passed)[39] == 0
    # Hopping on to (6,14): no further hop, so the turn ends by itself.
    assert K.apply_action(s, right) == ONGOING
    assert K.to_play(s) == 1 and s[K.HOP_FROM] == -1 and s[K.MOVES] == 1 and K.ply(s) == 2
    board = G.board(s)
    assert board[cell(6, 14)] == 0 and board[start] == -1 and board[39] == -1
    text = G.render(s, right)
    assert "(R)" in text and "Blue to move (turn 2 of 1000)" in text


def test_a_chain_never_returns_to_its_start():
    """Red (8,8) hops right over Red (8,10) to (8,12); the only hop from there would go back
    over (8,10) to the start, which is visited: the turn ends by itself."""
    a, b = cell(8, 8), cell(8, 10)
    marbles = {c: 0 for c in (a, b, 0, 1, 2, 3, 4, 5, 6, 7)}
    marbles.update({c: 1 for c in range(111, 121)})
    s = G.position(marbles)
    assert K.apply_action(s, 6 * a + R) == ONGOING
    assert K.to_play(s) == 1 and s[K.HOP_FROM] == -1 and G.board(s)[cell(8, 12)] == 0


def win_position(players=2, **params):
    g = ChineseCheckers(players=players, **params)
    red = {c: 0 for c in range(112, 121)}
    red[cell(12, 8)] = 0                      # 102, next to the last hole 111 = (13, 9)
    others = iter(range(36, 36 + 10 * (players - 1)))
    marbles = {**red, **{next(others): p for p in range(1, players) for _ in range(10)}}
    return g, marbles


@pytest.mark.parametrize("players", [2, 3])
def test_filling_the_target_wins(players):
    g, marbles = win_position(players)
    s = g.position(marbles)
    assert s[K.IN_TARGET] == 9 and K.status(s) == ONGOING
    step = 6 * 102 + DR
    assert g.format_move(step, s) == "102->111" and g.parse_move("102->111", s) == step
    assert K.apply_action(s, step) == ENDED
    assert K.status(s) == ENDED and legal(s) == [] and K.apply_action(s.copy(), 0) == ILLEGAL
    assert g.returns(s).tolist() == [1.0] + [0.0] * (players - 1)
    assert g.result_text(ENDED, s) == "Red wins" and g.summary(s) == "Red wins after 1 turns"
    with pytest.raises(ValueError, match="the game is over"):
        g.parse_move("pass", s)


def test_a_win_counts_only_when_the_hop_chain_ends():
    """Red hops from (11,7) over Blue's (12,8) into the last hole (13,9); Blue's (12,10) next
    to it lets the chain go on, so the game goes on until Red passes (or leaves again)."""
    g, marbles = win_position(2)
    del marbles[102]
    marbles.update({cell(11, 7): 0, 102: 1, cell(12, 10): 1})
    del marbles[36], marbles[37]
    s = g.position(marbles)
    hop = 6 * cell(11, 7) + DR
    assert K.apply_action(s, hop) == ONGOING and s[K.IN_TARGET] == 10
    assert legal(s) == [6 * 111 + UR, K.PASS]
    on = s.copy()
    assert K.apply_action(on, 6 * 111 + UR) == ONGOING and on[K.IN_TARGET] == 9
    assert K.apply_action(s, K.PASS) == ENDED and G.returns(s).tolist() == [1.0, 0.0]


def test_the_move_limit():
    """max_moves counts turns of all players (a hop chain is one): the game ends with no
    winner (1/n each), but a win on the last turn still counts."""
    g = ChineseCheckers(players=3, max_moves=2)
    s = g.initial_state()
    assert K.apply_action(s, 6 * 6 + DL) == ONGOING
    step = next(a for a in legal(s) if "->" in g.format_move(a, s))
    assert K.apply_action(s, step) == ENDED
    assert g.returns(s).tolist() == [1 / 3] * 3 and g.result_text(ENDED, s) == "draw"
    assert "no winner after 2 turns" in g.render(s)
    g, marbles = win_position(2, max_moves=10)
    s = g.position(marbles, moves=9)
    assert K.apply_action(s, 6 * 102 + DR) == ENDED and g.returns(s).tolist() == [1.0, 0.0]
    s = g.position(marbles, moves=9)
    assert K.apply_action(s, 6 * 102 + UL) == ENDED and g.returns(s).tolist() == [0.5, 0.5]


def test_a_blocked_player_passes():
    """Three players: Red's home (cells 0-9) walled in by rows 4 and 5 (cells 14-18 and
    26-31) leaves Red no step and no hop, so its only move is a pass."""
    g = ChineseCheckers(players=3)
    marbles = {c: 0 for c in range(10)}
    marbles.update({c: 1 for c in (14, 15, 16, 17, 18, 26, 27, 28, 29, 30)})
    marbles.update({c: 2 for c in (31, 56, 57, 58, 59, 60, 61, 62, 63, 64)})
    s = g.position(marbles)
    assert legal(s) == [K.PASS]
    assert g.parse_move("pass", s) == K.PASS
    with pytest.raises(ValueError, match="cell 14 is taken$"):
        g.parse_move("6->14", s)
    assert K.apply_action(s, K.PASS) == ONGOING and K.to_play(s) == 1 and s[K.MOVES] == 1


# --- notation ---------------------------------------------------------------------------------
def test_notation_errors():
    s = G.initial_state()
    cases = {"": "is not a move", "6 to 14": "is not a move", "200->1": "no cell 200",
             "111->103": "holds no marble of Red", "6->60": "neither next to 6",
             "3->14": "not a step", "6=>14": "not a hop", "6-XY": "neither a cell nor",
             "pass": "Red has a move", "0-UL": "no cell UL of 0",
             "3-DL": None, "6-14": None}
    for text, why in cases.items():
        if why is None:
            assert G.parse_move(text, s) in legal(s)
            continue
        with pytest.raises(ValueError, match=re.escape(why)):
            G.parse_move(text, s)
    assert G.format_move(6 * 6 + DL) == "6-DL" and G.format_move(K.PASS) == "pass"


def random_positions(players, seed, count, policy="uniform"):
    """``count`` positions of a seeded game of the playout policy ``policy`` (uniform random
    by default; hop chains included)."""
    g = ChineseCheckers(players=players, playout_policy=policy)
    s, rng, out = g.initial_state(), new_rng(seed), []
    while len(out) < count:
        if K.status(s) != ONGOING:
            s = g.initial_state()
        out.append(s.copy())
        K.apply_action(s, K.playout_action(s, rng))
    return g, out


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_legal_move_round_trips(players):
    g, positions = random_positions(players, seed=players, count=400)
    chains = 0
    for s in positions:
        chains += s[K.HOP_FROM] >= 0
        for a in legal(s):
            assert g.parse_move(g.format_move(a, s), s) == a
            assert g.parse_move(g.format_move(a), s) == a
    assert chains > 10


def test_render_marks_the_last_move():
    g = ChineseCheckers(players=6)
    s = g.initial_state()
    g.play(s, 6 * 6 + DL)                                   # 6->14
    text = g.render(s, 6 * 6 + DL)
    lines = text.splitlines()
    assert lines[3].split() == ["6", "*", "R", "R", "R", "9"]
    assert "(R)" in lines[4] and lines[4].startswith(" 10  P P P P(R)")
    assert "R Red  B Blue  G Green  Y Yellow  O Orange  P Purple" in text
    assert lines[-1] == "Blue to move (turn 2 of 1000)"
    assert len(lines) == 19 and all(ch in " .()*0123456789RBGYOP" for ch in "".join(lines[:17]))


# --- OpenSpiel in lockstep -----------------------------------------------------------------
def greedy(state, actions, players, rng, eps):
    """Seeded epsilon-greedy choice: the action whose marble ends nearest the mover's target
    point (a pass counts as no progress), ties and the epsilon share uniform at random."""
    if rng.random() < eps:
        return actions[rng.integers(len(actions))]
    acts = np.array(actions)
    moves = acts[acts != K.PASS]
    gain = np.zeros(len(acts))
    if len(moves):
        src, d = moves // 6, moves % 6
        nb = K.NEIGHBOR[src, d]
        dst = np.where(state[K.BOARD + nb] == 0, nb, K.JUMP[src, d])
        point = POINT[K.TARGET[players, K.to_play(state)]]
        gain[acts != K.PASS] = DIST[src, point] - DIST[dst, point]
    best = np.nonzero(gain == gain.max())[0]
    return actions[best[rng.integers(len(best))]]


def lockstep(pyspiel, players, max_moves, seed, eps=None, strings_every=0):
    """One game in lockstep; returns (plies, winner or -1)."""
    g = ChineseCheckers(players=players, max_moves=max_moves)
    ref = pyspiel.load_game("chinese_checkers", {"players": players, "max_moves": max_moves})
    r, s = ref.new_initial_state(), g.initial_state()
    rng = np.random.default_rng(seed)
    buf = np.empty(K.NUM_ACTIONS, dtype=np.int32)
    plies = 0
    where = f"players {players}, max_moves {max_moves}, seed {seed}"
    while not r.is_terminal():
        assert K.status(s) == ONGOING, f"{where}: ended early at ply {plies}"
        assert K.to_play(s) == r.current_player(), f"{where}, ply {plies}"
        la = r.legal_actions()
        assert buf[:K.legal_actions(s, buf)].tolist() == la, f"{where}, ply {plies}"
        if strings_every and plies % strings_every == 0:
            assert [g.format_move(a, s) for a in la] == [
                r.action_to_string(a).replace("Pass", "pass") for a in la]
        a = la[rng.integers(len(la))] if eps is None else greedy(s, la, players, rng, eps)
        r.apply_action(a)
        st = K.apply_action(s, a)
        plies += 1
        assert st == (ENDED if r.is_terminal() else ONGOING), f"{where}, ply {plies}"
    assert K.status(s) == ENDED and K.ply(s) == plies == len(r.history())
    expected = [(x + 1) / players for x in r.returns()]
    assert g.returns(s).tolist() == expected, where
    return plies, int(s[K.WINNER])


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_lockstep_with_openspiel(players):
    pyspiel = pytest.importorskip("pyspiel")
    seeds = np.random.default_rng(1000 + players)
    wins = full = 0
    for i in range(150):
        plies, _ = lockstep(pyspiel, players, 1000, seed=i, strings_every=97)
        full += plies
    for i in range(100):
        _, winner = lockstep(pyspiel, players, 1000, seed=1000 + i,
                             eps=0.05 + 0.3 * seeds.random(), strings_every=53)
        wins += winner >= 0
    for i in range(50):
        lockstep(pyspiel, players, int(seeds.integers(1, 121)), seed=2000 + i)
    assert full > 150_000 and wins >= 90


def blocked_position(policy):
    return ChineseCheckers(players=3, playout_policy=policy).position(
        {**{c: 0 for c in range(10)}, **{c: 1 for c in (14, 15, 16, 17, 18, 26, 27, 28, 29, 30)},
         **{c: 2 for c in (31, 56, 57, 58, 59, 60, 61, 62, 63, 64)}})


def assert_draws(s, probs, rng, per_action=2000):
    """``K.playout_action`` on ``s`` draws each action with probability ``probs[action]``
    (within 5 standard deviations) and never another; ``s`` is left unchanged."""
    before = s.copy()
    draws = per_action * len(probs)
    counts = dict.fromkeys(probs, 0)
    for _ in range(draws):
        a = int(K.playout_action(s, rng))
        assert a in counts, a
        counts[a] += 1
    assert (s == before).all()
    for a, p in probs.items():
        assert abs(counts[a] - draws * p) < 5 * np.sqrt(draws * p * (1 - p)) + 1, (a, p)


def test_uniform_playout_action_is_uniform_over_the_legal_actions():
    """Rejection among (marble, direction) slots, the counted fallback (a blocked turn) and
    the hop chain (hops and the pass) all draw each legal action equally often."""
    g, positions = random_positions(3, seed=11, count=300)
    assert g.initial_state()[K.POLICY] == 0
    chain = next(s for s in positions if s[K.HOP_FROM] >= 0 and len(legal(s)) >= 3)
    rng = new_rng(5)
    for s in (positions[0], positions[150], positions[299], chain, blocked_position("uniform")):
        acts = legal(s)
        assert_draws(s, {a: 1 / len(acts) for a in acts}, rng)


def greedy_probs(s):
    """The greedy policy's distribution, computed independently: each legal action in
    proportion to 4 ** (the hex distance to the mover's target point it gains)."""
    point = POINT[K.TARGET[int(s[K.NPLAYERS]), K.to_play(s)]]
    weights = {}
    for a in legal(s):
        gain = 0
        if a != K.PASS:
            src, d = divmod(a, 6)
            nb = K.NEIGHBOR[src, d]
            dst = nb if s[K.BOARD + nb] == 0 else K.JUMP[src, d]
            gain = DIST[src, point] - DIST[dst, point]
        weights[a] = 4.0 ** gain
    total = sum(weights.values())
    return {a: w / total for a, w in weights.items()}


def test_greedy_playout_action_by_hand():
    """The greedy policy (the default) on hand-checked positions: Red's opening, where the six
    hops from row 2 gain 2 (weight 16 each) and the eight steps from row 3 gain 1 (weight 4):
    a hop with probability 96/128; in the chain of ``chain_position`` from (6,10), the hop
    up-left to (4,8) loses 2 (weight 1/16), the one right to (6,14) gains 0, like the pass
    (weight 1 each); a blocked turn passes; a turn with two moves gaining 2 and 1."""
    s = G.initial_state()
    assert s[K.POLICY] == 4 and G.params["playout_policy"] == "greedy"
    hops = [22, 23, 28, 29, 34, 35]
    probs = greedy_probs(s)
    assert probs == {a: (16 if a in hops else 4) / 128 for a in legal(s)}
    rng = new_rng(7)
    assert_draws(s, probs, rng)
    s, start = chain_position()
    K.apply_action(s, 6 * start + UL)
    assert greedy_probs(s) == {6 * 39 + UL: 1 / 33, 6 * 39 + R: 16 / 33, K.PASS: 16 / 33}
    assert_draws(s, greedy_probs(s), rng, per_action=4000)
    blocked = blocked_position("greedy")
    assert all(K.playout_action(blocked, rng) == K.PASS for _ in range(100))
    # A hole at 14 in the wall: few moves, low weights, so mostly the exact fallback draws.
    g = ChineseCheckers(players=3)
    marbles = {c: 0 for c in range(10)}
    marbles.update({c: 1 for c in (40, 15, 16, 17, 18, 26, 27, 28, 29, 30)})
    marbles.update({c: 2 for c in (31, 56, 57, 58, 59, 60, 61, 62, 63, 64)})
    s = g.position(marbles)
    assert [g.format_move(a, s) for a in legal(s)] == ["3=>14", "6->14"]
    assert greedy_probs(s) == {6 * 3 + DL: 4 / 5, 6 * 6 + DL: 1 / 5}
    assert_draws(s, greedy_probs(s), rng)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_greedy_playout_action_distribution(players):
    """On positions of greedy games (the rejection sampler and, in a chain, the exact draw),
    the greedy policy draws each legal action with the probability of ``greedy_probs``."""
    _, positions = random_positions(players, seed=20 + players, count=400, policy="greedy")
    chains = [s for s in positions if s[K.HOP_FROM] >= 0 and len(legal(s)) >= 2]
    rng = new_rng(players)
    for s in positions[100::100] + chains[:2]:
        assert_draws(s, greedy_probs(s), rng, per_action=300)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_greedy_playouts_finish_with_a_winner(players):
    """Greedy playouts end with a win (uniform random ones almost never do: about 1,070
    plies to the move limit), each seat winning some."""
    g = ChineseCheckers(players=players)
    rng, winners, plies = new_rng(players), [], []
    for _ in range(12 * players):
        s = g.initial_state()
        while K.status(s) == ONGOING:
            assert K.apply_action(s, K.playout_action(s, rng)) != ILLEGAL
        winners.append(int(s[K.WINNER]))
        plies.append(K.ply(s))
    assert min(winners) >= 0 and len(set(winners)) == players
    assert np.mean(plies) < 200 * players


def priors_of(s, actions):
    visits = np.zeros(len(actions), dtype=np.int32)
    value = np.zeros(len(actions), dtype=np.float32)
    K.prior(s, np.array(actions, dtype=np.int32), visits, value)
    return visits.tolist(), value.tolist()


def test_priors_by_hand():
    """20 virtual playouts per new child, worth 1 / n + 0.1 per step of distance gained to the
    mover (clipped to [0, 1]): Red's opening hops 0.7, steps 0.6; in the chain from (6,10)
    the hop up-left 0.3, the hop right and the pass 0.5; with six players a hop losing 2 is
    worth 0; none at all with ``priors=False``."""
    s = G.initial_state()
    acts = legal(s)
    visits, value = priors_of(s, acts)
    assert visits == [20] * 14
    assert value == pytest.approx([14.0 if a in (22, 23, 28, 29, 34, 35) else 12.0
                                   for a in acts], abs=1e-5)
    s, start = chain_position()
    K.apply_action(s, 6 * start + UL)
    assert priors_of(s, legal(s)) == ([20, 20, 20], pytest.approx([6.0, 10.0, 10.0], abs=1e-5))
    g = ChineseCheckers(players=6)
    s = g.initial_state()
    K.apply_action(s, 6 * 3 + DL)                          # Red 3=>14, then Blue's turn
    blue = legal(s)
    _, value = priors_of(s, blue)
    assert min(value) >= 0 and max(value) == pytest.approx(20 * (1 / 6 + 0.2), abs=1e-5)
    off = ChineseCheckers(priors=False)
    assert priors_of(off.initial_state(), acts) == ([0] * 14, [0.0] * 14)


def test_random_plies_speed_loop():
    """The compiled playout loop of the speed figure runs and finishes games."""
    g = ChineseCheckers(players=2, max_moves=20)
    assert K.random_plies(g.initial_state(), new_rng(3), 2000) >= 50
