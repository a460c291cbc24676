"""Wait until a text disappears ("Wait until 'Loading' disappears"), bounded by STEPFORGE_WAIT_TIMEOUT_MS."""

from __future__ import annotations

from workers.agent.actions.base import Action, ActionFailed


class WaitGone(Action):
    name = "wait_gone"
    model_hint = "wait_gone: wait (long, bounded) until the text (value) is no longer shown"
    grounded = False
    valued = True
    param_name = "awaitedText"
    # its sentences are wait_for's: "Wait until X" then either appears or disappears

    def describe(self, target, role, value):
        return f"Wait until '{value}' disappears"

    def perform(self, act):
        if not act.text_gone(act.value or "", act.settings.wait_timeout_ms):
            raise ActionFailed(f'"{act.value}" was still shown after {act.settings.wait_timeout_ms / 1000:g} s')

    def phrase(self, op, slot):
        return ["Wait until ", *slot, " disappears"]

    def comment(self, op, what):
        return f"Wait until the page no longer shows {what} (bounded)"

    def javascript(self, op, target, value):
        return f"await this.waitForNoText({value});"


ACTION = WaitGone()
