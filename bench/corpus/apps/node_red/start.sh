#!/usr/bin/env bash
# Runs Node-RED in the foreground on 127.0.0.1:PORT with a fresh userDir, seeded through the admin HTTP API.
set -euo pipefail
PORT=${1:?usage: start.sh PORT}
NAME=node_red
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/$NAME"
RUN="$DIR/run-$PORT"
NR="$DIR/node_modules/node-red/red.js"
[ -f "$NR" ] || { echo "start.sh: Node-RED is not installed, run install.sh first" >&2; exit 1; }

rm -rf "$RUN"
mkdir -p "$RUN/static"
cp "$HERE/settings.js" "$RUN/settings.js"
cp "$HERE/catalogue.json" "$RUN/static/catalogue.json"
echo '[]' > "$RUN/flows.json"
# an empty package.json keeps Node-RED from creating one with network-bound defaults
echo '{"name":"node-red-project","description":"stepforge corpus","version":"0.0.1","private":true}' > "$RUN/package.json"

export NR_PORT="$PORT" NODE_RED_HOME="$RUN" NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false
cd "$RUN"
node "$NR" --settings "$RUN/settings.js" --userDir "$RUN" >"$RUN/node-red.log" 2>&1 &
NR_PID=$!
trap 'kill $NR_PID 2>/dev/null || true' TERM INT

for _ in $(seq 1 120); do
  if curl -fs -o /dev/null "http://127.0.0.1:$PORT/settings"; then break; fi
  if ! kill -0 "$NR_PID" 2>/dev/null; then cat "$RUN/node-red.log" >&2; echo "start.sh: Node-RED exited early" >&2; exit 1; fi
  sleep 0.5
done
bash "$HERE/reset.sh" "$PORT" >/dev/null || { echo "start.sh: seeding failed" >&2; kill "$NR_PID"; exit 1; }
echo "Node-RED ready on http://127.0.0.1:$PORT/"
tail -n +1 -f "$RUN/node-red.log" --pid="$NR_PID" &
wait "$NR_PID"
