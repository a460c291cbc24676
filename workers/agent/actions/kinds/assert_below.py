"""Check that a text is shown below a part of the page ("'Saved' is shown below the Save button")."""

from __future__ import annotations

from workers.agent.actions.placed import Placed, shows_statement, statement


class AssertBelow(Placed):
    name = "assert_below"
    relation = "below"
    words = "below"
    statements = (statement(r"below|beneath|underneath|under", "assert_below"),
                  shows_statement(r"below|beneath|underneath", "assert_below"))  # "shows X under Y": a section


ACTION = AssertBelow()
