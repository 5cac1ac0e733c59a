#!/usr/bin/env bash
# qGo 2.1 (Qt Go client and SGF editor, Debian package qgo): a 9x9 game, human (Black,
# clicks sent with xdotool) against our engine (White). qGo keeps its engine list in
# ~/.config/qGo/qGo.conf (QSettings: ENGINES array of path/args, DEFAULT_ENGINE index,
# COMPUTER_PLAYS_WHITE/BLACK, EDIT_SIZE, EDIT_KOMI); HOME is a private folder under $WORK.
#
# Two runs, because qGo 2.1 matches genmove replies to their requests by command number
# and numbers its commands only when the engine's path ends in "gnugo" (src/gtp/qgtp.cpp):
#   A  engine path .../qgo-engine: plain commands; expected to stall after the first
#      genmove (qGo drops the unnumbered reply)
#   B  the same engine behind a path ending in .../gnugo: numbered commands ("1005 play
#      black E5", replies "=1005"), the game goes on
#   C  control: GNU Go itself (behind the same logging wrapper), the same clicks: shows
#      which oddities are qGo's own
#   bash benchmarks/lab/gtp_clients/run_qgo.sh          (QGO_RUNS="A B C" by default;
#                                                    ENGINE_ARGS: more engine flags)
source "$(dirname "$0")/common.sh"

need_apt qgo xvfb x11-utils imagemagick xdotool || exit 1
rm -f "$SHOTS"/qgo_*.png
warm_engine || exit 1

QHOME="$WORK/qgo-home"
CONF="$QHOME/.config/qGo/qGo.conf"

write_conf() {  # write_conf ENGINE-PATH
    rm -rf "$QHOME"; mkdir -p "$(dirname "$CONF")"
    cat >"$CONF" <<EOF
[General]
COMPUTER_PLAYS_BLACK=false
COMPUTER_PLAYS_WHITE=true
DEFAULT_ENGINE=0
EDIT_HANDICAP=0
EDIT_KOMI=7.5
EDIT_SIZE=9
SOUND=1

[ENGINES]
1\\args=
1\\path=$1
size=1
EOF
}

find_window() {  # find_window NAME-REGEX [TRIES]
    local i w
    for i in $(seq "${2:-30}"); do
        w="$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)"
        [ -n "$w" ] && { echo "$w"; return 0; }
        sleep 0.5
    done
    return 1
}

geometry() {  # geometry WINDOW: "X Y W H"
    xwininfo -id "$1" | awk '/Absolute upper-left X/ {x=$4} /Absolute upper-left Y/ {y=$4}
        /Width:/ {w=$2} /Height:/ {h=$2} END {print x, y, w, h}'
}

