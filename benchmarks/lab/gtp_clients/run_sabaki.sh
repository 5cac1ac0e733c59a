#!/usr/bin/env bash
# Sabaki's GTP library (@sabaki/gtp, npm): sabaki_trial.js spawns our engine through the
# library's Controller, sends every safe listed command and checks each reply parses and
# is no error, then tries lz-analyze / kata-analyze with the library's subscriber.
# node_modules live in $WORK/node (default /tmp/gtp_clients/node), not in the repo.
#   bash benchmarks/lab/gtp_clients/run_sabaki.sh     (STRICT_ANALYSIS=1: fail if analysis fails)
source "$(dirname "$0")/common.sh"

command -v node >/dev/null && command -v npm >/dev/null || need_apt nodejs npm || exit 1
NODE_DIR="$WORK/node"
if [ ! -f "$NODE_DIR/node_modules/@sabaki/gtp/package.json" ]; then
    say "npm install @sabaki/gtp into $NODE_DIR"
    mkdir -p "$NODE_DIR"
    (cd "$NODE_DIR" && npm install --no-audit --no-fund --silent @sabaki/gtp) || exit 1
fi
say "@sabaki/gtp $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' \
    "$NODE_DIR/node_modules/@sabaki/gtp/package.json")"
warm_engine || exit 1

LOG="$WORK/sabaki_gtp.log"; rm -f "$LOG"
NODE_PATH="$NODE_DIR/node_modules" GTP_LOG="$LOG" PYTHON="$PY" node "$HERE/sabaki_trial.js" "$@"
status=$?
protocol_report "$LOG"
exit $status
