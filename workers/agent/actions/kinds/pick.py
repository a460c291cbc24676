"""Pick an option of a list that is not a native <select>: type-ahead suggestions, an autocomplete, a listbox, a
menu, results that are a plain list of divs, links or buttons. The option is the visible element whose whole text is
the value, among what appeared or changed in response to the typing first, nearest the field typed into
(settle.js pickable); the generated suite looks for it the same way (stepforge.js pickOption)."""

from __future__ import annotations

import re
import time

from workers.agent.actions.base import Action, ActionFailed, Rule
from workers.agent.language.phrases import NAMED_MENU, Op, Unsupported, literal_value

LIST = (r"(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:list\s+of\s+)?(?:suggestions?|suggested\s+\w+|auto-?complete(?:\s+list)?|"
        r"completions?|matches|(?:search\s+)?results|options|menu|list\s*box|drop-?down\s+list|list)"
        # 'in the menu that opens': the one the step before opened
        r"(?:\s+that\s+(?:just\s+)?(?:opens|opened|appears|appeared|pops\s+up|popped\s+up|drops\s+down|comes\s+up|"
        r"shows(?:\s+up)?|is\s+(?:shown|open|displayed)))?")


_PLACED = re.compile(r"\s(?:under|below|beneath|next\s+to|beside|in\s+the\s+row\s+of)\s", re.I)


def _pick(m, s):
    if _PLACED.search(m["v"]):
        return None  # 'Click "Users" under "Users" in the left-hand menu': an element by its place, not an option
    if NAMED_MENU.fullmatch(m["list"].strip()):
        return None  # 'Choose Reports from the More menu': the menu's control is clicked open first (kinds/select)
    value = literal_value(s, m["v"], option=True, what="option")
    if not value:
        raise Unsupported("it names no option to pick")
    named = re.fullmatch(r"(?:the\s+)?(?P<name>[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:drop-?down\s+)?list", m["list"].strip(), re.I)
    if named and not re.search(r"\b(?:suggest\w*|results?|completions?|matches|options|auto-?complete|search|open|"
                               r"that|this|same|new|whole)\b", named["name"], re.I):
        # 'choose "Frontend" in the value list': a list a control keeps, named like one (a native select offering it,
        # else the element of that name), not what appeared after typing
        return [Op("select", value=value)]
    return [Op("pick", value=value)]


# settle.js's choice, the same in the generated suite (stepforge.js pickOption): what appeared in response to the
# typing first, then options and menu items, then the nearest to the field; a plain list of divs or buttons too.
PICKABLE_JS = ("([text, ms, answer, since]) => window.__stepforge ? window.__stepforge.pickable(text, ms, answer, since)"
               " : null")


def pick_option(act, failure: str, since: int | None = None) -> None:
    """Click the option act.value of the list that is open; ActionFailed('<failure> "<option>"') when none offers it.
    Waits while no element offers it, and up to the settle timeout for what the typing (or the click that opened the
    list after the page's change mark `since`) brings."""
    name = act.value or ""
    waits = [name, act.settings.action_timeout_ms, act.settings.settle_timeout_ms, since]
    deadline = time.monotonic() + act.settings.action_timeout_ms / 1000
    while True:
        chosen = act.page.evaluate_handle(PICKABLE_JS, waits).as_element()
        if chosen is None:
            raise ActionFailed(f'{failure} "{name}"')
        try:
            chosen.click(timeout=max(250.0, (deadline - time.monotonic()) * 1000))
            return
        except Exception as exc:  # (Playwright's error: the kinds import no browser)
            # the list drew its options again as the pointer reached one (a highlight): find the option again
            if time.monotonic() >= deadline or not _DETACHED.search(str(exc)):
                raise


_DETACHED = re.compile(r"not attached|detached", re.I)


class Pick(Action):
    name = "pick"
    model_hint = "pick: choose the option (value) from the list that is open (suggestions, autocomplete, menu)"
    grounded = False
    valued = True
    field = True
    param_name = "option"
    rules = (Rule(rf"(?:select|choose|pick|click|take)\s+(?P<v>.+?)\s+(?:from|in|on|among|out\s+of)\s+(?P<list>{LIST})", _pick,
                  590),)

    def describe(self, target, role, value):
        return f"Pick {value} from the list"

    def perform(self, act):
        pick_option(act, "no open list offers")

    def phrase(self, op, slot):
        return ["Pick ", *slot, " from the list"]

    def comment(self, op, what):
        return f"Pick {what} from the open list (suggestions, listbox or menu)"

    def javascript(self, op, target, value):
        return f"await this.pickOption({value});"


ACTION = Pick()
