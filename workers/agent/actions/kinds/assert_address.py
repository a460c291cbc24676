"""Check that the page's address holds a text: "The URL contains "/ticket/3"", "the address bar shows /search?q=bug",
"Verify the URL ends with "/report"" (settle.js `pageIs`, see kinds/assert_page)."""

from __future__ import annotations

from workers.agent.actions.base import Rule
from workers.agent.actions.kinds.assert_page import PageCheck
from workers.agent.language.phrases import Op, Unsupported

_ADDRESS = (r"(?:the\s+)?(?:(?:page|browser|current|web)(?:['’]s)?\s+)?(?:url|(?:web\s+)?address(?:\s+bar)?)"
            r"(?:\s+(?:of\s+the\s+page|in\s+the\s+(?:address|url|location)\s+bar))?")
_SAYS = (r"(?:should\s+|must\s+|will\s+)?(?:now\s+)?(?:is|be|reads?|shows?|show|displays?|contains?|contain|includes?|"
         r"include|has|have|ends?\s+(?:with|in)|end\s+(?:with|in)|changes?\s+to|updates?\s+to|becomes?|become)")


def _address(m, s):
    x = m["x"].strip()
    value = s.unmask(x)
    if not value or (not s.is_quoted(x) and (" " in value or not any(c in value for c in "/?#=."))):
        raise Unsupported(f"{s.show(x)!r} is no part of an address; quote the text the address holds, "
                          "e.g. The URL contains '/ticket/3'")
    return [Op("assert_address", value=value)]


STATEMENTS = (Rule(rf"{_ADDRESS}\s+{_SAYS}\s+(?P<x>.+)", _address, 138),)


class AssertAddress(PageCheck):
    name = "assert_address"
    how = "address"
    literal = True
    statements = STATEMENTS

    def describe(self, target, role, value):
        return f"Verify the address holds '{value}'"

    def phrase(self, op, slot):
        return ["the address holds ", *slot]

    def comment(self, op, what):
        return f"Check that the page's address holds {what}"


ACTION = AssertAddress()
