#!/usr/bin/env bash
# Brings the running Actual server (start.sh PORT) back to the seeded state by restoring the
# snapshot of its data folder taken by start.sh: budget files and sync history (user-files) and
# the account database (server password, file list), the latter rewritten in place because the
# server keeps it open. Browsers keep no state between scenarios (fresh contexts).
set -euo pipefail
PORT="${1:?usage: reset.sh PORT}"
CORPUS_CACHE="${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}"
RUN="$CORPUS_CACHE/actual/run-$PORT"
SNAP="$RUN/snapshot"
DATA="$RUN/data"
[ -d "$SNAP" ] || { echo "actual reset: no snapshot in $RUN (is start.sh $PORT running?)" >&2; exit 1; }
rm -rf "$DATA/user-files"
cp -a "$SNAP/user-files" "$DATA/user-files"
rm -f "$DATA/server-files/account.sqlite-journal"
cat "$SNAP/server-files/account.sqlite" > "$DATA/server-files/account.sqlite"
