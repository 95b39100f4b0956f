"""The store standing's off-topic line for ``engram bench abstain`` (issue 24, rounds 4
and 5): the standing recall computes for a row, and the line in the plane of (best
cosine, one more feature) fitted on the paraphrase calibration stores alone, with none
of their answerable questions below it. ``engram bench abstain --fit`` writes it into a
calibration's ``standing``; ``engram.bench.categories`` fits its round-4 lines with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engram.errors import InvalidInputError
from engram.recall import standing

if TYPE_CHECKING:
    from engram.bench.abstain import Row
    from engram.memory import Memory


def standing_in(mem: Memory, namespace: str, sim: float | None) -> float | None:
    """The store standing of best cosine ``sim`` in ``namespace``, its profile computed
    (or refreshed) now as recall computes it; None without a dense leg."""
    standings = mem.standings
    if standings is None or sim is None:
        return None
    profile = standings.profile(namespace)
    if profile is None or profile.maxima is None:
        return None
    return round(standing.standing_of(sim, profile.maxima), 5)


#: Directions tried in the plane of (best cosine, one more feature), in degrees: the
#: test reads ``cos(a) * sim + sin(a) * feature`` (0 is the best cosine alone).
ANGLES = tuple(range(-80, 81, 2))

Feature = Callable[["Row"], float]


def along(feature: Feature, angle: float) -> Feature:
    """The row's value along the direction ``angle`` of (best cosine, ``feature``)."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return lambda row: c * (row.sim or 0.0) + s * feature(row)


def fit_direction(
    answerable: Sequence[Row], cross: Sequence[Row], feature: Feature
) -> tuple[float, float]:
    """``(angle, floor)``: the direction whose floor at the lowest answerable question
    silences the most cross-domain questions (the nearer to the cosine alone on ties)."""
    if not answerable:
        raise InvalidInputError("no calibration rows with the feature to fit a line on")
    best: tuple[float, float, float] = (-1.0, 0.0, 0.0)
    for angle in sorted(ANGLES, key=abs):
        value = along(feature, angle)
        floor = min(value(r) for r in answerable)
        share = sum(1 for r in cross if value(r) < floor) / max(len(cross), 1)
        if share > best[0]:
            best = (share, angle, floor)
    return best[1], best[2]


def fit_standing(rows: Sequence[Row]) -> dict[str, float] | None:
    """The off-topic line of (best cosine, store standing), fitted on the paraphrase
    calibration stores alone with none of their answerable questions below it (None
    when their rows carry no standing)."""
    fitting = [
        r
        for r in rows
        if r.dataset == "paraphrase"
        and not r.held_out
        and r.standing is not None
        and r.sim is not None
    ]
    answerable = [r for r in fitting if r.set == "answerable"]
    if not answerable:
        return None
    cross = [r for r in fitting if r.set == "cross"]
    angle, floor = fit_direction(answerable, cross, lambda r: r.standing or 0.0)
    # Rounded down, so the lowest calibration question stays above the stored floor.
    return {"angle": float(angle), "floor": math.floor(floor * 1e5) / 1e5}
