"""The mem0 door's ``add(infer=True)``, mem0's default (mem0 2.2.1
``Memory._add_to_vector_store``): the conversation goes to engram's extraction pipeline
and ``add`` lists what that did, in mem0's events.

mem0 stores only the facts its LLM extracts; engram is raw-first (seed 004) and keeps
the conversation verbatim as their source. Both hold here: the conversation is stored
as one raw memory (each fact's ``source_memory_id``, seen through ``m.engram``), and once
its extraction has run, kept a fact and held nothing for review, it is marked
``CONVERSATION``, which the door's reads leave out, as mem0 never stored it.
docs/compat-mem0.md, "Adding messages".
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from engram.errors import NotFoundError
from engram.memory import Memory as EngramMemory
from engram.records import PIPELINE_WHO, MemoryRecord, Outcome

#: Who the door's own writes and erase audits name.
ACTOR = "mem0-compat"
#: The history event of the caller's metadata put on a fact ``add`` inferred.
INHERITED = "inherit_metadata"
#: The metadata key (and history event) marking the conversation ``add(infer=True)``
#: keeps as its facts' source: engram keeps it, mem0 never stores it.
CONVERSATION = "mem0_conversation"
#: The proposal outcomes that close an older fact (``engram.pipeline.apply``).
CLOSING = ("superseded", "deleted")
#: The proposal outcomes that leave the statement in a fact: written, already stored
#: (deduplicated, or the decision pass's NONE), replacing an older one, or held.
KEPT = ("created", "deduped", "recorded", *CLOSING, "review")
#: ``_infer``'s answer when the conversation is itself the fact extracted (a one-line
#: statement whose fact has its very text): it is listed, as the fact, with no warning.
ITSELF = ""

log = logging.getLogger(__name__)


def is_conversation(record: MemoryRecord) -> bool:
    """Whether ``record`` is a conversation ``add(infer=True)`` kept as its facts' source."""
    return record.metadata.get(CONVERSATION) is True


def warn(message: str) -> None:
    """A library caller's notice: a ``UserWarning`` pointing at their ``add`` call."""
    warnings.warn(message, UserWarning, stacklevel=5)


def add_inferred(
    native: EngramMemory,
    item: Mapping[str, Any],
    namespace: str,
    seen: dict[str, str],
    notice: Callable[[str], None] = warn,
) -> dict[str, Any]:
    """Keep the conversation ``item`` as one raw memory, run its extraction job now and
    list what it did, as mem0's ``add`` lists what it inferred: each fact written
    (``ADD``) and each older fact closed (``DELETE``). ``seen`` learns where each
    listed id lives.

    Once the job has run, kept a fact and held nothing for review, the conversation is
    marked ``CONVERSATION``. Otherwise (the pipeline off, the job failed, no fact kept,
    or a change held for review in ``controlled`` mode) it stays in the door's view,
    listed as an ``ADD``, so nothing said is out of sight, and ``notice`` says why
    (a ``UserWarning`` by default; the HTTP routes log it); a
    conversation that is itself the fact (its text deduplicated onto it) is listed as
    that fact, without one."""
    [done] = native.add_many([dict(item)], namespace=namespace, on_blocked="raise").items
    record = done.record
    assert record is not None  # on_blocked/on_invalid raise: a record was stored
    if done.outcome is not Outcome.STORED:
        # Stored before: its facts were listed then, and mem0 drops facts it holds.
        log.info("mem0 door: add(infer=True) of a conversation stored before: nothing new")
        return {"results": []}
    results: list[dict[str, Any]] = []
    held = _infer(native, record, results, item.get("metadata") or {}, seen)
    if held is None:
        native.store.memories.update(
            record.namespace,
            record.id,
            {"metadata": {**record.metadata, CONVERSATION: True}},
            event=CONVERSATION,
            actor=ACTOR,
            reason="mem0 add(infer=True): the conversation its facts came from",
        )
    else:
        seen[record.id] = record.namespace
        results.append({"id": record.id, "memory": record.content, "event": "ADD"})
    if held:
        notice(f"mem0 add(infer=True): {held}; the conversation is kept as a memory")
    return {"results": results}


def _infer(
    native: EngramMemory,
    record: MemoryRecord,
    results: list[dict[str, Any]],
    metadata: Mapping[str, Any],
    seen: dict[str, str],
) -> str | None:
    """Run the memory's extraction job now; append the facts it wrote (``ADD``), each
    given the caller's ``metadata`` (mem0 stores it with every memory ``add`` infers, so
    a search filtering on it finds them), and the older facts it closed (``DELETE``).
    None when it ran, kept a fact and held nothing; else why the conversation stays
    listed (``ITSELF`` when it is the fact)."""
    if not native.config.pipeline.enabled:
        return "the extraction pipeline is off ([pipeline] enabled = false)"
    jobs = native.jobs.list(kind="extract", namespace=record.namespace, limit=1000)
    mine = [j for j in jobs if j.memory_id == record.id]
    if not mine:
        return "no extraction job was queued for this memory"
    native.jobs.process_pending()
    job = native.jobs.get(mine[0].id, namespace=record.namespace)
    if job.status != "completed" or job.result is None:
        return f"its extraction job is {job.status} ({job.error or 'not run yet'})"
    for fact_id in job.result.get("created", []):
        try:
            fact = native.get(fact_id, namespace=record.namespace)
        except NotFoundError:
            continue  # a later job of the same run already superseded it
        seen[fact.id] = fact.namespace
        if metadata:
            native.store.memories.update(
                fact.namespace,
                fact.id,
                {"metadata": {**fact.metadata, **metadata}},
                event=INHERITED,
                actor=PIPELINE_WHO,
                reason="mem0 add: the caller's metadata, on a fact it inferred",
            )
        results.append({"id": fact.id, "memory": fact.content, "event": "ADD"})
    closed, kept = _proposals(native, record, seen)
    results.extend(closed)
    if record.id in kept:
        return ITSELF
    if not any((job.result.get("outcomes") or {}).get(k) for k in KEPT):
        # mem0 would list nothing, but its LLM misses less than engram's offline
        # extractor: hiding the conversation could hide all that was said.
        return "no fact was extracted and kept from it (an LLM extracts more: docs/llm.md)"
    review = job.result.get("review") or []
    if review:
        mode = job.result.get("mode", "controlled")
        return (
            f"{len(review)} change(s) to older memories held for review ({mode} mode, "
            "see m.engram.review)"
        )
    return None


def _proposals(
    native: EngramMemory, source: MemoryRecord, seen: dict[str, str]
) -> tuple[list[dict[str, Any]], set[str]]:
    """From the audit rows of the source's proposals: mem0's ``DELETE`` for each older
    fact they superseded or deleted, and the ids of the stored memories a fact was
    deduplicated onto."""
    closed: list[dict[str, Any]] = []
    kept: set[str] = set()
    for entry in native.history(source.id, namespace=source.namespace):
        proposal = entry.after or {}
        if entry.event != "proposal":
            continue
        if proposal.get("outcome") == "deduped":
            kept.add(str(proposal.get("memory_id")))
        if proposal.get("outcome") not in CLOSING:
            continue
        old = native.store.memories.get(
            source.namespace, str(proposal.get("target_id")), include_deleted=True
        )
        if old is not None:
            seen[old.id] = old.namespace
            closed.append({"id": old.id, "memory": old.content, "event": "DELETE"})
    return closed, kept
