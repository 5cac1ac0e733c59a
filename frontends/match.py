"""`match`: this engine against any GTP engine, on Go, with GNU Go as referee.

Games alternate colours (ours Black in even-numbered games) and our engine's seed changes
with each game, so that games differ even at a fixed playout budget. A game ends on two consecutive
passes, a resignation, an illegal move (its author loses) or the move cap (3 n² moves); a game
ended by the cap is scored by GNU Go (``gnugo --mode gtp --chinese-rules``: the moves
replayed, then ``final_score``, which also judges dead stones), and so is one ended by two
passes when GNU Go judges no stone dead. When it does, the engines may disagree with it (GNU
Go misreads some sekis as dead groups): as on KGS, the game resumes with
``kgs-genmove_cleanup`` until two passes, and the position is then counted by Tromp-Taylor
(:func:`settle`). Our engine plays by Chinese rules (``--rules chinese`` is forced), so that
its passes and its count follow the referee's.
With ``--increment S`` our engine plays on a Fischer clock of its own (no main time, S
seconds added with each move: :mod:`frontends.timecontrol`), so its mean time per move stays
within S while it spends more on the middle game and keeps what it saves on easy moves (the
early stop) for later ones; without it, every move gets ``--seconds``. Each game is saved as
SGF. At the end: our win rate with its 95 % Wilson score interval (Wilson 1927), and the mean
seconds per move of each side.
"""
import json
import math
import os
import signal
import shutil
import sys
import time

from frontends.common import UsageError, console, err, make_game, output_file, output_folder
from frontends.gtp import GtpEngine
from frontends.gtp_client import EngineStartError, GtpClient
from frontends.player import PlayerConfig
from games.go import sgf as go_sgf

GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"
DEFAULT_OPPONENT = f"{GNUGO} --mode gtp --level 10 --chinese-rules"
REFEREE = f"{GNUGO} --mode gtp --chinese-rules"


def start_engine(command, timeout=120.0):
    """A :class:`GtpClient` for ``command``; ``UsageError`` if it cannot be started."""
    try:
        return GtpClient(command, timeout=timeout)
    except EngineStartError as e:
        raise UsageError(str(e)) from None




class Ours:
    """This engine behind the same interface as a GtpClient (in-process GTP)."""

    def __init__(self, params, player, log=None):
        self.gtp = GtpEngine(params, player, log=log)

    def send(self, command):
        reply = self.gtp.handle(command) or "="
        return reply.startswith("="), reply[1:].lstrip("0123456789").strip()

    def close(self):
        pass


def wilson(wins, n, z=1.96):
    """95 % Wilson score interval (low, high) for ``wins`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _referee(size, komi, moves, query):
    """GNU Go's reply to ``query`` after replaying ``moves`` [(colour letter, vertex)], or
    None if it refuses a move or the query."""
    ref = start_engine(REFEREE)
    try:
        for cmd in (f"boardsize {size}", f"komi {komi}", "clear_board"):
            ref.send(cmd)
        for color, vertex in moves:
            ok, _ = ref.send(f"play {color} {vertex}")
            if not ok:
                return None
        ok, reply = ref.send(query)
        return reply if ok else None
    finally:
        ref.close()


def referee_score(size, komi, moves):
    """GNU Go's final score ("B+3.5") of the game ``moves`` [(colour letter, vertex)]."""
    return _referee(size, komi, moves, "final_score")


def referee_dead(size, komi, moves):
    """The stones GNU Go judges dead at the end of ``moves``: a list of vertices (None if it
    cannot replay them)."""
    reply = _referee(size, komi, moves, "final_status_list dead")
    return None if reply is None else reply.split()


def tromp_taylor(game, moves):
    """The Tromp-Taylor area count ("B+3.5", "W+0.5" or "0") of the position after
    ``moves``: every stone on the board alive (games.go.game.Go.score); None if our rules
    refuse one of the moves."""
    state = game.initial_state()
    try:
        for color, vertex in moves:         # the stones only: two passes would end the game
            if vertex != "pass":
                game.set_to_play(state, "bw".index(color))
                game.play(state, game.vertex_to_action(vertex))
    except ValueError:                      # a move our rules refuse (another superko rule)
        return None
    return game.result_string(game.score(state))


