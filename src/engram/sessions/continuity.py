"""Continuity scoring at session end (seed 004; FEATURES S13).

seed 004: the injected memories and the session transcript go to the LLM, which
returns ``score`` (0–1), ``confidence`` (0–1), ``memories_used``,
``novel_context_count``, ``reasoning`` and ``per_memory`` (``{id, relevance}`` with 8
characters of the id, resolved through the injected memories). "Markdown fences and
<think> blocks are stripped from LLM output, missing optional fields default to
zero/empty, out-of-range scores are clamped to [0, 1], and sessions without
session_memories data still get a valid score row."

Without an LLM (or when it fails) an offline heuristic scores each memory by how much
of its distinctive vocabulary the transcript uses; it says so in ``method`` and
``reasoning`` and carries a low confidence.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram.errors import EngramError
from engram.llm import LlmProvider, parse_json
from engram.text import keywords

log = logging.getLogger("engram.sessions")

#: seed 004: per-memory ids are 8 characters of the memory id. The seed's ids are random
#: UUIDs and it takes their prefix; engram's ids start with their creation time, so
#: memories written together share a prefix and the 8 characters come from the id's
#: random end instead (a prefix the model echoes back is still accepted when unique).
PREFIX = 8


def short_id(memory_id: str) -> str:
    """The 8 characters a memory is labelled with in the scoring prompt."""
    return memory_id[-PREFIX:]


#: Characters of each memory and of the transcript the prompt carries.
MEMORY_CHARS = 600
TRANSCRIPT_CHARS = 12_000
#: The heuristic counts a memory as used at this relevance.
USED_AT = 0.5
#: The heuristic's confidence: it reads words, not meaning.
OFFLINE_CONFIDENCE = 0.3

PROMPT = """You are scoring how useful the memories injected into an AI agent's session were.

Memories injected at the start of the session (8-character id, then text):
{memories}

Session transcript:
{transcript}

Return JSON only: {{"score": 0-1 (how well the injected memories served the session),
"confidence": 0-1, "memories_used": integer, "novel_context_count": integer (facts the
session needed that no memory held), "reasoning": short text, "per_memory":
[{{"id": "<8-character id>", "relevance": 0-1}}]}}"""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "score": {"type": "number"},
        "confidence": {"type": "number"},
        "memories_used": {"type": "integer"},
        "novel_context_count": {"type": "integer"},
        "reasoning": {"type": "string"},
        "per_memory": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "relevance": {"type": "number"}},
                "required": ["id", "relevance"],
            },
        },
    },
    "required": ["score"],
}


@dataclass(frozen=True, slots=True)
class Scored:
    """What scoring found, before it is stored."""

    score: float
    confidence: float
    memories_used: int
    novel_context_count: int
    reasoning: str
    method: str
    relevance: dict[str, float]
    """Full memory id → relevance."""


def clamp01(value: Any) -> float:
    """A number in [0, 1]; anything unreadable is 0."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    if number != number:  # NaN
        return 0.0
    return min(1.0, max(0.0, number))


def _count(value: Any) -> int:
    try:
        return max(0, int(value))
    except (TypeError, ValueError):
        return 0


def parse_scoring(raw: str, memory_ids: Sequence[str]) -> Scored:
    """The LLM's answer read leniently; per-memory prefixes resolved to full ids (an
    unknown or ambiguous prefix is dropped). Raises ``EngramError`` when no JSON object
    can be found at all."""
    data = parse_json(raw)
    if not isinstance(data, Mapping):
        raise EngramError(f"continuity scoring answered {type(data).__name__}, not an object")
    by_label: dict[str, list[str]] = {}
    for memory_id in memory_ids:
        by_label.setdefault(short_id(memory_id), []).append(memory_id)
        if memory_id[:PREFIX] != short_id(memory_id):
            by_label.setdefault(memory_id[:PREFIX], []).append(memory_id)
    relevance: dict[str, float] = {}
    for entry in data.get("per_memory") or []:
        if not isinstance(entry, Mapping):
            continue
        label = str(entry.get("id", "")).strip().strip("[]")
        matches = by_label.get(label[-PREFIX:], []) or by_label.get(label[:PREFIX], [])
        if len(matches) == 1:
            relevance[matches[0]] = clamp01(entry.get("relevance"))
    return Scored(
        score=clamp01(data.get("score")),
        confidence=clamp01(data.get("confidence")),
        memories_used=_count(data.get("memories_used")),
        novel_context_count=_count(data.get("novel_context_count")),
        reasoning=str(data.get("reasoning") or ""),
        method="llm",
        relevance=relevance,
    )


def heuristic(memories: Mapping[str, str], transcript: str) -> Scored:
    """Offline scoring: a memory's relevance is the share of its keywords the
    transcript uses; the session's score is the mean relevance of what was injected."""
    if not memories:
        return Scored(0.0, 1.0, 0, 0, "no memories were injected into this session", "offline", {})
    said = set(keywords(transcript, limit=100_000))
    relevance: dict[str, float] = {}
    for memory_id, content in memories.items():
        terms = keywords(content)
        relevance[memory_id] = (
            round(sum(term in said for term in terms) / len(terms), 4) if terms else 0.0
        )
    used = sum(value >= USED_AT for value in relevance.values())
    score = round(sum(relevance.values()) / len(relevance), 4)
    reasoning = (
        f"offline heuristic (no LLM): {used} of {len(relevance)} injected memories share "
        f"at least {USED_AT:.0%} of their keywords with the session"
    )
    return Scored(score, OFFLINE_CONFIDENCE, used, 0, reasoning, "offline", relevance)


def score_session(llm: LlmProvider | None, memories: Mapping[str, str], transcript: str) -> Scored:
    """Score with the LLM when one is configured and there is something to score; fall
    back to the heuristic (saying why) when it is absent or fails."""
    if llm is None or not memories:
        return heuristic(memories, transcript)
    listed = "\n".join(
        f"[{short_id(memory_id)}] {content[:MEMORY_CHARS]}"
        for memory_id, content in memories.items()
    )
    prompt = PROMPT.format(memories=listed, transcript=transcript[-TRANSCRIPT_CHARS:] or "(empty)")
    try:
        return parse_scoring(llm.generate(prompt, schema=SCHEMA), list(memories))
    except (EngramError, json.JSONDecodeError, ValueError) as exc:
        log.warning("continuity scoring by LLM failed, using the heuristic: %s", exc)
        fallback = heuristic(memories, transcript)
        return Scored(
            fallback.score,
            fallback.confidence,
            fallback.memories_used,
            fallback.novel_context_count,
            f"{fallback.reasoning}; the LLM failed: {exc}",
            "offline",
            fallback.relevance,
        )
