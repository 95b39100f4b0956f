"""mem0's filter grammar, checked up front and applied to a memory's metadata.

mem0 (open source, "Enhanced Metadata Filtering") writes a filter as a dict: a plain
value means equality and a list means ``in``, ``{"op": value}`` applies operators
(``eq``, ``ne``, ``in``, ``nin``, ``gt``, ``gte``, ``lt``, ``lte``, ``contains``,
``icontains``), ``"*"`` means "any value, present or not" (issue 27: as on mem0), and
``AND``/``OR``/``NOT`` take lists of such dicts. A memory without the key matches no
operator, ``ne`` and ``nin`` included (issue 27: mem0's stores compare only the
payloads that hold the key). Where mem0's documentation and mem0 itself differ, this
follows what real mem0 2.2.1 returns on its default Qdrant store
(scripts/mem0_script_real.py): ``contains``/``icontains`` match whole words, either
case, a list value matches when one element does, a bool is no number, and a dotted
key reaches into nested metadata.

Two kinds of key, as in mem0: ``user_id``, ``agent_id`` and ``run_id`` choose whose
memories are searched (engram's namespace rule, FEATURES C2), and every other key is
a metadata key (so ``{"category": "food"}`` matches ``metadata["category"]``, not
engram's own ``category`` field). A filter this module cannot apply raises
``InvalidInputError`` naming what is supported: it never drops a condition (issue 14).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engram.errors import InvalidInputError, shown
from engram.validate import type_name

#: The keys that choose the namespace rather than match metadata.
SCOPE_KEYS = ("user_id", "agent_id", "run_id")
#: mem0's comparison operators, in its documentation's order.
OPERATORS = ("eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "contains", "icontains")
#: mem0's logical keys.
LOGIC = ("AND", "OR", "NOT")
#: "any value, present or not" (mem0's wildcard; issue 27).
WILDCARD = "*"

Metadata = Mapping[str, Any]
Condition = Callable[[Metadata], bool]


@dataclass(frozen=True)
class Parsed:
    """A mem0 filter split in two: the scope ids and the metadata condition (None when
    the filter has no metadata part)."""

    scope: dict[str, str]
    condition: Condition | None


def parse(filters: Mapping[str, Any] | None) -> Parsed:
    """Check ``filters`` and split off the scope ids.

    Scope ids must be plain strings (or ``{"eq": "..."}``) at the top level or inside a
    top-level ``AND``: engram keeps each user's memories in a namespace of their own, so
    "any of these users" or "not this user" has no namespace to search.
    """
    if filters is None:
        return Parsed({}, None)
    if not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {type_name(filters)}")
    scope: dict[str, str] = {}
    conditions = _top_level(filters, scope)
    if not conditions:
        return Parsed(scope, None)
    return Parsed(scope, _all(conditions))


def _top_level(filters: Mapping[str, Any], scope: dict[str, str]) -> list[Condition]:
    conditions: list[Condition] = []
    for key, value in filters.items():
        if key in SCOPE_KEYS:
            _scope_id(key, value, scope)
        elif key == "AND" and isinstance(value, list | tuple):
            for part in value:
                if not isinstance(part, Mapping):
                    raise InvalidInputError(f"AND takes a list of dicts, got {type_name(part)}")
                conditions.extend(_top_level(part, scope))
        else:
            conditions.append(_condition(key, value))
    return conditions


def entity_id(value: Any, name: str) -> str | None:
    """One of mem0's three ids as mem0 reads it: None stays None, an integer is its
    string (callers pass database keys), the ends are trimmed; an empty id, or one with
    whitespace inside, is refused naming the id."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidInputError(f"{name} must be a string or an integer, got {shown(value)}")
    text = str(value).strip()
    if not text:
        raise InvalidInputError(
            f"Invalid {name}: cannot be empty or whitespace-only. Provide a valid identifier."
        )
    if any(c.isspace() for c in text):
        raise InvalidInputError(
            f"Invalid {name} {text!r}: cannot contain whitespace. Provide a valid identifier "
            "without spaces."
        )
    return text


def _scope_id(key: str, value: Any, scope: dict[str, str]) -> None:
    if isinstance(value, Mapping) and set(value) == {"eq"}:
        value = value["eq"]
    if isinstance(value, int | str) and not isinstance(value, bool) and value != WILDCARD:
        value = entity_id(value, key)
    if not isinstance(value, str) or value == WILDCARD:
        raise InvalidInputError(
            f"filter {key} must be one id (a string, or {{'eq': id}}), got {shown(value)}: engram "
            f"keeps each {key[:-3]}'s memories in a namespace of their own, so a search or "
            "listing reads one; call once per id"
        )
    if key in scope and scope[key] != value:
        raise InvalidInputError(f"filter {key} given twice with different ids")
    scope[key] = value


def _all(conditions: list[Condition]) -> Condition:
    return lambda meta: all(c(meta) for c in conditions)


def _dict_list(name: str, value: Any) -> list[Mapping[str, Any]]:
    if isinstance(value, Mapping):
        return [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, Mapping) for v in value):
        raise InvalidInputError(f"{name} takes a dict or a list of dicts, got {shown(value)}")
    return list(value)


