#!/usr/bin/env bash
# Runs Datasette in the foreground on 127.0.0.1:PORT with a freshly seeded database.
set -euo pipefail
PORT="${1:?usage: start.sh PORT}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CORPUS_CACHE="${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}"
DIR="$CORPUS_CACHE/datasette"
BIN="$DIR/venv/bin"
[ -x "$BIN/datasette" ] || { echo "start.sh: datasette is not installed; run install.sh first" >&2; exit 1; }
RUN="$DIR/run-$PORT"
rm -rf "$RUN"
mkdir -p "$RUN"
DB="$RUN/tracker.db"
# Seed through sqlite-utils, the CLI of Datasette's ecosystem.
"$BIN/sqlite-utils" insert "$DB" people "$HERE/seed/people.json" --pk id >/dev/null
"$BIN/sqlite-utils" insert "$DB" projects "$HERE/seed/projects.json" --pk id >/dev/null
"$BIN/sqlite-utils" insert "$DB" issues "$HERE/seed/issues.json" --pk id >/dev/null
"$BIN/sqlite-utils" add-foreign-keys "$DB" \
  projects lead_id people id \
  issues project_id projects id \
  issues assignee_id people id
"$BIN/sqlite-utils" create-index "$DB" issues status
"$BIN/sqlite-utils" enable-fts "$DB" issues title body --fts5 --create-triggers
# Snapshot used by reset.sh.
cp "$DB" "$RUN/snapshot.db"
cd "$RUN"
exec "$BIN/datasette" serve "$DB" \
  --host 127.0.0.1 --port "$PORT" \
  --metadata "$HERE/metadata.yml" \
  --setting default_page_size 25 \
  --setting suggest_facets on
