"""What ``mem.runs`` returns, and the checks of its arguments."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engram.errors import InvalidInputError, shown
from engram.records import Hit, MemoryRecord
from engram.store.protocols.record import Record
from engram.store.protocols.runs import RUN_STATUSES, Run, RunHit
from engram.validate import (
    MAX_ROW_ID,
    memory_id_value,
    no_nul,
    optional_float,
    optional_str,
    type_name,
)

#: A run id: what a harness names its runs with (``run-2026-11-24T10:00``, a UUID ...).
_RUN_ID = re.compile(r"^[A-Za-z0-9_.:@/+-]{1,200}$")
#: seed 000's scores are on a 0-10 scale.
SCORE_RANGE = (0.0, 10.0)
#: At most this many evaluator issues, and memory hits per call.
MAX_ISSUES = 100
MAX_HITS = 1000
#: The longest issue or task kept.
MAX_ISSUE_CHARS = 2000
MAX_TASK_CHARS = 100_000


@dataclass(frozen=True, slots=True)
class RunView(Record):
    """A run with both directions of its provenance: the observations it produced and
    the memories injected into it (seed 000's provenance chain)."""

    run: Run
    observations: tuple[MemoryRecord, ...]
    """Live observations whose ``run_id`` is this run's, newest first."""
    injected: tuple[MemoryRecord, ...]
    """The live memories that were injected into the run, by rank."""
    hits: tuple[RunHit, ...]
    """The injection log itself, by rank (a purged memory keeps its row and title)."""


@dataclass(frozen=True, slots=True)
class BlockedIssue(Record):
    """An evaluator issue the injection scan kept out of the observation's facts."""

    issue: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Observed(Record):
    """What ``compress_and_store`` did."""

    memory: MemoryRecord
    """The observation (type ``observation``, with ``run_id``)."""
    created: bool
    """False when the same observation was already stored (its memory is returned)."""
    run: Run
    summarizer: str
    """``"llm:<provider>:<model>"`` or ``"offline"``."""
    blocked_issues: tuple[BlockedIssue, ...] = ()
    warnings: tuple[str, ...] = ()
    """What went wrong on the way and what was done instead (a failed model call, an
    answer missing a field)."""


def run_id_value(value: object) -> str:
    """A run id: 1-200 characters from letters, digits and ``_ . : @ / + -``."""
    if not isinstance(value, str) or not _RUN_ID.match(value):
        raise InvalidInputError(
            f"run_id must be 1-200 characters from letters, digits and _ . : @ / + -, "
            f"got {shown(value)}"
        )
    return value


def status_value(value: object) -> str:
    """One of ``RUN_STATUSES``."""
    if value not in RUN_STATUSES:
        raise InvalidInputError(
            f"status must be one of {', '.join(RUN_STATUSES)}, got {shown(value)}"
        )
    return str(value)


def text_value(name: str, value: object, limit: int) -> str | None:
    """An optional string of at most ``limit`` characters."""
    text = optional_str(name, value)
    if text is not None and len(text) > limit:
        raise InvalidInputError(f"{name} is {len(text)} characters; the limit is {limit}")
    return text


def given_text(name: str, value: object, limit: int) -> str | None:
    """An optional string that, when given, says something: ``record_run(task="")``
    stored an empty task over HTTP and MCP where ``engram observe --task ""`` refused."""
    text = text_value(name, value, limit)
    if text is not None and not text.strip():
        raise InvalidInputError(
            f"{name} is {'empty' if not text else 'blank'}: leave it out, or give its text"
        )
    return text


def task_value(value: object) -> str:
    """A run's task: a non-empty string of at most ``MAX_TASK_CHARS``."""
    text = text_value("task", value, MAX_TASK_CHARS)
    if text is None or not text.strip():
        raise InvalidInputError(
            f"task must be a non-empty string (what the run was asked to do), got {shown(value)}"
        )
    return text


def score_value(value: object) -> float | None:
    """An evaluator score on seed 000's 0-10 scale, or None."""
    return optional_float("score", value, *SCORE_RANGE)


def tokens_value(name: str, value: object) -> int | None:
    """A token count (an integer >= 0) or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ROW_ID:
        # the store keeps counts in a 64-bit INTEGER
        raise InvalidInputError(
            f"{name} must be an integer from 0 to {MAX_ROW_ID}, got {shown(value)}"
        )
    return value


def text_list(name: str, value: object, *, most: int, each: int) -> tuple[str, ...]:
    """A list of strings (blank ones dropped), at most ``most`` of ``each`` characters."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise InvalidInputError(f"{name} must be a list of strings, got {shown(value)}")
    if len(value) > most:
        raise InvalidInputError(f"{name} has {len(value)} items; the limit is {most}")
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidInputError(f"{name}[{i}] must be a string, got {type_name(item)}")
        if len(item) > each:
            raise InvalidInputError(f"{name}[{i}] is {len(item)} characters; the limit is {each}")
        if item.strip():
            out.append(no_nul(f"{name}[{i}]", item.strip()))
    return tuple(out)


def hit_items(hits: object) -> list[tuple[str, float | None]]:
    """(memory id, score) of each memory hit: a ``Hit``, a ``MemoryRecord``, a memory id,
    or a dict with ``memory_id`` (or ``id``) and an optional ``score``."""
    if isinstance(hits, str) or not isinstance(hits, Sequence):
        raise InvalidInputError(
            f"hits must be a list of Hits, memories, memory ids or dicts, got {shown(hits)}"
        )
    if len(hits) > MAX_HITS:
        raise InvalidInputError(f"hits has {len(hits)} items; the limit is {MAX_HITS}")
    out: list[tuple[str, float | None]] = []
    for i, item in enumerate(hits):
        if isinstance(item, Hit):
            out.append((item.memory.id, float(item.score)))
        elif isinstance(item, MemoryRecord):
            out.append((item.id, None))
        elif isinstance(item, str):
            out.append((memory_id_value(item), None))
        elif isinstance(item, Mapping):
            ident = item.get("memory_id", item.get("id"))
            score = item.get("score")
            if score is not None and (
                isinstance(score, bool) or not isinstance(score, int | float)
            ):
                raise InvalidInputError(f"hits[{i}].score must be a number, got {shown(score)}")
            out.append((memory_id_value(ident), None if score is None else float(score)))
        else:
            raise InvalidInputError(
                f"hits[{i}] must be a Hit, a memory, a memory id or a dict, got {type_name(item)}"
            )
    return out
