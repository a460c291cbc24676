#!/usr/bin/env bash
# Installs Trac 1.6 (pinned) into its own virtualenv under $CORPUS_CACHE/trac.
set -euo pipefail
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/trac"
STAMP="$DIR/.installed-trac-1.6"
if [ -f "$STAMP" ] && [ -x "$DIR/venv/bin/tracd" ]; then
  exit 0
fi
mkdir -p "$DIR"
if [ ! -x "$DIR/venv/bin/python" ]; then
  python3 -m venv "$DIR/venv" || { echo "install.sh: creating the virtualenv failed" >&2; exit 1; }
fi
"$DIR/venv/bin/pip" install --quiet --disable-pip-version-check \
  "Trac==1.6" "Jinja2==3.1.4" "MarkupSafe==2.1.5" "Babel==2.16.0" "setuptools==75.1.0" \
  || { echo "install.sh: pip install of Trac 1.6 failed" >&2; exit 1; }
"$DIR/venv/bin/python" -c "import trac; assert trac.__version__.startswith('1.6')" \
  || { echo "install.sh: Trac 1.6 import check failed" >&2; exit 1; }
touch "$STAMP"
