"""Go rules checked against GNU Go 3.8 over GTP, move by move.

Seeded random games are replayed into ``gnugo --mode gtp --chinese-rules`` (one process per
module, reused across games with ``clear_board``). After every move we compare

* the stones on the board (``list_stones black`` / ``list_stones white``), and
* the legal moves of the player to move (``all_legal <colour>``, which never lists pass).

GNU Go's default ko rule is simple ko, so its legal set must equal exactly our kernels'
``legal_actions`` (which leave superko to ``apply_action``); our exact legal set
(``Go.legal_actions``) may only lack moves that recreate an earlier position, and each such
move is checked to be one (its resulting hash is in the history). A second GNU Go run with
``--positional-superko`` must then agree with our exact legal set with no exception at all.

Games played by the playout policy until both sides pass are also scored and compared with
GNU Go's ``final_score`` (see ``test_scored_games_agree_with_final_score`` for why that
comparison is exact).
"""
import os
import subprocess

import numpy as np
import pytest

from games.go import kernels as go, notation as go_notation
from games.go.board import F_HISTLEN
from games.contract import ONGOING
from games.go import Go

GNUGO = "/usr/games/gnugo"
pytestmark = pytest.mark.skipif(not os.access(GNUGO, os.X_OK),
                                reason=f"GNU Go is not installed at {GNUGO}")


class GnuGo:
    """A GNU Go process spoken to over GTP through pipes; commands can be pipelined."""

    def __init__(self, *options):
        self.proc = subprocess.Popen([GNUGO, "--mode", "gtp", "--chinese-rules", *options],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, *commands, failures_ok=False):
        """Send ``commands`` at once and return their responses: the text after "= ", or with
        ``failures_ok`` the whole answer (so "? ..." for a failure)."""
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()
        answers = []
        for c in commands:
            lines = []
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"GNU Go exited while answering {c!r}")
                line = line.rstrip("\n")
                if not line:
                    if lines:
                        break
                    continue
                lines.append(line)
            text = "\n".join(lines)
            if failures_ok:
                answers.append(text)
                continue
            if not text.startswith("="):
                raise AssertionError(f"GNU Go refused {c!r}: {text}")
            answers.append(text[1:].strip())
        return answers

    def new_game(self, game):
        self.ask(f"boardsize {game.size}", "clear_board", f"komi {game.komi}")

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError, OSError):
            pass
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def gnugo():
    engine = GnuGo()
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def gnugo_psk():
    engine = GnuGo("--positional-superko")
    yield engine
    engine.close()


def vertices(game, text):
    return {game.vertex_to_action(t) for t in text.split()}


def colour(game, state):
    return "black" if game.to_play(state) == 0 else "white"


def kernel_legal(game, state):
    out = np.empty(game.num_actions, dtype=np.int32)
    return set(out[:go.legal_actions(state, out)].tolist()) - {game.pass_action}


def board_after_ignoring_superko(game, state, action):
    """The board after ``action`` played with the position history switched off."""
    t = state.copy()
    t[F_HISTLEN] = 0
    assert go.apply_action(t, action) != go.ILLEGAL
    return game.board(t).tobytes()


def check_position(game, state, answers, superko_engine, seen=()):
    """Compare our board and legal moves with GNU Go's ``all_legal`` and ``list_stones``
    answers for the same position; ``seen`` holds the boards (bytes) of the game so far.
    Returns the number of moves only superko forbids."""
    legal_text, black_text, white_text = answers
    board = game.board(state).ravel()
    assert vertices(game, black_text) == set(np.flatnonzero(board == 1).tolist())
    assert vertices(game, white_text) == set(np.flatnonzero(board == 2).tolist())
    if game.status(state) != ONGOING:
        return 0                # the game is over for us, not for GNU Go: stones only
    theirs = vertices(game, legal_text)
    exact = set(game.legal_actions(state).tolist()) - {game.pass_action}
    if superko_engine:
        assert exact == theirs
        return 0
    assert kernel_legal(game, state) == theirs           # suicide and simple ko: identical
    assert exact <= theirs
    for a in theirs - exact:                              # every difference is a repetition
        assert go.move_check(state, a) == go.SUPERKO, game.format_move(a)
        assert game.repeats_position(state, a)            # its hash is in the history
        assert board_after_ignoring_superko(game, state, a) in seen   # and its board too
    return len(theirs - exact)


def replay(engine, game, seed, max_moves, policy="uniform", superko_engine=False):
    """Play a seeded random game, comparing with GNU Go after every move. ``policy`` is
    "uniform" (any legal stone, pass only when none is left) or "playout" (legal stones that
    do not fill an own eye, else pass: the rollout policy, with superko). Returns
    ``(state, counts)``: positions with a ko ban, moves forbidden only by superko."""
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    engine.new_game(game)
    play = []
    counts = {"ko": 0, "superko": 0}
    seen = {game.board(state).tobytes()}
    for _ in range(max_moves + 1):
        queries = [f"all_legal {colour(game, state)}", "list_stones black", "list_stones white"]
        answers = engine.ask(*play, *queries)[len(play):]
        seen.add(game.board(state).tobytes())
        counts["superko"] += check_position(game, state, answers, superko_engine, seen)
        counts["ko"] += int(state[go.F_KO]) != go.NO_POINT
        if game.status(state) != ONGOING or game.moves_played(state) >= max_moves:
            break
        moves = [a for a in game.legal_actions(state) if a != game.pass_action]
        if policy == "playout":
            moves = [a for a in moves if not game.is_own_eye(state, a)]
        action = int(rng.choice(moves)) if moves else game.pass_action
        play = [f"play {colour(game, state)} {game.format_move(action)}"]
        game.play(state, action)
    by_black, by_white = engine.ask("captures black", "captures white")
    assert (int(by_black), int(by_white)) == game.captures(state)
    return state, counts


