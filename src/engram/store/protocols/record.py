"""``Record``: the one ``to_dict`` of the store's frozen dataclass rows.

Every surface prints a row the same way: its fields in order, times as ISO 8601 UTC with
``Z``, tuples and lists as lists of such values, mappings as plain dicts and nested rows
as their own dicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from engram.records import iso


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data (the rules above)."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


class Record:
    """Mixin for a ``@dataclass(frozen=True, slots=True)`` row: ``to_dict`` from its
    fields, less ``_hidden``, plus the properties named in ``_extra``."""

    __slots__ = ()
    _hidden: ClassVar[tuple[str, ...]] = ()
    _extra: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; times as ISO 8601 UTC with ``Z``."""
        fields = self.__dataclass_fields__  # type: ignore[attr-defined]
        names = [n for n in fields if n not in self._hidden] + list(self._extra)
        return {name: plain(getattr(self, name)) for name in names}
