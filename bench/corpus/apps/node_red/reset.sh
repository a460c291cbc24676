#!/usr/bin/env bash
# Restores the seeded flows (full deploy through the admin API) and the default editor user settings.
set -euo pipefail
PORT=${1:?usage: reset.sh PORT}
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BASE="http://127.0.0.1:$PORT"
curl -fsS -X POST "$BASE/flows" -H "Content-Type: application/json" -H "Node-RED-API-Version: v1" \
  -H "Node-RED-Deployment-Type: full" --data-binary @"$HERE/seed-flows.json" >/dev/null \
  || { echo "reset.sh: POST /flows failed" >&2; exit 1; }
curl -fsS -X POST "$BASE/settings/user" -H "Content-Type: application/json" \
  --data-binary @"$HERE/seed-user-settings.json" >/dev/null \
  || { echo "reset.sh: POST /settings/user failed" >&2; exit 1; }
