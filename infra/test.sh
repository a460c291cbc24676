#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite (real Chromium, real cucumber-js).
set -euo pipefail
cd "$(dirname "$0")/.."
bash infra/setup.sh
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
