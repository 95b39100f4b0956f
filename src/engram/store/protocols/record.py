"""``Record``: the one ``to_dict`` of the store's frozen dataclass rows.

Every surface prints a row the same way: its fields in order, times as ISO 8601 UTC with
``Z``, tuples and lists as lists of such values, mappings as plain dicts and nested rows
as their own dicts. The mixin lives in ``engram.records`` (the library's own rows, such
as ``HistoryEntry``, are Records too); the store's rows take it from here.
"""

from __future__ import annotations

from engram.records import Record, plain

__all__ = ["Record", "plain"]
