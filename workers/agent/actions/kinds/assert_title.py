"""Check that the page's title or main heading shows a text: "The page title is "Timeline"", "the browser tab's title
contains Budget", "Verify the page heading reads "Custom Query"" (settle.js `pageIs`, see kinds/assert_page)."""

from __future__ import annotations

from workers.agent.actions.base import Rule
from workers.agent.actions.kinds.assert_page import PageCheck
from workers.agent.language.phrases import Op, Unsupported

# The page's title as a tester says it: its title in the browser, or the big heading on it.
_TITLE = (r"(?:the\s+)?(?:(?:page|browser|browser\s+tab|tab|window|document|site)(?:['’]s)?\s+(?:main\s+)?"
          r"(?:title|heading|header)|main\s+(?:title|heading)|(?:title|heading)\s+of\s+the\s+(?:page|screen|tab|window))")
_SAYS = (r"(?:should\s+|must\s+|will\s+)?(?:now\s+)?(?:is|be|reads?|read|shows?|show|says?|say|displays?|display|"
         r"contains?|contain|includes?|include|equals?|matches|match|(?:starts?|begins?)\s+with|changes?\s+to|"
         r"updates?\s+to|becomes?|become)")


def _title(m, s):
    x = m["x"].strip()
    value = s.unmask(x)
    if not value:
        raise Unsupported("it names no title")
    if not s.is_quoted(x) and len(value.split()) > 4:
        raise Unsupported(f"cannot tell which text the title must show in {s.show(x)!r}; quote it")
    return [Op("assert_title", value=value)]


STATEMENTS = (Rule(rf"{_TITLE}\s+{_SAYS}\s+(?P<x>.+)", _title, 139),)


class AssertTitle(PageCheck):
    name = "assert_title"
    how = "title"
    valued = True
    param_name = "expectedTitle"
    statements = STATEMENTS

    def describe(self, target, role, value):
        return f"Verify the page title shows '{value}'"

    def phrase(self, op, slot):
        return ["the page title shows ", *slot]

    def comment(self, op, what):
        return f"Check that the page's title or main heading shows {what}"


ACTION = AssertTitle()
