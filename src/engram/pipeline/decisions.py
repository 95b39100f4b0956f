"""The decision pass (seed 004, FEATURES P3): for each extracted fact, ADD, UPDATE,
DELETE or NONE against the memories most like it.

Per fact, the top-5 hybrid candidates are retrieved with the same recall that answers
queries (dense + BM25, fused). With no candidate the fact is ADDed at once, without a
model call (seed 004's fast path). Otherwise an LLM chooses, and its answer is checked:
an UPDATE or DELETE must name one of the candidates (a hallucinated id drops the
proposal with a warning), and a reason is required. With no LLM, an offline rule
decides: NONE for a fact already stored, UPDATE for a pipeline fact it contradicts,
ADD otherwise.

"Shadow" here means nothing is written: applying proposals is ``engram.pipeline.apply``'s
job, per mode.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engram.pipeline import contradiction
from engram.recall.request import RecallRequest
from engram.records import PIPELINE_WHO, MemoryRecord
from engram.store.protocols.record import Record
from engram.text import normalize_content

log = logging.getLogger("engram.pipeline")

ACTIONS = ("ADD", "UPDATE", "DELETE", "NONE")
#: seed 004: "The top 5 are fetched from the memories table."
TOP_CANDIDATES = 5
#: seed 004 drops candidates "below min_score"; on engram's fused [0, 1] scale a
#: memory under this shares too little with the fact to be the same statement.
MIN_CANDIDATE_SCORE = 0.3


class Fact(Protocol):
    """An extracted fact: its text, type and confidence."""

    @property
    def content(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def confidence(self) -> float: ...


class Generator(Protocol):
    """The part of an LLM provider the decision pass uses."""

    @property
    def model(self) -> str: ...

    def generate(
        self, prompt: str, *, schema: dict[str, Any] | None = None, timeout: float | None = None
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class Proposal(Record):
    """What the decision pass proposes for one fact."""

    action: str
    content: str
    fact_type: str
    fact_confidence: float
    confidence: float
    reason: str
    target_id: str | None = None
    candidates: tuple[str, ...] = ()
    decided_by: str = "rule"
    """``llm``, ``rule`` (offline) or ``fast-path`` (no candidate)."""


@dataclass
class Decisions:
    """The proposals for a memory's facts, and what went wrong on the way."""

    proposals: list[Proposal] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def candidates(
    retriever: Any, namespace: str, fact: str, *, exclude_source: str | None
) -> list[MemoryRecord]:
    """The top-5 hybrid candidates for ``fact`` (seed 004), leaving out the memory the
    fact was extracted from and the other facts taken from it: a fact always matches
    its own source, which would make every fact a NONE."""

    def unrelated(record: MemoryRecord) -> bool:
        return exclude_source is None or (
            record.id != exclude_source and record.source_memory_id != exclude_source
        )

    # Every member of a family is a candidate here (recall.derived_once off): an old
    # fact derived from a statement ranked above it is the one an UPDATE replaces.
    cfg = replace(retriever.config, derived_once=False, keyword_share=False)
    result = retriever.recall(
        RecallRequest(fact, namespace, TOP_CANDIDATES * 3, matches=unrelated, config=cfg)
    )
    kept = [h.memory for h in result.hits if h.breakdown.fused >= MIN_CANDIDATE_SCORE]
    return kept[:TOP_CANDIDATES]


DECISION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": list(ACTIONS)},
        "targetId": {"type": ["string", "null"]},
        "confidence": {"type": "number"},
        "reason": {"type": "string"},
    },
    "required": ["action", "confidence", "reason"],
}


def decision_prompt(fact: Fact, found: Sequence[MemoryRecord]) -> str:
    """seed 004's decision prompt: the fact and a numbered list of candidates."""
    lines = "\n".join(
        f"{i}. id={m.id} type={m.type.value}: {m.content[:500]}" for i, m in enumerate(found, 1)
    )
    return (
        "You maintain a memory store. A new fact was extracted:\n"
        f"  ({fact.type}) {fact.content}\n\n"
        f"These stored memories are the most similar:\n{lines}\n\n"
        "Choose one action:\n"
        "- ADD: the fact is new information.\n"
        "- UPDATE: the fact replaces one memory above (it changed, or corrects it); give "
        "its id as targetId.\n"
        "- DELETE: the fact says one memory above is no longer true; give its id.\n"
        "- NONE: the fact is already stored.\n"
        'Answer with only a JSON object: {"action": "ADD|UPDATE|DELETE|NONE", '
        '"targetId": "<id or null>", "confidence": 0-1, "reason": "<why>"}.'
    )


