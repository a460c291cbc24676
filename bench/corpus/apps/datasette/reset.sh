#!/usr/bin/env bash
# Restores the seeded database (snapshot taken by start.sh) into the running Datasette, using SQLite's backup API.
set -euo pipefail
PORT="${1:?usage: reset.sh PORT}"
CORPUS_CACHE="${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}"
DIR="$CORPUS_CACHE/datasette"
RUN="$DIR/run-$PORT"
[ -f "$RUN/snapshot.db" ] || { echo "reset.sh: no snapshot in $RUN; is start.sh $PORT running?" >&2; exit 1; }
"$DIR/venv/bin/python" "$(dirname "$0")/../../lib/restore_sqlite.py" "$RUN/snapshot.db" "$RUN/tracker.db"
