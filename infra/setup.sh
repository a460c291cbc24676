#!/usr/bin/env bash
# Installs everything stepforge needs on a fresh Debian machine: Chromium, a Python virtualenv with
# the package with its test and bench extras, the npm packages (cucumber-js, playwright-core) used for replay, and
# the second demo app's front-end packages.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# chromium, and its headless shell that generation and the suite's replays launch when headless (shared/settings.py
# generation_browser_path, replay_browser_path).
if [ ! -x "${STEPFORGE_BROWSER_PATH:-/usr/bin/chromium}" ] || [ ! -x /usr/bin/chromium-headless-shell ]; then
  echo "== installing Debian's chromium and chromium-headless-shell"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi
command -v curl >/dev/null || { echo "== installing curl (the benchmark's reset command)"; as_root apt-get update -qq;
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq curl >/dev/null; }
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "== installing nodejs and npm"; as_root apt-get update -qq;
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nodejs npm >/dev/null; break; }
done

fresh_venv=
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv"
  fresh_venv=1
  python3 -m venv .venv 2>/dev/null || {
    rm -rf .venv  # Debian's python3 lacks venv until python3-venv is installed
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv .venv
  }
fi
echo "== installing the Python package"
if [ -n "$fresh_venv" ]; then
  # pip compiles every installed file on one core; compileall compiles the same files on both (-j 0), leaving the
  # same .pyc files about 10 s sooner (59 s against 70 s here). Like pip's own, a file that does not compile is left
  # to its first import.
  .venv/bin/pip install -q --disable-pip-version-check --no-compile -e ".[test,bench]"
  .venv/bin/python -m compileall -q -j 0 "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" \
    >/dev/null || true
else
  .venv/bin/pip install -q --disable-pip-version-check -e ".[test,bench]"
fi

echo "== installing cucumber-js and playwright-core for replay"
.venv/bin/python -m workers.agent.verify.node_runtime

echo "== installing the Teamtasks demo's front-end packages (served locally by the demo)"
npm ci --prefix tests/apps/teamtasks --no-audit --no-fund --loglevel=error
