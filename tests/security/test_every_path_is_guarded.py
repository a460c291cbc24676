"""No code path opens a browser, a browser context or an HTTP connection for a customer without the egress guard.

Every place in the product's source that launches Chromium, makes a context or builds an HTTP client is listed
here, and each must either hand its connections to the guard (a `proxy` in the call) or be one of the service's
own clients, whose endpoints the operator configures and no customer can name. A new one fails this test until
it is guarded or added to OPERATOR_CLIENTS with its reason."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for folder in ("api", "workers", "shared") for p in (ROOT / folder).rglob("*")
           if p.suffix in (".py", ".js") and "node_modules" not in p.parts]

OPENERS = re.compile(
    r"chromium\.launch\(|(?<!self)\.new_context\(|\.newContext\(|launchOptions:|launch_persistent_context|"
    r"launchPersistentContext|connect_over_cdp|connectOverCDP|(?<!context)\.new_page\(|(?<!context)\.newPage\(|"
    r"request\.new_context|request\.newContext|httpx\.(?:Async)?Client\(|httpx\.(?:get|post|put|request|stream)\(|"
    r"urlopen\(|requests\.(?:get|post|Session)|aiohttp\.|http\.client|https?\.(?:get|request)\(|"
    r"socket\.create_connection\(|(?<![.\w])fetch\(|OpenAI\(|boto3\.session\.Session\("
)
# A proxy setting that guards: given, and not None, undefined or null.
GUARDING = re.compile(r"proxy\s*[=:]\s*(?!None\b|undefined\b|null\b)\S")

# The service's own clients: endpoints set by whoever runs stepforge, never by a customer's URL or page.
OPERATOR_CLIENTS = {
    "shared/step_registry/http.py": "the step registry service (STEPFORGE_REGISTRY_URL)",
    "workers/agent/model/client.py": "the model endpoint (STEPFORGE_MODEL_BASE_URL)",
    "shared/artifacts/s3.py": "the artifact store (STEPFORGE_S3_ENDPOINT_URL)",
    # Not the service's at all: the dashboard's page script, in its user's own browser, asks the dashboard for its
    # progress fragment; its pages' policy (default-src 'self') lets it reach nothing else.
    "api/ui/static/dashboard.js": "the dashboard's own pages, from its user's browser",
}

# The guards themselves: they connect only to the addresses they judged (their own tests show it).
GUARDS = {
    "workers/agent/scripting/templates/egress.js": "the suite's own egress guard (tests/security/test_suite_egress.py)",
}

# Where a browser or client runs for a customer; each call must route through the guard.
GUARDED = {
    "workers/agent/execution/browser.py",  # generation: the launch and every context
    "workers/agent/scripting/templates/world.js",  # the cucumber-js replay: the launch and every context
    "workers/agent/scripting/templates/playwright.config.js",  # the playwright-bdd replay's launch
    "shared/webhooks.py",  # webhook delivery
    "workers/cli/common.py",  # the CLI's reachability check of the base URL
    "shared/reset_request.py",  # a project's reset request
}


def openers() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in OPENERS.finditer(text):
            line = text[text.rfind("\n", 0, match.start()) + 1:match.start()].lstrip()
            if line.startswith(("#", "//", "*")):
                continue  # a comment that names one
            call = text[match.start():match.start() + 600]
            depth, end = 0, len(call)
            for index, char in enumerate(call):  # the call up to its closing bracket
                depth += char in "({"
                depth -= char in ")}"
                if depth == 0 and char in ")}":
                    end = index + 1
                    break
            found.setdefault(path.relative_to(ROOT).as_posix(), []).append(call[:end])
    return found


def test_every_browser_and_http_client_is_guarded_or_the_operators_own():
    found = openers()
    unexpected = set(found) - set(GUARDED) - set(OPERATOR_CLIENTS) - set(GUARDS)
    assert not unexpected, f"a browser or HTTP client the guard does not know of: {sorted(unexpected)}"
    for where in GUARDED:
        assert where in found, f"{where} opens nothing any more: update this test"
        for call in found[where]:
            assert GUARDING.search(call), f"{where}: {call[:200]!r} opens connections around the egress guard"


def test_the_playwright_bdd_contexts_take_their_scenarios_guard():
    fixtures = (ROOT / "workers/agent/scripting/templates/fixtures.js").read_text()
    assert re.search(r"proxy: async \(\{\}, use, testInfo\) => \{\s*await use\(await stepforge\.contextProxy\("
                     r"testInfo\.tags\)\)", fixtures)
    stepforge = (ROOT / "workers/agent/scripting/templates/stepforge.js").read_text()
    # the service's guard session when it runs the suite, else the suite's own guard
    assert "return viaProxy(await egress.guardAddress());" in stepforge


def test_every_replay_runs_behind_the_guard():
    """Both runners are started by these two functions only, and each starts them inside replay_egress; the
    resident cucumber-js (resident.py) runs only what replay.py hands it there, in the environment that holds the
    guard's proxies."""
    starters = {p.relative_to(ROOT).as_posix() for p in SOURCES if p.suffix == ".py"
                and re.search(r"cucumber-js|\"playwright\"\), \"test\"", p.read_text()) and "Popen(" in p.read_text()}
    assert starters == {"workers/agent/verify/replay.py", "workers/agent/verify/bdd_replay.py",
                        "workers/agent/verify/resident.py"}
    for where in starters - {"workers/agent/verify/resident.py"}:
        text = (ROOT / where).read_text()
        assert "with replay_egress(scenario_ids, settings, base_url) as egress:" in text
        assert "egress.env()" in text
    callers = {p.relative_to(ROOT).as_posix() for p in SOURCES if p.suffix == ".py" and "RUNNERS.replay(" in p.read_text()}
    assert callers == {"workers/agent/verify/replay.py"}
    run = (ROOT / "workers/agent/verify/replay.py").read_text()
    run = run[run.index("def _run_cucumber("):]
    assert run.index("env.update(egress_env)") < run.index('request = {"cwd": str(suite), "env": env,')
