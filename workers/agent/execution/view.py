"""What the agent sees of the page at one moment: the pruned tree and, taken once on demand, a screenshot.

The tree is read first; the screenshot (the whole page, PNG) only when a model needs it, and then
shared by the next-action prompt and the grounding crops of that moment. Node boxes are in viewport
coordinates; `scroll` is the page's scroll offset when the picture was taken, to map them onto it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import Page

from shared.records import PageSnapshot
from workers.agent.execution.pictures import full_page_png


@dataclass
class PageView:
    page: Page
    snapshot: PageSnapshot
    _png: bytes | None = field(default=None, repr=False)
    scroll: tuple[float, float] = (0.0, 0.0)

    def screenshot(self) -> bytes:
        """The whole page as PNG, taken the first time it is asked for."""
        if self._png is None:
            x, y = self.page.evaluate("() => [window.scrollX, window.scrollY]")
            self.scroll = (float(x), float(y))
            self._png = full_page_png(self.page)
        return self._png
