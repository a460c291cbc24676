#!/usr/bin/env bash
# Runs Trac 1.6 (tracd) in the foreground on 127.0.0.1:PORT with a freshly seeded environment.
set -euo pipefail
PORT=${1:?usage: start.sh PORT}
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/trac"
VBIN="$DIR/venv/bin"
[ -x "$VBIN/tracd" ] || { echo "start.sh: Trac is not installed, run install.sh first" >&2; exit 1; }
RUN="$DIR/run-$PORT"
rm -rf "$RUN"
mkdir -p "$RUN"
ENV="$RUN/lighthouse"
HTPASSWD="$RUN/htpasswd"
# Users that can sign in through the "Login" link (HTTP basic auth); anonymous visitors
# already have ticket, wiki, milestone and admin-panel permissions.
"$VBIN/python" - "$HTPASSWD" <<'PY'
import base64, hashlib, sys
users = {"admin": "admin123", "alice": "alice123", "bob": "bob123", "carol": "carol123"}
with open(sys.argv[1], "w") as f:
    for u, p in users.items():
        f.write("%s:{SHA}%s\n" % (u, base64.b64encode(hashlib.sha1(p.encode()).digest()).decode()))
PY
"$VBIN/trac-admin" "$ENV" initenv "Lighthouse" "sqlite:db/trac.db" >/dev/null \
  || { echo "start.sh: trac-admin initenv failed" >&2; exit 1; }
"$VBIN/python" "$HERE/seed.py" "$ENV" "$VBIN" "$HTPASSWD"
# Snapshot of the seeded state, restored by reset.sh.
rm -rf "$RUN/snapshot"
mkdir -p "$RUN/snapshot"
"$VBIN/python" - "$ENV/db/trac.db" "$RUN/snapshot/trac.db" <<'PY'
import sqlite3, sys
src, dst = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
src.backup(dst); dst.close(); src.close()
PY
cp "$ENV/conf/trac.ini" "$RUN/snapshot/trac.ini"
mkdir -p "$ENV/files"
cp -a "$ENV/files" "$RUN/snapshot/files"
echo "start.sh: Lighthouse (Trac 1.6) seeded, serving on http://127.0.0.1:$PORT/" >&2
exec "$VBIN/tracd" --hostname=127.0.0.1 --port="$PORT" --single-env \
  --basic-auth="lighthouse,$HTPASSWD,Lighthouse" "$ENV"
