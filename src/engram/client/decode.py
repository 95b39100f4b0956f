"""The HTTP API's JSON answers, read back into the library's own records.

Each answer is first validated by the response model the server declares in its
OpenAPI spec (``engram.api.models`` and the route modules' models), then turned into
the record ``Memory`` returns, so code written against ``Memory`` works against the
client: a ``MemoryRecord`` compares equal to the library's own.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from engram.api import models as m
from engram.api import write_models as w
from engram.recall.empty import EmptyAnswer
from engram.records import (
    BatchResult,
    HistoryEntry,
    Hit,
    ItemResult,
    MemoryRecord,
    Merged,
    Outcome,
    Page,
    Recall,
    RecallMode,
    ScoreBreakdown,
)

M = TypeVar("M", bound=BaseModel)
D = TypeVar("D")


def model(cls: type[M]) -> Callable[[Any], M]:
    """A decoder that validates the answer with a response model and returns it."""
    return cls.model_validate


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def record(out: m.MemoryOut) -> MemoryRecord:
    """``MemoryOut`` -> ``MemoryRecord``."""
    fields = {name: getattr(out, name) for name in MemoryRecord.__dataclass_fields__}
    fields["facts"] = tuple(out.facts)
    fields["tags"] = tuple(out.tags)
    fields["created_at"] = _utc(out.created_at)
    fields["updated_at"] = _utc(out.updated_at)
    fields["deleted_at"] = None if out.deleted_at is None else _utc(out.deleted_at)
    return MemoryRecord(**fields)


def memory(data: Any) -> MemoryRecord:
    """A memory answer (``MemoryOut``, or ``CreatedOut`` of which the extra fields go)."""
    return record(m.MemoryOut.model_validate(data))


def _hit(out: m.HitOut) -> Hit:
    breakdown = ScoreBreakdown(**out.breakdown.model_dump())
    return Hit(memory=record(out.memory), score=out.score, breakdown=breakdown)


def hits(data: Any) -> list[Hit]:
    """``SearchOut`` -> the hits ``Memory.search`` returns."""
    return [_hit(h) for h in m.SearchOut.model_validate(data).hits]


def recall(data: Any) -> Recall:
    """``RecallOut`` -> ``Recall`` (its empty answer words its message for Python again:
    the client takes the library's keyword arguments)."""
    out = m.RecallOut.model_validate(data)
    details = out.empty_details
    return Recall(
        query=out.query,
        hits=tuple(_hit(h) for h in out.hits),
        mode=RecallMode(out.mode),
        timings=dict(out.timings),
        context=out.context,
        warnings=tuple(out.warnings),
        transcripts=dict(out.transcripts),
        abstain_reason=out.abstain_reason,
        empty=None if details is None else EmptyAnswer.from_dict(details.model_dump()),
        low_confidence=out.low_confidence,
        shown=tuple(out.shown),
        standing=tuple(_hit(h) for h in out.standing),
    )


def page(data: Any) -> Page:
    """``MemoryList`` -> ``Page``."""
    out = m.MemoryList.model_validate(data)
    return Page([record(r) for r in out.items], limit=out.limit, offset=out.offset, total=out.total)


def history(data: Any) -> list[HistoryEntry]:
    """A list of ``HistoryOut`` -> ``HistoryEntry`` rows, oldest first."""
    if not isinstance(data, list):
        raise ValueError("a memory's history is a JSON list")
    rows = [m.HistoryOut.model_validate(row) for row in data]
    return [
        HistoryEntry(**{**row.model_dump(), "created_at": _utc(row.created_at)}) for row in rows
    ]


def batch(data: Any) -> BatchResult:
    """``BatchOut`` -> ``BatchResult``: the memories come in input order, one for each
    stored or duplicate item."""
    out = w.BatchOut.model_validate(data)
    memories = iter(out.memories)
    items = []
    for item in out.items:
        held = next(memories) if item.id is not None else None
        items.append(
            ItemResult(
                index=item.index,
                outcome=Outcome(item.outcome),
                record=None if held is None else record(held),
                reason=item.reason,
                reasons=tuple(item.reasons),
                jobs=tuple(item.jobs),
                duplicate_of=item.duplicate_of,
                merged=None if item.merged is None else _merged(item.merged),
            )
        )
    return BatchResult(items)


def _merged(out: w.MergedOut) -> Merged:
    return Merged(tags=tuple(out.tags), metadata=tuple(out.metadata), kept=tuple(out.kept))


def count(data: Any) -> int:
    """``CountOut`` -> its count."""
    return m.CountOut.model_validate(data).count


def feedback_log(data: Any) -> list[dict[str, Any]]:
    """``FeedbackLog`` -> the rows ``admin.feedback_log`` returns (times as strings)."""
    out = m.FeedbackLog.model_validate(data)
    return [row.model_dump(mode="json") for row in out.feedback]


def transcript_stored(data: Any) -> bool:
    """``TranscriptOut`` -> whether the transcript was stored now."""
    return m.TranscriptOut.model_validate(data).stored


def as_dict(data: Any) -> dict[str, Any]:
    """An answer the server declares as a free-form JSON object."""
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


def _time_fields(cls: type[Any]) -> frozenset[str]:
    hints = typing.get_type_hints(cls)
    return frozenset(name for name, hint in hints.items() if "datetime" in str(hint))


def dataclass_of(cls: type[D], out: BaseModel) -> D:
    """A library dataclass (``Job``, ``ReviewItem``, ``Document``...) from a response
    model with the same fields: ISO 8601 strings become datetimes again."""
    times = _time_fields(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        value = getattr(out, f.name)
        if f.name in times and value is not None:
            value = _utc(value if isinstance(value, datetime) else datetime.fromisoformat(value))
        values[f.name] = value
    return cls(**values)
