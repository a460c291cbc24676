"""Type into a field key by key: a type-ahead or autocomplete field whose suggestions open on key events.

Never chosen from a sentence: a fill whose grounded field listens to keys (or is a combobox) becomes this kind.
"""

from __future__ import annotations

from workers.agent.actions.kinds.fill import Fill


class TypeKeys(Fill):
    name = "type"
    model_hint = ""
    for_model = False
    rules = ()

    def refine(self, node, intent=None):
        return self.name

    def perform(self, act):
        act.target.fill("")
        if act.value:
            act.target.press_sequentially(act.value)

    def comment(self, op, what):
        return super().comment(op, what).replace("Type ", "Type key by key ", 1)

    def javascript(self, op, target, value):
        return f"await {target}.fill(\"\"); await {target}.pressSequentially({value});"


ACTION = TypeKeys()
