#!/usr/bin/env bash
# Installs Node-RED (pinned) from npm into $CORPUS_CACHE/node_red.
set -euo pipefail
NAME=node_red
VERSION=4.0.9
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/$NAME"
STAMP="$DIR/.installed-$VERSION"
if [ -f "$STAMP" ] && [ -x "$DIR/node_modules/.bin/node-red" ]; then
  exit 0
fi
command -v node >/dev/null 2>&1 || { echo "install.sh: node is not installed" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || { echo "install.sh: npm is not installed" >&2; exit 1; }
mkdir -p "$DIR"
cd "$DIR"
[ -f package.json ] || echo '{"name":"stepforge-corpus-node-red","private":true}' > package.json
if ! npm install --no-audit --no-fund --loglevel=error --omit=optional "node-red@$VERSION" >"$DIR/install.log" 2>&1; then
  echo "install.sh: npm install node-red@$VERSION failed (see $DIR/install.log)" >&2
  exit 1
fi
[ -x "$DIR/node_modules/.bin/node-red" ] || { echo "install.sh: node-red binary missing after install" >&2; exit 1; }
touch "$STAMP"
