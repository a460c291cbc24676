"""Check that the page's main heading shows a text: 'the page heading reads "Custom Query"', 'the main heading is
"Roadmap"' (settle.js `pageIs`: one of the visible headings of level 1, or on a page drawn with none its one biggest
short text on the first screen, reads the text whole, case and spaces aside; never the browser's title, which
kinds/assert_title also accepts). Read by the claims grammar (reading/claims.py)."""

from __future__ import annotations

from workers.agent.actions.kinds.assert_page import PageCheck


class AssertHeading(PageCheck):
    name = "assert_heading"
    how = "heading"
    valued = True
    param_name = "expectedHeading"

    def describe(self, target, role, value):
        return f"Verify the page's main heading shows '{value}'"

    def phrase(self, op, slot):
        return ["the page's main heading shows ", *slot]

    def comment(self, op, what):
        return f"Check that the page's main heading shows {what}"


ACTION = AssertHeading()
