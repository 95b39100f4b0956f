"""The "extract" job: seed 004's pipeline for one raw memory, run by the worker.

Extraction (the LLM, or the offline rules) turns the memory into facts and entity
triples; the triples go into the knowledge graph; each fact is decided against its
top-5 hybrid candidates (ADD / UPDATE / DELETE / NONE) and the proposals are applied
per mode, every one audited. No model call happens inside a write transaction: the
store is written only between model calls.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engram import write
from engram.core import Core
from engram.errors import LlmError
from engram.pipeline import (
    classify,
    closing,
    decisions,
    held_reads,
    relation_ends,
    slot_conflicts,
    supersession,
    turns,
)
from engram.pipeline.apply import apply_proposals
from engram.pipeline.change_judge import llm_judge
from engram.pipeline.extraction import extract, uses_rules
from engram.pipeline.handlers import register
from engram.records import MemoryRecord, utcnow
from engram.store.protocols import Job, ListQuery
from engram.store.protocols.graph import (
    SINGLE_VALUED,
    Relation,
    Statement,
    Triple,
    canonical_relation,
    normal_name,
)

log = logging.getLogger("engram.pipeline")
#: How many of a memory's own relations the extract job reads back (a memory states a
#: handful; a long document chunk some tens).
STATED_LIMIT = 500


def handle_extract(core: Core, job: Job) -> Mapping[str, Any]:
    """Run the pipeline on the job's memory; the result is the job's payload. A provider
    failure raises, so the worker retries the job (seed 004's retries); bad model output
    does not (retrying would not fix it) and is reported in ``warnings``."""
    source = core.store.memories.get(job.namespace, job.memory_id or "")
    if source is None:
        return {"skipped": "the memory is gone (deleted or purged) before it was processed"}
    cfg = core.config.pipeline
    provider = core.llm()
    # The turn before serves only the rules (a model reads the memory as it always has).
    rules = uses_rules(cfg, provider)
    before = turn_before(core, source) if rules else None
    speaker = owner_of(source) if rules else None
    # A turn that is not the user's is read as what its role said (task x22): the rules
    # take no fact of the user's from an assistant's "Noted: ...", a model sees who said it.
    result = extract(source.spoken(), provider=provider, config=cfg, before=before, speaker=speaker)
    if result.failed and result.retryable:
        raise LlmError(result.error or "the LLM provider failed")
    warnings = list(result.warnings)
    relations: tuple[Relation, ...] = ()
    out: dict[str, Any] = {
        "model": result.model,
        "facts": len(result.facts),
        "entities": len(result.entities),
    }
    if cfg.graph and result.entities:
        # The owner's entity is named as the write path names it (the graph's "user").
        triples = [
            (_graph_name(e.source, speaker), e.relationship, _graph_name(e.target, speaker),
             e.confidence)
            for e in result.entities
        ]  # fmt: skip
        statement = Statement(source.id, triples, source.created_at, utcnow())
        # issue 28 (G2): canonical relations, and which facts close the old ones, with
        # the model's judgement on a pair the text gives no signal for.
        judge = (
            None
            if provider is None
            else llm_judge(
                provider,
                core.store.memories,
                source.namespace,
                timeout=core.config.llm.timeout_s,
                warnings=warnings,
            )
        )
        statement, had = relation_ends.held_back(statement, source.content)
        statement = closing.plan(
            core.store, source.namespace, source.content, statement, judge=judge
        )
        statement = relation_ends.sound(statement, source.content)  # no "he", no "Noted"
        statement = relation_ends.with_held_back(statement, had)  # "has a cat", in passing
        # The rules read the same words the write path's reader read: one reading of
        # each fact. A model's triples are another reader's, kept beside it as before.
        if rules:
            statement = one_reading(statement, inline_reading(core, source))
        [graph] = core.store.graph.record(
            source.namespace, [statement], single_valued=SINGLE_VALUED
        )
        out["graph"] = graph.to_dict()
        relations = graph.relations
    proposals: list[decisions.Proposal] = []
    for fact in result.facts:
        found = decisions.candidates(
            core.retriever, source.namespace, fact.content, exclude_source=source.id
        )
        proposal = decisions.decide(
            fact,
            found,
            provider=provider,
            timeout=core.config.llm.timeout_s,
            warnings=warnings,
        )
        if proposal is not None:
            proposals.append(proposal)
    applied = apply_proposals(
        core,
        source,
        proposals,
        model=result.model,
        provider=provider,
        facts=len(result.facts),
        entities=len(result.entities),
        now=utcnow(),
    )
    out.update(applied.to_dict())
    if cfg.graph:
        # conflict38: a slot this memory gave a second current value, neither closing
        # the other, is one review item naming both memories.
        if conflicts := slot_conflicts.flag(core, source, now=utcnow()):
            out["conflicts"] = conflicts
        # stale26: the facts derived from a statement this one changed go as it does.
        derived = supersession.supersede_derived(core, source, now=utcnow())
        if derived.compared:
            out["supersession"] = derived.to_dict()
        # seed 004, "Decision Auto-Protection" and "Structural Classification" (P9,
        # P10): each fact becomes an attribute of its entity (a constraint when it holds
        # decision language) and each entity touched gets one classify job. It runs
        # after apply so that an attribute points at the fact's own memory; retroactive
        # supersession runs in the classify job, once attributes land on aspects.
        out["attributes"] = classify.record_attributes(core, source, result.facts, relations)
    out["warnings"] = warnings
    return out


def _graph_name(name: str, speaker: str | None) -> str:
    return closing.SPEAKER if speaker is not None and name == speaker else name


def inline_reading(core: Core, source: MemoryRecord) -> list[Triple]:
    """The triples the write path's change reader recorded for ``source`` (FEATURES G3,
    issue 28), read from the graph: its relations that ``source`` stated, closed since
    or not; none when the write path links nothing (``[pipeline] linker`` off) or its
    reader failed on the text (it then stored the memory unlinked). Not read again by
    the closing plan: the plan writes (a value held until the change it reads is
    recorded and ended, ``change_left``), so a second reading recorded that value twice,
    and it reads the graph as it is now, not as the write found it."""
    if not write.linker_on(core) or core.closer is None:
        return []
    stated = held_reads.stated(
        core.store, source.namespace, source.id, current_only=False, limit=STATED_LIMIT
    )
    return [(r.source, r.relation_type, r.target, r.confidence) for r in stated]


def one_reading(statement: Statement, inline: Sequence[Triple]) -> Statement:
    """``statement`` without the triples the write path already read from the same
    memory: one statement gets one reading of each fact. Names are compared as the
    graph matches them (:func:`normal_name`). A triple is the write path's reading
    again when it names the same source and target as one of ``inline`` (the extract
    job's (user, uses, Superdrug) beside the change reader's (user, pharmacy,
    Superdrug)), or shares the source and type, or the type and target, with one and
    its type closes in this statement: (user, favourite_artist, R) beside (user,
    favourite_artist, R.E.M), or (user, uses_storage, iCloud) beside (photos,
    uses_storage, iCloud), would close the write path's own reading. A second value of
    a type that holds many ("likes") is a fact of its own and stays. The types the
    statement closes are those of the triples left."""
    if not inline:
        return statement
    closes = SINGLE_VALUED if statement.single_valued is None else statement.single_valued
    closing_types = {canonical_relation(k) for k in closes}
    seen = [_names(t) for t in inline]

    def read_before(triple: Triple) -> bool:
        source, relation, target = _names(triple)
        for s, r, t in seen:
            if (s, t) == (source, target):
                return True
            if relation in closing_types and r == relation and (s == source or t == target):
                return True
        return False

    kept = [t for t in statement.triples if not read_before(t)]
    if len(kept) == len(statement.triples):
        return statement
    left = {canonical_relation(t[1]) for t in kept}
    return replace(statement, triples=kept, single_valued=frozenset(closing_types & left))


def _names(triple: Triple) -> tuple[str, str, str]:
    return normal_name(triple[0]), canonical_relation(triple[1]), normal_name(triple[2])


def owner_of(source: MemoryRecord) -> str | None:
    """Who "I" is in ``source`` where its text names no speaker: the namespace's user
    (:data:`turns.OWNER`), who told it, whichever surface it came through and whether
    ``user_id``, ``agent_id`` or both scope it (an agent's memory is still its user's
    telling, as a plain string is a ``user`` message). A chunk of a document has none:
    its "I" is the document's author, not the user who ingested it."""
    return None if source.document_id is not None else turns.OWNER


def turn_before(core: Core, source: MemoryRecord) -> str | None:
    """The content of the memory said just before ``source`` in its session (a mined
    chat's turns share their room's ``session_id``), or None outside a session. The
    offline rules read it for what a pointer stands for ("It's from my aunt" after "Love
    the bracelet!"), as ``engram bench extraction`` reads each LoCoMo turn with the one
    before it (issue 28, fifth pass)."""
    if source.session_id is None:
        return None
    query = ListQuery(session_id=source.session_id, created_before=source.created_at, limit=1)
    earlier = core.store.memories.select(source.namespace, query)
    return earlier[0].content if earlier else None


register("extract", handle_extract)
