"""The words people say for an icon-only control, and the ones they never mean."""

from __future__ import annotations

from shared.records import Node
from workers.agent.language.icons import glyph_purpose, icon_words


def control(**fields) -> Node:
    return Node(id=1, tag="button", role="button", operable=True, **fields)


def test_a_control_named_in_words_is_never_named_by_a_picture_it_does_not_show():
    # a synonym never crosses names: "three dots" is not a control named "More", "gear" not one named "Settings"
    assert icon_words(control(aria_label="Settings")) == ()
    assert icon_words(control(title="Open settings")) == ()
    assert icon_words(control(aria_label="More")) == ()


def test_a_control_named_in_words_is_named_by_the_other_words_for_the_picture_it_shows():
    words = icon_words(control(aria_label="Settings", icon="gear"))
    assert "cog" in words and "settings" not in words
    assert "three dots" in icon_words(control(aria_label="Actions", icon="ellipsis"))


def test_a_control_named_by_its_picture_is_named_by_the_other_pictures_and_its_purpose():
    words = icon_words(control(icon="bars"))
    assert "hamburger" in words and "menu" in words


def test_a_glyph_is_named_by_its_purpose_and_its_picture():
    words = icon_words(control(text="×"))
    assert "close" in words and "x" in words


def test_one_purpose_is_never_another_and_a_longer_name_is_no_icon():
    assert "delete" not in icon_words(control(text="Remove"))
    assert icon_words(control(text="Close account")) == ()
    assert icon_words(control(text="Settings for the Payments team")) == ()
    assert icon_words(Node(id=1, tag="span", text="Settings")) == ()  # not a control


def test_a_target_that_is_only_a_glyph_is_its_purpose():
    assert glyph_purpose("×") == "close"
    assert glyph_purpose("☰") == "menu"
    assert glyph_purpose("Save") is None


def test_a_control_nothing_else_names_is_named_by_its_test_id_or_id():
    assert "gear" in icon_words(control(testid="header--tooltip-settings"))
    assert "gear" in icon_words(control(id_attr="header-button-settings"))
    assert "gear" not in icon_words(control(text="Profile", testid="header--tooltip-settings"))
