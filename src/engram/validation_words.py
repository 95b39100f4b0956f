"""Validation errors in engram's words: what was wrong with which field or argument,
and what is allowed. One translation for every surface that checks input with pydantic.

pydantic's messages are written for Python programmers (``String should match pattern
'^[A-Za-z0-9_.:@/+-]{1,190}$'``, ``Input should be a valid dictionary or object to
extract fields from``, one message per arm of a union). The HTTP API's 422s
(``engram.api.errors``) and the MCP server's tool-argument errors (``engram.mcp.server``)
both pass pydantic's errors through :func:`describe`, which says the same thing the way
the library says it (``validate``, ``refusals``): the field as the caller spells it, what
was wrong, what it takes. A :class:`Subject` carries what differs: what a top-level name
is (a field of this request body, an argument of ``remember``) and which names are
known. Surfaces write no wording of their own for this; a new constraint type gets its
words here, once.
"""

from __future__ import annotations

import re
import types
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as _field
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


def _no_names(loc: tuple[Any, ...]) -> list[str] | None:
    return None


@dataclass(frozen=True)
class Subject:
    """What a surface's validation errors are about, as that surface names it.

    ``whole`` is the input as a whole (an error located nowhere deeper); ``member`` is
    what a top-level name is, for an unknown one (``"a field of this request body"``,
    ``"an argument of remember"``); ``known(loc)`` lists the names allowed beside the
    unknown one at ``loc`` ([] where none is, None where the surface cannot tell).
    ``sources`` are the location heads that say where a name came from rather than
    name it (HTTP's ``body``, ``query``; MCP has none), each with its member noun."""

    whole: str
    member: str
    known: Callable[[tuple[Any, ...]], list[str] | None] = _no_names
    sources: Mapping[str, str] = _field(default_factory=dict)

    def strip(self, loc: Sequence[Any]) -> Sequence[Any]:
        """``loc`` without its source head (``body``, ``query``), if it has one."""
        return loc[1:] if loc and self.sources and loc[0] in self.sources else loc


def describe(errors: Sequence[Mapping[str, Any]], subject: Subject) -> str:
    """One sentence per field that failed, ``; ``-joined: each names the field, what was
    wrong and what is allowed (an unknown one's refusal lists the known ones)."""
    by_field: dict[tuple[Any, ...], list[tuple[str, Mapping[str, Any], tuple[Any, ...]]]]
    by_field = defaultdict(list)
    for error in errors:
        loc = tuple(error.get("loc", ()))
        field, arm, rest = _split(loc)
        by_field[field].append((arm, error, rest))
    parts = [_field_words(field, found, subject) for field, found in by_field.items()]
    if len(parts) > SHOWN_ERRORS:
        parts = [*parts[:SHOWN_ERRORS], f"... and {len(parts) - SHOWN_ERRORS} more"]
    return "; ".join(parts) or f"invalid {subject.whole.removeprefix('the ')}"


def _split(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], str, tuple[Any, ...]]:
    """(the field's location, the union arm the error came from or '', the location
    inside that arm). Pydantic names a union's arm inside the location (``content.str``,
    ``content.list[Message].0.role``); the field is what comes before it."""
    for i, part in enumerate(loc):
        if i and isinstance(part, str) and _ARM.match(part):
            return loc[:i], part, loc[i + 1 :]
    return loc, "", ()


def field_name(loc: Sequence[Any]) -> str:
    """A location (its source head already stripped) as the caller spells it:
    ``items[0].content``, ``limit``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not _ARM.match(str(part)) or not out:
            out += f".{part}" if out else str(part)
    return out


def _field_words(
    field: tuple[Any, ...],
    found: list[tuple[str, Mapping[str, Any], tuple[Any, ...]]],
    subject: Subject,
) -> str:
    arms = [arm for arm, _, _ in found if arm]
    if not arms:
        return _one(field, found[0][1], subject)
    # A union: every arm failed. The arm that got past the type check (an error deeper
    # than the arm, or not a type error) is the one the caller meant; say what is wrong
    # there. If none did, the value was none of the types: list them.
    meant = [
        (arm, error, rest) for arm, error, rest in found if rest or error.get("type") not in _KINDS
    ]
    if meant:
        arm, error, rest = meant[0]
        return _one((*field, *rest), error, subject)
    kinds = list(dict.fromkeys(_arm_kind(arm) for arm in arms))
    value = found[0][1].get("input")
    return f"{_named(field, subject)} must be {_or(kinds)}, got {_got(value)}"


def _one(loc: tuple[Any, ...], error: Mapping[str, Any], subject: Subject) -> str:
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    value = error.get("input")
    name = _named(loc, subject)
    if kind == "missing":
        return f"{name} is required and was not given"
    if kind == "extra_forbidden":
        known = subject.known(loc[:-1])
        allowed = "" if known is None else f"; it takes {', '.join(known) or 'none'}"
        return f"{shown(loc[-1])} is not {_member(loc, subject)}{allowed}"
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
        whole = not subject.strip(loc)
        return reason if whole or mentions else f"{name}: {reason}"
    return f"{name} is not valid, got {_got(value)}"


def _named(loc: tuple[Any, ...], subject: Subject) -> str:
    return field_name(subject.strip(loc)) or subject.whole


def _member(loc: tuple[Any, ...], subject: Subject) -> str:
    """What the name at ``loc`` would have been: a field of its parent if it has one,
    else the subject's member (or its source's: a query parameter of this route)."""
    parent = field_name(subject.strip(loc[:-1]))
    if parent:
        return f"a field of {parent}"
    return subject.sources.get(str(loc[0]), subject.member) if loc else subject.member


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


def model_fields(model: Any, loc: Sequence[Any] = ()) -> list[str] | None:
    """The names ``model`` (a pydantic model) takes where ``loc`` points inside it (its
    own fields, or a nested model's), sorted, as the wire spells them; None where
    ``loc`` reaches no model."""
    for part in loc:
        model = _step(model, part)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return sorted(f.alias or name for name, f in model.model_fields.items())
    return None


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
