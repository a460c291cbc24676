# Copied by install.sh over the local_settings.py made by mezzanine-project.
# It is exec'd from settings.py, so it can modify all the variables there.
import os

DEBUG = True

# Fixed keys: this is a local test fixture, never exposed.
SECRET_KEY = "corpus-mezzanine-not-secret-0123456789abcdefghijklmnopqrstuvwxyz"
NEVERCACHE_KEY = "corpus-mezzanine-nevercache-0123456789abcdefghij"

_RUN_DIR = os.environ.get("MZ_RUN_DIR", os.path.join(PROJECT_ROOT, "run"))

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(_RUN_DIR, "db.sqlite3"),
    }
}
MEDIA_ROOT = os.path.join(_RUN_DIR, "media")

ALLOWED_HOSTS = ["localhost", "127.0.0.1", "::1"]

# No caching, so a reset of the database shows at once.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}

# No outgoing e-mail: print it instead.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
