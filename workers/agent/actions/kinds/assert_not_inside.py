"""Check that a text is not shown inside any visible part of a kind, which is shown ('"Drafts" is no longer in the
sidebar'): the text may still be shown elsewhere (see assert_inside)."""

from __future__ import annotations

from workers.agent.actions.placed import Placed


class AssertNotInside(Placed):
    name = "assert_not_inside"
    relation = "inside"
    words = "in"
    absent = True


ACTION = AssertNotInside()
