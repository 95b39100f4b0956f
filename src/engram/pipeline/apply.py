"""Applying the decision pass's proposals, per mode (seed 004, FEATURES P4, P5).

Modes, from ``[pipeline]``'s flags:

- **shadow** (``shadow_mode`` or ``mutations_frozen``): every proposal is audited,
  nothing is written;
- **controlled** (the default): ADD writes a new memory (through the confidence gate
  ``min_fact_confidence`` 0.7, the empty-content gate and dedup), NONE is recorded, UPDATE
  and DELETE are blocked (``allow_update_delete`` is off);
- **full** (``allow_update_delete``): UPDATE and DELETE are applied too. engram goes past
  the seed here: an UPDATE writes the new fact as a memory and marks the old one
  ``superseded_by`` it (kept, left out of recall, its history showing the chain); a
  DELETE tombstones the old fact.

Only memories the pipeline wrote are ever updated or deleted: raw memories, the
caller's verbatim text, are never rewritten (raw-first). A proposal whose contradiction
check fires has its audit row marked ``review_needed`` (seed 004). In controlled mode it
goes to the review queue (``mem.review``), where a person approves (then it is applied)
or rejects it; in full mode ``contradiction_action`` decides: ``hold`` queues it the
same way, ``apply_flag`` (the default) applies it with the flag.

Every proposal, whatever its outcome, leaves an audit row (event ``proposal``) in the
source memory's history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.core import Core
from engram.errors import NotFoundError
from engram.pipeline import contradiction
from engram.pipeline.decisions import Generator, Proposal
from engram.records import PIPELINE_WHO, ItemResult, MemoryRecord, Outcome
from engram.settings import PipelineConfig
from engram.write import add_batch

#: seed 004's ``why`` of an extracted fact.
EXTRACTED_WHY = "extracted-fact"
_MEMORY_TYPES = {"fact", "preference", "decision", "procedural", "semantic"}


def mode_of(config: PipelineConfig) -> str:
    """``shadow``, ``controlled`` or ``full`` (seed 004's three modes from its flags)."""
    if config.shadow_mode or config.mutations_frozen:
        return "shadow"
    return "full" if config.allow_update_delete else "controlled"


def supersede(core: Core, namespace: str, old_id: str, new_id: str, why: str) -> bool:
    """Mark memory ``old_id`` superseded by ``new_id``, audited as the pipeline's with
    ``why``; False when ``old_id`` was deleted meanwhile (nothing is written)."""
    try:
        core.store.memories.update(
            namespace,
            old_id,
            {"superseded_by": new_id},
            event="superseded",
            actor=PIPELINE_WHO,
            reason=why,
        )
    except NotFoundError:
        return False
    return True


@dataclass
class Applied:
    """What applying a memory's proposals did, counted per outcome."""

    mode: str
    outcomes: dict[str, int] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    review: list[int] = field(default_factory=list)

    def count(self, outcome: str) -> None:
        """Count one proposal's outcome."""
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (part of the job result)."""
        return {
            "mode": self.mode,
            "outcomes": dict(self.outcomes),
            "created": list(self.created),
            "review": list(self.review),
        }


def derived_item(source: MemoryRecord, proposal: Proposal, model: str | None) -> dict[str, Any]:
    """The ``add_many`` item of a fact taken from ``source``: same scope and time, its own
    type and confidence, provenance pointing back (seed 004's txIngestEnvelope)."""
    kind = proposal.fact_type if proposal.fact_type in _MEMORY_TYPES else "fact"
    return {
        "content": proposal.content,
        "namespace": source.namespace,
        "user_id": source.user_id,
        "agent_id": source.agent_id,
        "run_id": source.run_id,
        "session_id": source.session_id,
        "created_at": source.created_at,
        "type": kind,
        "confidence": proposal.fact_confidence,
        "who": PIPELINE_WHO,
        "why": EXTRACTED_WHY,
        "source_memory_id": source.id,
        "extraction_model": model,
    }


def apply_proposals(
    core: Core,
    source: MemoryRecord,
    proposals: list[Proposal],
    *,
    model: str | None,
    provider: Generator | None,
    facts: int,
    entities: int,
    now: datetime,
) -> Applied:
    """Apply (or record) each proposal per the configured mode; audit every one."""
    cfg = core.config.pipeline
    done = Applied(mode=mode_of(cfg))
    for proposal in proposals:
        outcome, details = _one(
            core, source, proposal, done, model=model, provider=provider, now=now
        )
        done.count(outcome)
        payload = {
            **proposal.to_dict(),
            **details,
            "outcome": outcome,
            "mode": done.mode,
            "source_memory_id": source.id,
            "extraction_model": model,
            "facts": facts,
            "entities": entities,
        }
        core.store.audit.record(
            source.namespace,
            source.id,
            "proposal",
            payload=payload,
            actor=PIPELINE_WHO,
            reason=f"{proposal.action}: {outcome}",
            now=now,
        )
    return done


def _one(
    core: Core,
    source: MemoryRecord,
    proposal: Proposal,
    done: Applied,
    *,
    model: str | None,
    provider: Generator | None,
    now: datetime,
) -> tuple[str, dict[str, Any]]:
    """One proposal's outcome and the details its audit row records."""
    cfg = core.config.pipeline
    if proposal.action == "NONE":
        return "recorded", {}
    if proposal.action == "ADD":
        if done.mode == "shadow":
            return "shadow", {}
        if proposal.fact_confidence < cfg.min_fact_confidence:
            return "skipped", {"skip_reason": "low_fact_confidence"}
        if not proposal.content.strip():
            return "skipped", {"skip_reason": "empty_fact_content"}
        return _add(core, source, proposal, done, model)
    # UPDATE or DELETE
    target = core.store.memories.get(source.namespace, proposal.target_id or "")
    if target is None:
        return "blocked", {"block_reason": "target_not_found"}
    verdict = contradiction.detect(
        proposal.content,
        target.content,
        action=proposal.action,
        provider=provider,
        semantic_enabled=cfg.semantic_contradiction,
        timeout=cfg.semantic_contradiction_timeout_s,
    )
    sides = {"new_claim": verdict.new_claim, "old_claim": verdict.old_claim}
    details: dict[str, Any] = {
        "review_needed": verdict.contradicts,
        "contradiction": {"method": verdict.method, "reason": verdict.reason, **sides},
    }
    if done.mode == "shadow":
        return "shadow", details
    if target.who != PIPELINE_WHO:
        return "blocked", {**details, "block_reason": "raw memories are never rewritten"}
    if verdict.contradicts and (done.mode != "full" or cfg.contradiction_action == "hold"):
        item = core.store.review.add(
            source.namespace,
            source.id,
            target_id=target.id,
            action=proposal.action,
            proposal={
                **proposal.to_dict(),
                "source_memory_id": source.id,
                "model": model,
                **review_sides(
                    target, verdict.old_claim, source.id, proposal.content, verdict.new_claim
                ),
            },
            reason=verdict.reason,
            now=now,
        )
        # The queue keeps one pending item per (target, action): a second proposal over
        # the same fact joins the first one's item, which the job lists once.
        if item.id not in done.review:
            done.review.append(item.id)
        return "review", {**details, "review_id": item.id}
    if done.mode != "full":
        return "blocked", {**details, "block_reason": "destructive_mutations_disabled"}
    applied, successor = apply_destructive(
        core, source, proposal, target, model=model, now=now, done=done
    )
    if successor is not None:
        details["successor_id"] = successor
    return applied, details


def review_sides(
    old: MemoryRecord, old_claim: str, new_id: str, new_text: str, new_claim: str
) -> dict[str, Any]:
    """What the review queue shows of a proposal (issue 28): the old claim beside the
    new one, with both memory ids (``new`` is the memory the new claim came from)."""
    return {
        "old": {"memory_id": old.id, "text": old.content, "claim": old_claim},
        "new": {"memory_id": new_id, "text": new_text, "claim": new_claim},
    }


def _store_derived(
    core: Core, source: MemoryRecord, proposal: Proposal, model: str | None
) -> ItemResult:
    """Store the proposal's fact as a memory derived from ``source`` (ADD, and the
    successor of an UPDATE): what the safety scan or validation refuses is skipped, not
    raised, and the pipeline queues no job for its own output."""
    batch = add_batch(
        core,
        [derived_item(source, proposal, model)],
        on_blocked="skip",
        on_invalid="skip",
        enqueue=False,
    )
    return batch.items[0]


def _add(
    core: Core, source: MemoryRecord, proposal: Proposal, done: Applied, model: str | None
) -> tuple[str, dict[str, Any]]:
    item = _store_derived(core, source, proposal, model)
    if item.outcome is Outcome.STORED and item.record is not None:
        done.created.append(item.record.id)
        return "created", {"memory_id": item.record.id}
    if item.outcome is Outcome.DUPLICATE and item.record is not None:
        return "deduped", {"memory_id": item.record.id}
    return "skipped", {"skip_reason": f"{item.outcome.value}: {item.reason}"}


def apply_destructive(
    core: Core,
    source: MemoryRecord,
    proposal: Proposal,
    target: MemoryRecord,
    *,
    model: str | None,
    now: datetime,
    done: Applied | None = None,
) -> tuple[str, str | None]:
    """Apply an UPDATE (supersede ``target`` with the fact) or a DELETE (tombstone it);
    returns the outcome and, for an UPDATE, the successor's id."""
    ns = target.namespace
    why = f"pipeline {proposal.action}: {proposal.reason}"
    if proposal.action == "DELETE":
        core.store.memories.delete(ns, target.id, actor=PIPELINE_WHO)
        if core.index is not None:
            core.index.removed(ns, target.id)
        core.store.audit.record(
            ns,
            target.id,
            "pipeline_delete",
            payload={"source_memory_id": source.id, "fact": proposal.content},
            actor=PIPELINE_WHO,
            reason=why,
            now=now,
        )
        return "deleted", None
    stored = _store_derived(core, source, proposal, model)
    successor = stored.record
    if successor is None:
        return "skipped", None
    if done is not None and stored.created:
        done.created.append(successor.id)
    if not supersede(core, ns, target.id, successor.id, why):
        return "skipped", None  # deleted meanwhile
    return "superseded", successor.id
