"""The hostile application and the listener on its refused address, one of each per test module."""

from __future__ import annotations

import pytest

from .hostile import hostile_site, refused_listener


@pytest.fixture(scope="module")
def listener():
    with refused_listener() as listener:
        yield listener


@pytest.fixture(scope="module")
def site(listener):
    with hostile_site(listener) as url:
        yield url
