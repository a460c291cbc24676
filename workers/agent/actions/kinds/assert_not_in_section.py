"""Check that a text is not shown in the part of the page a title heads, which is shown ('"Cash Wallet" is no longer
listed under "On budget"', '"Tips" is no longer in "Available categories"'): the text may still be shown elsewhere
(see assert_in_section)."""

from __future__ import annotations

from workers.agent.actions.placed import Placed


class AssertNotInSection(Placed):
    name = "assert_not_in_section"
    relation = "section"
    words = "under"
    absent = True


ACTION = AssertNotInSection()
