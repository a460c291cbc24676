"""Empty a text field: its own operation, never a fill with an empty value (which would become an empty Examples
cell)."""

from __future__ import annotations

from workers.agent.actions.base import Action, Rule, thing
from workers.agent.actions.elements import is_textbox
from workers.agent.actions.naming import field_label, the_element, the_field
from workers.agent.language.phrases import Op, target_phrase


def _clear(m, s):
    t = target_phrase(s, m["t"], "field")
    if t.role in ("checkbox", "radio"):
        return [Op.on("uncheck", t)]
    return [Op.on("clear", t)]


# What a field holds, as a tester calls it when deleting it: 'Delete the text in the Notes field' (the brain's
# grammar reads 'delete the query that is in it' as the field just clicked or typed into)
HELD = r"(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:existing\s+|current\s+|old\s+|whole\s+)?(?:text|query|content|contents|value|code)"


class Clear(Action):
    name = "clear"
    model_hint = "clear: empty the target text field"
    field = True
    verbs = frozenset({"empty", "erase"})
    rules = (
        Rule(rf"(?:delete|remove|erase|clear)\s+{HELD}\s+(?:that\s+is\s+|which\s+is\s+)?(?:in|from)\s+(?P<t>.+)",
             _clear, 619),
        Rule(r"(?:clear|empty|erase)\s+(?P<t>.+)", _clear, 620),
        # 'Leave the password field empty': it is empty, whatever it held
        Rule(r"(?:leave|keep)\s+(?P<t>.+?\b(?:field|box|input|area))\s+(?:empty|blank)", _clear, 621),
        # 'Leave the Name empty': a field said by its name alone
        Rule(r"(?:leave|keep)\s+(?P<t>(?:the\s+)?(?:\x01\d+\x02|(?-i:[A-Z])[\w-]*(?:\s+[\w-]+){0,2}))\s+(?:empty|blank)", _clear, 623),
    )

    def describe(self, target, role, value):
        return f"Clear {thing(target, role)}"

    def eligible(self, node):
        return 1.0 if is_textbox(node) else 0.0

    def perform(self, act):
        # Everything selected and deleted as a person does it, then emptied: a code editor's hidden input holds
        # none of the editor's text, so emptying that input alone leaves the editor as it was.
        act.target.press("ControlOrMeta+a")
        act.target.press("Backspace")
        act.target.fill("")

    def phrase(self, op, slot):
        return [f"Clear {the_element(op, 'field', field_label(op))}"]

    def comment(self, op, what):
        return f"Empty {the_field(op, 'field')}"

    def brief_target(self, op):
        return field_label(op)

    def javascript(self, op, target, value):
        return f'await {target}.press("ControlOrMeta+a"); await {target}.press("Backspace"); await {target}.fill("");'


ACTION = Clear()
