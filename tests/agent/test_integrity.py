"""Never a wrong action recorded as done: a step either acts on the element the tester named or fails saying why."""

from __future__ import annotations

from tests.agent.pages_site import done, run_on_page

MOVER = """<!doctype html><html><body>
<h2>Publishing</h2>
<div class="toolbar">
  <button disabled title="Publish now">Publish</button>
  <button onclick="document.getElementById('log').textContent = 'Moved down'">Publish later</button>
</div>
<p id="log"></p>
</body></html>"""


def test_a_disabled_target_is_not_swapped_for_a_neighbour_that_fits_worse(tmp_path):
    record = run_on_page(MOVER, ["Click Publish"], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.step == 1 and record.verdict.kind == "action"
    assert "disabled" in record.verdict.reason or "not enabled" in record.verdict.reason, record.verdict.reason
    assert not any("Publish later" in line for line in done(record)), done(record)
