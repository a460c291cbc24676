"""Accept the next dialog (alert, confirm, prompt), answering a prompt with a text.

"Click Delete and accept the confirmation": the answer is set up before the click that opens the dialog (the
kind `arms`), and the step fails when no dialog came. Without such a sentence every dialog is accepted.
"""

from __future__ import annotations

from workers.agent.actions.base import Action, Rule
from workers.agent.language.phrases import Op, literal_value

# The dialog may be named by its quoted text, before or after the word: 'the "Remove this label?" confirmation'.
DIALOG = r"(?:the\s+|this\s+|that\s+)?(?:\x01\d+\x02\s+)?(?:confirmation(?:\s+(?:dialog|box|prompt|message|popup))?|" \
         r"dialog(?:\s+box)?|alert|prompt|popup|pop-up|confirm(?:\s+box)?|warning|message\s+box)(?:\s+\x01\d+\x02)?"


_TYPED_INTO = r"(?:the\s+|this\s+|that\s+)?(?:\x01\d+\x02\s+)?(?:prompt(?:\s+(?:dialog|box))?|dialog(?:\s+box)?|popup|pop-up)"


def _accept(m, s):
    return [Op("accept_dialog")]


def _answer(m, s):
    return [Op("accept_dialog", value=literal_value(s, m["v"], what="answer"))]


class AcceptDialog(Action):
    name = "accept_dialog"
    model_hint = ("accept_dialog: accept the dialog the next action opens (value: the text to answer a prompt with, "
                  "else empty); give it before that action")
    grounded = False
    valued = True
    param_name = "promptAnswer"
    arms = True
    verbs = frozenset({"accept", "answer", "approve"})
    rules = (
        Rule(rf"(?:accept|confirm|approve|ok|agree\s+to|click\s+ok\s+(?:in|on))\s+{DIALOG}", _accept, 20),
        Rule(rf"(?:answer|reply\s+to|fill(?:\s+in)?)\s+{DIALOG}\s+with\s+(?P<v>.+)", _answer, 21),
        # typed into a prompt (never into 'the Message box', a field, nor an alert or a confirmation: nothing to type in)
        Rule(rf"(?:type|enter|write)\s+(?P<v>.+?)\s+(?:in|into)\s+{_TYPED_INTO}(?:\s+and\s+(?:accept|confirm)(?:\s+it)?)?",
             _answer, 22),
    )

    def describe(self, target, role, value):
        return f"Answer the next dialog with {value}" if value else "Accept the next dialog"

    def perform(self, act):
        act.answer_next_dialog(True, act.value or None)

    def phrase(self, op, slot):
        return ["Answer the next dialog with ", *slot] if op.value else ["Accept the next dialog"]

    def comment(self, op, what):
        return f"Answer the next dialog (a prompt) with {what}" if op.value else "Accept the next dialog (confirm or alert)"

    def javascript(self, op, target, value):
        return f"this.answerNextDialog(true, {value});" if op.arg or op.value else "this.answerNextDialog(true);"


ACTION = AcceptDialog()
