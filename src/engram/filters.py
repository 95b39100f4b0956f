"""The native ``filters=`` of ``recall``/``search`` and ``get_all``: checked up front,
scoped to the caller, and never dropped silently (issue 14).

The grammar (docs/recall.md, "Filters"):

- a record field: ``type``, ``category``, ``user_id``, ``agent_id``, ``run_id``,
  ``session_id`` (a string), or ``tags`` (a tag or a list: the memory has all of them);
- metadata, written ``{"metadata.<key>": value}`` (or ``{"metadata": {"<key>": value}}``):
  everything after the first ``metadata.`` is the key, verbatim, dots included;
- a value is equality; ``{"$eq": v}`` is the same; a list, a set or ``{"$in": [...]}``
  means "any of these" (recall and search only: ``get_all`` compares one value per key
  in SQL).

Any other key, any other operator, or a value no backend compares raises
``InvalidInputError`` naming what is supported. Ids narrower than the one that named the
namespace (an ``agent_id`` inside ``user:alice``) filter within it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engram.core import Scope
from engram.errors import InvalidInputError, shown
from engram.recall.request import Filter, filter_from
from engram.store.protocols import ListQuery
from engram.validate import (
    filter_key,
    filter_scalar,
    filter_tags,
    memory_category,
    memory_type,
    offset_value,
    type_name,
)

#: The record fields a filter compares (each a column on both backends).
RECORD_FIELDS = ("type", "category", "user_id", "agent_id", "run_id", "session_id")
#: How a metadata key is written.
METADATA_PREFIX = "metadata."
#: The operators the native filters apply (mem0's fuller grammar: engram.compat.mem0).
OPERATORS = ("$eq", "$in")
#: Every key form, for error messages.
SUPPORTED_KEYS = (*RECORD_FIELDS, "tags", "metadata.<key>")
#: The scope ids, which narrow within the namespace when they did not name it.
_IDS = ("user_id", "agent_id", "run_id")

Scalar = str | int | float | bool | None
#: Record fields whose values are names from a fixed list (checked, not just compared).
_ENUMS: dict[str, Callable[[object], Any]] = {"type": memory_type, "category": memory_category}


@dataclass(frozen=True, slots=True)
class Condition:
    """One checked filter condition: a record field or a metadata key, and the values
    it may take (one value: equality; several: any of them)."""

    key: str
    metadata: bool
    values: tuple[Scalar, ...]
    any_of: bool


@dataclass(frozen=True, slots=True)
class Checked:
    """A caller's ``filters``, checked: the tags it requires and its conditions."""

    tags: tuple[str, ...]
    conditions: tuple[Condition, ...]


def check(filters: Mapping[str, Any] | None) -> Checked:
    """Check ``filters`` against the grammar above; ``InvalidInputError`` on anything
    the native filters cannot apply."""
    if filters is None:
        return Checked((), ())
    if not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {type_name(filters)}")
    tags: tuple[str, ...] = ()
    conditions: list[Condition] = []
    for raw_key, value in filters.items():
        key = filter_key(raw_key)
        if key == "tags":
            tags = filter_tags(value)
        elif key == "metadata":
            conditions.extend(_nested_metadata(value))
        elif key.startswith(METADATA_PREFIX):
            conditions.append(_condition(key[len(METADATA_PREFIX) :], True, value, key))
        elif key in RECORD_FIELDS:
            conditions.append(_condition(key, False, value, key))
        else:
            raise InvalidInputError(
                f"unknown filter key {shown(key)}: filters take {', '.join(SUPPORTED_KEYS)}; "
                f"to match metadata write {{'metadata.{key}': ...}}"
            )
    return Checked(tags, tuple(conditions))


def _nested_metadata(value: object) -> list[Condition]:
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"filter 'metadata' takes a dict of metadata keys, got {type_name(value)}; "
            "or write {'metadata.<key>': value}"
        )
    return [_condition(filter_key(k), True, v, f"{METADATA_PREFIX}{k}") for k, v in value.items()]


def _condition(key: str, metadata: bool, value: object, shown_key: str) -> Condition:
    any_of = False
    if isinstance(value, Mapping):
        if len(value) != 1 or next(iter(value)) not in OPERATORS:
            ops = ", ".join(repr(op) for op in value) or "nothing"
            raise InvalidInputError(
                f"filter {shown(shown_key)} has operator(s) {ops}: the native filters apply "
                f"{', '.join(OPERATORS)} (or a plain value for equality, a list for any "
                "of); engram.compat.mem0 takes mem0's fuller grammar"
            )
        [(op, value)] = value.items()
        listed = isinstance(value, list | tuple | set | frozenset)
        if op == "$in" and not listed:
            raise InvalidInputError(
                f"filter {shown(shown_key)}: $in takes a list, got {type_name(value)}"
            )
        if op == "$eq" and listed:
            raise InvalidInputError(
                f"filter {shown(shown_key)}: $eq takes one value; use $in for any of a list"
            )
    if isinstance(value, list | tuple | set | frozenset):
        any_of = True
        items = list(value)
        if not items:
            raise InvalidInputError(f"filter {shown(shown_key)}: an empty list matches nothing")
    else:
        items = [value]
    values = tuple(_value(shown_key, metadata, item) for item in items)
    return Condition(key, metadata, values, any_of)


