"""What reads otherwise tomorrow: the runs generation never anchors an element by, nor writes into a step."""

from __future__ import annotations

import pytest

from shared.volatile import is_volatile, unsaid_volatile, volatile_parts


@pytest.mark.parametrize(("text", "expected"), [
    ("Mar. 3, 2027", [("date", "Mar. 3, 2027")]),
    ("Posted 3 March 2027 by dana", [("date", "3 March 2027")]),
    ("Due 2027-03-03T10:00", [("date", "2027-03-03"), ("time", "10:00")]),
    ("03/03/2027", [("date", "03/03/2027")]),
    ("Sept 14", [("date", "Sept 14")]),
    ("Updated at 9:30 pm", [("time", "9:30 pm")]),
    ("edited 3 minutes ago", [("relative time", "3 minutes ago")]),
    ("an hour ago", [("relative time", "an hour ago")]),
    ("Created yesterday", [("relative time", "yesterday")]),
    ("Comments (12)", [("counter", "(12)")]),
    ("4 items left", [("counter", "4 items")]),
    ("Showing 1-10 of 42", [("counter", "of 42")]),
    ("build 3f2a9c1e7b", [("generated id", "3f2a9c1e7b")]),
    ("id 123e4567-e89b-12d3-a456-426614174000", [("generated id", "123e4567-e89b-12d3-a456-426614174000")]),
])
def test_dates_times_relative_times_counts_and_ids_are_volatile(text, expected):
    assert volatile_parts(text) == expected


@pytest.mark.parametrize("text", ["Owner", "May", "March", "Version 2.1", "1.1 Beta", "Page 2", "Ratio 3:2",
                                  "Mary Jones", "Read more...", "Add Owner", "Mark all as complete", "deadbeef",
                                  "7", "(2025)", "(555) 123-4567", "4.17.21", "Django 5.0.14", "Step 2 may fail",
                                  "Best of 2026", "Release of 2.0", "Q3 2026", "#12", "24/7"])
def test_names_and_version_numbers_are_not(text):
    assert not is_volatile(text), volatile_parts(text)


def test_a_run_the_tester_wrote_is_theirs():
    sentences = 'Open the post of "Mar. 3, 2027" and check the 2 comments'
    assert unsaid_volatile("the item of mar.  3, 2027", sentences) == []
    assert unsaid_volatile("Posted 3 minutes ago", sentences) == [("relative time", "3 minutes ago")]
    assert unsaid_volatile("Mar. 3", "the post of Mar. 31") == [("date", "Mar. 3")]  # whole words only
