"""Ids a framework generates at run time are never locators; ids a person wrote are."""

from __future__ import annotations

import pytest

from workers.agent.grounding.ids import generated_id


@pytest.mark.parametrize("value", [":r1q:", "«r1q»", "radix-:r2:-trigger-more", "ember123", "mui-12345",
                                   "field-8f3a9c2e", "react-aria8254751381-_r_11_", "_r_1q_",
                                   "3f2c9a1e-6b7d-4c2a-9e1f-0a1b2c3d4e5f", "downshift-0-input", "downshift-0-item-1",
                                   "react-select-2-option-1"])
def test_generated(value):
    assert generated_id(value)


@pytest.mark.parametrize("value", ["email", "save-2", "step2", "owner_name", "main-menu", "r_and_d", "header-12"])
def test_written_by_a_person(value):
    assert not generated_id(value)
