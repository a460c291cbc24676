#!/usr/bin/env bash
# Installs Actual Budget (sync-server + web client + Node API, pinned) into $CORPUS_CACHE/actual.
set -euo pipefail
CORPUS_CACHE="${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}"
DIR="$CORPUS_CACHE/actual"
APP="$DIR/app"
VERSION=26.9.0
STAMP="$DIR/.installed-$VERSION"
fail() { echo "actual install failed: $*" >&2; exit 1; }

[ -f "$STAMP" ] && exit 0
command -v node >/dev/null || fail "node is not installed"
mkdir -p "$APP"
cat > "$APP/package.json" <<JSON
{
  "name": "actual-corpus",
  "private": true,
  "type": "module",
  "dependencies": {
    "@actual-app/sync-server": "$VERSION",
    "@actual-app/web": "$VERSION",
    "@actual-app/api": "$VERSION",
    "better-sqlite3": "12.11.1"
  },
  "overrides": { "better-sqlite3": "12.11.1" },
  "allowScripts": { "better-sqlite3": true, "argon2": true, "bcrypt": true }
}
JSON
cd "$APP"
# better-sqlite3 has no prebuilt binary reachable here: its install script compiles it (node-gyp)
npm install --no-audit --no-fund --loglevel=error >"$DIR/npm-install.log" 2>&1 \
  || fail "npm install (see $DIR/npm-install.log)"
if ! node -e "new (require('better-sqlite3'))(':memory:')" >/dev/null 2>&1; then
  npm rebuild better-sqlite3 >>"$DIR/npm-install.log" 2>&1 || fail "building better-sqlite3"
  node -e "new (require('better-sqlite3'))(':memory:')" >/dev/null 2>&1 || fail "better-sqlite3 does not load"
fi
# Offline: the web client asks GitHub for the latest release (update notice); point it at the
# local server instead (answers with HTML, which the client treats as "unknown version").
WEBJS="$APP/node_modules/@actual-app/web/build/static/js"
for f in $(grep -l 'https://api.github.com/repos/actualbudget/actual/releases/latest' "$WEBJS"/*.js || true); do
  sed -i 's#https://api.github.com/repos/actualbudget/actual/releases/latest#/update-check-disabled#g' "$f"
done
[ -f "$APP/node_modules/@actual-app/sync-server/build/bin/actual-server.js" ] || fail "sync-server files missing"
# The server rate-limits every request per IP (500 a minute, static files included: one sign-in and
# budget load is ~110 requests) and failed logins (5 per 15 minutes); a test run from 127.0.0.1
# goes past both, so raise the two limits.
node - "$APP/node_modules/@actual-app/sync-server/build/chunks" <<'JS' || fail "patching the rate limits"
const fs = require('fs'), path = require('path');
const dir = process.argv[2];
let done = 0;
for (const f of fs.readdirSync(dir).filter((f) => /^app-.*\.js$/.test(f))) {
  const p = path.join(dir, f);
  let s = fs.readFileSync(p, 'utf8');
  const before = s;
  s = s.replace(/(NODE_ENV !== "development"\) app\.use\(rateLimit\(\{\s*windowMs: 60 \* 1e3,\s*max: )500,/, '$1100000,');
  s = s.replace(/(var authRateLimiter = rateLimit\(\{\s*windowMs: 900 \* 1e3,\s*max: )5,/, '$11000,');
  if (s !== before) { fs.writeFileSync(p, s); done += (s.match(/max: 100000,|max: 1000,/g) || []).length; }
}
if (done < 2) { console.error('rate-limit patterns not found'); process.exit(1); }
JS
touch "$STAMP"
echo "actual $VERSION installed in $APP"
