"""Time-aware recall: the dates a query names, and how close a memory is to them.

"What did Nate cook on 9 November, 2022?" or "what did we decide last week?" name a
time; memories written then are more likely to hold the answer. This module finds
such expressions (absolute days, months and years, and a few relative ones resolved
against the time of the query) as intervals, and scores a memory's ``created_at``
by its distance from the nearest interval: 1 inside it, decaying outside it with a
scale that grows with the interval's span.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_ABBREV = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
_MONTH_NAME = r"(?P<month>" + "|".join([*MONTHS, *sorted(_ABBREV, key=len, reverse=True)]) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY_MONTH_YEAR = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH_NAME},?\s+{_YEAR}\b")
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH_NAME}\s+{_DAY},?\s+{_YEAR}\b")
_ISO_DAY = re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<month>\d{2})-(?P<day>\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTH_NAME},?\s+(?:of\s+)?{_YEAR}\b")
_YEAR_ONLY = re.compile(rf"\b{_YEAR}\b")
# Only precise relative times: "three months ago" or "4 years ago" is a vague span, and
# in a question about an old conversation it is usually relative to that conversation,
# not to now; a wrong guess would reorder everything.
_RELATIVE = re.compile(
    r"\b(?P<what>yesterday|today|tonight|last\s+(?:week|month|night)|"
    r"(?P<n>\d{1,2}|a|one|two|three|four|five|six)\s+(?P<unit>days?|weeks?)\s+ago)\b"
)
_WORD_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# How far outside an interval a memory still counts as near, per interval span: a named
# day reaches a few days around it (a session is often written up a day or two later);
# a month or a year reaches proportionally further.
_DECAY_DAYS = {"day": 3.0, "week": 4.0, "month": 10.0, "year": 45.0}


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """A time a query names: ``[start, end)`` and how precise it is."""

    start: datetime
    end: datetime
    precision: str
    """``day``, ``week``, ``month`` or ``year``."""
    text: str

    def nearness(self, when: datetime) -> float:
        """1.0 inside the window, ``exp(-distance / decay)`` outside it."""
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        if self.start <= when < self.end:
            return 1.0
        gap = (self.start - when) if when < self.start else (when - self.end)
        days = gap.total_seconds() / 86400.0
        return math.exp(-days / _DECAY_DAYS[self.precision])


def _month_number(token: str) -> int:
    token = token.lower().rstrip(".")
    if token in MONTHS:
        return MONTHS.index(token) + 1
    return _ABBREV[token[:4] if token.startswith("sept") else token[:3]]


def _day(year: int, month: int, day: int, text: str) -> TimeWindow | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return TimeWindow(start, start + timedelta(days=1), "day", text)


def _month(year: int, month: int, text: str) -> TimeWindow:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
    return TimeWindow(start, end, "month", text)


def _relative(match: re.Match[str], now: datetime) -> TimeWindow:
    what = match.group("what").lower()
    today = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    text = match.group(0)
    if what in ("today", "tonight"):
        return TimeWindow(today, today + timedelta(days=1), "day", text)
    if what == "yesterday" or what == "last night":
        return TimeWindow(today - timedelta(days=1), today, "day", text)
    if what.startswith("last"):
        unit = what.split()[-1]
        span = {"week": 7, "month": 30}[unit]
        return TimeWindow(today - timedelta(days=span), today, unit, text)
    n_text = match.group("n").lower()
    n = _WORD_NUMBERS.get(n_text) or int(n_text)
    unit = match.group("unit").lower().rstrip("s")
    days = {"day": 1, "week": 7}[unit] * n
    center = today - timedelta(days=days)
    half = timedelta(days=max(1, days // 10))
    return TimeWindow(center - half, center + half + timedelta(days=1), unit, text)


def time_windows(query: str, now: datetime | None = None) -> list[TimeWindow]:
    """The times ``query`` names, most precise first; empty when it names none."""
    text = query.lower()
    found: list[TimeWindow] = []
    taken: list[tuple[int, int]] = []

    def free(span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in taken)

    for pattern in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR):
        for m in pattern.finditer(text):
            window = _day(int(m["year"]), _month_number(m["month"]), int(m["day"]), m[0])
            if window is not None and free(m.span()):
                found.append(window)
                taken.append(m.span())
    for m in _ISO_DAY.finditer(text):
        if not free(m.span()):
            continue
        taken.append(m.span())  # an impossible date is not a bare year either
        month = int(m["month"])
        window = _day(int(m["year"]), month, int(m["day"]), m[0]) if 1 <= month <= 12 else None
        if window is not None:
            found.append(window)
    for m in _MONTH_YEAR.finditer(text):
        if free(m.span()):
            found.append(_month(int(m["year"]), _month_number(m["month"]), m[0]))
            taken.append(m.span())
    for m in _YEAR_ONLY.finditer(text):
        if free(m.span()):
            year = int(m["year"])
            found.append(
                TimeWindow(
                    datetime(year, 1, 1, tzinfo=UTC),
                    datetime(year + 1, 1, 1, tzinfo=UTC),
                    "year",
                    m[0],
                )
            )
            taken.append(m.span())
    current = now or datetime.now(UTC)
    for m in _RELATIVE.finditer(text):
        if free(m.span()):
            found.append(_relative(m, current))
            taken.append(m.span())
    order = {"day": 0, "week": 1, "month": 2, "year": 3}
    return sorted(found, key=lambda w: order[w.precision])


def nearness(windows: list[TimeWindow], when: datetime) -> float:
    """How close ``when`` is to the nearest window, in [0, 1]; 0 without windows."""
    return max((w.nearness(when) for w in windows), default=0.0)


def search_span(windows: list[TimeWindow]) -> tuple[datetime, datetime] | None:
    """The interval worth fetching time-matched candidates from (windows plus decay)."""
    if not windows:
        return None
    reach = [timedelta(days=2 * _DECAY_DAYS[w.precision]) for w in windows]
    start = min(w.start - r for w, r in zip(windows, reach, strict=True))
    end = max(w.end + r for w, r in zip(windows, reach, strict=True))
    return start, end
