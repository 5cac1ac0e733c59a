"""Playout balance: how far the mean outcome of our Go playouts from a position lies from a
strong engine's win rate there, policy by policy. A diagnostic of what the playouts *say*
about a position, beside (never instead of) matches at equal time.

    python -m benchmarks.lab.playout_balance label --engine "CMD" --positions POSITIONS.json
        --out VALUES.jsonl [--limit N]
    python -m benchmarks.lab.playout_balance score --values VALUES.jsonl
        [--policies ko,uniform] [--playouts 1000] [--band 0.1] [--seed 1]
        [--compare VALUES.jsonl ...] [--json FILE]

``label`` asks the reference engine (Pachi: ``PACHI -t =40000 threads=1,pondering=0``) for a
move at each position of a ``benchmarks.lab.move_agreement`` positions file and keeps the win
rate it reports for the side to move, read from its standard error by ``--value-pattern``
(Pachi's ``*** WINNER is E5 ... with score 0.4713``). ``score`` plays ``--playouts``
playouts of each policy from every position whose reference value lies in [band, 1 - band]
and reports the mean squared error of the playout mean against that value, its mean bias,
the correlation, and the paired difference of each policy's squared error from the first
policy's with its standard error. A policy is a name of ``games.go.kernels.POLICIES``.

The quantity is the one simulation balancing minimises (Silver and Tesauro 2009,
"Monte-Carlo simulation balancing"; Huang, Coulom and Lin 2010, "Monte-Carlo simulation
balancing in practice"): a playout policy is a good evaluator when its mean outcome matches
the position's value, whether or not its moves are strong. The reference value is a search
value (the best move's), so even a perfect playout policy keeps a small negative bias.
"""
import argparse
import json
import re
import sys

import numpy as np

from frontends.common import UsageError, exit_code, read_bounded
from frontends.gtp_client import GtpClient
from games.contract import FIRST_WINS, SECOND_WINS
from games.go.kernels import POLICIES, rollout
from games.go.board import F_POLICY
from games.go import Go
from games.rng import new_rng

PACHI_VALUE = r"WINNER is \S+ .*?with score ([0-9.]+)"
MAX_FILE_BYTES = 16 << 20


def policy_code(name):
    """The F_POLICY bits of ``name``, a name of games.go.kernels.POLICIES; ``UsageError`` for an
    unknown name."""
    if name not in POLICIES:
        raise UsageError(f"unknown playout policy {name!r} (known: {', '.join(POLICIES)})")
    return POLICIES[name]


def read_file(path):
    """The bytes of the regular file ``path`` (at most MAX_FILE_BYTES); ``UsageError`` naming
    it otherwise."""
    try:
        return read_bounded(path, MAX_FILE_BYTES)
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror or e}") from None
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None


def read_records(path):
    """The JSON objects, one per line, of ``path``; ``UsageError`` naming the first bad line
    or a file that cannot be read."""
    text = read_file(path).decode("utf-8", errors="replace")
    records = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            moves = [(str(c), str(v)) for c, v in r["moves"]]
            records.append({"moves": moves, "colour": str(r["colour"]),
                            "value": float(r["value"]), "size": int(r.get("size", 9)),
                            "komi": float(r.get("komi", 7.5))})
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"{path} line {i}: not a labelled position ({e})") from None
    return records


def label(args):
    try:
        positions = json.loads(read_file(args.positions))["positions"]
    except (ValueError, KeyError, TypeError) as e:
        raise UsageError(f"{args.positions}: not a positions file ({e})") from None
    pattern = re.compile(args.value_pattern)
    done = 0
    with open(args.out, "w") as out:
        for p in positions[:args.limit]:
            size, komi = p.get("size", 9), p.get("komi", 7.5)
            cmds = [f"boardsize {size}", f"komi {komi:g}", "clear_board"]
            cmds += [f"play {c} {v}" for c, v in p["moves"]] + [f"genmove {p['colour']}"]
            with GtpClient(args.engine, timeout=args.timeout, keep_stderr=True) as engine:
                for cmd in cmds:        # a new process per position: nothing carried over
                    engine.ask(cmd)
            found = pattern.findall(engine.stderr_text())
            if not found:
                print(f"position {done + 1}: no value in the engine's output, left out",
                      file=sys.stderr)
                continue
            out.write(json.dumps({"moves": p["moves"], "colour": p["colour"], "size": size,
                                  "komi": komi, "value": float(found[-1])}) + "\n")
            out.flush()
            done += 1
            print(f"{done}/{len(positions[:args.limit])}: {found[-1]}", flush=True)
    print(f"{done} labelled positions written to {args.out}")