def _nested(filters: Mapping[str, Any]) -> Condition:
    """A dict inside AND/OR/NOT: its keys all hold (scope ids cannot appear here)."""
    return _all([_condition(key, value) for key, value in filters.items()])


def _condition(key: Any, value: Any) -> Condition:
    if key == "AND":
        parts = [_nested(d) for d in _dict_list("AND", value)]
        return lambda meta: all(p(meta) for p in parts)
    if key == "OR":
        parts = [_nested(d) for d in _dict_list("OR", value)]
        return lambda meta: any(p(meta) for p in parts)
    if key == "NOT":
        # NOT of a list: none of the conditions holds.
        parts = [_nested(d) for d in _dict_list("NOT", value)]
        return lambda meta: not any(p(meta) for p in parts)
    if key in SCOPE_KEYS:
        raise InvalidInputError(
            f"filter {key} selects whose memories are searched and must sit at the top "
            "level (or in a top-level AND), not inside OR or NOT"
        )
    if not isinstance(key, str) or not key:
        raise InvalidInputError(f"a filter key must be a non-empty string, got {shown(key)}")
    if value == WILDCARD:
        return lambda meta: True
    if isinstance(value, list | tuple):
        # A list as the value means "in" (mem0's qdrant.py _create_filter: MatchAny).
        return _operator(key, "in", value)
    if isinstance(value, Mapping):
        tests = [_operator(key, op, operand) for op, operand in value.items()]
        return lambda meta: all(t(meta) for t in tests)
    return _operator(key, "eq", value)


def _operator(key: str, op: Any, operand: Any) -> Condition:
    if op not in OPERATORS:
        raise InvalidInputError(
            f"unknown filter operator {shown(op)} on {shown(key)}: use one of "
            f"{', '.join(OPERATORS)}, "
            f"or {', '.join(LOGIC)} around conditions, or {shown(WILDCARD)} for 'any value'"
        )
    if op in ("in", "nin") and not isinstance(operand, list | tuple | set | frozenset):
        raise InvalidInputError(f"filter {shown(key)}: {op} takes a list, got {shown(operand)}")
    if op in ("contains", "icontains") and not isinstance(operand, str):
        raise InvalidInputError(f"filter {shown(key)}: {op} takes a string, got {shown(operand)}")
    compare = _COMPARE[op]

    def test(meta: Metadata) -> bool:
        value = _lookup(meta, key)
        if value is None:
            # mem0 compares only memories that hold the key: ne/nin exclude the rest too.
            return False
        # A list value matches when one element does: Qdrant's rule for arrays, which
        # real mem0 2.2.1 shows (scripts/mem0_script_real.py; ne/nin included).
        values = value if isinstance(value, list | tuple) else (value,)
        return any(compare(v, operand) for v in values)

    return test


def _lookup(meta: Metadata, key: str) -> Any:
    """The value under ``key``, or None. A dotted key that is no key of its own reaches
    into nested dicts (``"place.city"``), as Qdrant's payload paths do on mem0."""
    if key in meta:
        return meta[key]
    value: Any = meta
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _same(actual: Any, operand: Any) -> bool:
    """Equality where a bool is no number (Qdrant's: ``True`` does not match ``1``)."""
    return isinstance(actual, bool) == isinstance(operand, bool) and bool(actual == operand)


def _ordered(actual: Any, operand: Any, holds: Callable[[Any, Any], bool]) -> bool:
    """Compare numbers with numbers and strings with strings; anything else fails
    (mem0's stores do the same rather than raise mid-search)."""
    numbers = (int, float)
    if isinstance(actual, bool) or isinstance(operand, bool):
        return False
    if isinstance(actual, numbers) and isinstance(operand, numbers):
        return holds(actual, operand)
    if isinstance(actual, str) and isinstance(operand, str):
        return holds(actual, operand)
    return False


def _words(text: str) -> list[str]:
    return [word.lower() for word in re.findall(r"[^\W_]+", text)]


def _has_words(actual: Any, operand: str) -> bool:
    """contains and icontains as real mem0 2.2.1 answers them on its default Qdrant
    (checked by scripts/mem0_script_real.py): mem0 sends both as MatchText, which on a
    field without a text index splits both sides into lowercased words and needs every
    word of the operand. So "note" finds "Blue Note" and "Not" does not."""
    if not isinstance(actual, str):
        return False
    wanted = _words(operand)
    return bool(wanted) and set(wanted) <= set(_words(actual))


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "eq": _same,
    "ne": lambda a, b: not _same(a, b),
    "in": lambda a, b: any(_same(a, x) for x in b),
    "nin": lambda a, b: not any(_same(a, x) for x in b),
    "gt": lambda a, b: _ordered(a, b, lambda x, y: x > y),
    "gte": lambda a, b: _ordered(a, b, lambda x, y: x >= y),
    "lt": lambda a, b: _ordered(a, b, lambda x, y: x < y),
    "lte": lambda a, b: _ordered(a, b, lambda x, y: x <= y),
    "contains": _has_words,
    "icontains": _has_words,
}
