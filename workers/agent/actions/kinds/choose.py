"""Choose an option of a dropdown that is not a native <select> (a design system's select, a Chosen or Select2 box):
the dropdown is clicked open, then its option is picked from what opened, as `pick` does (settle.js pickable). A
`select` whose grounded dropdown is not native becomes this kind (`Select.refine`); it has no sentences of its own."""

from __future__ import annotations

from workers.agent.actions.base import thing
from workers.agent.actions.kinds.pick import pick_option
from workers.agent.actions.kinds.select import Select


class Choose(Select):
    name = "choose"
    for_model = False  # the model brain says "select"; grounding decides
    rules = ()

    def describe(self, target, role, value):
        return f"Choose {value} in {thing(target, role)}"

    def refine(self, node, intent=None):
        return self.name

    def perform(self, act):
        act.pointer(act.target.click)
        act.settle()
        pick_option(act, "the dropdown opened no option")

    def javascript(self, op, target, value):
        return f"await {target}.click(); await this.pickOption({value});"


ACTION = Choose()
