#!/usr/bin/env bash
# Quarry (GTK Go/Amazons/Reversi board, Debian package quarry) plays a 9x9 game of our
# engine against itself: Quarry starts two engine processes (Black and White), sends
# play/genmove to each, and at the end asks the engines to score (final_score,
# final_status_list). The engine is registered in Quarry's ~/.quarry, HOME being a
# private folder under $WORK.
#   bash benchmarks/lab/gtp_clients/run_quarry.sh        (QUARRY_TIMEOUT=seconds, default 240;
#   ENGINE_ARGS="--rules chinese": more engine flags, e.g. for final_status_list dead)
source "$(dirname "$0")/common.sh"

need_apt quarry gnugo xvfb x11-utils imagemagick xdotool || exit 1
rm -f "$SHOTS"/quarry_*.png
warm_engine || exit 1

LOG="$WORK/quarry_gtp.log"
QHOME="$WORK/quarry-home"
ENGINE="$WORK/bin/quarry-engine"
rm -f "$LOG"; rm -rf "$QHOME"; mkdir -p "$QHOME"
# never resign, so that the game goes on to two passes and Quarry's scoring step
engine_wrapper "$ENGINE" "$LOG" --resign-threshold 0 ${ENGINE_ARGS:-}

# Quarry's configuration: one section per GTP engine, titled "NAME VERSION" (what the
# engine answers to name and version); the new-game defaults name it for both colours.
cat >"$QHOME/.quarry" <<EOF
# This is Quarry configuration file.

[GTP Engine "mcts-engine 0.1.0"]
Screen name format	= "%n %v"
Name			= "mcts-engine"
Version			= "0.1.0"
Command line		= "$ENGINE"
Supported games		= "Go"

[New Game Parameters]
Game			= "Go"
White player name	= "mcts-engine"
White is computer	= true
Engine playing white	= "mcts-engine 0.1.0"
Black player name	= "mcts-engine"
Black is computer	= true
Engine playing black	= "mcts-engine 0.1.0"

[New Go Game Parameters]
Board size		= 9
Handicap is fixed	= true
Fixed handicap		= 0
Free handicap		= 0
Komi			= 7.5
Time control type	= 0
Keep track of total time = 0
EOF

start_xvfb || exit 1
say "starting Quarry on $DISPLAY"
HOME="$QHOME" /usr/games/quarry >"$WORK/quarry-client.out" 2>&1 &
QPID=$!; track $QPID

find_window() {  # find_window NAME-REGEX: the first visible window whose name matches
    local i w
    for i in $(seq 30); do
        w="$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)"
        [ -n "$w" ] && { echo "$w"; return 0; }
        sleep 0.5
    done
    return 1
}

CC="$(find_window '^Quarry Control Center$')" || { say "no Quarry window"; shot quarry_failed; exit 1; }
xdo key --window "$CC" alt+n                      # New Game
NG="$(find_window '^New Game$')" || { say "no New Game dialog"; shot quarry_failed; exit 1; }
sleep 1; shot quarry_1_players
xdo key --window "$NG" alt+f                      # Forward (players -> rules page)
sleep 1; shot quarry_2_rules
xdo key --window "$NG" alt+p                      # Play
say "game started; waiting for moves"

TIMEOUT="${QUARRY_TIMEOUT:-240}"
if wait_for 10 '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$LOG" 120; then
    shot quarry_3_midgame
else
    say "fewer than 10 engine moves within 120 s"
    shot quarry_3_midgame
fi
if wait_for 1 '\] > ([0-9]+ )?(final_score|final_status_list)' "$LOG" "$TIMEOUT" \
   || wait_for 1 '\] < = resign$' "$LOG" 1; then
    sleep 5
else
    say "no scoring request within $TIMEOUT s"
fi
shot quarry_4_end
say "windows: $(visible_windows | tr '\n' '|')"

MOVES="$(grep -c -E '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$LOG")"
say "engine moves (genmove replies): $MOVES"
protocol_report "$LOG"
say "scoring exchange:"
"$PY" "$HERE/gtp_pairs.py" "$LOG" 'final_score|final_status_list' | sed 's/^/    /'
say "the same game replayed into fresh engines (Quarry's own count is on quarry_4_end.png):"
"$PY" "$HERE/replay_score.py" "$LOG" --gnugo | sed 's/^/    /'
if [ -s "$WORK/quarry-client.out" ]; then
    say "Quarry's own output ($WORK/quarry-client.out):"; head -20 "$WORK/quarry-client.out"
fi
[ "$MOVES" -ge 10 ]
