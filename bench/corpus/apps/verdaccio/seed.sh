#!/usr/bin/env bash
# Seeds a running verdaccio through its own interfaces: users via the
# registry's user API (PUT /-/user/org.couchdb.user:NAME, what `npm adduser`
# calls) and packages made on the fly, published with `npm publish`.
set -euo pipefail
PORT=${1:?usage: seed.sh PORT WORKDIR}
WORK=${2:?usage: seed.sh PORT WORKDIR}
REG="http://127.0.0.1:$PORT/"
rm -rf "$WORK"; mkdir -p "$WORK"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false npm_config_ignore_scripts=true
export npm_config_cache="$WORK/npm-cache"

adduser() { # NAME PASSWORD EMAIL -> writes $WORK/NAME.npmrc with the token
  local out token
  out=$(curl -fsS -X PUT -H 'content-type: application/json' \
    -d "{\"name\":\"$1\",\"password\":\"$2\",\"email\":\"$3\",\"type\":\"user\",\"roles\":[]}" \
    "${REG}-/user/org.couchdb.user:$1")
  token=$(printf '%s' "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).token))')
  printf '//127.0.0.1:%s/:_authToken=%s\nregistry=%s\n' "$PORT" "$token" "$REG" > "$WORK/$1.npmrc"
  echo "user $1 created"
}

# publish USER [TAG]: publishes the package made by the last newpkg call
publish() {
  local user=$1 tag=${2:-latest}
  (cd "$PKG" && npm publish --registry "$REG" --userconfig "$WORK/$user.npmrc" --tag "$tag" \
     --ignore-scripts --loglevel=error >/dev/null)
  echo "published $PKG_ID by $user ($tag)"
}

# newpkg NAME VERSION DESCRIPTION KEYWORDS(json array) AUTHOR DEPS(json object) [EXTRA json fields]
newpkg() {
  PKG="$WORK/pkg/$1/$2"; PKG_ID="$1@$2"; mkdir -p "$PKG"
  node -e '
    const [name, version, description, keywords, author, deps, extra] = process.argv.slice(1);
    const pj = {name, version, description, keywords: JSON.parse(keywords), author, license: "MIT",
      main: "index.js", dependencies: JSON.parse(deps), ...JSON.parse(extra || "{}")};
    require("fs").writeFileSync(process.argv[8] + "/package.json", JSON.stringify(pj, null, 2));
  ' "$1" "$2" "$3" "$4" "$5" "$6" "${7:-{\}}" "$PKG"
  printf 'module.exports = { name: %s, version: %s };\n' "'$1'" "'$2'" > "$PKG/index.js"
  cat > "$PKG/README.md"   # README from stdin
}

adduser alice wonderland1 alice@example.com
adduser bob builder42 bob@example.com

ALICE="Alice Walker <alice@example.com>"
BOB="Bob Stone <bob@example.com>"

# ---------------------------------------------------------------- tiny-logger
# 1.0.0, 1.1.0, then a 2.0.0 beta under the "next" tag, then the 1.2.0 patch
# (the registry shows the README of the last publish, so 1.2.0 comes last).
tiny_logger() {
newpkg tiny-logger "$1" "A minimal leveled logger for Node.js" '["logger","logging","console"]' "$ALICE" '{}' \
  '{"homepage":"https://example.com/tiny-logger","repository":{"type":"git","url":"https://example.com/git/tiny-logger.git"}}' <<'MD'
# tiny-logger

A minimal leveled logger for Node.js with zero dependencies.

## Installation

```
npm install tiny-logger
```

## Usage

```js
const log = require('tiny-logger')('app');
log.info('server started on port %d', 8080);
```

## Log levels

| Level | When to use |
|-------|-------------|
| debug | noisy details while developing |
| info  | normal operation |
| warn  | something looks wrong |
| error | something failed |

## License

MIT
MD
publish alice "${2:-latest}"
}
tiny_logger 1.0.0
tiny_logger 1.1.0
tiny_logger 2.0.0-beta.1 next
tiny_logger 1.2.0

# ---------------------------------------------------------------- date-stamp
for v in 2.0.0 2.1.0 2.1.1; do
newpkg date-stamp $v "Format dates as short, human friendly stamps" '["date","time","format"]' "$ALICE" '{}' <<'MD'
# date-stamp

Turns a `Date` into a short stamp such as `2024-03-05 14:07`.

## Installation

```
npm install date-stamp
```

## API

### stamp(date, options)

Returns the stamp as a string.

### parseStamp(text)

Reads a stamp back into a `Date`.
MD
publish alice
done

# ---------------------------------------------------------------- color-chalk-lite
for v in 0.1.0 0.2.0; do
newpkg color-chalk-lite $v "Colorize terminal output without dependencies" '["color","terminal","ansi"]' "$ALICE" '{}' <<'MD'
# color-chalk-lite

Wrap strings in ANSI colors: `red`, `green`, `yellow`, `blue`, `bold`.

## Usage

```js
const c = require('color-chalk-lite');
console.log(c.green('ok'));
```
MD
publish alice
done

# ---------------------------------------------------------------- yaml-lite
newpkg yaml-lite 1.0.0 "A tiny YAML subset parser" '["yaml","parser","config"]' "$ALICE" '{}' <<'MD'
# yaml-lite

Parses the common subset of YAML: maps, lists, strings and numbers.

## Limitations

Anchors and multi-document files are not supported.
MD
publish alice

# ---------------------------------------------------------------- string-kit
newpkg string-kit 1.4.0 "Everyday string helpers: slugify, truncate, capitalize" '["string","slug","text"]' "$ALICE" '{}' <<'MD'
# string-kit

Small helpers for everyday string work.

## Functions

- `slugify(text)`
- `truncate(text, length)`
- `capitalize(text)`
MD
publish alice

# ---------------------------------------------------------------- config-loader
newpkg config-loader 3.0.0 "Load layered configuration files from disk and environment" '["config","configuration","env"]' "$ALICE" \
  '{"yaml-lite":"^1.0.0","tiny-logger":"^1.2.0"}' <<'MD'
# config-loader

Reads `config/default.yaml`, then `config/<env>.yaml`, then environment variables.

## Getting started

```js
const config = require('config-loader')();
console.log(config.get('db.host'));
```

## Precedence

Environment variables win over files.
MD
publish alice

# ---------------------------------------------------------------- http-retry
for v in 1.0.0 1.0.1; do
newpkg http-retry $v "Retry failed HTTP requests with exponential backoff" '["http","retry","backoff","fetch"]' "$ALICE" \
  '{"tiny-logger":"^1.1.0"}' <<'MD'
# http-retry

Retries failed HTTP requests with exponential backoff and jitter.

## Options

- `retries`: how many times to try again (default 3)
- `minDelay`: first delay in milliseconds (default 100)
MD
publish alice
done

# ---------------------------------------------------------------- task-queue
newpkg task-queue 0.5.0 "An in-memory job queue with priorities and retries" '["queue","jobs","worker"]' "$ALICE" \
  '{"http-retry":"^1.0.0","date-stamp":"^2.1.0"}' '{"devDependencies":{"tiny-logger":"^1.2.0"}}' <<'MD'
# task-queue

An in-memory job queue with priorities and retries.

## Usage

```js
const Queue = require('task-queue');
const q = new Queue({ concurrency: 2 });
q.add(() => fetchReport(), { priority: 'high' });
```

## Events

The queue emits `done`, `failed` and `idle`.
MD
publish alice

# ---------------------------------------------------------------- csv-lite
newpkg csv-lite 0.3.0 "Parse and stringify CSV files" '["csv","parser"]' "$ALICE" '{"string-kit":"^1.4.0"}' <<'MD'
# csv-lite

Parse and stringify CSV with quoted fields.
MD
publish alice

# ---------------------------------------------------------------- markdown-mini
newpkg markdown-mini 1.0.0 "Render a safe subset of Markdown to HTML" '["markdown","html"]' "$ALICE" '{"string-kit":"^1.4.0"}' <<'MD'
# markdown-mini

Renders headings, emphasis, links and lists; raw HTML is escaped.
MD
publish alice

# ---------------------------------------------------------------- @acme/icons (bob)
newpkg @acme/icons 2.3.0 "SVG icon set used by Acme applications" '["icons","svg","acme"]' "$BOB" '{}' <<'MD'
# @acme/icons

Over 200 SVG icons in one package.

## Installation

```
npm install @acme/icons
```
MD
publish bob

# ---------------------------------------------------------------- @acme/ui-kit (bob)
for v in 1.0.0 1.1.0; do
newpkg @acme/ui-kit $v "Shared React components for Acme applications" '["react","components","acme"]' "$BOB" \
  '{"@acme/icons":"^2.3.0","color-chalk-lite":"^0.2.0"}' '{"peerDependencies":{"react":"^18.0.0"}}' <<'MD'
# @acme/ui-kit

Buttons, dialogs and form fields shared by Acme applications.

## Installation

```
npm install @acme/ui-kit
```

## Components

- `Button`
- `Dialog`
- `TextField`
MD
publish bob
done
echo "seed done"
