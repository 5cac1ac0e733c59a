#!/usr/bin/env bash
# Lizzie 0.7.4 (Java analysis GUI for Leela Zero, Debian package liblizzie-java) analyses
# with our engine as its "Leela Zero". Lizzie reads its settings from
# ~/.config/leela-zero/lizzie-config.txt (JSON; leelaz.engine-command is split into words
# at spaces, quotes grouping words; leelaz.engine-start-location is the engine's working
# folder) and its window layout from ~/.local/share/leela-zero/lizzie-persist; it writes
# both with its defaults added. HOME is a private folder under $WORK (java -Duser.home=...).
# At start Lizzie sends name, version, boardsize, komi, clear_board, then `lz-analyze 10`
# (a stream of `info move ... prior ...` lines every 0.1 s), and it refuses an engine whose
# version has a minor number below 15 ("Lizzie requires version 0.15 or later").
# The script clicks one move on the board (LIZZIE_CLICK, default C7, off-centre so that a
# mirrored board would show; empty: no click), checks that Lizzie sends that vertex, and
# waits for the analysis of the new position.
#   bash benchmarks/lab/gtp_clients/run_lizzie.sh     (ENGINE_ARGS: more engine flags;
#   LIZZIE_MIN_INFO: the info lines each analysis must give, default 10)
source "$(dirname "$0")/common.sh"

need_apt liblizzie-java xvfb x11-utils imagemagick xdotool || exit 1
command -v java >/dev/null || need_apt default-jre-headless || exit 1   # not a dependency
rm -f "$SHOTS"/lizzie_*.png
warm_engine || exit 1

