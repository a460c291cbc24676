#!/usr/bin/env bash
# The main job on one machine: set up, start a demo application, generate its suite from examples/, then run the
# generated suite with plain `npm install && npx cucumber-js`.
#   bash infra/demo.sh              PetClinic (server-rendered), examples/petclinic.yaml, into suite/
#   bash infra/demo.sh teamtasks    Teamtasks (a single-page app, its API on another port), examples/teamtasks.yaml,
#                                   into suite-teamtasks/
set -euo pipefail
cd "$(dirname "$0")/.."
app="${1:-petclinic}"
case "$app" in
  petclinic)
    port="${STEPFORGE_DEMO_PORT:-8080}"; out=suite; artifacts=artifacts; only=()
    serve=(.venv/bin/python -m tests.apps.petclinic --port "$port") ;;
  teamtasks)
    port="${STEPFORGE_DEMO_PORT:-8090}"; out=suite-teamtasks; artifacts=artifacts-teamtasks
    only=()
    serve=(.venv/bin/python -m tests.apps.teamtasks --port "$port" --api-port "$((port + 1))") ;;
  *) echo "usage: bash infra/demo.sh [petclinic|teamtasks]" >&2; exit 2 ;;
esac
bash infra/setup.sh

base="http://127.0.0.1:${port}"
"${serve[@]}" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  .venv/bin/python -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$base/__health" 2>/dev/null && break
  sleep 0.2
done

root="$(pwd)"
# Absolute, so it works from the suite folder too: the suite's Before hook runs it before each scenario.
reset="env PYTHONPATH=$root $root/.venv/bin/python -m tests.apps.$app reset --url $base"
status=0
.venv/bin/stepforge generate "examples/$app.yaml" "${only[@]}" --base-url "$base" --out "$out" \
  --artifacts "$artifacts" --reset-command "$reset" || status=$?

echo "== running the generated suite as a user would: npm install && npx cucumber-js"
(cd "$out" && npm install --no-audit --no-fund --prefer-offline --loglevel=error \
  && STEPFORGE_BASE_URL="$base" STEPFORGE_RESET_COMMAND="$reset" npx cucumber-js)
exit "$status"
