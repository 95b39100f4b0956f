"""Filtering recall's candidates: by predicate (``filters=``) and by id (``recall(wing=,
room=)`` asks the palace once per batch of candidate ids instead of once per record)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from engram.records import MemoryRecord

Filter = Callable[[MemoryRecord], bool]
Restrict = Callable[[Sequence[str]], Collection[str]]


def kept(
    records: Mapping[str, MemoryRecord], matches: Filter | None, restrict: Restrict | None
) -> dict[str, MemoryRecord]:
    """The records both filters keep (the id restriction first: one query)."""
    out = dict(records)
    if restrict is not None and out:
        allowed = set(restrict(list(out)))
        out = {k: v for k, v in out.items() if k in allowed}
    if matches is not None:
        out = {k: v for k, v in out.items() if matches(v)}
    return out
