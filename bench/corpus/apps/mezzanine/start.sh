#!/usr/bin/env bash
# Runs Mezzanine in the foreground on 127.0.0.1:PORT with a fresh, seeded sqlite database.
set -euo pipefail
PORT=${1:?usage: start.sh PORT}
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/mezzanine"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ -f "$DIR/mzsite/manage.py" ] || bash "$HERE/install.sh"
RUN="$DIR/run-$PORT"
rm -rf "$RUN" && mkdir -p "$RUN/media"
export MZ_RUN_DIR="$RUN" MZ_PORT="$PORT" PYTHONWARNINGS=ignore PYTHONDONTWRITEBYTECODE=1
PY="$DIR/venv/bin/python"
cd "$DIR/mzsite"
"$PY" manage.py migrate --noinput -v 0
DJANGO_SUPERUSER_PASSWORD=admin123 "$PY" manage.py createsuperuser --noinput \
  --username admin --email admin@example.com >/dev/null
"$PY" manage.py shell -c "exec(open('$HERE/seed.py').read())"
# Snapshot for reset.sh
cp "$RUN/db.sqlite3" "$RUN/seed.sqlite3"
cp -a "$RUN/media" "$RUN/seed-media"
exec "$PY" manage.py runserver "127.0.0.1:$PORT" --noreload
