"""Request validation errors in engram's words: what was wrong with which field, and
what is allowed.

FastAPI checks a request against its models with pydantic, whose messages are written
for Python programmers (``String should match pattern '^[A-Za-z0-9_.:@/+-]{1,190}$'``,
``Input should be a valid dictionary or object to extract fields from``, one message per
arm of a union). Every 422 a route's models give passes through :func:`describe`, which
says the same thing the way the library says it (``validate``, ``refusals``): the field
as the route spells it, what was wrong, what it takes. Routes write no wording of their
own for this; a new constraint type gets its words here, once.
"""

from __future__ import annotations

import re
import types
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from engram.errors import shown
from engram.refusals import pattern_rule

#: How many field errors one answer lists (the rest are counted).
SHOWN_ERRORS = 5

#: The types pydantic reports a value was not, in words.
_KINDS = {
    "string_type": "a string",
    "string_unicode": "a string",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
    "dataclass_type": "a JSON object",
    "datetime_type": "a date and time (ISO 8601, such as 2026-01-31T09:00:00Z)",
    "datetime_parsing": "a date and time (ISO 8601, such as 2026-01-31T09:00:00Z)",
    "datetime_from_date_parsing": "a date and time (ISO 8601, such as 2026-01-31T09:00:00Z)",
    "date_type": "a date (ISO 8601, such as 2026-01-31)",
    "date_parsing": "a date (ISO 8601, such as 2026-01-31)",
    "date_from_datetime_parsing": "a date (ISO 8601, such as 2026-01-31)",
    "url_type": "a URL",
    "url_parsing": "a URL (http:// or https://)",
    "url_scheme": "a URL (http:// or https://)",
    "uuid_type": "a UUID",
    "uuid_parsing": "a UUID",
}

#: What a union arm's tag (the part of an error's location pydantic adds per arm)
#: stands for, by its name before any ``[``.
_ARM_KINDS = {
    "str": "a string",
    "constrained-str": "a string",
    "int": "an integer",
    "constrained-int": "an integer",
    "float": "a number",
    "constrained-float": "a number",
    "bool": "true or false",
    "list": "a list",
    "tuple": "a list",
    "set": "a list",
    "dict": "a JSON object",
    "datetime": "a date and time",
}

_ARM = re.compile(r"^(?:[A-Z]\w*|[a-z-]+\[.*\]|[a-z]+-[a-z-]+|str|int|float|bool|none)$")

_WHERE = {"query": "query parameter", "path": "path segment", "header": "header"}


def describe(errors: Sequence[Mapping[str, Any]], route: object = None) -> str:
    """One sentence per field that failed, ``; ``-joined: each names the field, what was
    wrong and what is allowed. ``route`` (FastAPI's, if known) lets an unknown field's
    refusal list the known ones."""
    by_field: dict[tuple[Any, ...], list[tuple[str, Mapping[str, Any], tuple[Any, ...]]]]
    by_field = defaultdict(list)
    for error in errors:
        loc = tuple(error.get("loc", ()))
        field, arm, rest = _split(loc)
        by_field[field].append((arm, error, rest))
    parts = [_field_words(field, found, route) for field, found in by_field.items()]
    if len(parts) > SHOWN_ERRORS:
        parts = [*parts[:SHOWN_ERRORS], f"... and {len(parts) - SHOWN_ERRORS} more"]
    return "; ".join(parts) or "invalid request"


def _split(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], str, tuple[Any, ...]]:
    """(the field's location, the union arm the error came from or '', the location
    inside that arm). Pydantic names a union's arm inside the location (``content.str``,
    ``content.list[Message].0.role``); the field is what comes before it."""
    for i, part in enumerate(loc):
        if i and isinstance(part, str) and _ARM.match(part):
            return loc[:i], part, loc[i + 1 :]
    return loc, "", ()


def field_name(loc: Sequence[Any]) -> str:
    """A location as the route spells it: ``items[0].content`` (body), ``limit`` (query)."""
    out = ""
    for part in loc[1:] if loc and loc[0] in {"body", "query", "path", "header"} else loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not _ARM.match(str(part)) or not out:
            out += f".{part}" if out else str(part)
    return out


def _field_words(
    field: tuple[Any, ...],
    found: list[tuple[str, Mapping[str, Any], tuple[Any, ...]]],
    route: object,
) -> str:
    arms = [arm for arm, _, _ in found if arm]
    if not arms:
        return _one(field, found[0][1], route)
    # A union: every arm failed. The arm that got past the type check (an error deeper
    # than the arm, or not a type error) is the one the caller meant; say what is wrong
    # there. If none did, the value was none of the types: list them.
    meant = [
        (arm, error, rest) for arm, error, rest in found if rest or error.get("type") not in _KINDS
    ]
    if meant:
        arm, error, rest = meant[0]
        return _one((*field, *rest), error, route)
    kinds = list(dict.fromkeys(_arm_kind(arm) for arm in arms))
    value = found[0][1].get("input")
    return f"{_named(field)} must be {_or(kinds)}, got {_got(value)}"


