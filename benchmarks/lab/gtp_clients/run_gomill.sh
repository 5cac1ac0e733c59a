#!/usr/bin/env bash
# gomill's ringmaster (Python 2.7 only) runs a short 9x9 playoff of our engine against GNU Go
# level 1 (gomill_playoff.ctl): matchup "mcts" as given (may resign) and "mcts_nr" with
# --resign-threshold 0 (games reach two passes), scorer = 'players': both engines' final_score
# are compared and ringmaster marks a game "players disagreed" when they name different
# winners. gomill goes into $WORK/py27lib (pip --target), not into the repo or pyenv's 2.7.
#   bash benchmarks/lab/gtp_clients/run_gomill.sh         (GAMES=N per matchup, default 4)
source "$(dirname "$0")/common.sh"

need_apt gnugo || exit 1
PY27="${PY27:-}"
if [ -z "$PY27" ]; then
    for c in "$(pyenv root 2>/dev/null)"/versions/2.7*/bin/python2.7 /usr/bin/python2.7; do
        [ -x "$c" ] && { PY27="$c"; break; }
    done
fi
[ -n "$PY27" ] || { say "no Python 2.7 (gomill needs it; pyenv install 2.7.18)"; exit 1; }
LIB="$WORK/py27lib"
if [ ! -f "$LIB/gomill/ringmasters.py" ]; then
    say "pip install gomill into $LIB (with $PY27)"
    "$PY27" -m pip install --disable-pip-version-check -q --target "$LIB" gomill 2>&1 \
        | grep -v -i -e deprecation -e 'is ignored' || true
    [ -f "$LIB/gomill/ringmasters.py" ] || { say "gomill install failed"; exit 1; }
fi
warm_engine || exit 1

RULES="--rules chinese"
if ! (cd "$REPO" && "$PY" cli.py gtp --help 2>/dev/null | grep -q -- '--rules'); then
    say "NOTE: the engine has no --rules flag today; playing without it"
    RULES=""
fi
export MCTS_CMD="$PY $REPO/cli.py gtp --threads 1 --playouts ${PLAYOUTS:-300} $RULES"
export MCTS_NR_CMD="$MCTS_CMD --resign-threshold 0"
export GNUGO_CMD="/usr/games/gnugo --mode gtp --chinese-rules --level 1"
export GAMES="${GAMES:-4}"

RUN="$WORK/gomill"
rm -rf "$RUN"; mkdir -p "$RUN"       # a fresh competition (ringmaster resumes from .status)
cp "$HERE/gomill_playoff.ctl" "$RUN/"
say "ringmaster: $GAMES games per matchup; mcts: $MCTS_CMD"
(cd "$RUN" && PYTHONPATH="$LIB" "$PY27" "$LIB/bin/ringmaster" gomill_playoff.ctl run \
    --log-gtp --quiet >ringmaster.out 2>&1)
status=$?
[ -s "$RUN/ringmaster.out" ] && { say "ringmaster output:"; cat "$RUN/ringmaster.out"; }
say "report ($RUN/gomill_playoff.report):"; cat "$RUN/gomill_playoff.report"
say "game results (the SGF records in $RUN/gomill_playoff.games):"
for f in "$RUN"/gomill_playoff.games/*.sgf; do
    printf '    %s: %s\n' "$(basename "$f" .sgf)" "$(grep -m1 '^Result ' "$f" | sed 's/^Result //')"
done
say "final_score of each player, per game (gtplogs):"
for f in "$RUN"/gomill_playoff.gtplogs/*.log; do
    scores="$(grep -A1 -E '^>> [bw]: final_score' "$f" | grep '^<<' | sed 's/^<< //' | tr '\n' ' ')"
    printf '    %s: %s\n' "$(basename "$f" .log)" "${scores:-(no final_score: resignation)}"
done
say "'disagree' in report/log/output/SGF: $(grep -l -i disagree "$RUN"/gomill_playoff.report \
    "$RUN"/gomill_playoff.log "$RUN"/*.out "$RUN"/gomill_playoff.games/*.sgf 2>/dev/null \
    | tr '\n' ' ' || true)(none if empty)"
errors="$(grep -h -B1 -E '^<< [bw]: \?' "$RUN"/gomill_playoff.gtplogs/*.log 2>/dev/null || true)"
say "GTP error replies: ${errors:-none}"
problems="$(grep -i -E 'error|traceback|warning|forfeit|illegal|void' "$RUN/gomill_playoff.log" || true)"
say "problems in gomill_playoff.log: ${problems:-none}"
exit $status
