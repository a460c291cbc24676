"""Choose an option of a dropdown that is not a native <select> (a design system's select, a Chosen or Select2 box):
the dropdown is clicked open (unless it says it is open: aria-expanded), then its option is picked, what the click
opened first, as `pick` does (settle.js pickable). A menu named by its control ('Choose Reports from the More menu') is
chosen from the same way. A
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
        if act.target.get_attribute("aria-expanded") == "true":
            # one the step before opened stays open: what opened with it comes first
            act.page.evaluate("() => window.__stepforge && window.__stepforge.noteShown('')")
            since = act.target.evaluate("el => window.__stepforge ? window.__stepforge.changedBefore(el) : null")
        else:
            # what shows the option's text before the click (a link of that name elsewhere) is no option of the list
            since = act.page.evaluate("(t) => window.__stepforge ? window.__stepforge.noteShown(t) : null", act.value or "")
            act.pointer(act.target.click)
            act.settle()
        pick_option(act, "the dropdown opened no option", since)

    def javascript(self, op, target, value):
        return f"await this.chooseOption({target}, {value});"


ACTION = Choose()
