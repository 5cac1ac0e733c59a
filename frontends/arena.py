"""``arena``: two settings of our engine play each other on any game of the contract.

    python cli.py arena GAME [search and game flags of side A] --opponent-args "FLAGS OF B"
        [--games N] [--json FILE]

Side A takes the command's flags; side B takes A's flags changed by those in
``--opponent-args`` (e.g. ``"--no-transpositions"``, ``"--playout-policy uniform"``,
``"--seconds 0.5"``). Both play in this process, one after the other, so each gets the whole
machine while it thinks: at equal ``--seconds`` that is a match at equal time. Seats rotate:
in game ``i`` A plays seat ``i mod P`` of the game's P players and B every other seat (two
players: colours alternate); game ``i`` seeds both searches with ``seed + i`` (A's seed) and
draws its rolls, in a game with chance, from that seed and the ply. The game's own rules are
the referee (its ``returns`` after the last move); game flags of B may change how it plays (a
playout policy), not the rules (a refusal in one line). Ctrl-C keeps the summary of the
games finished. A's score in a game is its return (1 win, 0 loss, a draw or a middle rank
between); its 95 % interval is Wilson's over the games, fractions counted as such.
"""
import json
import shlex
import time

from frontends.common import UsageError, make_game, output_file
from frontends.match import wilson
from frontends.player import PlayerConfig
from games.contract import CHANCE, ONGOING
from mcts import chance


def side_of(args, name):
    """(game, PlayerConfig) of one side from parsed ``args``."""
    game = make_game(args)
    return game, PlayerConfig.from_args(args, threads=1)


def play_game(sides, a_seat, seed, log=None):
    """One game between ``sides`` = [(game, engine, budget)] for A and B; A plays seat
    ``a_seat`` (a bool: True for seat 0, False for seat 1), B the others. Returns (A's
    score: its return in [0, 1], plies, seconds per move of A and of B)."""
    a_seat = int(not a_seat) if isinstance(a_seat, bool) else int(a_seat)
    states = [g.initial_state() for g, _, _ in sides]
    for _, engine, _ in sides:
        engine.forget()
        engine.reseed(seed)
    spent, moves = [0.0, 0.0], [0, 0]
    kernels = sides[0][0].kernels
    plies = 0
    while int(kernels.status(states[0])) == ONGOING:
        mover = int(kernels.to_play(states[0]))
        if mover == CHANCE:                 # a roll: from the seed and the ply
            action = chance.draw(sides[0][0], states[0], chance.roll_rng(seed, plies))
        else:
            who = 0 if mover == a_seat else 1
            game, engine, budget = sides[who]
            t0 = time.perf_counter()
            action = engine.search(states[who], **budget).action
            spent[who] += time.perf_counter() - t0
            moves[who] += 1
        for (g, e, _), s in zip(sides, states):
            g.play(s, action)
            e.advance(action)
        if int(sides[1][0].kernels.status(states[1])) != int(kernels.status(states[0])):
            raise UsageError("side B's game flags change the rules (the two sides disagree "
                             "on the game's result): give B search flags, or game flags that "
                             "change only how it plays")
        plies += 1
    score = float(sides[0][0].returns(states[0])[a_seat])
    return score, plies, spent[0] / max(moves[0], 1), spent[1] / max(moves[1], 1)


def without(argv, options):
    """``argv`` without the ``options`` (each taking one value: ``--x V`` or ``--x=V``)."""
    out, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word in options:
            skip = True
        elif not word.split("=", 1)[0] in options:
            out.append(word)
    return out


def b_argv(args):
    """Side B's command line: A's, less what only the arena reads, then B's own flags (the
    later flag wins; a budget of B's replaces A's)."""
    try:
        own = shlex.split(args.opponent_args or "")
    except ValueError as e:
        raise UsageError(f"--opponent-args: {e}") from None
    arena_only = ("--opponent-args", "--games", "--json")
    if any(w.split("=", 1)[0] in arena_only for w in own):
        raise UsageError("--opponent-args takes search and game flags only")
    drop = arena_only + (("--playouts", "--seconds")
                         if any(w.split("=", 1)[0] in ("--playouts", "--seconds") for w in own)
                         else ())
    return without(args.argv, drop) + own


def _count(n, word):
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


def run(args, parse):
    """The ``arena`` command; ``parse`` is cli.parse_args (for side B's flags)."""
    b_args = parse(b_argv(args))
    out = output_file(args.json) if args.json else None
    sides = []
    games_ab = [make_game(a) for a in (args, b_args)]
    a, b = games_ab
    sa, sb = a.initial_state(), b.initial_state()
    if (a.num_actions != b.num_actions or a.max_length != b.max_length
            or a.num_players != b.num_players or sa.shape != sb.shape):
        raise UsageError("side B's game flags change the board: both sides must play one game")
    for a in (args, b_args):
        game, player = side_of(a, a.game)
        engine = player.engine(game)            # says so if the kernels compile now
        engine.search(game.initial_state(), playouts=64)    # no first-move compile time
        sides.append((game, engine, player.budget))
    total, rows, code = 0.0, [], 0
    seats = games_ab[0].num_players
    try:
        for i in range(args.games):
            a_seat = i % seats
            score, plies, ta, tb = play_game(sides, a_seat, args.seed + i)
            total += score
            rows.append({"game": i + 1, "a_first": a_seat == 0, "a_seat": a_seat,
                         "a_score": score, "plies": plies,
                         "a_seconds_per_move": ta, "b_seconds_per_move": tb})
            word = {1.0: "A wins", 0.0: "B wins"}.get(score, "draw" if seats == 2
                                                       else f"A scores {score:.2f}")
            place = ("first" if a_seat == 0 else "second") if seats == 2 else \
                f"seat {a_seat + 1} of {seats}"
            print(f"game {i + 1:>3}: A {place}, {word} in {plies} "
                  f"plies  A {ta:.2f} s/move, B {tb:.2f} s/move  [A {total:g}/{i + 1}]",
                  flush=True)
    except KeyboardInterrupt:
        print("interrupted: summary of the games finished so far", flush=True)
        code = 130
    n = len(rows)
    if n == 0:
        return code
    low, high = wilson(total, n)
    summary = {"games": n, "a_score": total, "a_rate": total / n, "wilson_95": [low, high],
               "wins": sum(r["a_score"] == 1.0 for r in rows),
               "draws": sum(0.0 < r["a_score"] < 1.0 for r in rows),
               "losses": sum(r["a_score"] == 0.0 for r in rows),
               "a_seconds_per_move": sum(r["a_seconds_per_move"] for r in rows) / n,
               "b_seconds_per_move": sum(r["b_seconds_per_move"] for r in rows) / n,
               "game": args.game, "a_args": args.argv[2:],
               "opponent_args": args.opponent_args or ""}
    print(f"A scored {total:g}/{n} = {100 * total / n:.0f} % (95 % Wilson interval "
          f"{100 * low:.0f}-{100 * high:.0f} %): {_count(summary['wins'], 'win')}, "
          f"{_count(summary['draws'], 'draw')}, {_count(summary['losses'], 'loss')}; "
          f"seconds per move: A "
          f"{summary['a_seconds_per_move']:.2f}, B {summary['b_seconds_per_move']:.2f}"
          + (f" (with {seats} players, A equal to B scores about 1/{seats} = "
             f"{100 / seats:.0f} %)" if seats > 2 else ""))
    if out:
        with open(out, "w") as f:
            json.dump({"summary": summary, "games": rows}, f, indent=1)
    return code
