"""Dismiss the next dialog (Cancel on a confirm or a prompt); set up before the action that opens it."""

from __future__ import annotations

from workers.agent.actions.base import Action, Rule
from workers.agent.actions.kinds.accept_dialog import DIALOG
from workers.agent.language.phrases import Op


class DismissDialog(Action):
    name = "dismiss_dialog"
    model_hint = "dismiss_dialog: cancel the dialog the next action opens; give it before that action"
    grounded = False
    arms = True
    verbs = frozenset({"dismiss", "cancel", "decline", "reject"})
    rules = (Rule(rf"(?:dismiss|cancel|decline|reject|close|refuse)\s+{DIALOG}", lambda m, s: [Op("dismiss_dialog")], 23),)

    def describe(self, target, role, value):
        return "Dismiss the next dialog"

    def perform(self, act):
        act.answer_next_dialog(False, None)

    def phrase(self, op, slot):
        return ["Dismiss the next dialog"]

    def comment(self, op, what):
        return "Dismiss the next dialog (Cancel)"

    def javascript(self, op, target, value):
        return "this.answerNextDialog(false);"


ACTION = DismissDialog()