def _value(shown_key: str, metadata: bool, value: object) -> Scalar:
    if not metadata:
        value = getattr(value, "value", value)  # MemoryType.DECISION -> "decision"
        if not isinstance(value, str):
            raise InvalidInputError(f"filter {shown(shown_key)} takes a string, got {shown(value)}")
        value = filter_scalar(shown_key, value)  # NUL and lone surrogates first
        if shown_key in _ENUMS:
            try:
                return str(_ENUMS[shown_key](value).value)
            except InvalidInputError as exc:
                # A value outside the field's names would match nothing, silently.
                raise InvalidInputError(
                    f"filter {shown(shown_key)}: {exc}; to match metadata write "
                    f"{{'metadata.{shown_key}': ...}}"
                ) from None
    if isinstance(value, list | tuple | set | frozenset | Mapping):
        raise InvalidInputError(
            f"filter {shown(shown_key)} compares strings, numbers, booleans or None, got "
            f"{shown(value)}"
        )
    return filter_scalar(shown_key, value)


def _merge_ids(scope: Scope, checked: Checked) -> tuple[Condition, ...]:
    """The caller's conditions plus the narrower ids of the scope (a caller's own
    condition on the same id wins, as before)."""
    named = {c.key for c in checked.conditions if not c.metadata}
    extra = []
    for key in _IDS:
        value = getattr(scope, key)
        if value is not None and key not in named and scope.namespace != f"{key[:-3]}:{value}":
            extra.append(Condition(key, False, (value,), False))
    return (*checked.conditions, *extra)


def scope_filter(scope: Scope, filters: Mapping[str, Any] | None) -> Filter | None:
    """The predicate a recall applies to its candidates (None: no filter)."""
    return recall_filter(scope, filters)[0]


def recall_filter(
    scope: Scope, filters: Mapping[str, Any] | None, *places: tuple[str, object]
) -> tuple[Filter | None, tuple[str, ...]]:
    """``scope_filter``, and what the recall filters on, for an empty answer to name:
    ``filters.<key>`` for each key of ``filters``, the scope's narrower ids
    (``user_id``...), and each of ``places`` (``("wing", "Garden")``) that is set. The
    filters are checked once for both (every recall asks for both)."""
    checked = check(filters)
    conditions = _merge_ids(scope, checked)
    names = ["filters.tags"] if checked.tags else []
    for n, c in enumerate(conditions):  # the caller's own come first
        key = f"{METADATA_PREFIX}{c.key}" if c.metadata else c.key
        names.append(f"filters.{key}" if n < len(checked.conditions) else key)
    names.extend(name for name, value in places if value is not None)
    matches = filter_from(
        tags=checked.tags,
        fields={c.key: c.values for c in conditions if not c.metadata},
        metadata={c.key: c.values for c in conditions if c.metadata},
    )
    return matches, tuple(names)


def list_query(
    scope: Scope,
    filters: Mapping[str, Any] | None,
    limit: int,
    offset: int,
    include_deleted: bool,
) -> ListQuery:
    """The store query of a ``get_all`` call: one value per key, compared in SQL on
    every backend."""
    checked = check(filters)
    conditions = _merge_ids(scope, checked)
    for c in conditions:
        if c.any_of:
            key = f"{METADATA_PREFIX}{c.key}" if c.metadata else c.key
            raise InvalidInputError(
                f"get_all filter {shown(key)} takes one string or number, got a list: get_all "
                "compares one value per key in SQL; call it once per value, or use recall "
                "or search for any-of filters"
            )
    fields: dict[str, Any] = {c.key: c.values[0] for c in conditions if not c.metadata}
    return ListQuery(
        type=fields.get("type"),
        category=fields.get("category"),
        tags=checked.tags,
        user_id=fields.get("user_id"),
        agent_id=fields.get("agent_id"),
        run_id=fields.get("run_id"),
        session_id=fields.get("session_id"),
        metadata={c.key: c.values[0] for c in conditions if c.metadata},
        limit=limit,
        offset=offset_value(offset),
        include_deleted=include_deleted,
    )


def _shown(
    scope: Scope, filters: Mapping[str, Any] | None
) -> Iterator[tuple[str, str, tuple[Scalar, ...]]]:
    """Each of the checked filters and the scope's narrower ids as (key, operator,
    values): ``tags`` with ``all``, then each condition with ``$eq`` (one value) or
    ``$in`` (any of them), a metadata key with its ``metadata.`` prefix."""
    checked = check(filters)
    if checked.tags:
        yield "tags", "all", checked.tags
    for c in _merge_ids(scope, checked):
        key = f"{METADATA_PREFIX}{c.key}" if c.metadata else c.key
        yield key, "$in" if c.any_of else "$eq", c.values


def audited(scope: Scope, filters: Mapping[str, Any] | None) -> dict[str, Any]:
    """What an erase's audit row keeps of its filters (left42): each key with its
    operator (``$eq`` one value, ``$in`` any of several, ``all`` for tags) and how many
    values it named, never the values. The audit outlives the data, and the values an
    erase picks by are often the person's own (an e-mail, a customer number); a hash of
    one would be as telling, since a guessed value is checked against it in a moment."""
    return {key: {"op": op, "values": len(values)} for key, op, values in _shown(scope, filters)}


def described(scope: Scope, filters: Mapping[str, Any] | None) -> dict[str, Any]:
    """The checked filters and the scope's narrower ids as plain JSON, in the native
    grammar (what an erase's result shows its caller): one value as itself, tags and
    any-of values as a list."""
    return {
        key: values[0] if op == "$eq" else list(values)
        for key, op, values in _shown(scope, filters)
    }