def play_moves(players, color, moves, cap, clock, command="genmove"):
    """Alternate ``command`` ("genmove" or "kgs-genmove_cleanup") to ``players`` ({"b": engine,
    "w": engine}), ``color`` first, each move sent to the other engine and appended to
    ``moves``, until two passes in a row, a resignation, a refused move or ``cap`` moves in
    all. ``clock(engine, seconds)`` gets each reply's time. An engine that does not know
    the cleanup command gets ``genmove``. Returns ``(result or None, reason, passes)``."""
    passes = 0
    while len(moves) < cap:
        mover, other = players[color], players["bw"[color == "b"]]
        t0 = time.perf_counter()
        ok, move = mover.send(f"{command} {color}")
        if not ok and command != "genmove" and "unknown" in move.lower():
            ok, move = mover.send(f"genmove {color}")
        clock(mover, time.perf_counter() - t0)
        move = move.lower()
        if not ok:
            return f"{'WB'[color == 'w']}+F", f"genmove failed: {move}", passes
        if move == "resign":
            return f"{'WB'[color == 'w']}+R", "resignation", passes
        ok, msg = other.send(f"play {color} {move}")
        if not ok:
            return f"{'WB'[color == 'w']}+F", f"illegal move {move}", passes
        moves.append((color, move))
        passes = passes + 1 if move == "pass" else 0
        if passes >= 2:
            break
        color = "bw"[color == "b"]
    return None, "two passes" if passes >= 2 else "move cap", passes


def settle(game, players, moves, cap, clock):
    """The result of a game that ended in two passes, as KGS settles a dispute: if GNU Go
    judges no stone dead, its ``final_score``; else the game resumes with
    ``kgs-genmove_cleanup`` (each engine captures the stones it thinks dead, and passes only
    when none are left) until two passes in a row, and the position is then counted by
    Tromp-Taylor, every stone on the board alive (the game's move cap ends the cleanup too).
    So a seki the referee misreads as dead, or dead stones an engine left on the board, are
    settled by the engines' play, not by the referee's judgement. Returns ``(result,
    reason)``."""
    size, komi = game.size, f"{game.komi:g}"
    if not referee_dead(size, komi, moves):
        return referee_score(size, komi, moves) or "?", "two passes"
    color = "bw"[moves[-1][0] == "b"]
    result, reason, passes = play_moves(players, color, moves,
                                        min(len(moves) + cap, game.max_length), clock,
                                        "kgs-genmove_cleanup")
    if result is not None:
        return result, f"{reason} in the cleanup"
    count = tromp_taylor(game, moves)
    if count is None:
        return referee_score(size, komi, moves) or "?", "two passes (GNU Go's count)"
    return count, "two passes, dead stones disputed: played out"


def new_game(engines, size, komi):
    """Set up an empty ``size`` board with ``komi`` on every GTP engine of ``engines``;
    ``RuntimeError`` naming the command an engine refused."""
    for p in engines:
        for cmd in (f"boardsize {size}", f"komi {komi:g}", "clear_board"):
            ok, msg = p.send(cmd)
            if not ok:
                raise RuntimeError(f"setup failed ({cmd}): {msg}")


def play_game(index, ours, theirs, args, game):
    """One game; returns a dict with the result and timings."""
    ours_black = index % 2 == 0
    ours.gtp.session.reseed(args.seed + index)     # every game a different one
    players = {"b": ours if ours_black else theirs, "w": theirs if ours_black else ours}
    new_game((ours, theirs), game.size, game.komi)
    if getattr(args, "increment", None):                # our clock, afresh every game
        ok, msg = ours.send(f"kata-time_settings fischer 0 {args.increment:g}")
        if not ok:
            raise RuntimeError(f"setup failed (time settings): {msg}")
    moves = []
    times = {"ours": [], "theirs": []}

    def clock(engine, seconds):
        times["ours" if engine is ours else "theirs"].append(seconds)

    cap = 3 * game.size * game.size
    result, reason, passes = play_moves(players, "b", moves, cap, clock)
    if result is None and passes >= 2:
        result, reason = settle(game, players, moves, game.size * game.size, clock)
    elif result is None:
        result = referee_score(game.size, f"{game.komi:g}", moves) or "?"
    winner = result[0].lower() if result[:1] in ("B", "W") else None
    ours_color = "b" if ours_black else "w"
    path = None
    if args.sgf_dir:
        sgf_moves = [(0 if c == "b" else 1, game.vertex_to_action(v)) for c, v in moves]
        names = ("mcts-engine", args.opponent) if ours_black else (args.opponent, "mcts-engine")
        data = go_sgf.to_sgf(game, sgf_moves, result=result, player_names=names,
                             rules="chinese")
        path = go_sgf.save(os.path.join(args.sgf_dir, f"game-{index + 1:03d}.sgf"), data)
    return {"game": index + 1, "ours": ours_color, "result": result, "reason": reason,
            "moves": len(moves), "win": winner == ours_color,
            "ours_seconds_per_move": _mean(times["ours"]),
            "theirs_seconds_per_move": _mean(times["theirs"]), "sgf": path}


