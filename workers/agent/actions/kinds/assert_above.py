"""Check that a text is shown above a part of the page ("The error "Wrong password" is shown above the form")."""

from __future__ import annotations

from workers.agent.actions.placed import Placed, shows_statement, statement


class AssertAbove(Placed):
    name = "assert_above"
    relation = "above"
    words = "above"
    statements = (statement(r"above|over", "assert_above"), shows_statement(r"above|over", "assert_above"))


ACTION = AssertAbove()
