"""The candidates' scores and memberships as arrays in one id order, for fusion.

Recall fuses ~70 candidates at 100k (docs/benchmarks.md, "Recall's fuse stage as
arrays at 100k"). Gathering a column with a generator runs a Python frame per
candidate; ``map`` over a mapping's own C method (``dict.get``,
``frozenset.__contains__``) walks the ids without one, and a set that holds every
candidate (every candidate outside a session, the common case of a store of notes)
answers with one ``issuperset``. Each helper gives what the generator gave, value for
value (tests/test_fuse_arrays.py).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import compress, repeat
from typing import Any

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


def values(ids: Sequence[str], scores: Mapping[str, float], default: float = 0.0) -> Floats:
    """``scores.get(i, default)`` of each of ``ids``, as an array in their order."""
    return np.fromiter(map(scores.get, ids, repeat(default)), np.float64, len(ids))


def exact(ids: Sequence[str], scores: Mapping[str, float]) -> Floats:
    """``scores[i]`` of each of ``ids`` (a KeyError for one it lacks)."""
    return np.fromiter(map(scores.__getitem__, ids), np.float64, len(ids))


def member(ids: Sequence[str], members: Collection[str]) -> Bools:
    """Which of ``ids`` are in ``members``, as an array in their order."""
    n = len(ids)
    if isinstance(members, (set, frozenset)) and len(members) >= n and members.issuperset(ids):
        return np.ones(n, dtype=bool)
    return np.fromiter(map(members.__contains__, ids), bool, n)


def kept(ids: Sequence[str], values: list[float], has: Bools) -> dict[str, float]:
    """``{i: v}`` of the ids that ``has`` marks (in ``ids`` order)."""
    return dict(compress(zip(ids, values, strict=True), has.tolist()))


def parts(
    ids: Sequence[str], dense: list[float], has: Bools, keyword: list[Any]
) -> dict[str, tuple[float | None, float | None]]:
    """Each candidate's (dense leg, keyword leg): its dense leg None where ``has`` says
    it has no vector (only those are visited)."""
    legs: list[float | None] = list(dense)
    if not has.all():
        for at in np.flatnonzero(~has).tolist():
            legs[at] = None
    return dict(zip(ids, zip(legs, keyword, strict=True), strict=True))
