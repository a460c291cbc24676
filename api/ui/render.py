"""The dashboard's pages rendered on the server: Jinja2 templates (api/ui/templates/, autoescaped) and the generated
code highlighted by Pygments (Gherkin, JavaScript, unified diffs), so the browser needs no script to read them."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import DiffLexer, GherkinLexer, JavascriptLexer, TextLexer

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
LEXERS = {".feature": GherkinLexer, ".js": JavascriptLexer, ".mjs": JavascriptLexer, ".diff": DiffLexer}
FORMATTER = HtmlFormatter(cssclass="code", wrapcode=True)


def code(text: str, name: str) -> Markup:
    """The file's text highlighted as its kind (by its name's suffix), as HTML."""
    lexer = next((lexer for suffix, lexer in LEXERS.items() if name.endswith(suffix)), TextLexer)
    return Markup(highlight(text, lexer(), FORMATTER))  # noqa: S704 - Pygments escapes the text it highlights


def code_css() -> str:
    return FORMATTER.get_style_defs(".code")


def moment(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S UTC") if value else "-"


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f} s" if value < 120 else f"{value / 60:.1f} min"


@cache
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(("html",)),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(moment=moment, seconds=seconds)
    return env


# Every page: nothing but the dashboard's own files run or load in it (no inline script or style), it is never framed
# by another site (the Accept button), and nothing it serves is sniffed into HTML.
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def page(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    html = environment().get_template(template).render(request=request, **context)
    return HTMLResponse(html, status_code=status_code, headers=PAGE_HEADERS)
