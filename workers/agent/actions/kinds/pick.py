"""Pick an option of a list that is not a native <select>: type-ahead suggestions, an autocomplete, a listbox, a
menu. The option is found by its whole text among options, menu items and list items; the generated suite looks
for it the same way (world.js pickOption)."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, ActionFailed, Rule
from workers.agent.brains.phrases import Op, Unsupported, literal_value

LIST = (r"(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:list\s+of\s+)?(?:suggestions?|suggested\s+\w+|auto-?complete(?:\s+list)?|"
        r"completions?|matches|(?:search\s+)?results|options|menu|list\s*box|drop-?down\s+list|list)")


def _pick(m, s):
    value = literal_value(s, m["v"], option=True, what="option")
    if not value:
        raise Unsupported("it names no option to pick")
    return [Op("pick", value=value)]


def option_pattern(text: str) -> re.Pattern[str]:
    """The option's whole text, any case, spaces as written or collapsed (world.js builds the same)."""
    return re.compile(r"^\s*" + r"\s+".join(re.escape(w) for w in text.split()) + r"\s*$", re.I)


class Pick(Action):
    name = "pick"
    model_hint = "pick: choose the option (value) from the list that is open (suggestions, autocomplete, menu)"
    grounded = False
    valued = True
    field = True
    param_name = "option"
    rules = (Rule(rf"(?:select|choose|pick|click|take)\s+(?P<v>.+?)\s+(?:from|in|on|among|out\s+of)\s+{LIST}", _pick,
                  590),)

    def describe(self, target, role, value):
        return f"Pick {value} from the list"

    def perform(self, act):
        name = act.value or ""
        page = act.page
        exact = option_pattern(name)
        options = (page.get_by_role("option", name=exact)
                   .or_(page.get_by_role("menuitem", name=exact))
                   .or_(page.locator("li").filter(has_text=exact)))
        try:
            options.filter(visible=True).first.click(timeout=act.settings.action_timeout_ms)
        except Exception as exc:  # the executor turns Playwright's errors into one line; say what was missing
            if "Timeout" in str(exc):
                raise ActionFailed(f'no open list offers "{name}"') from None
            raise

    def phrase(self, op, slot):
        return ["Pick ", *slot, " from the list"]

    def comment(self, op, what):
        return f"Pick {what} from the open list (suggestions, listbox or menu)"

    def javascript(self, op, target, value):
        return f"await this.pickOption({value});"


ACTION = Pick()
