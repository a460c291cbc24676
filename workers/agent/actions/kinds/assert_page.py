"""Check that the page is the one a step names: "The Roadmap page is displayed", "I am taken to the New Ticket page",
"the user should be on the login page", "The Search page opens". A page is named by what a person calls it: its
title (a part of it between dashes or bars), its main heading or its current navigation item starts with the name,
or a part of its address is the name (settle.js `pageIs`, the same in the suite's expectPage). Its neighbours
(kinds/assert_title, kinds/assert_address) check the title and the address for a text."""

from __future__ import annotations

import json
import re

from workers.agent.actions.base import Action, CheckFailed, Rule
from workers.agent.language.phrases import Op, Unsupported

# How a page is called: "page", "screen", "view" ("web page", "home page").
_NOUN = r"(?:web\s*)?(?:page|screen|view)"
# Who is on it, said or not: "I", "you", "the user", "the browser".
_WHO = r"(?:(?:i|we|you|he|she|they|it|the\s+(?:user|browser|app|application)|user|browser)\s+)?"
_BE = r"(?:am|are|is|be|gets?|(?:should|must|will)\s+(?:(?:still|now|then)\s+)?be|has\s+been|have\s+been)"
_NOW = r"(?:(?:now|still|then|immediately|automatically|successfully)\s+)*"
# What a page's name may not be: words that say which page without naming it.
VAGUE = re.compile(r"(?:the\s+)?(?:same|previous|prior|next|last|other|another|new|different|correct|right|expected|"
                    r"relevant|corresponding|appropriate|respective|proper|current|this|that|a|an|some|any|original|"
                    r"following|resulting|target)(?:\s+one)?", re.I)
# Names that are parts of a page, not a page: left to the part checks (kinds/assert_part_shown).
_PART = re.compile(r".*\b(?:form|dialog|modal|popup|pop-up|menu|panel|sidebar|tab|section|tray|drawer)$", re.I)


def _named(x: str, s, *, noun_said: bool) -> list[Op] | None:
    """The page the words name; None when they name a part of a page or nothing page-like."""
    x = re.sub(r"^(?:the|a|an)\s+", "", x.strip(), flags=re.I)
    name = s.unmask(x)
    if not name or _PART.fullmatch(name) or name.lower() in ("the", "a", "an", "this", "that", "its", "their"):
        return None  # 'the page loads': no page's name
    if re.search(r"\s(?:on|in|of|at|under|from)\s", f" {x} ", re.I) and not s.is_quoted(x):
        return None  # 'the Save button on the settings page is visible': an element of a page, not the page
    if VAGUE.fullmatch(x):
        raise Unsupported(f"{s.show(x)!r} names no particular page; name it as its title or heading says, "
                          "e.g. The Roadmap page is shown")
    if not noun_said and not s.is_quoted(x) and len(name.split()) > 3:
        return None  # 'taken to the list of tickets with the new one at the top': more than a page's name
    return [Op("assert_page", value=name)]


def _page(m, s):
    if m.groupdict().get("now") and not s.expected:
        return None  # 'User navigates to the Settings page and clicks "Save"' in a step: done, not checked
    return _named(m["n"], s, noun_said=bool(m.groupdict().get("noun")))


# 'the Roadmap page', 'the "New Ticket" screen', or, after the verbs of arriving, the name alone ('the dashboard')
_PAGE = rf"(?:the\s+)?(?P<n>.+?)(?P<noun>\s+{_NOUN})"
_PLACE = rf"(?:the\s+)?(?P<n>.+?)(?P<noun>\s+{_NOUN})?"

STATEMENTS = (
    # the Roadmap page is displayed / is shown again / is still open
    Rule(rf"{_PAGE}\s+{_BE}\s+{_NOW}(?:shown|displayed|opened|open|loaded|visible|presented|rendered|reached)"
         r"(?:\s+again)?", _page, 115),
    # the Roadmap page opens / loads / appears / comes up
    Rule(rf"{_PAGE}\s+(?:should\s+|will\s+|must\s+)?{_NOW}(?:opens?|loads?|appears?|comes?\s+up|shows?\s+up)"
         r"(?:\s+again)?", _page, 116),
    # I am taken to the Roadmap page / the user is redirected back to the login page / it redirects to the dashboard
    Rule(rf"{_WHO}(?:{_BE}\s+)?{_NOW}(?:taken|redirected|brought|sent|navigated|returned|forwarded|moved|switched|"
         rf"directed|(?P<now>redirects?|navigates?|returns?|goes|go|gets?|moves?|switches|lands?|arrives?|ends?\s+up))\s+"
         rf"(?:back\s+)?(?:to|on|at|onto)\s+{_PLACE}", _page, 117),
    # the user should be on the Roadmap page / I remain on the login page / you are now at the Search screen
    Rule(rf"{_WHO}(?:{_BE}|remains?|stays?|(?:should|must|will)\s+(?:remain|stay))\s+{_NOW}(?:on|at)\s+{_PAGE}",
         _page, 118),
    # (Verify) the Roadmap page
    Rule(rf"(?:the\s+)?(?P<n>.+?)(?P<noun>\s+{_NOUN})\s+is\s+(?:the\s+)?(?:current|active)(?:\s+one)?", _page, 119),
)


def page_is(act, how: str) -> None:
    """settle.js pageIs over the current page, waited for up to the assertion timeout; CheckFailed with what the
    page is instead."""
    name = act.value or ""
    found = act.page.evaluate("([h, n, ms]) => window.__stepforge ? window.__stepforge.pageIs(h, n, ms) : null",
                              [how, name, act.settings.assertion_timeout_ms])
    if found is None:
        raise CheckFailed("the page's scripts are not loaded")
    if not found:
        title = " ".join((act.page.title() or "").split())
        is_now = f'its title is "{title}"' if title else "it has no title"
        said = {"page": f'the page is not the "{name}" page', "title": f'the page\'s title or heading does not show "{name}"',
                "heading": f'the page\'s main heading does not show "{name}"',
                "address": f'the page\'s address does not hold "{name}"'}[how]
        raise CheckFailed(f"{said}: {is_now}, its address {act.page.url}")


class PageCheck(Action):
    """A check of the page as a whole by settle.js pageIs: the kinds differ by `how` ("page", "title", "heading",
    "address")."""

    how = "page"
    for_model = False
    is_assertion = True
    grounded = False

    def check(self, act):
        page_is(act, self.how)

    def javascript(self, op, target, value):
        return f"await this.expectPage({json.dumps(self.how)}, {value});"


class AssertPage(PageCheck):
    name = "assert_page"
    literal = True
    statements = STATEMENTS

    def describe(self, target, role, value):
        return f"Verify the '{value}' page is shown"

    def phrase(self, op, slot):
        return ["the ", *slot, " page is shown"]

    def comment(self, op, what):
        return f"Check that the page is the {what} page (its title, main heading or address says so)"


ACTION = AssertPage()
