"""Teamtasks' two servers: the web server (the single-page app, its scripts, the vendored htmx) and the JSON API
on another port, which answers every call after a delay as a real backend over a network does."""

from __future__ import annotations

import html
import json
import os
import random
import time
from pathlib import Path

from flask import Flask, Response, abort, jsonify, request, send_file

from . import changes
from . import store as data

HERE = Path(__file__).resolve().parent
HTMX = HERE / "node_modules" / "htmx.org" / "dist" / "htmx.min.js"
# Every API answer comes this many milliseconds later (min, max): TEAMTASKS_DELAY_MS="300,1000".
DELAY_MS = (300, 1000)


def delay_range() -> tuple[int, int]:
    raw = os.environ.get("TEAMTASKS_DELAY_MS")
    if not raw:
        return DELAY_MS
    low, _, high = raw.partition(",")
    return int(low), int(high or low)


def create_web_app(api_url: str, stylesheet: str | None) -> Flask:
    """The single-page app: index.html for every route (the client routes), its assets, a help page."""
    if not HTMX.is_file():
        raise RuntimeError(f"{HTMX} is missing: run `npm ci --prefix {HERE}` (infra/setup.sh does)")
    app = Flask(__name__, static_folder=None)
    index = (HERE / "index.html").read_text(encoding="utf-8")
    link = f'<link rel="stylesheet" href="{html.escape(stylesheet)}">' if stylesheet else ""
    page = index.replace("<!--cdn-stylesheet-->", link)

    @app.get("/config.js")
    def config() -> Response:
        settings = {"api": api_url, "changes": sorted(changes.active)}
        return Response(f"window.TEAMTASKS = {json.dumps(settings)};\n", mimetype="text/javascript")

    @app.get("/static/<name>")
    def asset(name: str) -> Response:
        path = HERE / "static" / name
        if not path.is_file():
            abort(404)
        return send_file(path)

    @app.get("/vendor/htmx.min.js")
    def htmx() -> Response:
        return send_file(HTMX, mimetype="text/javascript")

    @app.get("/help")
    def help_page() -> str:
        return "<!doctype html><title>Teamtasks help</title><h1>Teamtasks help</h1><p>Ask Alice.</p>"

    add_admin_routes(app)

    @app.get("/", defaults={"path": ""})
    @app.get("/<path:path>")
    def spa(path: str) -> Response:
        return Response(page, mimetype="text/html")

    return app


def create_api_app(web_origin: str) -> Flask:
    """The JSON API (and the HTML fragments htmx swaps in), called cross-origin with a bearer token."""
    app = Flask(__name__)
    store = data.store

    @app.before_request
    def slow_and_guarded() -> Response | None:
        if request.method == "OPTIONS":  # the CORS preflight: answered at once, as proxies do
            return Response(status=204)
        if request.path.startswith("/__"):
            return None
        time.sleep(random.uniform(*delay_range()) / 1000)  # the backend's latency, the thing being tested
        if request.path != "/api/login":
            token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            if token not in store.tokens:
                return Response(json.dumps({"error": "sign in first"}), status=401, mimetype="application/json")
        return None

    @app.after_request
    def cors(response: Response) -> Response:
        response.headers["Access-Control-Allow-Origin"] = web_origin
        # Whatever headers the page asks for (its token, htmx's HX-* headers).
        response.headers["Access-Control-Allow-Headers"] = request.headers.get("Access-Control-Request-Headers", "")
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, PATCH, DELETE, OPTIONS"
        return response

    @app.post("/api/login")
    def login() -> tuple[Response, int] | Response:
        body = request.get_json(silent=True) or {}
        with store.lock:
            signed = store.sign_in(str(body.get("email", "")), str(body.get("password", "")))
        if signed is None:
            return jsonify(error="Invalid email or password"), 401
        return jsonify(token=signed[0], name=signed[1])

    def listed() -> list[data.Task]:
        """The tasks the application shows (`removed-row`: one of them is gone)."""
        return [t for t in store.tasks.values()
                if not ("removed-row" in changes.active and t.title == changes.REMOVED_TASK)]

    @app.get("/api/tasks")
    def tasks() -> Response:
        return jsonify([task.as_json() for task in listed()])

    @app.post("/api/tasks")
    def create() -> tuple[Response, int]:
        body = request.get_json(silent=True) or {}
        title, assignee = str(body.get("title", "")).strip(), str(body.get("assignee", "")).strip()
        if not title:
            return jsonify(error="Title is required"), 422
        with store.lock:
            task = store.add(title, assignee or "Nobody", bool(body.get("urgent")))
        return jsonify(task.as_json()), 201

    @app.get("/api/tasks/<int:task_id>")
    def one(task_id: int) -> Response:
        task = store.tasks.get(task_id) or abort(404)
        return jsonify(task.as_json())

    @app.patch("/api/tasks/<int:task_id>")
    def change(task_id: int) -> Response:
        task = store.tasks.get(task_id) or abort(404)
        body = request.get_json(silent=True) or {}
        with store.lock:
            if "title" in body and str(body["title"]).strip():
                task.title = str(body["title"]).strip()
            for flag in ("done", "starred"):
                if flag in body:
                    setattr(task, flag, bool(body[flag]))
        return jsonify(task.as_json())

    @app.delete("/api/tasks/<int:task_id>")
    def delete(task_id: int) -> tuple[str, int]:
        with store.lock:
            store.tasks.pop(task_id, None) or abort(404)
        return "", 204

    @app.post("/api/tasks/<int:task_id>/attachments")
    def attach(task_id: int) -> Response:
        task = store.tasks.get(task_id) or abort(404)
        upload = request.files.get("file") or abort(422)
        with store.lock:
            task.attachments.append(upload.filename or "unnamed")
        return jsonify(task.as_json())

    @app.post("/api/exports")
    def start_export() -> tuple[Response, int]:
        with store.lock:
            job = len(store.exports) + 1
            store.exports[job] = time.monotonic()
        return jsonify(id=job), 202

    @app.get("/api/exports/<int:job>")
    def export_state(job: int) -> Response:
        started = store.exports.get(job) or abort(404)
        return jsonify(ready=time.monotonic() - started >= data.EXPORT_SECONDS, rows=len(store.tasks))

    @app.get("/api/people")
    def people() -> Response:
        wanted = request.args.get("q", "").strip().lower()
        return jsonify([name for name in data.PEOPLE if wanted and wanted in name.lower()][:5])

    @app.post("/api/profile")
    def profile() -> Response:
        store.profile.update({k: str(v) for k, v in (request.get_json(silent=True) or {}).items()})
        return jsonify(store.profile)

    @app.get("/fragments/search")
    def search() -> str:
        wanted = request.args.get("q", "").strip().lower()
        found = [t for t in listed() if wanted in t.title.lower()]
        if not found:
            return '<p class="empty">No task matches</p>'
        return "<ul>" + "".join(f"<li>{html.escape(t.title)}</li>" for t in found) + "</ul>"

    @app.get("/fragments/activity")
    def activity() -> str:
        return "<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in store.activity) + "</ul>"

    add_admin_routes(app)
    return app


def add_admin_routes(app: Flask) -> None:
    """/__health and /__reset (the seed restored) on either server: the tests and the reset command use them."""

    @app.get("/__health")
    def health() -> str:
        return "ok"

    @app.post("/__reset")
    def reset() -> tuple[str, int]:
        data.reset()
        return "", 204
