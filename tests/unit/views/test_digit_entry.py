"""Level numbers typed on the title: ``1`` waits a moment for a ``0`` (level 10), digits that
begin no longer number play at once, a lone ``0`` is the tenth."""

from __future__ import annotations

from game.views.controls import DIGIT_WAIT, DigitEntry


def test_one_then_zero_is_level_ten() -> None:
    # Given ten levels
    entry = DigitEntry(10)
    # When 1 is typed, it waits; then 0 within the wait
    assert entry.press(1, 0.0) is None and entry.pending == (1, 0.0)
    assert entry.press(0, 0.3) == 10
    # Then nothing waits any more
    assert entry.pending is None and entry.poll(5.0) is None


def test_a_lone_one_plays_level_one_once_the_wait_is_over() -> None:
    entry = DigitEntry(10)
    assert entry.press(1, 2.0) is None
    assert entry.poll(2.0 + DIGIT_WAIT / 2) is None
    assert entry.poll(2.0 + DIGIT_WAIT + 0.01) == 1
    assert entry.pending is None


def test_enter_while_waiting_plays_the_digit_at_once() -> None:
    entry = DigitEntry(10)
    entry.press(1, 0.0)
    assert entry.flush() == 1 and entry.flush() is None


def test_digits_that_begin_no_level_number_play_at_once() -> None:
    # Given ten levels: 2..9 cannot begin 20..99
    entry = DigitEntry(10)
    for d in range(2, 10):
        assert entry.press(d, 0.0) == d and entry.pending is None
    # And a lone 0 is the tenth, as before
    assert entry.press(0, 0.0) == 10


def test_one_then_a_digit_past_the_list_plays_level_one() -> None:
    entry = DigitEntry(10)
    entry.press(1, 0.0)
    assert entry.press(5, 0.1) == 1  # there is no level 15


def test_a_short_list_never_waits_and_refuses_numbers_past_its_end() -> None:
    entry = DigitEntry(4)
    assert entry.press(1, 0.0) == 1
    assert entry.press(7, 0.0) is None and entry.pending is None
    assert entry.press(0, 0.0) is None  # no tenth level


def test_a_list_of_twelve_waits_after_one() -> None:
    entry = DigitEntry(12)
    entry.press(1, 0.0)
    assert entry.press(2, 0.1) == 12
