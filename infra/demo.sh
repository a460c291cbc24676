#!/usr/bin/env bash
# The main job on one machine: set up, start the demo application, generate the suite from
# examples/petclinic.yaml, then run the generated suite with plain `npm install && npx cucumber-js`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash infra/setup.sh

port="${STEPFORGE_DEMO_PORT:-8080}"
base="http://127.0.0.1:${port}"
.venv/bin/python -m tests.apps.petclinic --port "$port" &
app=$!
trap 'kill $app 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  .venv/bin/python -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$base/__health" 2>/dev/null && break
  sleep 0.2
done

root="$(pwd)"
# Absolute, so it works from the suite folder too: the suite's Before hook runs it before each scenario.
reset="env PYTHONPATH=$root $root/.venv/bin/python -m tests.apps.petclinic reset --url $base"
status=0
.venv/bin/stepforge generate examples/petclinic.yaml --base-url "$base" --out suite \
  --artifacts artifacts --reset-command "$reset" || status=$?

echo "== running the generated suite as a user would: npm install && npx cucumber-js"
(cd suite && npm install --no-audit --no-fund --prefer-offline --loglevel=error \
  && STEPFORGE_BASE_URL="$base" STEPFORGE_RESET_COMMAND="$reset" npx cucumber-js)
exit "$status"
