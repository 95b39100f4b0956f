"""Argument checks shared by the ``mem.graph`` verbs: names, relation types, triples and
moments, each turned into ``InvalidInputError`` that says what was wrong."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from datetime import UTC, date, datetime, time

from engram.errors import InvalidInputError, shown
from engram.records import utcnow
from engram.store.protocols.graph import Triple, canonical_relation
from engram.validate import no_nul, optional_float, timestamp

#: Longest entity, alias or aspect name accepted; longer "names" are sentences.
MAX_NAME_CHARS = 200
#: Longest relation type accepted.
MAX_RELATION_CHARS = 100
#: A neighbour walk goes at most this far: beyond it, everything is a neighbour.
MAX_HOPS = 4


def name_arg(what: str, value: object, limit: int = MAX_NAME_CHARS) -> str:
    """A non-blank name of at most ``limit`` characters, as given (not canonical)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{what} must be a non-empty string, got {shown(value)}")
    if len(value) > limit:
        raise InvalidInputError(f"{what} is {len(value)} characters, over {limit}")
    return no_nul(what, " ".join(value.split()))


def relation_type_arg(value: object) -> str:
    """A relation type, canonical (``lives in`` -> ``lives_in``)."""
    kind = canonical_relation(name_arg("relation type", value, MAX_RELATION_CHARS))
    if not kind:
        raise InvalidInputError(f"relation type must name a relation, got {shown(value)}")
    return kind


def triples_arg(triples: object) -> list[Triple]:
    """(source, relationship, target[, confidence]) items, checked; confidence 1.0 when
    left out."""
    if isinstance(triples, str | bytes) or not isinstance(triples, Sequence):
        raise InvalidInputError(f"triples must be a list of triples, got {shown(triples)}")
    out: list[Triple] = []
    for item in triples:
        shaped = isinstance(item, Sequence) and not isinstance(item, str | bytes)
        if not shaped or len(item) not in (3, 4):
            raise InvalidInputError(
                f"a triple is (source, relationship, target[, confidence]), got {shown(item)}"
            )
        confidence = optional_float("confidence", item[3] if len(item) == 4 else 1.0, 0.0, 1.0)
        out.append(
            (
                name_arg("source", item[0]),
                relation_type_arg(item[1]),
                name_arg("target", item[2]),
                1.0 if confidence is None else confidence,
            )
        )
    return out


def moment_arg(what: str, value: object) -> datetime:
    """A datetime (naive = UTC), an ISO 8601 string, or a date meaning the end of that
    day in UTC: "as of 2024-06-01" includes what changed on June 1."""
    if isinstance(value, str) and len(value.strip()) == 10:  # "2024-06-01": a day
        with suppress(ValueError):  # if not, ``timestamp`` below says what is wrong
            value = date.fromisoformat(value.strip())
    if isinstance(value, date) and not isinstance(value, datetime):
        return datetime.combine(value, time.max, UTC)
    when = timestamp(what, value)
    if when is None:
        raise InvalidInputError(f"{what} is required")
    return when


def now_arg(value: object) -> datetime:
    """A verb's ``now=``: the moment given (as ``moment_arg``), or the current time."""
    return utcnow() if value is None else moment_arg("now", value)
