"""Small SQL fragments, keyed on ``d.name``, that the graph and aspect modules share and
the dialect does not carry: value lists and the two-argument min/max.

A list of values is bound as one array on PostgreSQL (``col = ANY(?)``: one statement
text whatever the count, no bound on its length) and spread into ``IN (?, ?, ...)`` on
SQLite, sliced by ``d.chunk`` where the caller may pass many.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from engram.store.sql.dialect import Dialect

T = TypeVar("T")


def any_of(d: Dialect, column: str, values: Sequence[Any]) -> str:
    """SQL: ``column`` is one of ``values`` (bind them with ``bind``)."""
    if d.name == "postgres":
        return f"{column} = ANY(?)"
    return f"{column} IN ({d.marks(len(values))})"


def none_of(d: Dialect, column: str, values: Sequence[Any]) -> str:
    """SQL: ``column`` is none of ``values`` (bind them with ``bind``; none may be
    empty)."""
    if d.name == "postgres":
        return f"{column} <> ALL(?)"
    return f"{column} NOT IN ({d.marks(len(values))})"


def bind(d: Dialect, values: Sequence[Any]) -> list[Any]:
    """The parameters of an ``any_of`` or ``none_of`` list."""
    return [list(values)] if d.name == "postgres" else list(values)


def slices(d: Dialect, values: Sequence[T]) -> Iterator[Sequence[T]]:
    """``values`` in as many lists as one statement can bind: all at once as a
    PostgreSQL array, ``d.chunk`` at a time on SQLite; none when empty."""
    if d.name == "postgres":
        if values:
            yield values
        return
    yield from d.chunks(values)


def greatest(d: Dialect) -> str:
    """The larger of two values: SQLite's scalar ``max``, PostgreSQL's ``GREATEST``."""
    return "GREATEST" if d.name == "postgres" else "max"


def least(d: Dialect) -> str:
    """The smaller of two values: SQLite's scalar ``min``, PostgreSQL's ``LEAST``."""
    return "LEAST" if d.name == "postgres" else "min"
