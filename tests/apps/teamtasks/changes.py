"""Changes a team might make to Teamtasks between two nightly runs, switched on by the tests:

- `renamed-id`: the sign-in form's Email field's id is renamed (its label stays): a locator by id drifts;
- `retitled-welcome`: the task list greets "Hello, Alice" instead of "Welcome, Alice";
- `removed-row`: "Write the quarterly report" is no longer among the tasks (nor found by a search);
- `relabelled-button`: the "Load activity" button reads "Show activity".

    from tests.apps.teamtasks.changes import switch
    switch("renamed-id")   # switch() with no name: the application as it was

The single-page app learns them from /config.js, the API from this module, at each request.
"""

from __future__ import annotations

from tests.apps.switches import Switches

NAMES = ("renamed-id", "retitled-welcome", "removed-row", "relabelled-button")
REMOVED_TASK = "Write the quarterly report"

_switches = Switches(NAMES)
active, switch = _switches.active, _switches.switch
