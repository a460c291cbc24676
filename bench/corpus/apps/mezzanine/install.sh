#!/usr/bin/env bash
# Installs Mezzanine 6.1.1 (Django 4.2) into its own virtualenv and creates the project with mezzanine-project.
set -uo pipefail
CORPUS_CACHE=${STEPFORGE_CORPUS_CACHE:-$HOME/.cache/stepforge-corpus}
DIR="$CORPUS_CACHE/mezzanine"
STAMP="$DIR/.installed-v3"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -f "$STAMP" ] && [ -x "$DIR/venv/bin/python" ] && [ -f "$DIR/mzsite/manage.py" ]; then
  exit 0
fi
mkdir -p "$DIR" || { echo "install.sh: cannot create $DIR" >&2; exit 1; }
rm -rf "$DIR/venv" "$DIR/mzsite"
python3 -m venv "$DIR/venv" || { echo "install.sh: python3 -m venv failed" >&2; exit 1; }
"$DIR/venv/bin/pip" install -q --disable-pip-version-check \
  "Mezzanine==6.1.1" "Django==4.2.30" "django-contrib-comments==2.2.0" \
  "filebrowser-safe==1.1.1" "grappelli-safe==1.1.1" "bleach==6.4.0" "beautifulsoup4==4.15.0" \
  "pillow==13.0.0" "pytz==2026.6" "tzlocal==5.4.5" "requests==2.34.2" "requests-oauthlib==2.0.0" \
  "chardet==7.7.0" "tinycss2==1.5.1" "asgiref==3.13.0" "sqlparse==0.6.1" >"$DIR/pip.log" 2>&1 \
  || { echo "install.sh: pip install of Mezzanine 6.1.1 failed (see $DIR/pip.log)" >&2; exit 1; }
mkdir -p "$DIR/tmp-project" && rm -rf "$DIR/tmp-project/mzsite"
( cd "$DIR/tmp-project" && "$DIR/venv/bin/mezzanine-project" mzsite ) >/dev/null 2>&1 \
  || { echo "install.sh: mezzanine-project failed" >&2; exit 1; }
mv "$DIR/tmp-project/mzsite" "$DIR/mzsite" && rmdir "$DIR/tmp-project"
# Our settings: sqlite database and media in the per-port run folder, DEBUG on, no external services.
cp "$HERE/local_settings.py" "$DIR/mzsite/mzsite/local_settings.py" \
  || { echo "install.sh: cannot write local_settings.py" >&2; exit 1; }
# No Gravatar images (external requests): project-level copies of the two templates that use them.
SP="$("$DIR/venv/bin/python" -c 'import mezzanine, os; print(os.path.dirname(mezzanine.__file__))')"
for t in generic/includes/comment.html admin/includes/recent_comments.html; do
  mkdir -p "$DIR/mzsite/templates/$(dirname "$t")"
  grep -v 'gravatar_url' "$SP/generic/templates/$t" > "$DIR/mzsite/templates/$t" \
    || { echo "install.sh: cannot copy template $t" >&2; exit 1; }
done
# ... and the comments admin list builds its avatar through gravatar_url(): point it at a blank image.
cat >> "$DIR/mzsite/mzsite/urls.py" <<'PYEOF'

# corpus: no Gravatar requests (offline); avatars are a blank 1x1 image
from mezzanine.core.templatetags import mezzanine_tags as _corpus_mt  # noqa: E402
_corpus_mt.gravatar_url = lambda email, size=32: (
    "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==")
PYEOF
"$DIR/venv/bin/python" -c "import django, mezzanine; assert django.VERSION[:2]==(4,2)" \
  || { echo "install.sh: Mezzanine import check failed" >&2; exit 1; }
touch "$STAMP"
