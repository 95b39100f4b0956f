"""``Call``: one HTTP request of a client verb and how to read its answer.

Every verb of ``EngramClient`` and ``AsyncEngramClient`` is written once, as a function
that builds a ``Call`` (``engram.client.verbs``, ``engram.client.part_verbs``); the sync
and the async client only differ in how they send it (STYLE 7, like httpx's
``BaseClient``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

from engram.errors import InvalidInputError, shown
from engram.records import iso
from engram.scoping import SCOPE_KEYS

T = TypeVar("T")

#: Query-string values: httpx repeats a list (``tags=a&tags=b``).
Params = dict[str, str | int | float | bool | list[str]]


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """A request (method, path, query, JSON body) and the decoder of its JSON answer.

    Only ``GET`` calls are retried on a connection error: they change nothing, so
    sending one twice is safe; a write whose connection broke may have landed.
    """

    method: str
    path: str
    decode: Callable[[Any], T]
    params: Params | None = None
    body: dict[str, Any] | None = None

    @property
    def idempotent(self) -> bool:
        """True for the calls a connection error may send again."""
        return self.method == "GET"


def segment(value: object, what: str) -> str:
    """``value`` as one path segment: a string or int, percent-encoded (``/`` too)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidInputError(f"{what} must be a string, got {shown(value)}")
    text = str(value)
    if not text:
        raise InvalidInputError(f"{what} must not be empty")
    return quote(text, safe="")


def name_path(value: object, what: str) -> str:
    """An entity name as the tail of a ``{name:path}`` route: ``/`` stays a separator
    the route reads back ("AC/DC"), everything else is percent-encoded."""
    if not isinstance(value, str) or not value:
        raise InvalidInputError(f"{what} must be a non-empty string, got {shown(value)}")
    return quote(value, safe="/")


def scope_given(scope: Mapping[str, Any]) -> dict[str, Any]:
    """``**scope`` of a part verb, checked as Python checks named parameters (a
    ``TypedDict`` is not checked at run time): a misspelt keyword is a ``TypeError``, not
    a query parameter the server ignores."""
    unknown = sorted(set(scope) - set(SCOPE_KEYS))
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(unknown)}")
    return given(**scope)


def given(**fields: Any) -> dict[str, Any]:
    """The fields that are not None."""
    return {k: v for k, v in fields.items() if v is not None}


def _jsonable(value: object) -> object:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(type(value).__name__)


def json_body(fields: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` as a JSON object: datetimes as ISO 8601, tuples as lists, or a clear
    ``InvalidInputError`` for a value JSON cannot carry (nothing is sent)."""
    try:
        text = json.dumps(dict(fields), default=_jsonable, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"the request cannot be sent as JSON ({exc}); pass strings, numbers, booleans, "
            "lists, dicts and datetimes"
        ) from None
    body: dict[str, Any] = json.loads(text)
    return body


def query_value(name: str, value: object) -> str | int | float | bool:
    """One scalar query-string value, or ``InvalidInputError``."""
    if isinstance(value, str | int | float | bool):
        return value
    raise InvalidInputError(f"{name} must be a string or number, got {shown(value)}")


def page_params(limit: object, offset: object) -> dict[str, str | int | float | bool]:
    """A list verb's ``limit`` and ``offset`` query values (``query_value`` each)."""
    return {"limit": query_value("limit", limit), "offset": query_value("offset", offset)}
