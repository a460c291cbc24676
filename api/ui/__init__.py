"""The dashboard: server-rendered pages under /ui/ of the API's own app (pages.py), signed in with a project's API
key (auth.py), rendered from Jinja2 templates with the code highlighted on the server (render.py)."""

from api.ui.pages import error_page, router  # noqa: F401
