#!/usr/bin/env bash
# Installs verdaccio (pinned) from npm into $CORPUS_CACHE/verdaccio. Idempotent.
set -euo pipefail
VERSION=6.8.0
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/verdaccio"
STAMP="$DIR/.installed-$VERSION"
if [ -f "$STAMP" ] && [ -x "$DIR/app/node_modules/.bin/verdaccio" ]; then
  exit 0
fi
command -v node >/dev/null || { echo "install.sh: node not found" >&2; exit 1; }
command -v npm >/dev/null || { echo "install.sh: npm not found" >&2; exit 1; }
mkdir -p "$DIR/app"
cd "$DIR/app"
# verdaccio-audit asks for node-fetch@cjs (a dist-tag the registry mirror may not serve): pin it.
cat > package.json <<JSON
{"name":"verdaccio-corpus","private":true,
 "overrides":{"verdaccio-audit":{"node-fetch":"2.7.0"}}}
JSON
if ! npm install --save-exact --no-audit --no-fund --no-update-notifier --loglevel=error "verdaccio@$VERSION" >"$DIR/install.log" 2>&1; then
  echo "install.sh: npm install verdaccio@$VERSION failed (see $DIR/install.log)" >&2
  exit 1
fi
[ -x node_modules/.bin/verdaccio ] || { echo "install.sh: verdaccio binary missing after install" >&2; exit 1; }
touch "$STAMP"
