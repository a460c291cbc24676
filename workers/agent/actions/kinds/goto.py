"""Open a path of the application or a URL ("Go to /owners/find"); "Go to the Contact page" clicks its link."""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin, urlsplit, urlunsplit

from workers.agent.actions.base import Action, Rule
from workers.agent.language.phrases import Op, Unsupported, is_location, target_phrase

HISTORY_WORDS = ("previous", "prior", "last", "earlier", "former", "original")
_VAGUE_PLACE = re.compile(
    r"(?:(?:the|a|an|this|that|some|any|my|your|our)\s+)?(?P<w>previous|prior|last|next|same|other|original|earlier|"
    r"former|another|new|different|some|any|a|an)\b",
    re.I,
)


def _go(m, s, *, verb="go"):
    if s.expected:
        return None  # 'I am on the Roadmap page' as an expected result: checked (kinds/assert_page), never done
    x = m["x"].strip()
    place = s.unmask(x)
    if is_location(place):
        return [Op("goto", value=place)]
    vague = _VAGUE_PLACE.match(x)
    if vague and not s.is_quoted(x):
        if vague["w"].lower() in HISTORY_WORDS:
            return [Op("history", value="back")]  # "Go to the previous page"
        raise Unsupported(
            f"{s.show(x)!r} names no particular page or element; name the link or page, e.g. Go to the Contact page"
        )
    page = re.fullmatch(r"(?:the\s+)?(?P<n>.+?)\s*(?:web\s*)?(?:page|screen|tab|view)", x, re.I)
    thing = re.fullmatch(r"(?:the\s+)?(?P<n>.+?)\s+(?:form|dialog|panel|window)", x, re.I)
    if page:
        name = s.unmask(page["n"])
    elif verb == "open" and thing:  # "Open the Add Owner form": a click on what opens it
        return [Op("click", target=s.unmask(thing["n"]))]
    elif verb == "open":
        t = target_phrase(s, x)
        return [Op.on("click", t)]
    elif s.has_token(x):  # 'Go to the "Visa Card" account, whose balance reads ...': that element, a link first
        t = target_phrase(s, x)
        return [Op("click", target=t.name, role_hint=t.role or "link", place=t.place)]
    else:
        name = s.unmask(re.sub(r"^the\s+", "", x, flags=re.I))
        # 'Go to the Cash Wallet account': a name in capitals, then the kind of thing it is
        name = re.sub(r"(?<=[A-Za-z0-9])\s+(?:account|file|project|package|post|ticket|issue|item|entry|record|flow|"
                      r"folder|document)$", "", name) if re.match(r"[A-Z0-9]", name) else name
    if name.lower() in {"homepage", "home page"}:
        name = "home"
    if not name:
        raise Unsupported("it names no page")
    return [Op("click", target=name, role_hint="link")]


def absolute_url(base_url: str, path_or_url: str) -> str:
    """A path below the base URL's path ("/owners" under http://h/app is http://h/app/owners). A base URL's query
    (http://h/app?lang=en) stays on the base itself and on a path without a query of its own; the slash goes after
    its path, never after the query. The suite's runtime does the same (stepforge.js resolveUrl)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", path_or_url, re.I):
        return path_or_url
    base = urlsplit(base_url)
    if path_or_url.strip("/") == "" and base.query:
        return urlunsplit(base._replace(path=base.path or "/", fragment=""))  # http://h?x=1 is http://h/?x=1
    folder = urlunsplit(base._replace(path=base.path if base.path.endswith("/") else base.path + "/", query="",
                                      fragment=""))
    joined = urlsplit(urljoin(folder, path_or_url.lstrip("/")))
    if base.query and not joined.query:
        joined = joined._replace(query=base.query)
    return urlunsplit(joined)


class Goto(Action):
    name = "goto"
    model_hint = "goto: open a URL or path (value)"
    grounded = False
    literal = True
    reads = True
    rules = (
        # ('Go back to the Dependencies tab': that tab or page, its link followed; 'Go back to the previous page' is
        # the browser's history, kinds/history)
        Rule(r"(?:go|navigate|browse|head|proceed|return|switch)\s+(?:back\s+)?to\s+(?P<x>.+)", _go, 300),
        Rule(r"(?:open|launch)\s+(?P<x>.+)", lambda m, s: _go(m, s, verb="open"), 301),
        Rule(r"(?:visit|load)\s+(?P<x>.+)", _go, 302),
        # 'Given I am on the login page'; 'I should be on ...' is a check (kinds/assert_page)
        Rule(r"(?:am|are|is)\s+on\s+(?P<x>.+)", _go, 303),
    )

    def describe(self, target, role, value):
        return f"Go to {value}"

    def redundant(self, node, value, current_url, base_url):
        return value is not None and urlsplit(absolute_url(base_url, value))[:4] == urlsplit(current_url)[:4]

    def perform(self, act):
        status = act.open(absolute_url(act.base_url, act.value or "/"))
        return status

    def phrase(self, op, slot):
        return [f'Open the page "{op.value or "/"}"']

    def comment(self, op, what):
        return f"Open {op.value or '/'}"

    def javascript(self, op, target, value):
        return f"await this.page.goto(this.url({json.dumps(op.value or '/')}));"


ACTION = Goto()
