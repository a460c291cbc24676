#!/usr/bin/env bash
# Runs verdaccio on 127.0.0.1:PORT with fresh, seeded data (offline: no uplinks).
# Stays in the foreground (a small supervisor loop around the server so that
# reset.sh can restore the seeded storage and restart the server in place).
set -euo pipefail
PORT=${1:?usage: start.sh PORT}
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/verdaccio"
BIN="$DIR/app/node_modules/verdaccio/bin/verdaccio"
[ -f "$BIN" ] || bash "$HERE/install.sh"
RUN="$DIR/run-$PORT"
rm -rf "$RUN"
mkdir -p "$RUN"
cd "$RUN"
cat > config.yaml <<YAML
storage: ./storage
web:
  enable: true
  title: Verdaccio
  gravatar: false
  login: true
  showInfo: true
  showSettings: true
  showThemeSwitch: true
  showFooter: true
  showSearch: true
  showRaw: true
  showDownloadTarball: true
  showUplinks: true
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 1000
    algorithm: bcrypt
    rounds: 4
uplinks: {}
packages:
  '@*/*':
    access: \$all
    publish: \$authenticated
    unpublish: \$authenticated
  '**':
    access: \$all
    publish: \$authenticated
    unpublish: \$authenticated
publish:
  allow_offline: true
userRateLimit:
  windowMs: 1000
  max: 100000
server:
  keepAliveTimeout: 60
middlewares:
  audit:
    enabled: false
log:
  type: stdout
  format: pretty
  level: warn
i18n:
  web: en-US
YAML
export NODE_ENV=production
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false

run_server() { # [port]
  node "$BIN" --config "$RUN/config.yaml" --listen "127.0.0.1:${1:-$PORT}" &
  echo $! > "$RUN/server.pid"
}
wait_up() { # port
  for _ in $(seq 1 150); do
    curl -fsS -o /dev/null "http://127.0.0.1:$1/-/ping" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "start.sh: verdaccio did not answer on port $1" >&2
  return 1
}

# 1. first run, on a private free port (so that PORT answers only once the
#    data is complete): seed through the registry's HTTP API and npm publish
SEED_PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
run_server "$SEED_PORT"
wait_up "$SEED_PORT"
bash "$HERE/seed.sh" "$SEED_PORT" "$RUN/seed-work" > "$RUN/seed.log" 2>&1 || {
  echo "start.sh: seeding failed (see $RUN/seed.log)" >&2; kill "$(cat "$RUN/server.pid")"; exit 1; }
kill "$(cat "$RUN/server.pid")"; wait "$(cat "$RUN/server.pid")" 2>/dev/null || true
rm -rf "$RUN/seed-work"

# 2. snapshot of the seeded state (used by reset.sh)
mkdir -p "$RUN/snapshot"
cp -a "$RUN/storage" "$RUN/htpasswd" "$RUN/snapshot/"

# 3. serve in the foreground; reset.sh touches reset-requested and stops the
#    server, this loop restores the snapshot and starts it again.
child=""
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM INT HUP
while true; do
  run_server
  child=$(cat "$RUN/server.pid")
  set +e; wait "$child"; rc=$?; set -e
  if [ -f "$RUN/reset-requested" ]; then
    rm -rf "$RUN/storage" "$RUN/htpasswd"
    cp -a "$RUN/snapshot/storage" "$RUN/snapshot/htpasswd" "$RUN/"
    rm -f "$RUN/reset-requested"
    continue
  fi
  exit "$rc"
done
