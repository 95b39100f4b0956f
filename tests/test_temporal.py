"""Time-aware recall: which times a query names, and how near a memory is to them."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from engram.recall.temporal import nearness, search_span, time_windows

NOW = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "start", "end", "precision"),
    [
        ("What did Nate cook on 9 November, 2022?", day(2022, 11, 9), day(2022, 11, 10), "day"),
        ("on March 5th, 2024", day(2024, 3, 5), day(2024, 3, 6), "day"),
        ("the 1st of February 2023", day(2023, 2, 1), day(2023, 2, 2), "day"),
        ("deploy on 2024-02-03", day(2024, 2, 3), day(2024, 2, 4), "day"),
        ("What happened in August 2023?", day(2023, 8, 1), day(2023, 9, 1), "month"),
        ("Sept 2021 offsite", day(2021, 9, 1), day(2021, 10, 1), "month"),
        ("December, 2022 party", day(2022, 12, 1), day(2023, 1, 1), "month"),
        ("what did she paint in 2022", day(2022, 1, 1), day(2023, 1, 1), "year"),
        ("what did we decide yesterday", day(2024, 6, 14), day(2024, 6, 15), "day"),
        ("the outage last week", day(2024, 6, 8), day(2024, 6, 15), "week"),
    ],
)
def test_named_times(query: str, start: datetime, end: datetime, precision: str) -> None:
    windows = time_windows(query, NOW)
    assert len(windows) == 1
    assert (windows[0].start, windows[0].end, windows[0].precision) == (start, end, precision)


def test_no_time_no_windows() -> None:
    assert time_windows("What is Caroline's favourite book?", NOW) == []
    # A bare number is not a year, and an impossible date is neither a day nor a year.
    assert time_windows("I walked 300 steps", NOW) == []
    assert time_windows("2024-02-30", NOW) == []


def test_day_wins_over_its_own_year_and_most_precise_first() -> None:
    windows = time_windows("between 2022 and 9 November, 2023", NOW)
    assert [w.precision for w in windows] == ["day", "year"]
    assert windows[1].start == day(2022, 1, 1)


def test_relative_ago() -> None:
    (window,) = time_windows("the bug from 3 weeks ago", NOW)
    assert window.precision == "week"
    assert window.start < day(2024, 5, 25) < window.end


def test_nearness_is_one_inside_and_decays_outside() -> None:
    (window,) = time_windows("on 9 November, 2022", NOW)
    assert nearness([window], datetime(2022, 11, 9, 18, 30, tzinfo=UTC)) == 1.0
    # Three days after the end of the named day: exp(-3 / 3).
    assert math.isclose(nearness([window], day(2022, 11, 13)), math.exp(-1.0))
    assert nearness([window], day(2021, 1, 1)) < 1e-6
    # Naive datetimes count as UTC.
    assert nearness([window], datetime(2022, 11, 9, 1)) == 1.0
    assert nearness([], day(2022, 11, 9)) == 0.0


def test_search_span_covers_the_decay() -> None:
    windows = time_windows("on 9 November, 2022", NOW)
    span = search_span(windows)
    assert span is not None
    assert span[0] == day(2022, 11, 3) and span[1] == day(2022, 11, 16)
    assert search_span([]) is None


def test_vague_relative_times_are_not_used() -> None:
    # "4 years ago" is a vague span, often relative to an old conversation, not now.
    assert time_windows("Where did Caroline move from 4 years ago?", NOW) == []
    assert time_windows("three months ago", NOW) == []
