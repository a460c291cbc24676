"""The npm packages a generated suite needs, pinned once for the suite and the replay runtime alike."""

from __future__ import annotations

import importlib.metadata

# @cucumber/cucumber 13 refuses Node 20; 12.9 runs on it.
CUCUMBER_RANGE = "^12.9.0"


def playwright_core_range() -> str:
    """playwright-core pinned to the major.minor of the installed Python playwright, e.g. "~1.65.0"."""
    version = importlib.metadata.version("playwright")
    major, minor = version.split(".")[:2]
    return f"~{major}.{minor}.0"


def npm_dependencies() -> dict[str, str]:
    return {"@cucumber/cucumber": CUCUMBER_RANGE, "playwright-core": playwright_core_range()}


# The packages of a suite written for Playwright Test (`--format playwright-bdd`).
PLAYWRIGHT_BDD_RANGE = "^9.2.1"


def playwright_bdd_dependencies() -> dict[str, str]:
    # playwright-core too: the suite's stepforge.js requires it (npm hoists it; stricter installers do not).
    return {"@playwright/test": playwright_core_range(), "playwright-bdd": PLAYWRIGHT_BDD_RANGE,
            "playwright-core": playwright_core_range()}


def runtime_dependencies() -> dict[str, str]:
    """What the shared replay runtime installs: both formats' runners."""
    return {**npm_dependencies(), **playwright_bdd_dependencies()}
