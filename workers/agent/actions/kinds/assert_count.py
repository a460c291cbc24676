"""Check how many records a list holds: the list that holds a quoted text ('Four modules are listed, including
"node-red-dashboard"', 'Only "node-red-node-sqlite" is left in the list', '"tiny-logger" is the only dependency
listed', 'three rules: "high", "normal" and "otherwise"'; the sentences are read by language/counts.py).

The records are the table rows, list items, options, tree items, tabs or menu items alike beside the one that holds
the text, else the smallest boxes around it with boxes alike stacked with it (settle.js `counted`, the same in
generation and in the suite); only visible ones count. The value is the count as the tester wrote it ("four modules",
"one row"): its first word is the number.
"""

from __future__ import annotations

from workers.agent.actions.base import Action, CheckFailed
from workers.agent.language.counts import count_of
from workers.agent.language.phrases import Unsupported


class AssertCount(Action):
    name = "assert_count"
    for_model = False
    is_assertion = True
    grounded = False
    valued = True
    param_name = "expectedCount"

    def describe(self, target, role, value):
        return f"Verify the list holding '{target}' has {value}"

    def page_locator(self, intent):
        from shared.records import Locator

        if not intent.target:
            raise Unsupported("it does not say which list to count (quote a text one of its records shows)")
        if count_of(intent.value) is None:
            raise Unsupported(f"{intent.value!r} does not start with a number")
        return Locator(strategy="text", value=intent.target, exact=False)

    def check(self, act):
        wanted = count_of(act.value)
        if act.target is None or wanted is None:
            raise CheckFailed("nothing to count")
        timeout = act.settings.assertion_timeout_ms
        try:
            act.target.filter(visible=True).first.wait_for(state="visible", timeout=timeout)
        except Exception:
            raise CheckFailed("the page does not show the text the list is found by") from None
        found = act.target.evaluate_all(
            "(els, [n, ms]) => window.__stepforge ? window.__stepforge.counted(els, n, ms) : null",
            [act.value, timeout])
        if found is True:
            return
        if found is None:
            raise CheckFailed("the page's scripts are not loaded")
        raise CheckFailed(f"the list holds {' or '.join(str(n) for n in found) or 'no'} records, not {wanted}")

    def phrase(self, op, slot):
        return ["the list holding ", _quoted(op), " has ", *slot]

    def comment(self, op, what):
        return f"Check that the list holding {_quoted(op)} has {what}"

    def javascript(self, op, target, value):
        return f"await this.expectCount({value}, {target});"


def _quoted(op) -> str:
    return f'"{op.locator.value}"' if op.locator is not None else "it"


ACTION = AssertCount()
