"""Go back or forward in the browser's history, or reload the page."""

from __future__ import annotations

from workers.agent.actions.base import Action, ActionFailed, Rule
from workers.agent.language.phrases import Op

_WORDS = {"back": "Go back", "forward": "Go forward", "reload": "Reload the page"}


def _to(value: str):
    return lambda m, s: [Op("history", value=value)]


class History(Action):
    name = "history"
    model_hint = 'history: go "back" or "forward" in the browser\'s history, or "reload" the page (value)'
    grounded = False
    literal = True
    verbs = frozenset({"refresh", "reload"})
    rules = (
        Rule(r"(?:go|navigate|head|get|step|move|return|come|browse)\s+(?:back|backwards?)(?:\s+to\s+the\s+"
             r"(?:previous|last|prior)\s+page)?", _to("back"), 290),
        Rule(r"(?:go|navigate|head|get|step|move|browse)\s+(?:forward|forwards?)(?:\s+to\s+the\s+next\s+page)?",
             _to("forward"), 291),
        Rule(r"(?:back|return)", _to("back"), 292),
        Rule(r"(?:click|press|hit|tap|use)\s+(?:on\s+)?(?:the\s+)?browser['’]?s?\s+back(?:\s+button)?", _to("back"), 293),
        Rule(r"(?:click|press|hit|tap|use)\s+(?:on\s+)?(?:the\s+)?browser['’]?s?\s+forward(?:\s+button)?",
             _to("forward"), 294),
        Rule(r"(?:refresh|reload)(?:\s+the)?(?:\s+(?:page|screen|browser|tab|window))?", _to("reload"), 295),
    )

    def describe(self, target, role, value):
        return _WORDS.get(value or "", f"History {value}")

    def perform(self, act):
        if act.value == "back":
            response, moved = act.page.go_back(wait_until="load"), "back"
        elif act.value == "forward":
            response, moved = act.page.go_forward(wait_until="load"), "forward"
        elif act.value == "reload":
            return _status(act.page.reload(wait_until="load"))
        else:
            raise ActionFailed(f"unknown history move {act.value!r}")
        if response is None and act.page.url in ("", "about:blank"):
            raise ActionFailed(f"there is no page to go {moved} to")
        return _status(response)

    def phrase(self, op, slot):
        return [_WORDS.get(op.value or "", "Go back")]

    def comment(self, op, what):
        return {"back": "Go back to the previous page in the browser's history",
                "forward": "Go forward to the next page in the browser's history",
                "reload": "Reload the page"}.get(op.value or "", "Go back")

    def javascript(self, op, target, value):
        method = {"back": "goBack", "forward": "goForward", "reload": "reload"}[op.value or "back"]
        return f"await this.page.{method}();"


def _status(response) -> int | None:
    return response.status if response is not None else None


ACTION = History()
