#!/usr/bin/env bash
# Runs Actual Budget's sync-server (which also serves the web client) on 127.0.0.1:PORT with fresh,
# seeded data: server password set through POST /account/bootstrap, then the budget
# "Household Budget" made by seed.mjs through the app's Node API and uploaded to the server.
set -euo pipefail
PORT="${1:?usage: start.sh PORT}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CORPUS_CACHE="${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}"
DIR="$CORPUS_CACHE/actual"
APP="$DIR/app"
RUN="$DIR/run-$PORT"
PASSWORD="actual123"
SERVER="$APP/node_modules/@actual-app/sync-server/build/bin/actual-server.js"
[ -f "$SERVER" ] || { echo "actual is not installed: run install.sh first" >&2; exit 1; }

rm -rf "$RUN"
mkdir -p "$RUN/data" "$RUN/seed-scratch"
export ACTUAL_HOSTNAME=127.0.0.1
export ACTUAL_DATA_DIR="$RUN/data"
export ACTUAL_SERVER_FILES="$RUN/data/server-files"
export ACTUAL_USER_FILES="$RUN/data/user-files"
export NODE_ENV=production
cd "$RUN"

# Seed on a spare port first, so that PORT answers only once the data is ready.
SEED_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
ACTUAL_PORT="$SEED_PORT" node "$SERVER" >"$RUN/seed-server.log" 2>&1 &
SEED_PID=$!
trap 'kill $SEED_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$SEED_PORT/account/needs-bootstrap" >/dev/null 2>&1 && break
  kill -0 $SEED_PID 2>/dev/null || { echo "actual server did not start (see $RUN/seed-server.log)" >&2; exit 1; }
  sleep 0.5
done
curl -sf -X POST -H 'Content-Type: application/json' -d "{\"password\":\"$PASSWORD\"}" \
  "http://127.0.0.1:$SEED_PORT/account/bootstrap" >/dev/null \
  || { echo "actual: setting the server password failed" >&2; exit 1; }
cp "$HERE/seed.mjs" "$APP/seed.mjs"
node "$APP/seed.mjs" "http://127.0.0.1:$SEED_PORT" "$PASSWORD" "$RUN/seed-scratch" >"$RUN/seed.log" 2>&1 \
  || { echo "actual: seeding failed (see $RUN/seed.log)" >&2; exit 1; }
kill $SEED_PID; wait $SEED_PID 2>/dev/null || true
trap - EXIT
rm -rf "$RUN/seed-scratch"

# Snapshot of the seeded data folder, restored by reset.sh
cp -a "$RUN/data" "$RUN/snapshot"

export ACTUAL_PORT="$PORT"
exec node "$SERVER"
