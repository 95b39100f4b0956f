"""A request's validation errors in engram's words (``engram.validation_words``), with
the names a FastAPI route takes: every 422 a route's models give passes through
:func:`describe`. Routes write no wording of their own for this."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engram.validation_words import Subject, model_fields
from engram.validation_words import describe as describe_errors

#: What a top-level name is, by where the request carried it.
_SOURCES = {
    "body": "a field of this request body",
    "query": "a query parameter of this route",
    "path": "a path segment of this route",
    "header": "a header of this route",
}


def describe(errors: Sequence[Mapping[str, Any]], route: object = None) -> str:
    """One sentence per field that failed, ``; ``-joined. ``route`` (FastAPI's, if
    known) lets an unknown field's refusal list the known ones."""
    subject = Subject(
        whole="the request body",
        member=_SOURCES["body"],
        known=lambda loc: known_fields(route, loc),
        sources=_SOURCES,
    )
    return describe_errors(errors, subject)


def known_fields(route: object, loc: tuple[Any, ...]) -> list[str] | None:
    """The field names a route takes where ``loc`` points (its query parameters, or the
    keys of the body's object there), to list beside an unknown one; None where that
    cannot be told."""
    dependant = getattr(route, "dependant", None)
    if dependant is None or not loc:
        return None
    if loc[0] == "query":
        names: list[str] = []
        for param in _flat(dependant, "query_params"):
            # A route whose query is one model (``Annotated[Model, Query()]``) takes its fields.
            model = getattr(param.field_info, "annotation", None)
            names.extend(model_fields(model) or [param.alias])
        return sorted(names)
    if loc[0] != "body":
        return None
    body = getattr(route, "body_field", None)
    return model_fields(getattr(getattr(body, "field_info", None), "annotation", None), loc[1:])


def _flat(dependant: Any, attr: str) -> list[Any]:
    out = list(getattr(dependant, attr, []))
    for sub in getattr(dependant, "dependencies", []):
        out.extend(_flat(sub, attr))
    return out
