"""Check that a text is shown inside a part of the page named by what it is, not by a title ('"Reports" is listed in
the sidebar', 'the table shows "Pears"'): inside some visible part of that kind (`placed.PART_KINDS`: its tags and
ARIA roles), said in described results (reading/claims.py; settle.js placed(), relation "inside")."""

from __future__ import annotations

from workers.agent.actions.placed import Placed


class AssertInside(Placed):
    name = "assert_inside"
    relation = "inside"
    words = "in"


ACTION = AssertInside()