def playout_means(records, code, playouts, band, seed, kept=None):
    """(playout means, reference values) over the records whose value lies in [band, 1 -
    band]: float64 arrays of shape ``(n,)``, win rates of the side to move. ``kept``, a list,
    gets the records used, in order."""
    rng = new_rng(seed)
    means, refs = [], []
    for r in records:
        if not band <= r["value"] <= 1.0 - band:
            continue
        game = Go(size=r["size"], komi=r["komi"])
        state = game.initial_state()
        for _, v in r["moves"]:
            game.play(state, game.parse_move(v, state))
        if game.status(state) != 0:
            continue
        win = FIRST_WINS if r["colour"] == "b" else SECOND_WINS
        state[F_POLICY] = code
        wins = 0
        for _ in range(playouts):
            wins += rollout(state.copy(), rng) == win
        means.append(wins / playouts)
        refs.append(r["value"])
        if kept is not None:
            kept.append(r)
    return np.array(means), np.array(refs)


def compared_means(path, other, kept):
    """Another engine's playout means ``other`` (moves tuple -> value, read from the ``label``
    file ``path``) at the records ``kept``, as a float64 array of their shape; ``UsageError``
    if one of them is missing."""
    try:
        return np.array([other[tuple(r["moves"])] for r in kept])
    except KeyError:
        raise UsageError(f"{path}: lacks some of the scored positions") from None


def balance_summary(means, refs, base_err=None):
    """MSE, bias and correlation of ``means`` against ``refs`` (float64 arrays, same shape);
    with ``base_err`` (the first policy's squared errors) the paired difference in MSE and
    its standard error."""
    err = (means - refs) ** 2
    row = {"positions": int(len(refs)), "mse": float(err.mean()),
           "bias": float((means - refs).mean()), "corr": float(np.corrcoef(means, refs)[0, 1])}
    if base_err is not None:
        d = err - base_err
        row["mse_minus_first"] = float(d.mean())
        row["stderr"] = float(d.std(ddof=1) / np.sqrt(len(d)))
    return row, err


def score(args):
    records = read_records(args.values)
    codes = [(spec, policy_code(spec)) for spec in args.policies.split(",")]
    rows, base, kept = {}, None, []
    compared = {path: {tuple(r["moves"]): r["value"] for r in read_records(path)}
                for path in args.compare or []}        # read first: a bad file fails at once
    for spec, code in codes + [(path, None) for path in compared]:
        if code is None:
            means = compared_means(spec, compared[spec], kept)
        else:
            kept.clear()
            means, refs = playout_means(records, code, args.playouts, args.band, args.seed,
                                        kept)
        if len(refs) < 2:
            raise UsageError(f"{args.values}: fewer than two positions in the band")
        row, err = balance_summary(means, refs, base)
        base = err if base is None else base
        rows[spec] = row
        extra = (f"  MSE - {codes[0][0]}: {row['mse_minus_first']:+.4f} "
                 f"(s.e. {row['stderr']:.4f})" if "stderr" in row else "")
        print(f"{spec:18s} {row['positions']} positions  MSE {row['mse']:.4f}  bias "
              f"{row['bias']:+.3f}  corr {row['corr']:.3f}{extra}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"values": args.values, "playouts": args.playouts, "band": args.band,
                       "seed": args.seed, "policies": rows}, f, indent=1)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label", help="the reference engine's win rate at each position")
    lab.add_argument("--engine", required=True, metavar="CMD", help="reference GTP engine")
    lab.add_argument("--positions", required=True, metavar="FILE",
                     help="a benchmarks.lab.move_agreement positions file")
    lab.add_argument("--out", required=True, metavar="FILE", help="values file to write")
    lab.add_argument("--limit", type=int, default=None, help="only the first N positions")
    lab.add_argument("--value-pattern", default=PACHI_VALUE, metavar="REGEX",
                     help="regular expression whose group 1 is the win rate, searched in the "
                          "engine's standard error (default: Pachi's)")
    lab.add_argument("--timeout", type=float, default=600.0,
                     help="seconds to wait for each reply (600)")
    sc = sub.add_parser("score", help="balance of playout policies against the values")
    sc.add_argument("--values", required=True, metavar="FILE", help="from `label`")
    sc.add_argument("--policies", default="ko,uniform",
                    help="comma-separated policies, the first the reference of the paired "
                         "differences (default ko,uniform)")
    sc.add_argument("--playouts", type=int, default=1000, help="playouts per position (1000)")
    sc.add_argument("--band", type=float, default=0.1,
                    help="keep positions whose value lies in [band, 1 - band] (0.1)")
    sc.add_argument("--seed", type=int, default=1, help="random seed (1)")
    sc.add_argument("--compare", action="append", metavar="FILE",
                    help="another engine's playout means at the same positions, written by "
                         "`label` (Pachi's Moggy playouts: see benchmarks/lab/data/balance/"
                         "README.md), scored as a row beside the policies; repeatable")
    sc.add_argument("--json", metavar="FILE", help="write the summary here")
    args = p.parse_args(argv)
    if args.command == "score" and (args.playouts < 1 or not 0.0 <= args.band < 0.5):
        p.error("--playouts must be at least 1 and --band in [0, 0.5)")
    return exit_code(label if args.command == "label" else score, args)


if __name__ == "__main__":
    sys.exit(main())
