"""Changes a team might make to the application between two nightly runs, switched on by the tests:

- `renamed-id`: the last-name field's id is renamed (its label and name stay): a locator by id drifts;
- `moved-link`: the Add Owner link moves into the search form (another container);
- `retitled-heading`: the owner page's "Owner Information" heading reads "Owner Details";
- `removed-row`: Betty Davis is no longer listed among the owners;
- `relabelled-button`: the search form's "Find Owner" button reads "Search" (a scenario that says "Search for
  Davis" still holds; one that says "Click Find Owner" does not);
- `stalled-stylesheet`: every page links a stylesheet whose first request takes STALL_S seconds (then none).

    from tests.apps.petclinic.changes import switch
    switch("renamed-id")   # switch() with no name: the application as it was
"""

from __future__ import annotations

import threading

from tests.apps.switches import Switches

NAMES = ("renamed-id", "moved-link", "retitled-heading", "removed-row", "relabelled-button", "stalled-stylesheet")
STALL_S = 6.0

_stalled_once = threading.Lock()
_stalled = threading.Event()
_switches = Switches(NAMES, on_switch=_stalled.clear)  # a stalled stylesheet stalls once more after each switch
active, switch = _switches.active, _switches.switch


def stall_once() -> None:
    """The stalled stylesheet's first request after switch() waits STALL_S seconds; the others do not."""
    with _stalled_once:
        first = not _stalled.is_set()
        _stalled.set()
    if first:
        threading.Event().wait(STALL_S)  # the server thread of this one request sleeps, as a slow CDN would