# the board of a 9x9 game in qGo's default 981x878 board window: A1..J9 centres
COL0=53; ROW9=197; STEP=60
click_point() {  # click_point WINDOW VERTEX (e.g. C3): click that point of the board
    local col row cols=ABCDEFGHJ
    col="${cols%%${2:0:1}*}"; col=${#col}; row="${2:1}"
    xdo mousemove --window "$1" $((COL0 + STEP * col)) $((ROW9 + STEP * (9 - row))) click 1
}

launch_qgo() {  # launch_qgo RUN
    HOME="$QHOME" /usr/games/qgo >"$WORK/qgo-$1.out" 2>&1 &
    track $!
}

open_game() {  # open New game (Ctrl+N), press OK; echo the board window
    local main dlg gx gy gw gh
    main="$(find_window '^qGo [0-9]')" || { say "no qGo window"; return 1; }
    sleep 1
    xdo windowfocus "$main"; xdo key --window "$main" ctrl+n
    dlg="$(find_window '^Dialog$')" || { say "no New game dialog"; return 1; }
    sleep 1; shot "qgo_${1}_1_newgame" >&2
    local try board
    for try in 1 2 3 4 5; do
        read -r gx gy gw gh <<<"$(geometry "$dlg")"
        xdo mousemove $((gx + 116)) $((gy + 284)) click 1      # OK
        board="$(find_window ' - qGo$' 8)" && { echo "$board"; return 0; }
        say "OK click $try did not open the board; again" >&2
    done
    return 1
}

plays() { grep -c -E '\] > ([0-9]+ )?play black' "$1" 2>/dev/null || true; }
genmoves() { grep -c -E '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$1" 2>/dev/null || true; }

# ---------------------------------------------------------------- A: plain engine path
run_A() {
start_xvfb || return 1
LOG_A="$WORK/qgo_gtp_plain.log"; rm -f "$LOG_A"
engine_wrapper "$WORK/bin/qgo-engine" "$LOG_A" ${ENGINE_ARGS:-}
write_conf "$WORK/bin/qgo-engine"
say "A: engine path $WORK/bin/qgo-engine"
launch_qgo A
BOARD="$(open_game A)" || { shot qgo_A_failed; cleanup; return 1; }
wait_for 1 '\] > ([0-9]+ )?komi' "$LOG_A" 60
sleep 2
click_point "$BOARD" E5
wait_for 1 '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$LOG_A" 20
sleep 2
click_point "$BOARD" C3; sleep 3
click_point "$BOARD" G3; sleep 3
shot qgo_A_2_after_clicks
say "A: windows: $(visible_windows | tr '\n' '|')"
say "A: plays sent $(plays "$LOG_A"), genmove replies $(genmoves "$LOG_A") after 3 clicks"
if [ "$(plays "$LOG_A")" -le 1 ]; then
    say "A: STALLED: qGo ignored the engine's unnumbered genmove reply" \
        "($(grep -E '\] < =[0-9]* [A-HJ-T][0-9]+$' "$LOG_A" | head -1 | sed 's/.*< //'))" \
        "and still waits for White; later clicks send nothing"
fi
protocol_report "$LOG_A"
cleanup
}

# ---------------------------------------------------- B: engine path ending in "gnugo"
run_B() {
start_xvfb || return 1
LOG_B="$WORK/qgo_gtp_numbered.log"; rm -f "$LOG_B"
engine_wrapper "$WORK/bin/qgo-as-gnugo/gnugo" "$LOG_B" ${ENGINE_ARGS:-}
write_conf "$WORK/bin/qgo-as-gnugo/gnugo"
say "B: engine path $WORK/bin/qgo-as-gnugo/gnugo"
launch_qgo B
BOARD="$(open_game B)" || { shot qgo_B_failed; cleanup; return 1; }
wait_for 1 '\] > ([0-9]+ )?komi' "$LOG_B" 60
sleep 2
CLICKS=(E5 C3 G7 C7 G3 D4 F6 B5)
for v in "${CLICKS[@]}"; do
    before="$(genmoves "$LOG_B")"; before_plays="$(plays "$LOG_B")"
    click_point "$BOARD" "$v"
    if ! wait_for $((before_plays + 1)) '\] > ([0-9]+ )?play black' "$LOG_B" 5; then
        say "B: clicked $v -> qGo sent nothing (the point is taken on qGo's board)"
    elif wait_for $((before + 1)) '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$LOG_B" 15; then
        sent="$(grep -E '\] > ([0-9]+ )?play black' "$LOG_B" | tail -1 | sed 's/.*play black //')"
        reply="$(grep -E '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$LOG_B" | tail -1 | sed 's/.*< =[0-9]* //')"
        say "B: clicked $v -> qGo sent 'play black $sent'; engine replied $reply"
    else
        say "B: clicked $v -> qGo sent a play but got no genmove reply within 15 s"
    fi
    sleep 1
done
shot qgo_B_2_game
say "B: windows: $(visible_windows | tr '\n' '|')"
say "B: plays sent $(plays "$LOG_B"), genmove replies $(genmoves "$LOG_B")"
protocol_report "$LOG_B"
say "B: the engine's view of the game (a replay of the log):"
"$PY" "$HERE/replay_score.py" "$LOG_B" | sed 's/^/    /'
cleanup
[ "$(plays "$LOG_B")" -ge 4 ]
}

# ------------------------------------ C: the same clicks against GNU Go (a control run)
# tells whether what B showed (row numbers mirrored between board and GTP) is qGo's own
run_C() {
    need_apt gnugo || return 1
    start_xvfb || return 1
    LOG_C="$WORK/qgo_gtp_gnugo.log"; rm -f "$LOG_C"
    mkdir -p "$WORK/bin/real-gnugo"
    printf '#!/bin/sh\nexec "%s" "%s" "%s" -- /usr/games/gnugo --mode gtp --level 1 "$@"\n' \
        "$PY" "$HERE/gtp_tee.py" "$LOG_C" >"$WORK/bin/real-gnugo/gnugo"
    chmod +x "$WORK/bin/real-gnugo/gnugo"
    write_conf "$WORK/bin/real-gnugo/gnugo"
    say "C: GNU Go itself, path $WORK/bin/real-gnugo/gnugo"
    launch_qgo C
    BOARD="$(open_game C)" || { shot qgo_C_failed; cleanup; return 1; }
    wait_for 1 '\] > ([0-9]+ )?komi' "$LOG_C" 60
    sleep 1
    for v in C3 G7 D4; do
        before="$(plays "$LOG_C")"
        click_point "$BOARD" "$v"
        if wait_for $((before + 1)) '\] > ([0-9]+ )?play black' "$LOG_C" 5; then
            sent="$(grep -E '\] > ([0-9]+ )?play black' "$LOG_C" | tail -1 | sed 's/.*play black //')"
            say "C: clicked $v -> qGo sent 'play black $sent' to GNU Go"
        else
            say "C: clicked $v -> qGo sent nothing (the point is taken on qGo's board)"
        fi
        wait_for $((before + 1)) '\] < =[0-9]* ([A-HJ-T][0-9]+|pass|PASS|resign)$' "$LOG_C" 15
        sleep 1
    done
    shot qgo_C_gnugo
say "C: windows: $(visible_windows | tr '\n' '|')"
    cleanup
}

status=0
for run in ${QGO_RUNS:-A B C}; do
    "run_$run" || { say "run $run failed"; status=1; }
done
say "qGo's own output: $WORK/qgo-{A,B,C}.out"
exit $status
