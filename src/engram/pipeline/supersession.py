"""Retroactive supersession (seed 004, "Semantic Contradiction Detection", last
paragraph; FEATURES P5).

seed 004: "These same detection primitives are reused by the retroactive supersession
system, which applies contradiction detection to sibling attributes on the same
entity/aspect rather than to UPDATE/DELETE proposals." When classification lands an
attribute on an aspect of its entity (:mod:`engram.pipeline.classify`), it is compared
with the attributes already there. Of two that contradict, the older memory (by
``created_at``) is superseded by the newer one.

The check, cheapest first:

1. **syntactic** (:func:`engram.pipeline.contradiction.syntactic`): shared words and a
   negation or an antonym pair;
2. **change** (engram's offline stand-in for what the seed leaves to the model): the
   newer statement changes something the older one names. "Derek swapped the battery
   for a 48V one" changes *the battery*, which "Derek owns an efoil with a 12V20Ah
   battery" names. The semantic prompt itself treats "moved, switched, replaced,
   migrated" as contradicting; without a model, a change verb whose object the older
   sibling names is that case;
3. **semantic** (:func:`engram.pipeline.contradiction.semantic`), only with
   ``[pipeline] semantic_contradiction`` on and an LLM, and for pairs sharing three
   words (seed 004's gate); it fails open, like every semantic check.

What a contradiction does depends on the pipeline mode
(:func:`engram.pipeline.apply.mode_of`): **shadow** audits it only, **controlled**
queues it in ``mem.review`` (approving it supersedes, through the same path as a
held-back UPDATE), **full** applies it (``superseded_by`` set on the older memory,
event ``superseded``). Only memories the pipeline wrote (``who = engram-pipeline``)
are ever superseded: a raw memory is the caller's verbatim text (raw-first), so a
contradiction against one is audited as ``blocked``. Every decision leaves an audit
row (event ``supersession``) in the older memory's history, which also makes the
pass idempotent: a pair decided before is not decided again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from engram.pipeline import contradiction
from engram.pipeline.apply import mode_of, supersede
from engram.pipeline.contradiction import Verdict
from engram.pipeline.decisions import Generator
from engram.pipeline.triples import noun_phrase
from engram.records import PIPELINE_WHO, MemoryRecord
from engram.store.protocols.graph import Attribute, Entity

if TYPE_CHECKING:
    from engram.core import Core

#: The audit event of a supersession decision.
EVENT = "supersession"
#: A landed attribute is compared with at most this many siblings (the newest), so one
#: crowded aspect cannot turn a classification into hundreds of checks or LLM calls.
MAX_SIBLINGS = 20

# A verb that says something was changed, and what follows it up to its object.
_CHANGE = re.compile(
    r"\b(?:swap(?:ped|s)?|replac(?:ed|es|e)|switch(?:ed|es)?|chang(?:ed|es|e)|"
    r"upgrad(?:ed|es|e)|downgrad(?:ed|es|e)|trad(?:ed|es|e)|exchang(?:ed|es|e)|"
    r"sold|sells?|migrat(?:ed|es|e)|got\s+rid\s+of|gave\s+away)\b"
    r"(?:\s+(?:out|over|in|away|back|from|up))*\s+(?P<rest>.+)$",
    re.IGNORECASE,
)


def changed_object(newer: str) -> str | None:
    """The head word of what ``newer`` says was changed ("battery" in "swapped the
    battery for a 48V one"), or None when it states no change."""
    match = _CHANGE.search(newer)
    if match is None:
        return None
    phrase = noun_phrase(match.group("rest"))
    if phrase is None:
        return None
    head = phrase.split()[-1].lower()
    return head if head in contradiction.content_tokens(head) else None


def change_verdict(newer: str, older: str) -> Verdict | None:
    """A contradiction when ``newer`` changes something ``older`` names; else None."""
    head = changed_object(newer)
    if head is None or head not in set(contradiction.tokens(older)):
        return None
    return Verdict(True, f"the newer statement changes the {head}", "change", 0.6)


def check(
    newer: str,
    older: str,
    *,
    provider: Generator | None,
    semantic_enabled: bool,
    timeout: float,
) -> Verdict:
    """Does ``newer`` contradict ``older``? Syntactic, then change, then (when enabled,
    with a provider and enough shared words) semantic, which fails open."""
    verdict = contradiction.syntactic(newer, older)
    if verdict.contradicts:
        return verdict
    changed = change_verdict(newer, older)
    if changed is not None:
        return changed
    if (
        semantic_enabled
        and provider is not None
        and contradiction.overlap(newer, older) >= contradiction.SEMANTIC_OVERLAP
    ):
        return contradiction.semantic(provider, newer, older, timeout=timeout)
    return verdict


@dataclass
class SupersessionReport:
    """What one pass over landed attributes did."""

    mode: str
    compared: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    decisions: list[dict[str, Any]] = field(default_factory=list)

    def merge(self, other: SupersessionReport) -> None:
        """Add ``other``'s counts and decisions to this report."""
        self.compared += other.compared
        for outcome, count in other.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        self.decisions.extend(other.decisions)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (part of the classify job's result)."""
        return {
            "mode": self.mode,
            "compared": self.compared,
            "outcomes": dict(self.outcomes),
            "decisions": list(self.decisions),
        }


def _order(
    a: Attribute, b: Attribute, memories: dict[str, MemoryRecord]
) -> tuple[Attribute, Attribute]:
    """(older, newer) by the memories' ``created_at`` (when they were told), then by
    the attribute's id (when it was recorded)."""
    ka = (memories[a.memory_id].created_at, a.id)
    kb = (memories[b.memory_id].created_at, b.id)
    return (a, b) if ka <= kb else (b, a)


def supersede_siblings(
    core: Core,
    entity: Entity,
    landed: Sequence[Attribute],
    *,
    provider: Generator | None,
    now: datetime,
) -> SupersessionReport:
    """Compare each attribute in ``landed`` (with its aspect set) with its siblings of
    the same entity and aspect, and supersede, queue or audit each contradiction per
    the pipeline mode (see the module docstring)."""
    cfg = core.config.pipeline
    report = SupersessionReport(mode=mode_of(cfg))
    aspected = [a for a in landed if a.aspect_id is not None]
    if not aspected:
        return report
    ns = entity.namespace
    # Only the landed aspects' newest attributes matter: read the memories of those,
    # not of everything the entity has.
    groups: dict[int | None, list[Attribute]] = {a.aspect_id: [] for a in aspected}
    for a in core.store.aspects.attributes(ns, entity.id):
        if a.aspect_id in groups:
            groups[a.aspect_id].append(a)
    recent = {aid: group[-(MAX_SIBLINGS + len(aspected)) :] for aid, group in groups.items()}
    wanted = {a.memory_id for group in recent.values() for a in group}
    memories = core.store.memories.get_many(ns, list(wanted | {a.memory_id for a in aspected}))
    seen: set[frozenset[int]] = set()
    for attribute in aspected:
        siblings = [
            s
            for s in recent[attribute.aspect_id]
            if s.id != attribute.id
            and s.memory_id != attribute.memory_id  # one memory does not supersede itself
            and s.memory_id in memories
            and attribute.memory_id in memories
        ][-MAX_SIBLINGS:]
        for sibling in siblings:
            pair = frozenset((attribute.id, sibling.id))
            if pair in seen:
                continue
            seen.add(pair)
            older, newer = _order(sibling, attribute, memories)
            old_memory, new_memory = memories[older.memory_id], memories[newer.memory_id]
            if old_memory.superseded_by is not None or new_memory.superseded_by is not None:
                continue  # already settled: only current memories supersede each other
            report.compared += 1
            verdict = check(
                newer.content,
                older.content,
                provider=provider,
                semantic_enabled=cfg.semantic_contradiction,
                timeout=cfg.semantic_contradiction_timeout_s,
            )
            if not verdict.contradicts or _decided(core, old_memory, new_memory.id):
                continue
            about = {
                "entity": entity.name,
                "entity_id": entity.id,
                "aspect_id": attribute.aspect_id,
                "older": older.content,
                "newer": newer.content,
            }
            outcome = _decide(
                core,
                report,
                old_memory,
                new_memory,
                verdict,
                about,
                "retroactive supersession",
                now,
            )
            if outcome == "superseded":  # later pairs in this pass see it settled
                memories[old_memory.id] = old_memory.with_changes(superseded_by=new_memory.id)
    return report


def _decide(
    core: Core,
    report: SupersessionReport,
    old: MemoryRecord,
    new: MemoryRecord,
    verdict: Verdict,
    about: dict[str, Any],
    why: str,
    now: datetime,
) -> str:
    """Act on one contradiction per the report's mode, count it and leave its audit row
    (event ``supersession``, ``about`` and the verdict) on ``old``; the outcome."""
    outcome, details = _act(core, old, new, verdict, report.mode, now)
    report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
    payload = {
        "outcome": outcome,
        "mode": report.mode,
        **about,
        "successor_id": new.id,
        "contradiction": {
            "method": verdict.method,
            "reason": verdict.reason,
            "confidence": verdict.confidence,
        },
        **details,
    }
    core.store.audit.record(
        old.namespace,
        old.id,
        EVENT,
        payload=payload,
        actor=PIPELINE_WHO,
        reason=f"{why}: {outcome}",
        now=now,
    )
    report.decisions.append({"memory_id": old.id, **payload})
    return outcome


def _decided(core: Core, old: MemoryRecord, successor_id: str) -> bool:
    """True when this pair was decided before (an earlier run audited it)."""
    return any(
        h.event == EVENT and h.after is not None and h.after.get("successor_id") == successor_id
        for h in core.store.memories.history(old.namespace, old.id)
    )


def _act(
    core: Core,
    old: MemoryRecord,
    new: MemoryRecord,
    verdict: Verdict,
    mode: str,
    now: datetime,
) -> tuple[str, dict[str, Any]]:
    """Apply one contradiction per the mode; its outcome and audit details."""
    raw = old.who != PIPELINE_WHO
    if mode == "shadow":  # as apply.py: shadow first, nothing is written in any case
        return "shadow", {"raw": raw}
    if raw:
        return "blocked", {"block_reason": "raw memories are never rewritten"}
    why = f"retroactive supersession ({verdict.method}): {verdict.reason}"
    if mode == "controlled":
        # The same shape as a held-back UPDATE (apply.py), so approving it runs the
        # same path: the successor (found again by its content) supersedes the target.
        item = core.store.review.add(
            old.namespace,
            new.id,
            target_id=old.id,
            action="UPDATE",
            proposal={
                "action": "UPDATE",
                "content": new.content,
                "fact_type": str(new.type),
                "fact_confidence": new.confidence if new.confidence is not None else 1.0,
                "confidence": verdict.confidence,
                "reason": why,
                "target_id": old.id,
                "decided_by": verdict.method,
                "source_memory_id": new.id,
                "model": new.extraction_model,
                "retroactive": True,
            },
            reason=verdict.reason,
            now=now,
        )
        return "review", {"review_id": item.id}
    if not supersede(core, old.namespace, old.id, new.id, why):
        return "skipped", {"skip_reason": "the older memory was deleted meanwhile"}
    return "superseded", {}


def supersede_derived(core: Core, source: MemoryRecord, *, now: datetime) -> SupersessionReport:
    """The facts derived from a statement whose relation ``source`` closed, superseded
    (or queued, or audited, per mode) by ``source``'s own derived fact of the new value
    (stale26).

    "My phone is a Pixel 7." gave "User's phone is a Pixel 7."; "Dropped my Pixel in
    the canal, so I'm on an iPhone 15 now." closed (user, uses_phone, Pixel 7) and gave
    "User is on an iPhone 15 now.". The old statement is kept (raw-first) and recall
    demotes it for a question about now; its derived fact says the same, so it is
    treated as the statement is, and more: it is the pipeline's own, so in full mode it
    is superseded by the new fact, in controlled mode the pair is queued for review.
    Precision first (a mined chat must not fill the queue): a pair is made only where
    the graph closed a relation of ``source`` (``GraphCountStore.closed_by``, one
    indexed read; nothing else is read when it finds none), the old fact names the old
    target and not the new one, the new fact names the new target, and neither
    statement is an assistant's turn (its echo restates, it does not tell)."""
    report = SupersessionReport(mode=mode_of(core.config.pipeline))
    ns = source.namespace
    if source.other_role == "assistant":
        return report
    changes = core.store.graph_counts.closed_by(ns, source.id)
    if not changes:
        return report
    news = _derived_facts(core, source)
    if not news:
        return report
    olds = core.store.memories.get_many(ns, list({c[0] for c in changes}))
    for old_id, holder, old_target, new_target in changes:
        statement = olds.get(old_id)
        if statement is None or statement.other_role == "assistant":
            continue
        successors = [f for f in news if _names(f.content, new_target)]
        if not successors:
            continue
        # The fact of the new value alone before one that restates both ("moved from
        # Leiden to Groningen"): that one is current too, but says less about now.
        successor = min(successors, key=lambda f: _names(f.content, old_target))
        for fact in _derived_facts(core, statement):
            if not _names(fact.content, old_target) or _names(fact.content, new_target):
                continue
            if _decided(core, fact, successor.id):
                continue
            report.compared += 1
            verdict = Verdict(
                True,
                f"the graph closed {old_target} when {new_target} was told",
                "graph",
                0.8,
            )
            about = {
                "entity": holder,
                "older": fact.content,
                "newer": successor.content,
                "closed": {"old": old_target, "new": new_target, "statement": old_id},
            }
            why = "derived fact of a closed statement"
            _decide(core, report, fact, successor, verdict, about, why, now)
    return report


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names ``name``: every content word of it is a word of ``text``."""
    words = _bare(contradiction.content_tokens(name) or set(contradiction.tokens(name)))
    return bool(words) and words <= _bare(contradiction.tokens(text))


def _bare(words: Iterable[str]) -> set[str]:
    """``words`` without a possessive ("St Mary's" names "St Mary")."""
    return {w.removesuffix("'s") for w in words}


def _derived_facts(core: Core, statement: MemoryRecord) -> list[MemoryRecord]:
    """The current facts the pipeline wrote from ``statement``: the memories its
    ``proposal`` audit rows name (created, or deduped into one of its own), read by key
    (memories have no index on ``source_memory_id``; the history has one on the id)."""
    ids = [
        str(h.after["memory_id"])
        for h in core.store.memories.history(statement.namespace, statement.id)
        if h.event == "proposal" and h.after is not None and h.after.get("memory_id")
    ]
    if not ids:
        return []
    found = core.store.memories.get_many(statement.namespace, list(dict.fromkeys(ids)))
    return [
        found[i]
        for i in dict.fromkeys(ids)
        if i in found
        and found[i].source_memory_id == statement.id
        and found[i].who == PIPELINE_WHO
        and found[i].superseded_by is None
    ]