def _one(loc: tuple[Any, ...], error: Mapping[str, Any], route: object) -> str:
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    value = error.get("input")
    name = _named(loc)
    if kind == "missing":
        return f"{name} is required and was not given"
    if kind == "extra_forbidden":
        known = known_fields(route, loc[:-1])
        allowed = f"; it takes {', '.join(known)}" if known else ""
        where = _WHERE.get(str(loc[0]), "field") if loc else "field"
        return f"{shown(loc[-1])} is not a {where} {_of(loc)}{allowed}"
    if kind in _KINDS:
        return f"{name} must be {_KINDS[kind]}, got {_got(value)}"
    if kind == "string_pattern_mismatch":
        rule = pattern_rule(str(ctx.get("pattern", "")))
        if rule is None:
            return f"{name} has a form this field does not take, got {shown(value)}"
        if rule == "":
            return f"{name} must be a non-empty string, got {shown(value)}"
        return f"invalid {name} {shown(value)}: use {rule}"
    if kind == "string_too_short":
        least = int(ctx.get("min_length", 1))
        if least <= 1:
            return f"{name} must be a non-empty string, got {shown(value)}"
        return f"{name} is {len(str(value))} characters; at least {least}"
    if kind == "string_too_long":
        return f"{name} is {len(str(value))} characters; at most {ctx.get('max_length')}"
    if kind == "too_short":
        least = int(ctx.get("min_length", 1))
        items = "item" if least == 1 else "items"
        return f"{name} needs at least {least} {items}, got {ctx.get('actual_length', 0)}"
    if kind == "too_long":
        return f"{name} has {ctx.get('actual_length')} items; at most {ctx.get('max_length')}"
    for bound, words in (
        ("greater_than_equal", "at least"),
        ("greater_than", "more than"),
        ("less_than_equal", "at most"),
        ("less_than", "less than"),
    ):
        if kind == bound:
            limit = next(iter(ctx.values()), "?")
            return f"{name} must be {words} {limit}, got {_got(value)}"
    if kind in {"literal_error", "enum"}:
        expected = str(ctx.get("expected", "")).replace(" or ", ", ")
        return f"{name} must be one of {expected}, got {_got(value)}"
    if kind in {"value_error", "assertion_error"}:
        reason = str(ctx.get("error", "")) or "is not valid"
        # A model's own check (loc is just "body") or one that names its field says it all.
        mentions = reason.startswith(str(loc[-1])) if loc else True
        return reason if len(loc) <= 1 or mentions else f"{name}: {reason}"
    return f"{name} is not valid, got {_got(value)}"


def _named(loc: tuple[Any, ...]) -> str:
    return field_name(loc) or "the request body"


def _of(loc: tuple[Any, ...]) -> str:
    parent = field_name(loc[:-1])
    if parent:
        return f"of {parent}"
    return "of this route" if loc and loc[0] != "body" else "of this request body"


def _got(value: object) -> str:
    """The value a caller sent, short: a JSON object or list by its kind, else itself."""
    if isinstance(value, dict):
        return "a JSON object"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):  # as the caller wrote it: JSON's true, not Python's True
        return "true" if value else "false"
    return shown(value)


def _or(kinds: Sequence[str]) -> str:
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]


def _arm_kind(arm: str) -> str:
    head = arm.split("[", 1)[0]
    if head.startswith("literal"):
        return "one of " + arm[len(head) + 1 : -1]
    if arm[:1].isupper():
        return "a JSON object"
    if head in {"list", "tuple", "set"} and "[" in arm:
        inner = arm[len(head) + 1 : -1]
        return "a list of JSON objects" if inner[:1].isupper() else "a list"
    return _ARM_KINDS.get(head, "a valid value")


def known_fields(route: object, loc: tuple[Any, ...]) -> list[str]:
    """The field names a route takes where ``loc`` points (its query parameters, or the
    keys of the body's object there), to list beside an unknown one."""
    dependant = getattr(route, "dependant", None)
    if dependant is None or not loc:
        return []
    if loc[0] == "query":
        names: list[str] = []
        for param in _flat(dependant, "query_params"):
            # A route whose query is one model (``Annotated[Model, Query()]``) takes its fields.
            names.extend(_fields(getattr(param.field_info, "annotation", None)) or [param.alias])
        return sorted(names)
    if loc[0] != "body":
        return []
    body = getattr(route, "body_field", None)
    model: Any = getattr(getattr(body, "field_info", None), "annotation", None)
    for part in loc[1:]:
        model = _step(model, part)
    return sorted(_fields(model))


def _fields(model: Any) -> list[str]:
    """A request model's field names as the wire spells them (aliases); [] for a type
    that is not a model."""
    if isinstance(model, type) and issubclass(model, BaseModel):
        return [f.alias or name for name, f in model.model_fields.items()]
    return []


def _flat(dependant: Any, attr: str) -> list[Any]:
    out = list(getattr(dependant, attr, []))
    for sub in getattr(dependant, "dependencies", []):
        out.extend(_flat(sub, attr))
    return out


def _step(model: Any, part: Any) -> Any:
    """The type one location step down from ``model`` (a field, or a list's item),
    through ``X | None`` and unions (the first arm that is a model or a list)."""
    for option in _options(model):
        if isinstance(part, int) and get_origin(option) in {list, tuple, set}:
            return _model_in(get_args(option)[0])
        if isinstance(option, type) and issubclass(option, BaseModel) and isinstance(part, str):
            info = option.model_fields.get(part) or next(
                (f for f in option.model_fields.values() if f.alias == part), None
            )
            if info is not None:
                return info.annotation
    return None


def _options(model: Any) -> list[Any]:
    origin = get_origin(model)
    if origin is Union or origin is types.UnionType:
        return [a for a in get_args(model) if a is not type(None)]
    return [model]


def _model_in(item: Any) -> Any:
    return next((o for o in _options(item) if isinstance(o, type)), item)
