"""The shape every benchmark loader produces: conversations of turns, and questions.

A turn becomes one memory; its ``turn`` and ``session`` ids go into the memory's
metadata, so a ranked list of hits maps back to ranked turns and sessions. Loaders
never let questions influence what is ingested.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.errors import InvalidInputError


def read_date(text: str, fmt: str, what: str) -> datetime:
    """``text`` read with a dataset's own date format ``fmt``, as UTC. A date that does
    not match is the file's fault: the error names ``what`` (whose date) and the format."""
    try:
        return datetime.strptime(text.strip(), fmt).replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInputError(f"{what} {text!r} does not match {fmt!r}") from None


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of a conversation: the unit engram stores."""

    id: str
    session: str
    text: str
    created_at: datetime | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Question:
    """A question and the turns (and sessions) that hold its evidence."""

    id: str
    text: str
    category: str
    gold_turns: frozenset[str]
    gold_sessions: frozenset[str]
    alternatives: Mapping[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    """Other gold sets scored in the same run, e.g. ``{"errata": (turns, sessions)}``."""
    asked_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """One conversation: ingested into its own namespace, then questioned."""

    id: str
    turns: Sequence[Turn]
    questions: Sequence[Question]


@dataclass(frozen=True, slots=True)
class Found:
    """What one recall found for a question, beside one of its gold sets: what a
    dataset's scorer reads."""

    question: Question
    gold_turns: frozenset[str]
    gold_sessions: frozenset[str]
    turns: Sequence[str]
    """The hits' turn ids, best first."""
    sessions: Sequence[str]
    """The distinct sessions of the hits, in order of their first hit."""
    top_score: float | None
    standing: Sequence[str] = ()
    """The turn ids of the recall's standing block (``Recall.standing``)."""


#: A dataset's metrics for one question: metric name -> value.
Scorer = Callable[[Found], dict[str, float]]


def session_messages(conversation: Conversation) -> dict[str, list[dict[str, Any]]]:
    """A conversation's turns as chat messages per session, as mining files them:
    ``{role, content, created_at}`` with the speaker of ``"<speaker>: <text>"`` as the
    role."""
    rooms: dict[str, list[dict[str, Any]]] = {}
    for turn in conversation.turns:
        speaker = turn.text.split(": ", 1)[0] if ": " in turn.text else None
        rooms.setdefault(turn.session, []).append(
            {"role": speaker, "content": turn.text, "created_at": turn.created_at}
        )
    return rooms


@dataclass(frozen=True, slots=True)
class Dataset:
    """A loaded benchmark: its conversations and how to score a question."""

    name: str
    conversations: Sequence[Conversation]
    scorer: Scorer
    depth: int
    """How many hits to fetch per question so every metric's k is covered."""
    headline: Sequence[str]
    """The metric names a summary table shows, in order."""

    @property
    def question_count(self) -> int:
        """Questions across all conversations."""
        return sum(len(c.questions) for c in self.conversations)

    def only(self, ids: Sequence[str]) -> Dataset:
        """Keep only the conversations named in ``ids`` (all when empty), e.g. one fold
        of a split to tune on and another to check on (issue 24)."""
        if not ids:
            return self
        unknown = sorted(set(ids) - {c.id for c in self.conversations})
        if unknown:
            known = ", ".join(c.id for c in self.conversations)
            raise InvalidInputError(f"no conversation {', '.join(unknown)} here; known: {known}")
        kept = [c for c in self.conversations if c.id in set(ids)]
        return Dataset(self.name, kept, self.scorer, self.depth, self.headline)

    def limited(self, limit: int | None) -> Dataset:
        """Keep only the first ``limit`` questions (over conversations, in order)."""
        if limit is None:
            return self
        if limit < 1:
            raise InvalidInputError(f"--limit must be at least 1, got {limit}")
        kept: list[Conversation] = []
        left = limit
        for conv in self.conversations:
            if left <= 0:
                break
            questions = list(conv.questions[:left])
            left -= len(questions)
            kept.append(Conversation(conv.id, conv.turns, questions))
        return Dataset(self.name, kept, self.scorer, self.depth, self.headline)


def read_json(path: str, what: str) -> Any:
    """Load a JSON file, or raise an error that names the file and what it should be."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise InvalidInputError(f"{what} file {p} does not exist; pass the path with --data")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read {what} file {p}: {exc}") from exc


def write_result(out_dir: str | Path, name: str, data: Any, text: str) -> Path:
    """Write a benchmark's ``<name>.json`` (``data``) and ``<name>.md`` (``text``) into
    ``out_dir``, made if missing; returns the JSON path."""
    directory = Path(out_dir).expanduser()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    (directory / f"{name}.md").write_text(text)
    return path
