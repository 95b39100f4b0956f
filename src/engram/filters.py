"""Filters of ``recall``/``search`` and ``get_all``, checked and scoped to the caller.

Ids narrower than the one that named the namespace (an ``agent_id`` inside
``user:alice``) filter within it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engram.core import Scope
from engram.errors import InvalidInputError
from engram.recall.request import Filter, filter_from
from engram.store.protocols import ListQuery
from engram.validate import filter_key, filter_scalar, filter_tags, offset_value, type_name


def scope_filter(scope: Scope, filters: Mapping[str, Any] | None) -> Filter | None:
    """The predicate a recall applies to its candidates (None: no filter)."""
    if filters is not None and not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {type_name(filters)}")
    merged: dict[str, Any] = {}
    for key, value in (filters or {}).items():
        if filter_key(key) == "tags":
            merged[key] = filter_tags(value)
        elif isinstance(value, set | frozenset):
            # Any of a set: compared by equality like a list, since a set would need
            # every stored value (a metadata list, say) to be hashable.
            merged[key] = list(value)
        else:
            merged[key] = value
    # Narrower ids than the one that named the namespace filter within it.
    for key in ("user_id", "agent_id", "run_id"):
        value = getattr(scope, key)
        if value is not None and scope.namespace != f"{key[:-3]}:{value}":
            merged.setdefault(key, value)
    return filter_from(merged)


def list_query(
    scope: Scope,
    filters: Mapping[str, Any] | None,
    limit: int,
    offset: int,
    include_deleted: bool,
) -> ListQuery:
    """The store query of a ``get_all`` call: equality filters only, each value one the
    store can compare in SQL on every backend."""
    if filters is not None and not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {type_name(filters)}")
    f: dict[str, Any] = {}
    tags: tuple[str, ...] = ()
    for key, value in (filters or {}).items():
        if filter_key(key) == "tags":
            tags = filter_tags(value)
        else:
            f[key] = filter_scalar(key, value)
    ids: dict[str, Any] = {}
    for key in ("user_id", "agent_id", "run_id"):
        value = getattr(scope, key)
        if value is not None and scope.namespace != f"{key[:-3]}:{value}":
            ids[key] = value
    known = {"type", "category", "user_id", "agent_id", "run_id", "session_id"}
    direct = {k: str(f.pop(k)) for k in list(f) if k in known}
    ids.update(direct)
    return ListQuery(
        type=ids.get("type"),
        category=ids.get("category"),
        tags=tags,
        user_id=ids.get("user_id"),
        agent_id=ids.get("agent_id"),
        run_id=ids.get("run_id"),
        session_id=ids.get("session_id"),
        metadata=f,
        limit=limit,
        offset=offset_value(offset),
        include_deleted=include_deleted,
    )
