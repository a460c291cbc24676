#!/usr/bin/env bash
# Brings the running Trac environment back to the state start.sh seeded.
set -euo pipefail
PORT=${1:?usage: reset.sh PORT}
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/trac"
RUN="$DIR/run-$PORT"
ENV="$RUN/lighthouse"
[ -f "$RUN/snapshot/trac.db" ] || { echo "reset.sh: no snapshot in $RUN, was start.sh $PORT run?" >&2; exit 1; }
# Restore the database with SQLite's online backup (safe while tracd holds connections).
"$DIR/venv/bin/python" "$(dirname "$0")/../../lib/restore_sqlite.py" "$RUN/snapshot/trac.db" "$ENV/db/trac.db"
rm -rf "$ENV/files"
cp -a "$RUN/snapshot/files" "$ENV/files"
# A new trac.ini mtime makes tracd reload the environment, dropping all in-memory caches.
cp "$RUN/snapshot/trac.ini" "$ENV/conf/trac.ini"
touch "$ENV/conf/trac.ini"
