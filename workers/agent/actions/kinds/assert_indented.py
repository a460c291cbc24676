"""Check that a text is shown indented under another ('"Our History" and "Our Team" appear indented under "About Us"':
a tree's children under their parent): below it, its own left edge at least 8 px further right, and starting before
the other's right edge (settle.js placed(), relation "indented", the same in the suite)."""

from __future__ import annotations

from workers.agent.actions.placed import Placed, statement

_SHOWN = r"(?:(?:is|are)(?:\s+(?:now|still|also))?(?:\s+(?:shown|listed|displayed))?|(?:now\s+)?(?:appears?|show\s+up))"


class AssertIndented(Placed):
    name = "assert_indented"
    relation = "indented"
    words = "indented under"
    # ('nested under "Services"': a tree's children, said as a person sees them)
    statements = (statement(r"(?:indented|nested)\s+(?:under|below|beneath)", "assert_indented", shown=_SHOWN,
                            order=134),)


ACTION = AssertIndented()
