#!/usr/bin/env bash
# Run every GTP client trial in turn (one at a time, so at most about one core is busy);
# each trial's output goes to $WORK/<trial>.out (default /tmp/gtp_clients) and to the terminal.
#   bash benchmarks/lab/gtp_clients/run_all.sh [quarry] [qgo] [sabaki] [gomill] [lizzie]
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="${GTP_CLIENTS_WORK:-/tmp/gtp_clients}"
mkdir -p "$WORK"
trials=("$@"); [ ${#trials[@]} -eq 0 ] && trials=(sabaki gomill quarry qgo lizzie)
summary=()
for t in "${trials[@]}"; do
    echo "=================================== $t"
    bash "$HERE/run_$t.sh" 2>&1 | tee "$WORK/$t.out"
    rc=${PIPESTATUS[0]}
    summary+=("$t: $([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")  ($WORK/$t.out)")
done
echo "=================================== summary"
printf '%s\n' "${summary[@]}"
echo "screenshots: $WORK/screenshots/"
