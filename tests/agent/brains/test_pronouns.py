"""'it' in a place points at the element said before it: by name, never an element the step acted on unnamed."""

from __future__ import annotations

import pytest

from workers.agent.brains.builtin import _pronoun_placed
from workers.agent.language.phrases import Op, Place, Unsupported


def test_next_to_it_is_the_element_named_just_before_in_the_step() -> None:
    typed = _pronoun_placed(Op("fill", None, "field", "carol", Place(anchor="it", side="beside")),
                            [Op("click", "reassign to", "radio")])
    assert (typed.place.anchor, typed.place.side) == ("reassign to", "beside")


def test_next_to_it_after_an_element_the_step_did_not_name_is_refused() -> None:
    # 'Tick the checkbox and type "x" into the field next to it': the checkbox is named by no words
    with pytest.raises(Unsupported, match="names by no words"):
        _pronoun_placed(Op("fill", None, "field", "x", Place(anchor="it")), [Op("check", None, "checkbox")])