def _offline(fact: Fact, found: Sequence[MemoryRecord]) -> Proposal:
    """The rule that decides without a model."""
    base = Proposal(
        action="ADD",
        content=fact.content,
        fact_type=fact.type,
        fact_confidence=fact.confidence,
        confidence=fact.confidence,
        reason="new information: no similar memory says the same",
        candidates=tuple(m.id for m in found),
    )
    wanted = normalize_content(fact.content).content_hash
    for memory in found:
        if memory.content_hash == wanted:
            return _with(base, "NONE", memory.id, 1.0, "the same fact is already stored")
    for memory in found:
        if memory.who != PIPELINE_WHO:
            continue  # raw memories are never rewritten (raw-first)
        verdict = contradiction.syntactic(fact.content, memory.content)
        if verdict.contradicts:
            return _with(
                base,
                "UPDATE",
                memory.id,
                min(fact.confidence, verdict.confidence),
                f"replaces an earlier fact it contradicts: {verdict.reason}",
            )
    return base


def _with(base: Proposal, action: str, target: str, confidence: float, reason: str) -> Proposal:
    return Proposal(
        action=action,
        content=base.content,
        fact_type=base.fact_type,
        fact_confidence=base.fact_confidence,
        confidence=confidence,
        reason=reason,
        target_id=target,
        candidates=base.candidates,
        decided_by=base.decided_by,
    )


def _from_llm(
    fact: Fact, found: Sequence[MemoryRecord], data: Any, warnings: list[str]
) -> Proposal | None:
    """The LLM's answer checked as seed 004 says, or None (dropped, with a warning)."""
    if not isinstance(data, dict):
        warnings.append(f"decision for {fact.content[:60]!r}: not a JSON object; dropped")
        return None
    action = str(data.get("action", "")).strip().upper()
    if action not in ACTIONS:
        warnings.append(f"decision for {fact.content[:60]!r}: unknown action {action!r}")
        return None
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        warnings.append(f"decision for {fact.content[:60]!r}: empty reason; dropped")
        return None
    target = data.get("targetId")
    ids = {m.id for m in found}
    if action in ("UPDATE", "DELETE"):
        if not isinstance(target, str) or target not in ids:
            warnings.append(
                f"decision for {fact.content[:60]!r}: {action} names {target!r}, which is not "
                "one of the candidates (hallucinated id); dropped"
            )
            return None
    elif action == "NONE" and isinstance(target, str) and target in ids:
        pass
    else:
        target = None
    raw_conf = data.get("confidence")
    confidence = float(raw_conf) if isinstance(raw_conf, int | float) else fact.confidence
    return Proposal(
        action=action,
        content=fact.content,
        fact_type=fact.type,
        fact_confidence=fact.confidence,
        confidence=max(0.0, min(1.0, confidence)),
        reason=reason.strip()[:500],
        target_id=target if isinstance(target, str) else None,
        candidates=tuple(m.id for m in found),
        decided_by="llm",
    )


def decide(
    fact: Fact,
    found: Sequence[MemoryRecord],
    *,
    provider: Generator | None,
    timeout: float,
    warnings: list[str],
) -> Proposal | None:
    """The proposal for one fact, or None when the LLM's answer had to be dropped."""
    if not found:
        # seed 004: no candidates -> ADD at once, with the fact's own confidence.
        return Proposal(
            action="ADD",
            content=fact.content,
            fact_type=fact.type,
            fact_confidence=fact.confidence,
            confidence=fact.confidence,
            reason="no similar memory is stored",
            decided_by="fast-path",
        )
    if provider is None:
        return _offline(fact, found)
    from engram.llm import parse_json  # only needed with a model

    # A provider that fails (down, timing out) fails the job, which the worker retries;
    # an answer that is not JSON is the model's fault, and retrying would not fix it.
    raw = provider.generate(decision_prompt(fact, found), schema=DECISION_SCHEMA, timeout=timeout)
    try:
        data = parse_json(raw)
    except Exception as exc:
        warnings.append(f"decision for {fact.content[:60]!r}: unusable answer: {str(exc)[:200]}")
        return None
    return _from_llm(fact, found, data, warnings)
