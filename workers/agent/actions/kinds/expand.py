"""Expand or collapse a part of the page by its name: 'Expand the "npm" section', 'Collapse the Validation entry'. The
toggle of the named element's own row is clicked when it has one (a tree's arrow beside the text, which a click on the
text would only select: settle.js toggleOf), else the named element itself (an accordion's header)."""

from __future__ import annotations

from workers.agent.actions.base import ActionFailed, Rule, thing
from workers.agent.actions.kinds.click import Click
from workers.agent.language.phrases import Op, target_phrase

_TOGGLE_JS = "e => window.__stepforge ? window.__stepforge.toggleOf(e) : e"
# A link with its own address that says nothing of expanding (no aria-expanded, aria-controls or collapse toggle)
_PLAIN_LINK_JS = ("e => e.matches('a[href]') && !e.matches('[aria-expanded], [aria-controls], [data-toggle], "
                  "[data-bs-toggle]') && !/^#?$/.test(e.getAttribute('href'))")
# 'Expand "Validation" the same way': how it is done, said before
_MANNER = r"(?:\s+(?:the\s+same\s+way|in\s+the\s+same\s+way|likewise|as\s+well|too|as\s+before))?"


def _expand(m, s):
    return [Op.on("expand", target_phrase(s, m["t"]))]


class Expand(Click):
    name = "expand"
    verb = "Expand"
    model_hint = "expand: open (or close) a collapsed section, tree item or group by its name"
    rules = (
        Rule(r"(?:expand|collapse|unfold|fold)\s+(?!(?:the\s+)?(?:first|second|third|last|all|every|each)\b)(?P<t>.+?)"
             r"(?:\s+(?:section|panel|group|node|entry|item|accordion|folder|row|tree\s+item|category))?" + _MANNER,
             _expand, 631),
    )

    def describe(self, target, role, value):
        return f"Expand or collapse {thing(target, role)}"

    def eligible(self, node):
        # the text a person points at, its row's toggle is what is clicked; a link is as likely another thing of the
        # same name (a tab of the page) as what expands
        return 1.0 if node.operable and node.role != "link" else 0.8

    def perform(self, act):
        toggle = act.target.evaluate_handle(_TOGGLE_JS).as_element()
        if toggle.evaluate(_PLAIN_LINK_JS):
            raise ActionFailed("it is a link that expands nothing (no toggle beside it, no expanded state)")
        toggle.click(timeout=act.settings.action_timeout_ms)

    def javascript(self, op, target, value):
        return f"await this.expand({target});"


ACTION = Expand()
