#!/usr/bin/env bash
# Brings the verdaccio started by start.sh PORT back to its seeded state:
# the server is stopped, start.sh's loop restores the storage snapshot and
# starts it again; this script waits until it answers.
set -euo pipefail
PORT=${1:?usage: reset.sh PORT}
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
RUN="$CORPUS_CACHE/verdaccio/run-$PORT"
[ -f "$RUN/server.pid" ] || { echo "reset.sh: no server started by start.sh $PORT" >&2; exit 1; }
# Fast path: the web UI cannot change stored data, so usually nothing changed.
if diff -rq "$RUN/snapshot/storage" "$RUN/storage" >/dev/null 2>&1 \
   && cmp -s "$RUN/snapshot/htpasswd" "$RUN/htpasswd" \
   && curl -fsS -o /dev/null "http://127.0.0.1:$PORT/-/ping" 2>/dev/null; then
  exit 0
fi
old=$(cat "$RUN/server.pid")
touch "$RUN/reset-requested"
kill "$old" 2>/dev/null || true
for _ in $(seq 1 200); do
  if [ ! -f "$RUN/reset-requested" ] && [ "$(cat "$RUN/server.pid")" != "$old" ] \
     && curl -fsS -o /dev/null "http://127.0.0.1:$PORT/-/ping" 2>/dev/null; then
    exit 0
  fi
  sleep 0.1
done
echo "reset.sh: verdaccio did not come back on port $PORT" >&2
exit 1
