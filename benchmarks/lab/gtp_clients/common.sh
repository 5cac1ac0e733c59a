# Shared helpers for the GTP client trials; sourced by the run_*.sh scripts.
# Work files (logs, client homes, node_modules, the Python 2.7 library) go under $WORK,
# default /tmp/gtp_clients, screenshots included ($WORK/screenshots/).

set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
WORK="${GTP_CLIENTS_WORK:-/tmp/gtp_clients}"
SHOTS="$WORK/screenshots"
mkdir -p "$WORK" "$SHOTS"
# the Python that has the engine's dependencies (pyenv's shim resolves to it here)
PY="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
SECONDS_PER_MOVE="${SECONDS_PER_MOVE:-0.5}"
export XDG_RUNTIME_DIR="$WORK/xdg-runtime"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

_STARTED_PIDS=()

say() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*"; }

# need_apt PACKAGE...: install the Debian packages that are missing (apt-get update once)
need_apt() {
    local missing=() p
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "apt-get install ${missing[*]}"
    if [ ! -f "$WORK/.apt-updated" ]; then
        apt-get update -qq && touch "$WORK/.apt-updated"
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >"$WORK/apt-install.log" 2>&1 \
        || { say "apt-get failed, see $WORK/apt-install.log"; return 1; }
}

# engine_wrapper FILE LOG [EXTRA ENGINE ARGS...]: write an executable that runs our engine
# through gtp_tee.py (logging the traffic to LOG); clients take it as their engine command
engine_wrapper() {
    local file="$1" log="$2"; shift 2
    mkdir -p "$(dirname "$file")"
    cat >"$file" <<EOF
#!/bin/sh
# written by $(basename "$0"): our GTP engine, its traffic logged to $log
cd "$REPO"
exec "$PY" "$HERE/gtp_tee.py" "$log" -- "$PY" "$REPO/cli.py" gtp --threads 1 \\
    --seconds $SECONDS_PER_MOVE $* "\$@"
EOF
    chmod +x "$file"
}

# warm_engine: load (or compile) the numba kernels once, on one core, before a client
# starts one or two engines at the same time
warm_engine() {
    say "warming the engine's compiled kernels"
    local out
    out="$(cd "$REPO" && printf 'boardsize 9\ngenmove b\nquit\n' \
        | "$PY" cli.py gtp --threads 1 --playouts 50 2>"$WORK/warm.err")"
    if ! printf '%s\n' "$out" | grep -q -E '^= [A-HJ-T][0-9]'; then
        say "the engine gave no move to 'genmove b'; its output and stderr:"
        printf '%s\n' "$out"; tail -20 "$WORK/warm.err"
        return 1
    fi
}

# start_xvfb: start Xvfb on a free display (no key autorepeat), export DISPLAY
_NEXT_DISPLAY=90
start_xvfb() {
    local n=$_NEXT_DISPLAY pid i
    while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
    _NEXT_DISPLAY=$((n + 1))
    Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp -ardelay 600000 \
        >"$WORK/xvfb-$n.log" 2>&1 &
    pid=$!; _STARTED_PIDS+=($pid)
    export DISPLAY=":$n"
    for i in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        DISPLAY=":$n" xdpyinfo >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    say "Xvfb did not start on :$n:"; cat "$WORK/xvfb-$n.log"; return 1
}

# track PID: remember a process this script started, ended by cleanup
track() { _STARTED_PIDS+=("$1"); }

cleanup() {  # end the processes this script started, newest first, each by its pid
    local i pid t
    for ((i = ${#_STARTED_PIDS[@]} - 1; i >= 0; i--)); do
        pid="${_STARTED_PIDS[$i]}"
        kill "$pid" 2>/dev/null || continue
        for t in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    _STARTED_PIDS=()
}
trap cleanup EXIT

# xdotool without its X-server focus warnings (there is no window manager under Xvfb)
xdo() { xdotool "$@" 2>/dev/null; }

shot() {  # shot NAME: screenshot of the whole Xvfb screen to $SHOTS/NAME.png
    import -window root "$SHOTS/$1.png" && say "screenshot: $SHOTS/$1.png"
}

visible_windows() {  # names of the mapped windows, one a line
    local w
    for w in $(xdotool search --onlyvisible --name . 2>/dev/null); do
        xdotool getwindowname "$w" 2>/dev/null
    done
}

# wait_for COUNT PATTERN FILE TIMEOUT: wait until FILE has COUNT lines matching PATTERN
wait_for() {
    local count="$1" pattern="$2" file="$3" timeout="$4" t=0 n
    while :; do
        n="$(grep -c -E -- "$pattern" "$file" 2>/dev/null)"
        [ "${n:-0}" -ge "$count" ] && return 0
        [ "$t" -ge "$timeout" ] && return 1
        sleep 1; t=$((t + 1))
    done
}

# protocol_report LOG: the error replies, odd replies and engine tracebacks in a gtp_tee log
protocol_report() {
    local log="$1"
    say "GTP log: $log ($(grep -c ' > ' "$log") commands)"
    say "commands sent: $(sed -n 's/^ *[0-9.]* \[[0-9]*\] > \(\([0-9]* \)\?[^ ]*\).*/\1/p' "$log" \
        | sed 's/^[0-9]* //' | sort | uniq -c | sort -rn | awk '{printf "%s %s, ", $2, $1}')"
    local errors
    errors="$(grep -n -B1 -E '\] < \?' "$log" || true)"
    if [ -n "$errors" ]; then
        say "error replies (? ...), with the command before each:"
        printf '%s\n' "$errors"
    else
        say "error replies: none"
    fi
    say "genmove replies against the move the engine named on stderr:"
    "$PY" "$HERE/gtp_pairs.py" "$log" --genmove | sed 's/^/    /'
    local tb
    tb="$(grep -E '\] ! .*(Traceback|Error|error)' "$log" || true)"
    [ -n "$tb" ] && { say "engine stderr errors:"; printf '%s\n' "$tb"; }
    return 0
}