LOG="$WORK/lizzie_gtp.log"
LHOME="$WORK/lizzie-home"
CLICK="${LIZZIE_CLICK-C7}"
MIN_INFO="${LIZZIE_MIN_INFO:-10}"
rm -f "$LOG"; rm -rf "$LHOME"
mkdir -p "$LHOME/.config/leela-zero" "$LHOME/.local/share/leela-zero"
case "$PY$HERE$REPO$LOG" in
    *[\ \"\\]*) say "a path with a space, quote or backslash: Lizzie splits its engine" \
                    "command at spaces, and the JSON config is not escaped here"
                exit 1 ;;
esac

# Only the keys that matter; Lizzie adds its defaults for the rest. resume-previous-game
# and confirm-exit off: no "resume?" question at start, no "Save SGF?" at exit.
ENGINE_CMD="$PY $HERE/gtp_tee.py $LOG -- $PY $REPO/cli.py gtp"
ENGINE_CMD="$ENGINE_CMD --seconds $SECONDS_PER_MOVE --threads 1 ${ENGINE_ARGS:-}"
cat >"$LHOME/.config/leela-zero/lizzie-config.txt" <<EOF
{
  "leelaz": {
    "engine-command": "${ENGINE_CMD% }",
    "engine-start-location": "$REPO",
    "analyze-update-interval-centisec": 10,
    "max-analyze-time-minutes": 99999,
    "print-comms": false
  },
  "ui": {
    "board-size": 9,
    "resume-previous-game": false,
    "confirm-exit": false,
    "autosave-interval-seconds": -1
  }
}
EOF
say "engine command: ${ENGINE_CMD% }"

start_xvfb || exit 1
say "starting Lizzie on $DISPLAY"
(cd "$LHOME" && exec java -Duser.home="$LHOME" -jar /usr/share/java/lizzie.jar \
    featurecat.lizzie.Lizzie >"$WORK/lizzie-client.out" 2>&1) &
track $!

# count_since FROM PATTERN: lines of the log from line FROM on that match PATTERN
count_since() { tail -n +"$1" "$LOG" 2>/dev/null | grep -c -E -- "$2" || true; }
# wait_since FROM COUNT PATTERN TIMEOUT: wait until COUNT such lines (wait_for from a line)
wait_since() {
    local t=0
    while [ "$(count_since "$1" "$3")" -lt "$2" ]; do
        [ "$t" -ge "$4" ] && return 1
        sleep 1; t=$((t + 1))
    done
}
INFO='\] < info move'
PLAY='\] > ([0-9]+ )?play '

ok=1
if wait_for 1 '\] > ([0-9]+ )?lz-analyze' "$LOG" 90 \
   && wait_for "$MIN_INFO" '\] < info move' "$LOG" 60; then
    say "first analysis: $(count_since 1 "$INFO") info lines so far"
else
    say "no lz-analyze with $MIN_INFO info lines within 150 s"; ok=0
fi
sleep 2; shot lizzie_1_start

find_main() {  # the largest visible window named Lizzie...
    local w best="" area=0 a
    for w in $(xdotool search --onlyvisible --name '^Lizzie' 2>/dev/null); do
        a="$(xwininfo -id "$w" | awk '/Width:/ {w=$2} /Height:/ {h=$2} END {print w*h}')"
        [ "$a" -gt "$area" ] && { area=$a; best=$w; }
    done
    [ -n "$best" ] && echo "$best"
}

CLICK_OK=1
if [ -n "$CLICK" ] && [ "$ok" = 1 ]; then
    CLICK_OK=0
    MAIN="$(find_main)"
    # Lizzie's default 960x600 window (no panel UI) draws the 9x9 grid with A9 at (238, 53)
    # and 60 pixels between lines
    read -r WW WH <<<"$(xwininfo -id "${MAIN:-0}" 2>/dev/null \
        | awk '/Width:/ {w=$2} /Height:/ {h=$2} END {print w, h}')"
    if [ -z "$MAIN" ]; then
        say "no Lizzie window to click"
    else
        [ "$WW $WH" = "960 600" ] \
            || say "Lizzie's window is ${WW}x${WH}, not 960x600: the click may miss"
        cols=ABCDEFGHJ; c="${cols%%${CLICK:0:1}*}"; c=${#c}; r="${CLICK:1}"
        mark=$(($(wc -l <"$LOG") + 1))
        xdo mousemove --window "$MAIN" $((238 + 60 * c)) $((53 + 60 * (9 - r))) click 1
        if wait_since "$mark" 1 "$PLAY" 5; then
            sent="$(tail -n +"$mark" "$LOG" | grep -E "$PLAY" | head -1 | sed 's/.*> //')"
            say "clicked $CLICK -> Lizzie sent '$sent'"
            if [ "$(echo "${sent##* }" | tr a-z A-Z)" != "$CLICK" ]; then
                say "FAIL: the vertex sent is not the one clicked"; CLICK_BAD=1
            fi
            pmark="$(grep -n -E "$PLAY" "$LOG" | tail -1 | cut -d: -f1)"
            wait_since "$pmark" "$MIN_INFO" "$INFO" 60
            n="$(count_since "$pmark" "$INFO")"
            say "analysis after the move: $n info lines"
            [ "$n" -ge "$MIN_INFO" ] && [ -z "${CLICK_BAD:-}" ] && CLICK_OK=1
        else
            say "clicked $CLICK -> Lizzie sent no play within 5 s"
        fi
    fi
    sleep 2
fi
shot lizzie_2_analysis
say "windows: $(visible_windows | tr '\n' '|')"

# ------------------------------------------------------------------------------ checks
protocol_report "$LOG"
say "start-up exchange:"
"$PY" "$HERE/gtp_pairs.py" "$LOG" '^([0-9]+ )?(name|version|boardsize|komi|clear_board|play)' \
    | sed 's/^/    /'
VERSION="$("$PY" "$HERE/gtp_pairs.py" "$LOG" '^([0-9]+ )?version$' | head -1 \
    | sed -n 's/.*->  =[0-9]* *//p')"
MINOR="$(printf '%s' "$VERSION" | cut -d. -f2)"
if [[ "$MINOR" =~ ^[0-9]+$ ]] && [ "$MINOR" -ge 15 ]; then
    say "version: '$VERSION' (minor $MINOR >= 15: Lizzie's Leela Zero check passes)"
else
    say "version: '$VERSION' (Lizzie wants a minor number >= 15)"; ok=0
fi
V_LINE="$(grep -n -E '\] < =[0-9]* *[0-9]+\.[0-9]+' "$LOG" | head -1 | cut -d: -f1)"
A_LINE="$(grep -n -E '\] > ([0-9]+ )?lz-analyze' "$LOG" | head -1 | cut -d: -f1)"
if [ -n "$V_LINE" ] && [ -n "$A_LINE" ] && [ "$A_LINE" -gt "$V_LINE" ]; then
    say "lz-analyze sent after the version reply (no 'requires 0.15' refusal):" \
        "$(grep -c -E '\] > ([0-9]+ )?lz-analyze' "$LOG") lz-analyze commands"
else
    say "no lz-analyze after the version reply"; ok=0
fi
if grep -q -E '\] < \?' "$LOG"; then say "FAIL: error replies"; ok=0; fi
INFOS="$(count_since 1 "$INFO")"
PRIORS="$(grep -E '\] < info move' "$LOG" | grep -o -E 'prior [0-9]+' | sort -u | wc -l)"
say "info lines: $INFOS (want >= $MIN_INFO); distinct prior values: $PRIORS (want > 2)"
# the same per analysis stream (each lz-analyze up to the next command): each must spread
SPREAD="$(awk '/\] > / { cur = 0 } /\] > ([0-9]+ )?lz-analyze/ { cur = ++s }
    cur && /\] < info move/ { for (i = 1; i < NF; i++) if ($i == "prior") p[cur " " $(i + 1)] = 1 }
    END { for (k in p) { split(k, b, " "); c[b[1]]++ }
          for (i = 1; i <= s; i++) printf "%d ", c[i] }' "$LOG")"
say "distinct prior values in each lz-analyze stream: ${SPREAD:-none}"
for n in $SPREAD; do
    [ "$n" -eq 0 ] || [ "$n" -gt 2 ] || { say "FAIL: a stream with $n prior values"; ok=0; }
done
say "last info line: $(grep -E '\] < info move' "$LOG" | tail -1 | sed 's/.*< //' | cut -c1-300)"
[ "$INFOS" -ge "$MIN_INFO" ] || ok=0
[ "$PRIORS" -gt 2 ] || ok=0
[ "$CLICK_OK" = 1 ] \
    || { say "FAIL: the click gave no play of that vertex, or no analysis after it"; ok=0; }
if grep -q -i -E 'exception|requires version' "$WORK/lizzie-client.out"; then
    say "Lizzie's output ($WORK/lizzie-client.out) has errors:"
    grep -i -E -A3 'exception|requires version' "$WORK/lizzie-client.out" | head -20
fi
say "result: $([ "$ok" = 1 ] && echo PASS || echo FAIL)"
[ "$ok" = 1 ]
