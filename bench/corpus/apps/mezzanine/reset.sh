#!/usr/bin/env bash
# Restores the seeded state of the Mezzanine started by start.sh PORT (database and media), while it runs.
set -euo pipefail
PORT=${1:?usage: reset.sh PORT}
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/mezzanine"
RUN="$DIR/run-$PORT"
[ -f "$RUN/seed.sqlite3" ] || { echo "reset.sh: no snapshot in $RUN (was start.sh $PORT run?)" >&2; exit 1; }
# sqlite's online backup API copies the snapshot into the live database under a lock.
"$DIR/venv/bin/python" "$(dirname "$0")/../../lib/restore_sqlite.py" "$RUN/seed.sqlite3" "$RUN/db.sqlite3"
rm -rf "$RUN/media.new" && cp -a "$RUN/seed-media" "$RUN/media.new"
rm -rf "$RUN/media" && mv "$RUN/media.new" "$RUN/media"
