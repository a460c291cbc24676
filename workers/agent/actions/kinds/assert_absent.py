"""Check that a text is not shown ("'Water the plants' is no longer listed"), or that an element named by its
role and name is not there ("the Delete button is not shown"); waits for it to go, as a user would."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, CheckFailed, Rule
from workers.agent.actions.kinds.assert_text import MESSAGES, texts
from workers.agent.language.phrases import TOKEN, VISIBLE, WHERE, Op, Unsupported, split_role

_ROLES = {"button": "button", "link": "link", "field": "textbox", "checkbox": "checkbox", "radio": "radio",
          "dropdown": "combobox", "tab": "tab", "menuitem": "menuitem", "option": "option"}
_NOT = r"(?:is|are|should|must|will|does|do)\s*(?:n['’]t|\s+not)(?:\s+be)?|(?:is|are)\s+no\s+longer|isn['’]t|aren['’]t|" \
       r"(?:should|must|will)\s+no\s+longer\s+be|(?:is|are)\s+not\s+any\s+more"
_GONE = r"(?:is|are|has\s+been|have\s+been|was|were|gets?|got)\s+(?:now\s+)?(?:hidden|removed|deleted|gone)|" \
        r"(?:disappears?|disappeared|vanishe[sd]|has\s+disappeared|went\s+away|goes\s+away)"


def absent(x: str, s) -> list[Op]:
    """What must be absent: quoted or literal texts, or an element named by its role noun and name."""
    if re.search(r"\b(?:is|are|has|have|shows?|lists?|contains?|displays?|reads?|says?|includes?)\b",
                 TOKEN.sub(" ", x), re.I):
        # '"Savings" shows "500.00" and "Cash"' is not shown: a check of its own before the absent text
        raise Unsupported(f"{s.show(x)!r} holds a check of its own; cannot tell which text must be absent")
    name, role = split_role(x.strip())
    if role in _ROLES and name and not s.is_quoted(x.strip()):
        return [Op("assert_absent", target=s.unmask(name), role_hint=role)]
    return texts(x, s, "assert_absent")


def _absent(m, s):
    return absent(m["x"], s)


STATEMENTS = (
    # the page does not show X / no longer shows X
    Rule(r"(?:the\s+)?(?:page|screen|list|table|results?)\s+(?:does\s*(?:n['’]t|\s+not)|should\s*(?:n['’]t|\s+not)|"
         r"must\s*(?:n['’]t|\s+not)|no\s+longer)\s+(?:shows?|displays?|contains?|includes?|lists?|have|has)\s+"
         r"(?:any\s+)?(?P<x>.+)", _absent, 50),
    # X is not shown / X is no longer listed / X isn't displayed on the page
    Rule(rf"(?P<x>.+?)\s+(?:{_NOT})\s+(?:now\s+|still\s+|any\s+longer\s+)?{VISIBLE}{WHERE}(?:\s+any\s+(?:more|longer))?",
         _absent, 60),
    # X does not appear in the results / should not appear / no longer shows up
    Rule(rf"(?P<x>.+?)\s+(?:(?:does|do|should|must|will)\s*(?:n['’]t|\s+not)|(?:does|do)\s+no\s+longer|no\s+longer)\s+"
         rf"(?:appear|appears|show\s+up|shows\s+up)(?:\s+any\s*(?:more|longer))?{WHERE}(?:\s+any\s*(?:more|longer))?",
         _absent, 65),
    # X is no longer shown in the palette: not in that part, nor anywhere on the page
    Rule(rf"(?P<x>.+?)\s+(?:{_NOT})\s+(?:now\s+|still\s+|any\s+longer\s+)?{VISIBLE}\s+(?:in|on|inside|within)\s+(?:the\s+)?"
         r"(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*(?:\s+any\s*(?:more|longer))?", _absent, 61),
    # X is not in the table / is no longer on the page
    Rule(rf"(?P<x>.+?)\s+(?:{_NOT})\s+(?:now\s+|still\s+)?(?:in|on)\s+(?:the|this)\s+(?:page|screen|list|table|"
         r"results(?:\s+(?:list|table))?|search\s+results)(?:\s+any\s*(?:more|longer))?", _absent, 66),
    # X disappears / X is gone / X has been removed
    # ('gone from the On budget list': from the page, which holds that list)
    Rule(rf"(?P<x>.+?)\s+(?:{_GONE})(?:\s+from\s+(?:the\s+)?(?:[\w-]+\s+){{0,3}}?(?:page|screen|list|table|results|"
         r"sidebar|menu|panel|group|section))?", _absent, 70),
    # 'no "Comcast" row is displayed any more': that row's text
    Rule(rf"no\s+(?P<x>\x01\d+\x02)\s+(?:row|entry|item|record|line|link|button|option|tab|card|node|transaction)s?\s+"
         rf"(?:is|are)\s+(?:now\s+|still\s+)?(?:{VISIBLE}|left){WHERE}(?:\s+any\s*(?:more|longer))?", _absent, 71),
)  # fmt: skip


class AssertAbsent(Action):
    name = "assert_absent"
    for_model = False
    check_name = "absent"
    model_hint = "absent: a text (value) the page must not show (it is waited for to go)"
    is_assertion = True
    grounded = False
    valued = True
    param_name = "absentText"
    statements = STATEMENTS

    def describe(self, target, role, value):
        if target:
            return f"Verify the {target} {role or 'element'} is not shown"
        if role in MESSAGES:  # 'the message "Saved" is gone'
            return f"Verify the {role} '{value}' is not shown"
        return f"Verify '{value}' is not shown"

    def page_locator(self, intent):
        from shared.records import Locator

        if not intent.target:
            return None
        return Locator(strategy="role", role=_ROLES.get(intent.role_hint or "", "button"), value=intent.target)

    def check(self, act):
        if act.target is not None:
            try:
                act.target.first.wait_for(state="hidden", timeout=act.settings.assertion_timeout_ms)
            except Exception:
                raise CheckFailed(f"the page still shows {act.target.count()} matching element(s)") from None
            return
        text = act.value or ""
        if not text:
            raise Unsupported("nothing to look for")
        if not act.text_gone(text, act.settings.assertion_timeout_ms):
            raise CheckFailed(f'the page still shows "{text}"')

    def phrase(self, op, slot):
        if op.locator is not None:
            kind = {v: k for k, v in _ROLES.items()}.get(op.locator.role or "", "element")
            return [f'the "{op.locator.value}" {kind} is not shown']
        return ["the page does not show ", *slot]

    def comment(self, op, what):
        if op.locator is not None:
            return f'Check that no {op.locator.role} named "{op.locator.value}" is shown'
        return f"Check that the page does not show {what} (waiting for it to go)"

    def javascript(self, op, target, value):
        if target is not None:
            return f"await this.expectAbsent({target});"
        return f"await this.expectNoText({value});"


ACTION = AssertAbsent()