def _mean(values):
    return sum(values) / len(values) if values else 0.0


def main(args):
    """Run the `match` command; returns the exit status."""
    game = make_game(args)                  # Go, with the parameters given on the command line
    params = dict(game.params, rules="chinese")     # the referee's rules
    if args.sgf_dir:
        output_folder(args.sgf_dir)
    if args.json:
        output_file(args.json)
    opponent = args.opponent or DEFAULT_OPPONENT
    args.opponent = opponent
    try:                                # a dead engine: BrokenPipeError, not a silent exit
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    except (AttributeError, ValueError):
        pass
    try:                                # our settings first: no opponent started for a bad one
        ours = Ours(params, PlayerConfig.from_args(args))
    except ValueError as e:
        raise UsageError(str(e)) from None
    theirs = start_engine(opponent, timeout=max(120.0, 30.0 * (args.seconds or 1.0)))
    try:
        theirs.send("protocol_version", timeout=30)
    except RuntimeError as e:
        theirs.close()
        raise UsageError(f"cannot play against {opponent!r}: {e}") from None
    budget = (f"{args.playouts} playouts per move" if args.playouts else
              f"Fischer time, {args.increment:g} s increment" if getattr(args, "increment", None)
              else f"{args.seconds or 1.0} s per move")
    if not ours.gtp.ready.wait(3.0):    # a match measures the search, not a first compile
        err.print("compiling the search kernels (first run only) ...")
        ours.gtp.ready.wait()
    console.print(f"match: mcts-engine ({budget}) vs {opponent}, {args.games} games, "
                  f"{game.size}x{game.size}, komi {game.komi:g}", markup=False)
    games = []
    try:
        for i in range(args.games):
            g = play_game(i, ours, theirs, args, game)
            games.append(g)
            wins = sum(x["win"] for x in games)
            console.print(f"game {g['game']:>3}: ours {g['ours'].upper()}, {g['result']:<7} "
                          f"({g['reason']}, {g['moves']} moves) {'WIN ' if g['win'] else 'loss'}"
                          f"  ours {g['ours_seconds_per_move']:.2f} s/move, theirs "
                          f"{g['theirs_seconds_per_move']:.2f} s/move  [{wins}/{len(games)}]")
    except KeyboardInterrupt:
        err.print("interrupted: summary of the games finished so far")
    except RuntimeError as e:           # the opponent (or the referee) died or hung
        err.print(f"error: {e}; summary of the games finished so far")
    finally:
        theirs.close()
    n, wins = len(games), sum(g["win"] for g in games)
    low, high = wilson(wins, n)
    summary = {"games": n, "wins": wins, "win_rate": wins / n if n else 0.0,
               "wilson_95": [low, high],
               "ours_seconds_per_move": _mean([g["ours_seconds_per_move"] for g in games]),
               "theirs_seconds_per_move": _mean([g["theirs_seconds_per_move"] for g in games]),
               "opponent": opponent, "size": game.size, "komi": game.komi, "budget": budget,
               "command": " ".join(sys.argv)}
    if n:
        console.print(f"won {wins}/{n} = {100 * summary['win_rate']:.0f} % "
                      f"(95 % Wilson interval {100 * low:.0f}-{100 * high:.0f} %); seconds per "
                      f"move: ours {summary['ours_seconds_per_move']:.2f}, theirs "
                      f"{summary['theirs_seconds_per_move']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "games": games}, f, indent=1)
    return 0