# (size, seeds, moves per game): 200 games on 9x9 (up to 160 moves), more on the small boards
# (played to the move cap), fewer on the big ones.
CHUNKS = ([(9, range(k, k + 25), 160) for k in range(0, 200, 25)]
          + [(5, range(1000, 1100), 75), (7, range(2000, 2050), 147),
             (13, range(3000, 3020), 250), (19, range(4000, 4008), 300)])


@pytest.mark.parametrize("size, seeds, moves", CHUNKS,
                         ids=[f"{s}x{s}-{r.start}" for s, r, _ in CHUNKS])
def test_random_games_match_gnugo_move_by_move(gnugo, size, seeds, moves):
    game = Go(size)
    kos = sum(replay(gnugo, game, seed, moves)[1]["ko"] for seed in seeds)
    assert kos > 0                              # the simple-ko ban was exercised


def test_send_two_return_one(gnugo, gnugo_psk):
    """The hand-built superko case of test_go_rules: GNU Go's simple ko allows the return
    move B7, its positional superko forbids it, and so do we."""
    game = Go(7)
    setup = ["play b B7", "play b A6", "play b A5", "play w B6", "play w C6", "play w D7",
             "play b C7", "play w A7"]
    state = game.initial_state()
    game.set_up(state, black=["B7", "A6", "A5"], white=["B6", "C6", "D7"])
    for m in ("C7", "A7"):
        game.play(state, game.parse_move(m, state))
    b7 = game.vertex_to_action("B7")
    for engine, allowed in ((gnugo, True), (gnugo_psk, False)):
        engine.new_game(game)
        legal = engine.ask(*setup, "all_legal black")[-1]
        assert (b7 in vertices(game, legal)) == allowed
    assert go.move_check(state, b7) == go.SUPERKO


def test_superko_differences_are_met_and_explained(gnugo):
    """Small boards and long games repeat positions often enough to exercise the superko
    branch of ``check_position``: make sure it really ran."""
    game = Go(5)
    total = sum(replay(gnugo, game, seed, 75)[1]["superko"] for seed in range(5000, 5100))
    assert total > 0


@pytest.mark.parametrize("size, seeds", [(5, range(6000, 6200)), (7, range(6200, 6250)),
                                         (9, range(6300, 6340))])
def test_positional_superko_matches_gnugo_exactly(gnugo_psk, size, seeds):
    game = Go(size)
    for seed in seeds:
        replay(gnugo_psk, game, seed, 3 * size * size, superko_engine=True)


def settled(game, state):
    """True if neither player has a legal move (suicide only; the ko ban ends with the passes)
    other than filling an own eye: then every stone is safe for good."""
    for player in (0, 1):
        t = state.copy()
        t[go.F_STATUS] = ONGOING
        t[go.F_KO] = go.NO_POINT
        t[go.F_TOMOVE] = player
        if any(not game.is_own_eye(t, a) for a in kernel_legal(game, t)):
            return False
    return True


SCORED = ([(9, range(k, k + 40)) for k in range(7000, 7120, 40)]
          + [(5, range(7500, 7540)), (7, range(7600, 7630)), (13, range(7700, 7706)),
             (19, range(7800, 7803))])


@pytest.mark.parametrize("size, seeds", SCORED, ids=[f"{s}x{s}-{r.start}" for s, r in SCORED])
def test_scored_games_agree_with_final_score(gnugo, size, seeds):
    """Games played by the playout policy (no own-eye filling) until both players pass.

    Why the comparison with GNU Go's ``final_score`` is exact: when both sides pass because
    neither has a legal move other than filling its own eye (``settled``), no group is in
    atari (its capture would be a legal move) and no empty point touches both colours (one of
    the two players could legally play there and it is not their eye). So every empty region
    is an eye of a single colour in which the opponent can never play (it would be suicide,
    and nothing the opponent can play changes that), and no stone can ever be captured: all
    stones are unconditionally alive and there is nothing for GNU Go's dead-stone analysis to
    guess. Chinese-rules counting is then exactly Tromp-Taylor area scoring."""
    game = Go(size, komi=7.5 if size >= 9 else 0.5)
    compared = 0
    for seed in seeds:
        state, _ = replay(gnugo, game, seed, game.max_length, policy="playout")
        if int(state[go.F_PASSES]) < 2 or not settled(game, state):
            continue            # a ko ban forced a pass, or the move cap ended the game
        (answer,) = gnugo.ask("final_score")
        assert answer == game.result_string(state), f"seed {seed}"
        compared += 1
    assert compared >= 0.8 * len(seeds)


def test_fixed_handicap_matches_gnugo(gnugo):
    """Our fixed placements, and the board sizes and counts we refuse, are GNU Go's."""
    for size in range(5, 20):
        for stones in range(2, 11):
            gnugo.ask(f"boardsize {size}", "clear_board")
            (answer,) = gnugo.ask(f"fixed_handicap {stones}", failures_ok=True)
            try:
                ours = set(go_notation.fixed_handicap_vertices(size, stones))
            except ValueError:
                assert answer.startswith("?"), (size, stones, answer)
                continue
            assert answer.startswith("=") and set(answer[1:].split()) == ours, (size, stones)
