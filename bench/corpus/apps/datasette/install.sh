#!/usr/bin/env bash
# Installs Datasette (pinned) and sqlite-utils into their own virtualenv under the corpus cache.
set -euo pipefail
CORPUS_CACHE="${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}"
DIR="$CORPUS_CACHE/datasette"
DATASETTE_VERSION="0.65.5"
SQLITE_UTILS_VERSION="3.38"
STAMP="$DIR/.installed-datasette-$DATASETTE_VERSION-sqlite-utils-$SQLITE_UTILS_VERSION"
if [ -f "$STAMP" ] && [ -x "$DIR/venv/bin/datasette" ]; then
  exit 0
fi
mkdir -p "$DIR"
if [ ! -x "$DIR/venv/bin/python" ]; then
  python3 -m venv "$DIR/venv" >/dev/null 2>&1 || { echo "install.sh: creating the virtualenv in $DIR/venv failed" >&2; exit 1; }
fi
"$DIR/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "datasette==$DATASETTE_VERSION" "sqlite-utils==$SQLITE_UTILS_VERSION" >"$DIR/pip.log" 2>&1 \
  || { echo "install.sh: pip install of datasette==$DATASETTE_VERSION sqlite-utils==$SQLITE_UTILS_VERSION failed (see $DIR/pip.log)" >&2; exit 1; }
"$DIR/venv/bin/datasette" --version >/dev/null 2>&1 || { echo "install.sh: datasette does not run after install" >&2; exit 1; }
rm -f "$DIR"/.installed-*
touch "$STAMP"
